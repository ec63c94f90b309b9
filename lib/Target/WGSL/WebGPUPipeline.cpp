//===- WebGPUPipeline.cpp - The driver's WebGPU pipeline -------------------===//
//
// tile module -> (signatures) -> TileToGPU with WebGPU limits and no subgroup
// shuffles -> Vulkan legalization (`--emit=gpu`) -> checkWebGPUKernels ->
// compileGPUToVulkan, printing WGSL from each validated spirv.module
// (`--emit=spirv` prints that module, `--emit=wgsl` the WGSL) -> `-o k.wgsl`
// + `k.h` | `--emit=header`.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/CompileOptions.h"
#include "tilec/Target/SPIRV/VulkanPipeline.h"
#include "tilec/Target/WGSL/WebGPUTarget.h"
#include "tilec/Target/WGSL/WebGPUTargetInfo.h"

using namespace mlir;
using namespace tilec;

LogicalResult tilec::runWebGPUPipeline(ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                       llvm::raw_ostream &errs) {
  if (opts.emit != EmitStage::GPU && opts.emit != EmitStage::SPIRV && opts.emit != EmitStage::WGSL &&
      opts.emit != EmitStage::Header && opts.emit != EmitStage::Obj)
    return pipelineError(errs, "the '" + stageName(opts.emit) + "' stage is not available for target '" +
                                   opts.target.spelling +
                                   "' (use gpu, spirv, wgsl or header; the default writes WGSL and a header)");
  WebGPUTargetOptions options;
  // The driver rejects non-positive limits; -1 (unset) keeps WebGPU's default.
  if (opts.webgpu.maxWorkgroupStorage > 0)
    options.maxWorkgroupStorageBytes = opts.webgpu.maxWorkgroupStorage;
  if (opts.webgpu.maxInvocations > 0)
    options.maxInvocations = opts.webgpu.maxInvocations;
  if (opts.webgpu.maxStorageBufferBindingSize > 0)
    options.maxStorageBufferBindingSize = opts.webgpu.maxStorageBufferBindingSize;
  if (opts.webgpu.float16 >= 0)
    options.float16 = opts.webgpu.float16;
  VulkanTargetOptions vkOptions = options.toVulkanOptions();

  // 1-2. The C ABI of every kernel, the thread-level lowering and the Vulkan
  //      legalization, under WebGPU limits.
  llvm::StringMap<KernelSignature> signatures;
  WebGPUTargetInfo target(options);
  if (failed(lowerTileForVulkan(module, target, signatures)))
    return failure();
  if (opts.emit == EmitStage::GPU) {
    module.print(out);
    return success();
  }
  // 3. What WGSL cannot express, then SPIR-V (the Vulkan limit checks run
  //    there) and the WGSL of each validated spirv.module.
  if (failed(checkWebGPUKernels(module, signatures, options)))
    return failure();
  std::vector<VulkanKernel> vkKernels;
  std::vector<WebGPUKernel> kernels;
  auto onModule = [&](Operation *spv, VulkanKernel &vk) -> LogicalResult {
    if (opts.emit == EmitStage::SPIRV) {
      spv->print(out);
      out << "\n";
      return success();
    }
    WebGPUKernel k;
    k.vulkan = vk;
    if (failed(printWGSL(spv, options, k)))
      return failure();
    kernels.push_back(std::move(k));
    return success();
  };
  if (failed(compileGPUToVulkan(module, vkOptions, signatures, vkKernels, onModule)))
    return failure();
  if (opts.emit == EmitStage::SPIRV)
    return success();
  std::string source = headerSourceName(opts);
  if (opts.emit == EmitStage::Header) {
    writeWebGPUHeader(kernels, source, options, out);
    return success();
  }
  // Each kernel's globals are named after its parameters: two kernels' WGSL
  // could clash.
  if (kernels.size() != 1)
    return pipelineError(errs, "the file has " + llvm::Twine(kernels.size()) +
                                   " kernels; a .wgsl file holds one: use --emit=header for all kernels' "
                                   "dispatch data, or one file per kernel");
  out << kernels.front().wgsl;
  // The default stage writes a file (`-o`, else the input's name with
  // .wgsl) and the header beside it.
  if (opts.emit == EmitStage::WGSL || opts.outputFile == "-")
    return success();
  return writeHeaderBeside(opts, errs,
                           [&](llvm::raw_ostream &os) { writeWebGPUHeader(kernels, source, options, os); });
}
