//===- Registry.cpp - Every target tilec has ------------------------------===//
//
// The one list of targets: the driver parses `-target=`, checks stages and
// names outputs from it. A new target adds its description here.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Backend.h"

#include "tilec/Target/Ascend/AscendTarget.h"
#include "tilec/Target/CUDA/CUDATarget.h"
#include "tilec/Target/Host/HostTarget.h"
#include "tilec/Target/Metal/MetalTarget.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"
#include "tilec/Target/WGSL/WebGPUTarget.h"

using namespace tilec;

llvm::ArrayRef<const TargetDescription *> tilec::getTargets() {
  static const TargetDescription *const targets[] = {
      &getHostTargetDescription(),  &getCUDATargetDescription(),   &getVulkanTargetDescription(),
      &getMetalTargetDescription(), &getWebGPUTargetDescription(), &getAscendTargetDescription(),
  };
  return targets;
}
