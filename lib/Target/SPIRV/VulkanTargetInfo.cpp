//===- VulkanTargetInfo.cpp - The vulkan family in the TargetInfo registry -===//
//
// `vulkan` and `vulkanX.Y` with the desktop preset's limits, for
// convert-tile-to-gpu{target=vulkan} (the driver builds its own from flags).
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/VulkanTargetInfo.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilec;

static std::unique_ptr<TargetInfo> makeVulkanTargetInfo(llvm::StringRef name) {
  if (!llvm::is_contained({"vulkan", "vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"}, name))
    return nullptr;
  std::string env = name == "vulkan" ? "vulkan1.1" : name.str();
  VulkanTargetOptions options;
  if (!VulkanTargetOptions::fromPreset("desktop", env, options))
    return nullptr;
  return std::make_unique<VulkanTargetInfo>(std::move(options));
}

void tilec::registerVulkanTargetInfo() { registerTargetInfoFactory(makeVulkanTargetInfo); }
