//===- ImageSelection.cpp - Which image a multi-arch launcher loads -------===//
//
// The CUDA compatibility rules: a cubin for sm_XY runs on X.Y and later minor
// versions of major X; a cubin for sm_XYa only on X.Y; PTX for sm_XY is JIT
// compiled on X.Y and every later capability, PTX for sm_XYa only on X.Y.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/CUDA/ImageSelection.h"

#include <algorithm>

using namespace tilec;

bool ImageRule::matches(int devMajor, int devMinor) const {
  switch (kind) {
  case Kind::SameMajor:
    return devMajor == major && devMinor >= minor;
  case Kind::Exact:
    return devMajor == major && devMinor == minor;
  case Kind::AtLeast:
    return devMajor > major || (devMajor == major && devMinor >= minor);
  }
  return false;
}

std::vector<ImageRule> tilec::imageRules(llvm::ArrayRef<CUDAImageArchs> images) {
  struct Candidate {
    CUDAArch arch;
    unsigned image;
  };
  auto byPreference = [](const Candidate &x, const Candidate &y) {
    if (x.arch.major != y.arch.major)
      return x.arch.major > y.arch.major;
    if (x.arch.minor != y.arch.minor)
      return x.arch.minor > y.arch.minor;
    return x.arch.archSpecific && !y.arch.archSpecific;
  };
  std::vector<Candidate> cubins, ptx;
  for (unsigned i = 0; i < images.size(); ++i) {
    for (const std::string &c : images[i].cubins)
      if (std::optional<CUDAArch> a = CUDAArch::parse(c))
        cubins.push_back({*a, i});
    if (std::optional<CUDAArch> a = CUDAArch::parse(images[i].ptx))
      ptx.push_back({*a, i});
  }
  std::stable_sort(cubins.begin(), cubins.end(), byPreference);
  std::stable_sort(ptx.begin(), ptx.end(), byPreference);
  std::vector<ImageRule> rules;
  for (const Candidate &c : cubins)
    rules.push_back({c.arch.archSpecific ? ImageRule::Kind::Exact : ImageRule::Kind::SameMajor, c.arch.major,
                     c.arch.minor, c.image});
  for (const Candidate &c : ptx)
    rules.push_back({c.arch.archSpecific ? ImageRule::Kind::Exact : ImageRule::Kind::AtLeast, c.arch.major,
                     c.arch.minor, c.image});
  return rules;
}

int tilec::selectImage(llvm::ArrayRef<ImageRule> rules, int devMajor, int devMinor) {
  for (const ImageRule &r : rules)
    if (r.matches(devMajor, devMinor))
      return r.image;
  return -1;
}
