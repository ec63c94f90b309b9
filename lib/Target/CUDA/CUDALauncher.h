//===- CUDALauncher.h - Driver-API launchers in LLVM IR ---------*- C++ -*-===//
//
// Builds, with IRBuilder, one exported C launcher per kernel that loads an
// embedded fatbin through the CUDA driver API and launches the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_CUDALAUNCHER_H
#define TILEC_LIB_TARGET_CUDA_CUDALAUNCHER_H

#include "tilec/Target/CUDA/ImageSelection.h"
#include "tilec/Target/CUDA/TMADescriptors.h"
#include "tilec/Target/KernelABI.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <string>
#include <vector>

namespace tilec {

/// How one image (one lowering) launches a kernel.
struct CUDAKernelLaunch {
  int64_t threads[3] = {1, 1, 1};
  int64_t sharedBytes = 0;
  /// CUtensorMaps encoded at launch, passed after the arguments.
  std::vector<TMADescriptor> tma;
  /// The host function computing the grid (`__tilec_<k>_grid` of image 0).
  std::string gridFunction;
  /// The thread-block cluster shape (all 0: no clusters): the launch goes
  /// through cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, and
  /// a grid that is not a multiple of it is a bad dimension.
  int64_t cluster[3] = {0, 0, 0};
  bool hasCluster() const { return cluster[0] > 0; }
  /// A persistent kernel's blocks per multiprocessor (0: not persistent): the
  /// launch runs min(gx x gy, SMs x this) x 1 x gz blocks, the kernel loops
  /// over the gx x gy tiles; the multiprocessor count is cached with the
  /// context's function.
  int64_t persistentBlocksPerSM = 0;
};

/// What the launcher of one kernel needs beyond its C signature.
struct CUDAKernelInfo {
  KernelSignature signature;
  /// Byte alignment each tensor argument must have (vector accesses).
  std::vector<int64_t> alignment;
  /// One entry per image, in the order of the images.
  std::vector<CUDAKernelLaunch> launches;
};

/// One fatbin the object embeds, with the archs it holds code for.
struct CUDAImage {
  CUDAImageArchs archs;
  std::string fatbin;
};

/// Adds the fatbins and the launchers to `module`, which already holds the
/// grid functions each launch names (made internal here). With one image the
/// launcher loads it; with several it first picks one from the device's
/// compute capability (imageRules) and returns LaunchStatus::NoImage when
/// none fits.
void buildCUDALaunchers(llvm::Module &module, llvm::ArrayRef<CUDAKernelInfo> kernels, llvm::ArrayRef<CUDAImage> images);

/// The C type of a scalar argument as a launcher receives it (fp16/bf16 as
/// their bits).
llvm::Type *cudaScalarType(llvm::LLVMContext &ctx, llvm::StringRef dtype);

/// The i1 "tensor argument `i` of `fn` is over kMaxTensorBytes"
/// (LaunchLimits.h), or null when its shape is static and within it.
llvm::Value *cudaTensorTooLarge(llvm::IRBuilder<> &b, const KernelSignature &sig, unsigned i, llvm::Function *fn);

/// Adds the launcher of launch sequence `sig` (CUDASequence.cpp): the
/// argument checks, the workspace's buffers (`module` holds its workspace
/// function, made internal here), then each part's launcher on the same
/// stream, stopping at the first failure; and `<name>_workspace_size`.
void buildCUDASequenceLauncher(llvm::Module &module, const KernelSignature &sig);

} // namespace tilec

#endif // TILEC_LIB_TARGET_CUDA_CUDALAUNCHER_H
