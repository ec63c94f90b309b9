//===- HopperGemm.h - TMA + mbarrier + WGMMA lowering of gemm loops -*- C++ -*-===//
//
// On sm_90a, a kernel whose pipelined loop copies global tiles to shared
// memory and feeds them to one T.gemm is lowered here instead of through the
// mma.sync path: TMA loads completing on mbarriers, wgmma from shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERGEMM_H
#define TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERGEMM_H

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Target/CUDA/WarpSpecialization.h"
#include "tilec/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace tilec::hopper {

/// Lowers `kernel` (whose gpu.func `func` already has the kernel's arguments
/// and an empty body) through TMA/WGMMA when the target is sm_90a and the
/// launch body has the supported shape. Returns true when it did (the body
/// is complete, descriptor parameters appended), false when the kernel does
/// not match (nothing changed), failure after a diagnostic.
/// `ws` is --hopper-ws, `tmaStore` --hopper-tma-store, `persistent`
/// --hopper-persistent.
mlir::FailureOr<bool> lowerGemmKernel(tile::KernelOp kernel, tile::LaunchOp launch, mlir::gpu::GPUFuncOp func,
                                      const TargetInfo &target, HopperWarpSpecialization ws, bool tmaStore,
                                      HopperPersistence persistent = HopperPersistence::Off);

/// One CUtensorMap the launcher encodes for a kernel: the tile kernel's
/// tensor argument `arg`, a box of `boxInner` x `boxOuter` elements (inner
/// dimension first), `swizzle` bytes.
struct TMADescriptorSpec {
  unsigned arg;
  int64_t boxInner, boxOuter;
  mlir::Type elementType;
  int64_t swizzle = 128;
};

/// Appends one !llvm.ptr parameter per spec after `func`'s arguments, adds
/// the specs to `func`'s `tile.tensor_maps` (the TMA descriptors the launcher
/// encodes, TMADescriptors.h) and their LLVM-level indices to its
/// `tile.grid_constant_params` (`__grid_constant__` CUtensorMaps: byval, 128
/// bytes, align 64), both accumulating over calls, and returns the index of
/// the first new argument.
mlir::FailureOr<unsigned> appendTMADescriptorParams(mlir::gpu::GPUFuncOp func,
                                                     llvm::ArrayRef<TMADescriptorSpec> specs);

/// The TMA producer's side of a pipeline (the wgmma path's and the mma.sync
/// path's, TMAParams.cpp), as inline PTX on 32-bit shared addresses: nvgpu's
/// ops go through 64-bit generic -> shared::cluster conversions per copy.
///
/// i1, true in warp 0, from lane 0's warp index (`tid >> 5` by shfl.sync idx)
/// so that ptxas knows it to be warp-uniform: a branch on it is skipped by
/// the other warps, not run predicated off.
mlir::Value createIsWarp0(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tid);

/// Inline PTX `text` with side effects and no results, on `args`.
void createInlinePTX(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef text, llvm::StringRef constraints,
                     mlir::ValueRange args);

/// `mbarrier.arrive.expect_tx` of `bytes` on the mbarrier at shared address
/// `bar` (i32, as nvgpu.mbarrier.get gives it).
void createArriveExpectTx(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar, int64_t bytes);

/// `cp.async.bulk.tensor.2d` of the box at (`inner`, `outer`) (i32 element
/// coordinates) of `tensorMap` (a tensor-map parameter, !llvm.ptr) into
/// shared address `dst` (i32), completing on the mbarrier at `bar` (i32).
void createTMALoad2D(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst, mlir::Value tensorMap,
                     mlir::Value inner, mlir::Value outer, mlir::Value bar);

/// Registers, on `ctx`, the LLVM IR translation that turns
/// `tile.grid_constant_params` into byval + nvvm.grid_constant parameters.
void registerGridConstantTranslation(mlir::MLIRContext *ctx);

} // namespace tilec::hopper

#endif // TILEC_LIB_TARGET_CUDA_HOPPER_HOPPERGEMM_H
