//===- MetalTargetInfo.cpp - The metal target in the TargetInfo registry --===//
//
// `metal` with the default MetalTargetOptions, for
// convert-tile-to-gpu{target=metal}.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Metal/MetalTargetInfo.h"

using namespace tilec;

static std::unique_ptr<TargetInfo> makeMetalTargetInfo(llvm::StringRef name) {
  if (name != "metal")
    return nullptr;
  return std::make_unique<MetalTargetInfo>(MetalTargetOptions());
}

void tilec::registerMetalTargetInfo() { registerTargetInfoFactory(makeMetalTargetInfo); }
