//===- VulkanLegalize.cpp - The Vulkan legalization pipeline --------------===//
//
// What runs between lowerTileToGPU and compileGPUToVulkan: async copies made
// synchronous, workgroup memory typed, vectors scalarized, shuffles at the
// subgroup width, index values kept 32-bit, then canonicalize and CSE.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace tilec;

void tilec::buildVulkanLegalizationPipeline(OpPassManager &pm, const VulkanTargetOptions &options) {
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(createVulkanMaterializeWorkgroupMemory());
  gpu.addPass(createVulkanScalarizeVectors());
  VulkanLegalizeSubgroupOpsOptions subgroup;
  subgroup.subgroupSize = options.subgroupSize;
  gpu.addPass(createVulkanLegalizeSubgroupOps(subgroup));
  gpu.addPass(createVulkanNarrowIndexCasts());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
}

LogicalResult tilec::legalizeGPUForVulkan(ModuleOp module, const VulkanTargetOptions &options) {
  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  buildVulkanLegalizationPipeline(pm, options);
  return pm.run(module);
}
