//===- TargetOptions.cpp - Command-line flags into each target's options --===//
//
// The one place that knows both CompileOptions and the targets' own option
// structs: one function per target copies what it reads, then creates the
// backend. Flags that make no sense together are driver errors here.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/Pipelines.h"

#include "tilec/Target/Ascend/AscendTarget.h"
#include "tilec/Target/CUDA/CUDATarget.h"
#include "tilec/Target/Host/HostTarget.h"
#include "tilec/Target/Metal/MetalTarget.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"
#include "tilec/Target/WGSL/WebGPUTarget.h"

#include <algorithm>

using namespace tilec;

/// Warns of a flag that target `opts.target` does nothing with
/// (-Wunused-command-line-argument, as clang names it).
static void warnUnused(mlir::MLIRContext *ctx, const CompileOptions &opts, llvm::StringRef flag) {
  mlir::InFlightDiagnostic d = mlir::emitWarning(getToolLoc(ctx))
                               << "argument unused for target '" << opts.target.spelling << "': '" << flag << "'";
  d.getUnderlyingDiagnostic()->getMetadata().push_back(
      mlir::DiagnosticArgument(llvm::StringRef("unused-command-line-argument")));
}

/// The flags only some targets read: debug info (host, CUDA), the ptxas
/// ones (CUDA).
static void checkUnusedFlags(mlir::MLIRContext *ctx, const CompileOptions &opts) {
  TargetKind kind = opts.target.getDescription().kind;
  if (opts.debugInfo != DebugInfoLevel::None && kind != TargetKind::Host && kind != TargetKind::CUDA)
    warnUnused(ctx, opts, opts.debugInfo == DebugInfoLevel::Full ? "-g" : "-lineinfo");
  if (kind == TargetKind::CUDA)
    return;
  if (opts.resourceUsage)
    warnUnused(ctx, opts, "--resource-usage");
  for (const std::string &o : opts.ptxasOptions)
    warnUnused(ctx, opts, "-Xptxas " + o);
}

static std::unique_ptr<TargetBackend> createHost(const CompileOptions &opts, llvm::raw_ostream &errs) {
  HostOptions options;
  options.threads = std::max(1u, opts.threads);
  options.maxParallelOps = opts.maxParallelOps;
  options.shared = opts.shared;
  options.debugInfo = opts.debugInfo;
  options.commandLog = opts.verbose ? &errs : nullptr;
  return createHostBackend(options);
}

static std::unique_ptr<TargetBackend> createCUDA(const CompileOptions &opts, llvm::raw_ostream &errs) {
  CUDATargetOptions options;
  options.archs = opts.target.archs;
  options.cudaPath = opts.cudaPath;
  options.clang = opts.cudaClang;
  options.shared = opts.shared;
  options.toolLog = opts.verbose ? &errs : nullptr;
  options.resourceLog = opts.resourceUsage ? &errs : nullptr;
  options.debugInfo = opts.debugInfo;
  options.ptxasOptions = opts.ptxasOptions;
  options.warpSpecialization =
      parseHopperWarpSpecialization(opts.hopperWS).value_or(HopperWarpSpecialization::Auto);
  options.tmaStore = opts.hopperTMAStore;
  options.persistent = parseHopperPersistence(opts.hopperPersistent).value_or(HopperPersistence::Auto);
  options.limits = opts.limits;
  return createCUDABackend(options);
}

static std::unique_ptr<TargetBackend> createVulkan(const CompileOptions &opts, mlir::MLIRContext *ctx) {
  const CompileOptions::VulkanLimits &cli = opts.vulkan;
  std::string env = opts.target.archs.empty() ? "vulkan1.1" : opts.target.archs.front();
  VulkanTargetOptions options;
  if (!VulkanTargetOptions::fromPreset(cli.preset, env, options)) {
    emitDriverError(ctx, DiagID::drv_vk_preset_unknown, cli.preset);
    return nullptr;
  }
  options.limits = opts.limits;
  if (cli.maxSharedMemory >= 0)
    options.maxSharedMemoryBytes = cli.maxSharedMemory;
  if (cli.subgroupSize > 0)
    options.subgroupSize = cli.subgroupSize;
  if (cli.maxWorkgroupInvocations > 0)
    options.maxWorkgroupInvocations = cli.maxWorkgroupInvocations;
  if (cli.float16 >= 0)
    options.float16 = cli.float16;
  if (cli.int8 >= 0)
    options.int8 = cli.int8;
  if (cli.float64 >= 0)
    options.float64 = cli.float64;
  if (cli.float32Atomics >= 0)
    options.float32Atomics = cli.float32Atomics;
  if (cli.cooperativeMatrix >= 0)
    options.cooperativeMatrix = cli.cooperativeMatrix;
  if (options.cooperativeMatrix && env != "vulkan1.3") {
    emitDriverError(ctx, DiagID::drv_vk_cooperative_matrix_env);
    return nullptr;
  }
  return createVulkanBackend(options);
}

static std::unique_ptr<TargetBackend> createWebGPU(const CompileOptions &opts) {
  const CompileOptions::WebGPULimits &cli = opts.webgpu;
  WebGPUTargetOptions options;
  options.limits = opts.limits;
  // The CLI rejects non-positive limits; -1 (unset) keeps WebGPU's default.
  if (cli.maxWorkgroupStorage > 0)
    options.maxWorkgroupStorageBytes = cli.maxWorkgroupStorage;
  if (cli.maxInvocations > 0)
    options.maxInvocations = cli.maxInvocations;
  if (cli.maxStorageBufferBindingSize > 0)
    options.maxStorageBufferBindingSize = cli.maxStorageBufferBindingSize;
  if (cli.float16 >= 0)
    options.float16 = cli.float16;
  return createWebGPUBackend(options);
}

std::unique_ptr<TargetBackend> tilec::createBackend(const CompileOptions &opts, mlir::MLIRContext *ctx,
                                                    llvm::raw_ostream &errs) {
  checkUnusedFlags(ctx, opts);
  switch (opts.target.getDescription().kind) {
  case TargetKind::Host:
    return createHost(opts, errs);
  case TargetKind::CUDA:
    return createCUDA(opts, errs);
  case TargetKind::Vulkan:
    return createVulkan(opts, ctx);
  case TargetKind::Metal:
  {
    MetalTargetOptions options;
    options.limits = opts.limits;
    return createMetalBackend(options);
  }
  case TargetKind::WebGPU:
    return createWebGPU(opts);
  case TargetKind::Ascend:
    return createAscendBackend(AscendTargetOptions());
  }
  return nullptr;
}
