//===- NVVMPipeline.cpp - The NVVM lowering and PTX generation ------------===//
//
// The passes of MLIR's gpu-lower-to-nvvm-pipeline (LLVM 22, as
// `mlir-opt --dump-pass-pipeline` prints it), with the same options:
//   common: nvgpu/vector/scf/nvvm/func lowerings, nvvm-attach-target, ...
//   gpu.module: convert-gpu-to-nvvm, canonicalize, cse, reconcile casts
//   -- debug scopes of the device functions (-g, -lineinfo) --
//   host: gpu-to-llvm, gpu-module-to-binary, math, cleanups.
// test/Target/CUDA/debug-info.test checks that PTX without its `.loc` and
// `.file` lines is the PTX of a build without -g.
//
//===----------------------------------------------------------------------===//
#include "NVVMPipeline.h"

#include "tilec/Target/Host/DebugInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace tilec;

/// Up to and with the gpu.module lowering to NVVM.
static void addDeviceHalf(OpPassManager &pm, const NVVMPipelineOptions &o) {
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = o.chip;
  target.features = o.features;
  target.optLevel = o.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = 64;
  pm.addPass(createConvertIndexToLLVMPass(index));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = 64;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
}

/// The host code and the serialization of the gpu.modules.
static void addHostHalf(OpPassManager &pm, const NVVMPipelineOptions &o) {
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = o.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult tilec::runNVVMPipeline(ModuleOp module, const NVVMPipelineOptions &options) {
  PassManager device(module.getContext());
  device.enableVerifier(true);
  addDeviceHalf(device, options);
  if (failed(device.run(module)))
    return failure();
  if (options.debugInfo != DebugInfoLevel::None)
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      attachDebugInfo(gpuModule, LLVM::DIEmissionKind::DebugDirectivesOnly);
  PassManager host(module.getContext());
  host.enableVerifier(true);
  addHostHalf(host, options);
  return host.run(module);
}
