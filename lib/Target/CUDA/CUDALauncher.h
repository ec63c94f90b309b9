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

/// buildDimExpr's builder over an IRBuilder: arguments are `fn`'s (int64_t
/// dimensions), values of type `type` (i64, or i128 with each dimension
/// clamped to [0, clamp] for the checks when clamp > 0).
struct IRDimBuilder {
  llvm::IRBuilder<> &b;
  llvm::Function *fn;
  llvm::Type *type;
  uint64_t clamp = 0;
  llvm::Value *constant(int64_t v) { return llvm::ConstantInt::getSigned(type, v); }
  llvm::Value *arg(unsigned i) {
    llvm::Value *p = fn->getArg(i);
    if (clamp)
      p = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, p, b.getInt64(clamp));
    return p->getType() == type ? p : b.CreateZExt(p, type);
  }
  llvm::Value *add(llvm::Value *x, llvm::Value *y) { return b.CreateAdd(x, y); }
  llvm::Value *sub(llvm::Value *x, llvm::Value *y) { return b.CreateSub(x, y); }
  llvm::Value *mul(llvm::Value *x, llvm::Value *y) { return b.CreateMul(x, y); }
  llvm::Value *sdiv(llvm::Value *x, llvm::Value *y) { return b.CreateSDiv(x, y); }
  llvm::Value *srem(llvm::Value *x, llvm::Value *y) { return b.CreateSRem(x, y); }
  llvm::Value *smin(llvm::Value *x, llvm::Value *y) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x, y); }
  llvm::Value *smax(llvm::Value *x, llvm::Value *y) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, y); }
  llvm::Value *slt(llvm::Value *x, llvm::Value *y) { return b.CreateICmpSLT(x, y); }
  llvm::Value *select(llvm::Value *c, llvm::Value *x, llvm::Value *y) { return b.CreateSelect(c, x, y); }
  llvm::Value *bor(llvm::Value *x, llvm::Value *y) { return b.CreateOr(x, y); }
};

/// The int64 value of tensor dimension `e` in launcher `fn` (a constant, a
/// dimension argument or a derived dimension).
llvm::Value *cudaDimValue(llvm::IRBuilder<> &b, llvm::Function *fn, const DimExpr &e);

/// Adds the launcher of launch sequence `sig` (CUDASequence.cpp): the
/// argument checks, the workspace's buffers (`module` holds its workspace
/// function, made internal here), then each part's launcher on the same
/// stream, stopping at the first failure; and `<name>_workspace_size`.
void buildCUDASequenceLauncher(llvm::Module &module, const KernelSignature &sig);

} // namespace tilec

#endif // TILEC_LIB_TARGET_CUDA_CUDALAUNCHER_H
