//===- MetalTargetInfo.h - TargetInfo of the Metal target -------*- C++ -*-===//
//
// The Vulkan answers (Metal rides on the Vulkan SPIR-V) under Metal's limits.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_METAL_METALTARGETINFO_H
#define TILEC_TARGET_METAL_METALTARGETINFO_H

#include "tilec/Target/Metal/MetalTarget.h"
#include "tilec/Target/SPIRV/VulkanTargetInfo.h"

namespace tilec {

/// What TileToGPU asks, answered for Metal: the Vulkan answers (no per-thread
/// matrix instructions or async copies, 4-byte accesses, simdgroup shuffles)
/// under Metal's limits, named "metal" in diagnostics.
class MetalTargetInfo : public VulkanTargetInfo {
public:
  explicit MetalTargetInfo(const MetalTargetOptions &options) : VulkanTargetInfo(options.toVulkanOptions()) {}
  llvm::StringRef getName() const override { return "metal"; }
};

/// Registers `metal` (default limits) with the TargetInfo registry.
void registerMetalTargetInfo();

} // namespace tilec

#endif // TILEC_TARGET_METAL_METALTARGETINFO_H
