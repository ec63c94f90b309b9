//===- WebGPUTargetInfo.h - TargetInfo of the WebGPU target -----*- C++ -*-===//
//
// The Vulkan answers (WebGPU rides on the Vulkan SPIR-V) under WebGPU's
// limits, without subgroup operations.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_WGSL_WEBGPUTARGETINFO_H
#define TILEC_TARGET_WGSL_WEBGPUTARGETINFO_H

#include "tilec/Target/SPIRV/VulkanTargetInfo.h"
#include "tilec/Target/WGSL/WebGPUTarget.h"

namespace tilec {

/// What TileToGPU asks, answered for WebGPU: the Vulkan answers (no
/// per-thread matrix instructions or async copies, 4-byte accesses) under
/// WebGPU's limits, named "webgpu" in diagnostics, and no subgroup shuffles:
/// core WGSL has no subgroup operations, so a warp is one thread (every
/// digit of a reduction is a cross-warp one, through workgroup memory).
class WebGPUTargetInfo : public VulkanTargetInfo {
public:
  explicit WebGPUTargetInfo(const WebGPUTargetOptions &options) : VulkanTargetInfo(options.toVulkanOptions()) {}
  llvm::StringRef getName() const override { return "webgpu"; }
  int64_t getWarpSize() const override { return 1; }
  bool hasWarpShuffle() const override { return false; }
};

/// Registers `webgpu` (default limits) with the TargetInfo registry.
void registerWebGPUTargetInfo();

} // namespace tilec

#endif // TILEC_TARGET_WGSL_WEBGPUTARGETINFO_H
