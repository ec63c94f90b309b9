//===- NVVMPipeline.cpp - The NVVM lowering and PTX generation ------------===//
//
// The passes of MLIR's gpu-lower-to-nvvm-pipeline (LLVM 22, as
// `mlir-opt --dump-pass-pipeline` prints it), with the same options:
//   common: nvgpu/vector/scf/nvvm/func lowerings, nvvm-attach-target, ...
//   gpu.module: convert-gpu-to-nvvm, canonicalize, cse, reconcile casts
//   -- debug scopes of the device functions (-g, -lineinfo) --
//   host: gpu-to-llvm, gpu-module-to-binary, math, cleanups.
// gpu-module-to-binary is called as a function, with a callback that keeps
// LLVM's straight-line strength reduction off huge device functions (below).
// test/Target/CUDA/debug-info.test checks that PTX without its `.loc` and
// `.file` lines is the PTX of a build without -g.
//
//===----------------------------------------------------------------------===//
#include "NVVMPipeline.h"
#include "ExternCode.h"

#include "tilec/Target/Host/DebugInfo.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"

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

namespace {
/// Keeps NVPTX's straight-line strength reduction (`slsr`) off device
/// functions with more than kMaxCandidates of its candidates (GEPs, adds,
/// muls, shifts, ors). Its time grows about as the 2.6th power of them: a
/// fragment of 1,024 elements per thread (threads=33, a 32x32 tile every
/// thread holds) has 3,202 and took 4.2 s of the 5.2 s of LLVM's PTX
/// codegen; 1,650 take 0.75 s, 874 0.12 s; the examples have at most 730
/// (the gemm), so they keep it. ptxas reassociates addresses on its own.
class SkipSLSRGate : public llvm::OptPassGate {
public:
  static constexpr unsigned kMaxCandidates = 2048;

  bool isEnabled() const override { return !big.empty(); }
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef ir) const override {
    // `ir` is "function (NAME)" for a function pass.
    return (pass != "slsr" && pass != "Straight line strength reduction") ||
           !(ir.consume_front("function (") && ir.consume_back(")") && big.contains(ir));
  }
  /// Notes the functions of `m` over the limit; installs the gate on its context.
  void install(llvm::Module &m) {
    for (llvm::Function &f : m) {
      unsigned n = 0;
      for (llvm::Instruction &i : llvm::instructions(f))
        n +=
            llvm::isa<llvm::GetElementPtrInst>(i) || llvm::is_contained({llvm::Instruction::Add, llvm::Instruction::Mul,
                                                                         llvm::Instruction::Shl, llvm::Instruction::Or},
                                                                        i.getOpcode());
      if (n > kMaxCandidates)
        big.insert(f.getName());
    }
    if (!big.empty())
      m.getContext().setOptPassGate(*this);
  }

private:
  llvm::StringSet<> big;
};
} // namespace

/// gpu-module-to-binary with `format`, the SLSR gate installed on each
/// module's LLVM context after its optimization (before codegen); a
/// module calling externs gets their bitcode (`externs`, keyed by wrapper
/// names) linked in first.
static LogicalResult serializeGpuModules(ModuleOp module, llvm::StringRef format,
                                         const llvm::StringMap<std::string> &externs) {
  std::optional<gpu::CompilationTarget> target = llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(format)
                                                     .Cases({"offloading", "llvm"}, gpu::CompilationTarget::Offload)
                                                     .Cases({"assembly", "isa"}, gpu::CompilationTarget::Assembly)
                                                     .Cases({"binary", "bin"}, gpu::CompilationTarget::Binary)
                                                     .Cases({"fatbinary", "fatbin"}, gpu::CompilationTarget::Fatbin)
                                                     .Default(std::nullopt);
  if (!target)
    return module.emitError() << "unknown gpu-module-to-binary format '" << format << "'";
  std::optional<SymbolTable> table;
  auto lazyTable = [&]() -> SymbolTable * {
    if (!table)
      table.emplace(module);
    return &*table;
  };
  SkipSLSRGate gate;
  auto optimized = [&](llvm::Module &m) { gate.install(m); };
  std::string linkError;
  auto initial = [&](llvm::Module &m) {
    for (llvm::Function &f : m)
      if (auto it = externs.find(f.getName()); f.isDeclaration() && it != externs.end()) {
        if (!linkExterns(m, it->second, linkError))
          return;
        break;
      }
  };
  gpu::TargetOptions options({}, {}, {}, {}, *target, lazyTable, initial, {}, optimized);
  if (failed(gpu::transformGpuModulesToBinaries(module, nullptr, options)))
    return failure();
  if (!linkError.empty())
    return module.emitError() << linkError;
  return success();
}

/// The host code, the serialization of the gpu.modules, cleanups.
static LogicalResult runHostHalf(ModuleOp module, const NVVMPipelineOptions &o,
                                 const llvm::StringMap<std::string> &externs) {
  PassManager toLLVM(module.getContext());
  toLLVM.enableVerifier(true);
  toLLVM.addPass(createGpuToLLVMConversionPass());
  if (failed(toLLVM.run(module)) || failed(serializeGpuModules(module, o.format, externs)))
    return failure();
  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  return pm.run(module);
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
  // T.import_source's code: one clang run per gpu.module that calls externs.
  llvm::StringMap<std::string> externs;
  ExternCompileOptions externOptions{options.chip, options.clang, options.cudaRoot, options.toolLog};
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    llvm::SmallVector<std::string> wrappers;
    for (auto fn : gpuModule.getOps<LLVM::LLVMFuncOp>())
      if (fn->hasAttr(kExternWrapperAttr))
        wrappers.push_back(fn.getSymName().str());
    FailureOr<std::string> bitcode = compileExterns(gpuModule, externOptions);
    if (failed(bitcode))
      return failure();
    if (!wrappers.empty())
      externs[wrappers.front()] = std::move(*bitcode);
  }
  return runHostHalf(module, options, externs);
}
