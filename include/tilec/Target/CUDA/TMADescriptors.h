//===- TMADescriptors.h - Launcher-side CUtensorMap encoding ----*- C++ -*-===//
//
// Kernels lowered through TMA take one CUtensorMap per tiled global tensor
// as trailing __grid_constant__ parameters. The gpu.func lists them in its
// `tile.tensor_maps` attribute; the launcher encodes each with the driver's
// cuTensorMapEncodeTiled at launch and passes it by value.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CUDA_TMADESCRIPTORS_H
#define TILEC_TARGET_CUDA_TMADESCRIPTORS_H

#include "tilec/Target/KernelABI.h"

#include "mlir/IR/Operation.h"
#include "llvm/IR/IRBuilder.h"

#include <string>
#include <vector>

namespace tilec {

/// One tensor map: a rank-2 tensor argument tiled in boxes of
/// `box[0]` (innermost, contiguous) x `box[1]` elements.
struct TMADescriptor {
  unsigned arg = 0;      ///< index of the tensor among the kernel's arguments
  int64_t box[2] = {0, 0};
  std::string dtype;     ///< KernelABI spelling: float16, bfloat16, ...
  int64_t swizzle = 128; ///< bytes: 0, 32, 64 or 128
};

/// The descriptors a lowered gpu.func lists in `tile.tensor_maps` (none if absent).
std::vector<TMADescriptor> readTMADescriptors(mlir::Operation *gpuFunc);

/// Emits into `launcher` (whose arguments follow `sig`, then the stream)
/// one cuTensorMapEncodeTiled call per descriptor; a failing call returns
/// LaunchStatus::LaunchFailed. Returns the 64-byte aligned 128-byte maps in
/// order: the kernel parameter values to append after the arguments'.
llvm::SmallVector<llvm::Value *> emitTMADescriptors(llvm::IRBuilder<> &b, llvm::Function *launcher,
                                                  const KernelSignature &sig, llvm::ArrayRef<TMADescriptor> descs);

} // namespace tilec

#endif // TILEC_TARGET_CUDA_TMADESCRIPTORS_H
