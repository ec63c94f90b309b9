//===- CUDALauncher.h - Driver-API launchers in LLVM IR ---------*- C++ -*-===//
//
// Builds, with IRBuilder, one exported C launcher per kernel that loads the
// embedded fatbin through the CUDA driver API and launches the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_CUDALAUNCHER_H
#define TILEC_LIB_TARGET_CUDA_CUDALAUNCHER_H

#include "tilec/Target/CUDA/TMADescriptors.h"
#include "tilec/Target/KernelABI.h"

#include "llvm/IR/Module.h"

#include <string>
#include <vector>

namespace tilec {

/// What the launcher of one kernel needs beyond its C signature.
struct CUDAKernelInfo {
  KernelSignature signature;
  int64_t threads[3] = {1, 1, 1};
  int64_t sharedBytes = 0;
  /// Byte alignment each tensor argument must have (vector accesses).
  std::vector<int64_t> alignment;
  /// CUtensorMaps encoded at launch, passed after the arguments.
  std::vector<TMADescriptor> tma;
};

/// Adds the fatbin and the launchers to `module`, which already holds the
/// grid functions `__tilec_<k>_grid` (made internal here).
void buildCUDALaunchers(llvm::Module &module, llvm::ArrayRef<CUDAKernelInfo> kernels, llvm::StringRef fatbin);

} // namespace tilec

#endif // TILEC_LIB_TARGET_CUDA_CUDALAUNCHER_H
