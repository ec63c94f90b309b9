//===- VulkanPipeline.cpp - The driver's Vulkan pipeline -----------------===//
//
// tile module -> (signatures) -> TileToGPU with VulkanTargetInfo -> Vulkan
// legalization (`--emit=gpu` stops here) -> compileGPUToVulkan -> `-o k.spv`
// + `k.h` | `--emit=spirv` | `--emit=header`.
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/TileToGPU/TileToGPU.h"
#include "tilec/Conversion/TileToGPU/Passes.h"
#include "tilec/Driver/CompileOptions.h"
#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Target/SPIRV/VulkanPipeline.h"
#include "tilec/Target/SPIRV/VulkanTargetInfo.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/SPIRV/Deserialization.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace tilec;

LogicalResult tilec::pipelineError(llvm::raw_ostream &errs, const llvm::Twine &message) {
  errs << "tilec: error: " << message << "\n";
  return failure();
}

LogicalResult tilec::lowerTileForVulkan(ModuleOp module, const VulkanTargetInfo &target,
                                        llvm::StringMap<KernelSignature> &signatures) {
  // 1. The C ABI of every kernel, before the tile kernels are lowered away.
  std::vector<KernelSignature> sigs;
  if (failed(getKernelSignatures(module, sigs)))
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
  if (failed(lowerTileToGPU(module, target)) || failed(legalizeGPUForVulkan(module, target.getOptions())))
    return failure();
  return success();
}

std::string tilec::headerSourceName(const CompileOptions &opts) {
  return opts.inputFile == "-" ? "<stdin>" : llvm::sys::path::filename(opts.inputFile).str();
}

LogicalResult tilec::writeHeaderBeside(const CompileOptions &opts, llvm::raw_ostream &errs,
                                       llvm::function_ref<void(llvm::raw_ostream &)> write) {
  llvm::SmallString<128> path(opts.outputFile.empty() ? llvm::sys::path::filename(opts.inputFile).str()
                                                      : opts.outputFile);
  llvm::sys::path::replace_extension(path, ".h");
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file)
    return pipelineError(errs, error);
  write(file->os());
  file->keep();
  return success();
}

LogicalResult tilec::runVulkanPipeline(ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                       llvm::raw_ostream &errs) {
  if (opts.emit != EmitStage::GPU && opts.emit != EmitStage::SPIRV && opts.emit != EmitStage::Header &&
      opts.emit != EmitStage::Obj)
    return pipelineError(errs, "the '" + stageName(opts.emit) + "' stage is not available for target '" +
                                   opts.target.spelling + "' (use gpu, spirv, header or obj)");
  std::string env = opts.target.archs.empty() ? "vulkan1.1" : opts.target.archs.front();
  if (env == "vulkan")
    env = "vulkan1.1";
  VulkanTargetOptions options;
  if (!VulkanTargetOptions::fromPreset(opts.vulkan.preset, env, options))
    return pipelineError(errs, "unknown --vk-preset '" + opts.vulkan.preset + "'; expected desktop or lavapipe");
  if (opts.vulkan.maxSharedMemory >= 0)
    options.maxSharedMemoryBytes = opts.vulkan.maxSharedMemory;
  if (opts.vulkan.subgroupSize > 0)
    options.subgroupSize = opts.vulkan.subgroupSize;
  if (opts.vulkan.maxWorkgroupInvocations > 0)
    options.maxWorkgroupInvocations = opts.vulkan.maxWorkgroupInvocations;
  if (opts.vulkan.float16 >= 0)
    options.float16 = opts.vulkan.float16;
  if (opts.vulkan.int8 >= 0)
    options.int8 = opts.vulkan.int8;
  if (opts.vulkan.float64 >= 0)
    options.float64 = opts.vulkan.float64;
  if (opts.vulkan.float32Atomics >= 0)
    options.float32Atomics = opts.vulkan.float32Atomics;
  if (opts.vulkan.cooperativeMatrix >= 0)
    options.cooperativeMatrix = opts.vulkan.cooperativeMatrix;
  if (options.cooperativeMatrix && env != "vulkan1.3")
    return pipelineError(errs, "--vk-cooperative-matrix needs -target=vulkan1.3 (SPV_KHR_cooperative_matrix "
                               "requires SPIR-V 1.6)");

  llvm::StringMap<KernelSignature> signatures;
  VulkanTargetInfo target(options);
  if (failed(lowerTileForVulkan(module, target, signatures)))
    return failure();
  if (opts.emit == EmitStage::GPU) {
    module.print(out);
    return success();
  }
  std::vector<VulkanKernel> kernels;
  if (failed(compileGPUToVulkan(module, options, signatures, kernels)))
    return failure();

  std::string source = headerSourceName(opts);
  if (opts.emit == EmitStage::Header) {
    writeVulkanHeader(kernels, source, options, out);
    return success();
  }
  if (kernels.size() != 1 && opts.emit != EmitStage::Header)
    return pipelineError(errs, "the file has " + llvm::Twine(kernels.size()) +
                                   " kernels; a .spv holds one: use --emit=header (all kernels' SPIR-V and "
                                   "reflection)");
  const std::vector<uint32_t> &words = kernels.front().spirv;
  if (opts.emit == EmitStage::SPIRV) {
    std::string text, error;
    if (disassembleSPIRV(words, text, error)) {
      out << text;
      return success();
    }
    // A SPIRV-Tools older than an extension the module uses (cooperative
    // matrices): print MLIR's reading of the binary instead.
    OwningOpRef<spirv::ModuleOp> read = spirv::deserialize(words, module.getContext());
    if (!read)
      return pipelineError(errs, "cannot disassemble the SPIR-V: " + error);
    out << "// SPIRV-Tools cannot disassemble this module (" << error << "); MLIR's spirv dialect form:\n";
    read->print(out);
    out << "\n";
    return success();
  }
  out.write(reinterpret_cast<const char *>(words.data()), words.size() * 4);
  if (opts.outputFile == "-")
    return success();
  return writeHeaderBeside(opts, errs,
                           [&](llvm::raw_ostream &os) { writeVulkanHeader(kernels, source, options, os); });
}
