//===- TileToGPU.h - Thread-level lowering entry points ---------*- C++ -*-===//
//
// Lowers tile kernels to a gpu.module of thread-level kernels plus host grid
// functions, against a TargetInfo.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_CONVERSION_TILETOGPU_TILETOGPU_H
#define TILEC_CONVERSION_TILETOGPU_TILETOGPU_H

#include "tilec/Target/GPULimits.h"
#include "tilec/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tilec {

/// The gpu.module every kernel goes into.
inline constexpr llvm::StringLiteral kGPUModuleName = "tilec_kernels";

/// The host function computing kernel `kernel`'s grid.
std::string gpuGridFunctionName(llvm::StringRef kernel);

/// Checks `launch` (of `threads` threads) against `limits`; a diagnostic
/// at the allocation or loop names the limit and the figure.
mlir::LogicalResult checkGPULimits(mlir::Operation *launch, int64_t threads, const GPULimits &limits);

/// Choices of the target pipeline that calls the lowering.
struct GPULoweringOptions {
  /// What the kernels may ask for before the lowering refuses them.
  GPULimits limits;
  /// fp8 values and packed 4-bit global tensors become bytes converted and
  /// addressed with integer arithmetic (CUDA). Off, fp8 types stay for the
  /// target to judge and packed tensors get a diagnostic.
  bool emulateNarrowTypes = false;
  /// The target's launchers run launch sequences (tile-outline-launches:
  /// several T.Kernel blocks, T.alloc_global workspaces), from the
  /// signatures read before the lowering, which drops the sequences; off,
  /// each is a diagnostic naming the target.
  bool launchSequences = false;
};

/// Replaces every tile.kernel of `module` by a gpu.func in
/// `gpu.module @tilec_kernels` and a grid function (see Passes.td). Reports
/// problems as diagnostics on the ops.
mlir::LogicalResult lowerTileToGPU(mlir::ModuleOp module, const TargetInfo &target,
                                   const GPULoweringOptions &options = {});

} // namespace tilec

#endif // TILEC_CONVERSION_TILETOGPU_TILETOGPU_H
