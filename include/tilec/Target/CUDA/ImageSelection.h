//===- ImageSelection.h - Which image a multi-arch launcher loads -*- C++ -*-===//
//
// An object built for several archs holds one fatbin per distinct lowering;
// its launchers pick one from the device's compute capability with the
// rules below (emitted as IR, mirrored here in C++ for tests).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CUDA_IMAGESELECTION_H
#define TILEC_TARGET_CUDA_IMAGESELECTION_H

#include "tilec/Target/CUDA/CUDAArch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// What one fatbin holds: cubins for `cubins` and the PTX of `ptx`.
struct CUDAImageArchs {
  std::vector<std::string> cubins;
  std::string ptx;
};

/// A test of the device's compute capability (major, minor) naming an image.
struct ImageRule {
  enum class Kind {
    SameMajor, ///< cubin of sm_XY: major == X and minor >= Y
    Exact,     ///< cubin or PTX of sm_XYa: major == X and minor == Y
    AtLeast,   ///< PTX of sm_XY (JIT compiled): (major, minor) >= (X, Y)
  };
  Kind kind = Kind::SameMajor;
  int major = 0;
  int minor = 0;
  unsigned image = 0;
  bool matches(int devMajor, int devMinor) const;
};

/// The rules in the order they are tried: cubins before PTX (as the driver
/// prefers machine code), each newest arch first, `sm_XYa` before `sm_XY`.
std::vector<ImageRule> imageRules(llvm::ArrayRef<CUDAImageArchs> images);

/// The image the first matching rule names, or -1 when none fits.
int selectImage(llvm::ArrayRef<ImageRule> rules, int devMajor, int devMinor);

} // namespace tilec

#endif // TILEC_TARGET_CUDA_IMAGESELECTION_H
