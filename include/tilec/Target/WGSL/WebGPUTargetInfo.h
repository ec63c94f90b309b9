//===- WebGPUTargetInfo.h - TargetInfo of the WebGPU target -----*- C++ -*-===//
//
// The Vulkan answers (WebGPU rides on the Vulkan SPIR-V) under WebGPU's
// limits.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_WGSL_WEBGPUTARGETINFO_H
#define TILEC_TARGET_WGSL_WEBGPUTARGETINFO_H

#include "tilec/Target/SPIRV/VulkanTargetInfo.h"
#include "tilec/Target/WGSL/WebGPUTarget.h"

namespace tilec {

/// What TileToGPU asks, answered for WebGPU: the Vulkan answers under
/// WebGPU's limits (WebGPUTargetOptions::toVulkanOptions: among them a
/// subgroup of one thread, core WGSL having no subgroup operations, hence no
/// shuffles), named "webgpu" in diagnostics.
class WebGPUTargetInfo : public VulkanTargetInfo {
public:
  explicit WebGPUTargetInfo(const WebGPUTargetOptions &options) : VulkanTargetInfo(options.toVulkanOptions()) {}
  llvm::StringRef getName() const override { return "webgpu"; }
};

/// Registers `webgpu` (default limits) with the TargetInfo registry.
void registerWebGPUTargetInfo();

} // namespace tilec

#endif // TILEC_TARGET_WGSL_WEBGPUTARGETINFO_H
