//===- HopperGemm.h - TMA + mbarrier + WGMMA lowering of gemm loops -*- C++ -*-===//
//
// On sm_90a, a kernel whose pipelined loop copies global tiles to shared
// memory and feeds them to one T.gemm is lowered here instead of through the
// mma.sync path: TMA loads completing on mbarriers, wgmma from shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_CONVERSION_TILETOGPU_HOPPER_HOPPERGEMM_H
#define TILEC_CONVERSION_TILETOGPU_HOPPER_HOPPERGEMM_H

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace tilec::hopper {

/// Name of the gpu.func attribute listing the TMA descriptors the launcher
/// encodes: an array of dictionaries {arg, rank, box, swizzle, dtype}, one per
/// trailing kernel parameter (see TMADescriptors.h).
inline constexpr llvm::StringLiteral kTMAAttrName = "tilec.tma";
/// Name of the gpu.func attribute listing the LLVM-level parameter indices
/// that are `__grid_constant__` CUtensorMaps (byval, 128 bytes, align 64).
inline constexpr llvm::StringLiteral kGridConstantAttrName = "tile.grid_constant_params";

/// Lowers `kernel` (whose gpu.func `func` already has the kernel's arguments
/// and an empty body) through TMA/WGMMA when the target is sm_90a and the
/// launch body has the supported shape. Returns true when it did (the body
/// is complete, descriptor parameters appended), false when the kernel does
/// not match (nothing changed), failure after a diagnostic.
mlir::FailureOr<bool> lowerGemmKernel(tile::KernelOp kernel, tile::LaunchOp launch, mlir::gpu::GPUFuncOp func,
                                      const TargetInfo &target);

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
/// the specs to `kTMAAttrName` and their LLVM-level indices to
/// `kGridConstantAttrName` (both accumulate over calls), and returns the
/// index of the first new argument.
mlir::FailureOr<unsigned> appendTMADescriptorParams(mlir::gpu::GPUFuncOp func,
                                                     llvm::ArrayRef<TMADescriptorSpec> specs);

/// Registers, on `ctx`, the LLVM IR translation that turns
/// `tile.grid_constant_params` into byval + nvvm.grid_constant parameters.
void registerGridConstantTranslation(mlir::MLIRContext *ctx);

} // namespace tilec::hopper

#endif // TILEC_CONVERSION_TILETOGPU_HOPPER_HOPPERGEMM_H
