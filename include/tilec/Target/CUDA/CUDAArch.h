//===- CUDAArch.h - One parser for the sm_XY architecture names -*- C++ -*-===//
//
// `-target=` spellings, the TargetInfo of an arch and the image selection of
// multi-arch objects all read an `sm_XY` / `sm_XYa` name through CUDAArch.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CUDA_CUDAARCH_H
#define TILEC_TARGET_CUDA_CUDAARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tilec {

/// An `sm_XY` or `sm_XYa` spelling taken apart.
struct CUDAArch {
  int major = 0;
  int minor = 0;
  bool archSpecific = false; ///< `a` suffix: runs on exactly this capability

  /// Takes `sm_XY` / `sm_XYa` apart; nullopt for anything else.
  static std::optional<CUDAArch> parse(llvm::StringRef arch) {
    if (!arch.consume_front("sm_"))
      return std::nullopt;
    CUDAArch a;
    a.archSpecific = arch.consume_back("a");
    unsigned cc;
    if (arch.size() < 2 || arch.getAsInteger(10, cc))
      return std::nullopt;
    a.major = cc / 10;
    a.minor = cc % 10;
    return a;
  }

  /// The compute capability as a number (80, 86, 89, 90).
  int getComputeCapability() const { return major * 10 + minor; }

  /// The architectures tilec compiles for, in the order help lists them.
  static llvm::ArrayRef<llvm::StringRef> supported() {
    static const llvm::StringRef archs[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"};
    return archs;
  }
};

} // namespace tilec

#endif // TILEC_TARGET_CUDA_CUDAARCH_H
