//===- SPIRVPipeline.cpp - The pipeline Vulkan, Metal and WebGPU share ----===//
//
// tile module -> (signatures) -> TileToGPU under the target's TargetInfo ->
// Vulkan legalization (`--emit=gpu`) -> the target's check ->
// compileGPUToVulkan (`--emit=spirv`: each kernel's SPIR-V assembly) -> the
// target's translation -> `--emit=header` | one kernel's file.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/SPIRVPipeline.h"

#include "tilec/Conversion/TileToGPU/LayoutReport.h"
#include "tilec/Conversion/TileToGPU/Passes.h"
#include "tilec/Conversion/TileToGPU/TileToGPU.h"
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Deserialization.h"

using namespace mlir;
using namespace tilec;

LogicalResult SPIRVPipelineBackend::lower(ModuleOp module, EmitStage) {
  // 1. The C ABI of every kernel, before the tile kernels are lowered away.
  std::vector<KernelSignature> sigs;
  if (failed(getKernelSignatures(module, sigs)) || failed(rejectDerivedDimensions(module, sigs, target->getName())))
    return failure();
  for (KernelSignature &sig : sigs)
    signatures[sig.name] = std::move(sig);
  // 2. Thread-level lowering shared with CUDA, then the Vulkan legalization.
  //    The dialects it may create (the same as convert-tile-to-gpu's) must be
  //    loaded first.
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect,
                   memref::MemRefDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect, scf::SCFDialect,
                   vector::VectorDialect, spirv::SPIRVDialect>();
  GPULoweringOptions lowering;
  lowering.limits = getVulkanOptions().limits;
  if (failed(lowerTileToGPU(module, *target, lowering)) || failed(legalizeGPUForVulkan(module, getVulkanOptions())))
    return failure();
  return success();
}

LogicalResult SPIRVPipelineBackend::collectLayouts(ModuleOp module, std::vector<KernelLayouts> &out) {
  return collectKernelLayouts(module, *target, out);
}

/// `--emit=spirv`: SPIRV-Tools' assembly of one kernel; when the linked
/// SPIRV-Tools is older than an extension the module uses (cooperative
/// matrices), MLIR's reading of the binary instead.
static LogicalResult printAssembly(MLIRContext *ctx, const VulkanKernel &kernel, llvm::raw_ostream &out) {
  std::string text, error;
  if (disassembleSPIRV(kernel.spirv, text, error)) {
    out << text;
    return success();
  }
  OwningOpRef<spirv::ModuleOp> read = spirv::deserialize(kernel.spirv, ctx);
  if (!read)
    return emitToolError(ctx) << "cannot disassemble the SPIR-V: " << error;
  out << "// SPIRV-Tools cannot disassemble this module (" << error << "); MLIR's spirv dialect form:\n";
  read->print(out);
  out << "\n";
  return success();
}

LogicalResult SPIRVPipelineBackend::serialize(ModuleOp module, EmitStage stage, llvm::StringRef,
                                              llvm::raw_ostream &out) {
  MLIRContext *ctx = module.getContext();
  if (stage == EmitStage::GPU) {
    module.print(out);
    return success();
  }
  // 3. What the target cannot take, then SPIR-V (the Vulkan limit checks run
  //    there) and the target's translation of each kernel.
  if (!whyPrintsDropped().empty())
    dropPrints(module, whyPrintsDropped());
  if (failed(checkKernels(module)))
    return failure();
  bool assembly = stage == EmitStage::SPIRV;
  SPIRVModuleCallback onModule;
  if (!assembly)
    onModule = [&](Operation *spv, VulkanKernel &kernel) { return translateModule(spv, kernel); };
  if (failed(compileGPUToVulkan(module, getVulkanOptions(), signatures, vkKernels, onModule)))
    return failure();
  if (assembly) {
    for (const VulkanKernel &kernel : vkKernels)
      if (failed(printAssembly(ctx, kernel, out)))
        return failure();
    return success();
  }
  if (failed(translateKernels(ctx)))
    return failure();
  if (stage == EmitStage::Header)
    return success();
  if (vkKernels.size() != 1)
    return emitToolError(ctx) << "the file has " << vkKernels.size() << " kernels; " << oneKernelPerFile();
  writeKernel(out);
  return success();
}
