//===- WebGPUTargetInfo.cpp - The webgpu target in the TargetInfo registry -===//
//
// `webgpu` with the default WebGPUTargetOptions, for
// convert-tile-to-gpu{target=webgpu}.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/WGSL/WebGPUTargetInfo.h"

using namespace tilec;

static std::unique_ptr<TargetInfo> makeWebGPUTargetInfo(llvm::StringRef name) {
  if (name != "webgpu")
    return nullptr;
  return std::make_unique<WebGPUTargetInfo>(WebGPUTargetOptions());
}

void tilec::registerWebGPUTargetInfo() { registerTargetInfoFactory(makeWebGPUTargetInfo); }
