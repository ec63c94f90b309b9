//===- MetalPipeline.cpp - The driver's Metal pipeline --------------------===//
//
// tile module -> (signatures) -> TileToGPU with Metal limits -> Vulkan
// legalization (`--emit=gpu`) -> checkMetalKernels -> compileGPUToVulkan
// (`--emit=spirv`) -> SPIRV-Cross (`--emit=msl`) -> `-o k.metal` + `k.h` |
// `--emit=header`.
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/TileToGPU/Passes.h"
#include "tilec/Conversion/TileToGPU/TileToGPU.h"
#include "tilec/Driver/CompileOptions.h"
#include "tilec/Target/Metal/MetalTarget.h"
#include "tilec/Target/Metal/MetalTargetInfo.h"
#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Target/SPIRV/VulkanPipeline.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace tilec;

LogicalResult tilec::runMetalPipeline(ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                      llvm::raw_ostream &errs) {
  if (opts.emit != EmitStage::GPU && opts.emit != EmitStage::SPIRV && opts.emit != EmitStage::MSL &&
      opts.emit != EmitStage::Header && opts.emit != EmitStage::Obj)
    return pipelineError(errs, "the '" + stageName(opts.emit) + "' stage is not available for target '" +
                                   opts.target.spelling +
                                   "' (use gpu, spirv, msl or header; the default writes MSL and a header)");
  MetalTargetOptions options;
  VulkanTargetOptions vkOptions = options.toVulkanOptions();

  // 1-2. The C ABI of every kernel, the thread-level lowering and the Vulkan
  //      legalization, under Metal limits.
  llvm::StringMap<KernelSignature> signatures;
  MetalTargetInfo target(options);
  if (failed(lowerTileForVulkan(module, target, signatures)))
    return failure();
  if (opts.emit == EmitStage::GPU) {
    module.print(out);
    return success();
  }
  // 3. What Metal cannot take, then SPIR-V (the Vulkan limit checks run there).
  if (failed(checkMetalKernels(module, options)))
    return failure();
  std::vector<VulkanKernel> vkKernels;
  if (failed(compileGPUToVulkan(module, vkOptions, signatures, vkKernels)))
    return failure();
  if (opts.emit == EmitStage::SPIRV) {
    for (const VulkanKernel &k : vkKernels) {
      std::string text, error;
      if (!disassembleSPIRV(k.spirv, text, error))
        return pipelineError(errs, "cannot disassemble the SPIR-V: " + error);
      out << text;
    }
    return success();
  }
  // 4. MSL.
  std::vector<MetalKernel> kernels;
  for (const VulkanKernel &k : vkKernels) {
    MetalKernel m;
    std::string error;
    if (!translateToMSL(k, options, m, error))
      return pipelineError(errs, "kernel '" + k.reflection.kernelName + "': " + error);
    kernels.push_back(std::move(m));
  }
  std::string source = headerSourceName(opts);
  if (opts.emit == EmitStage::Header) {
    writeMetalHeader(kernels, source, options, out);
    return success();
  }
  // SPIRV-Cross names each module's types _<id>: two kernels' MSL would clash.
  if (kernels.size() != 1)
    return pipelineError(errs, "the file has " + llvm::Twine(kernels.size()) +
                                   " kernels; a .metal file holds one: use --emit=header for all kernels' "
                                   "dispatch data, or one file per kernel");
  out << kernels.front().msl;
  // The default stage writes a file (`-o`, else the input's name with
  // .metal) and the header beside it.
  if (opts.emit == EmitStage::MSL || opts.outputFile == "-")
    return success();
  return writeHeaderBeside(opts, errs,
                           [&](llvm::raw_ostream &os) { writeMetalHeader(kernels, source, options, os); });
}
