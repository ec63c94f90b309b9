//===- VulkanPipeline.cpp - The Vulkan target behind the backend interface -===//
//
// The shared SPIR-V pipeline with the Vulkan TargetInfo: the default stage
// writes one kernel's SPIR-V binary (`k.spv`), the header its words and
// reflection.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/SPIRVPipeline.h"

using namespace mlir;
using namespace tilec;

namespace {
class VulkanBackend : public SPIRVPipelineBackend {
public:
  explicit VulkanBackend(const VulkanTargetOptions &options)
      : SPIRVPipelineBackend(std::make_unique<VulkanTargetInfo>(options)) {}

  void writeHeader(const HeaderInfo &info, llvm::raw_ostream &os) override {
    writeVulkanHeader(vkKernels, info, getVulkanOptions(), os);
  }

protected:
  llvm::StringRef oneKernelPerFile() const override {
    return "a .spv holds one: use --emit=header (all kernels' SPIR-V and reflection)";
  }
  void writeKernel(llvm::raw_ostream &out) override {
    const std::vector<uint32_t> &words = vkKernels.front().spirv;
    out.write(reinterpret_cast<const char *>(words.data()), words.size() * 4);
  }
};

/// `vulkan` (Vulkan 1.1), `vulkan1.1` or `vulkan1.3`; `archs` gets the environment.
bool parseVulkan(llvm::StringRef spelling, std::vector<std::string> &archs) {
  if (spelling != "vulkan" && spelling != "vulkan1.1" && spelling != "vulkan1.3")
    return false;
  archs = {spelling == "vulkan1.3" ? "vulkan1.3" : "vulkan1.1"};
  return true;
}

const EmitStage vulkanStages[] = {EmitStage::Layout, EmitStage::GPU, EmitStage::SPIRV, EmitStage::Obj,
                                  EmitStage::Header};
} // namespace

const TargetDescription &tilec::getVulkanTargetDescription() {
  static const TargetDescription description{TargetKind::Vulkan, "vulkan", "vulkan, vulkan1.1, vulkan1.3",
                                             parseVulkan,        "",       vulkanStages,
                                             ".spv",             "",       "SPIR-V and a header"};
  return description;
}

std::unique_ptr<TargetBackend> tilec::createVulkanBackend(const VulkanTargetOptions &options) {
  return std::make_unique<VulkanBackend>(options);
}
