//===- HostTarget.cpp - Tile dialect to an x86-64 object ------------------===//
//
// 1. Read the kernel signatures; convert-tile-to-loops; build launchers.
// 2. guard integer divisors (HostDivision.cpp), canonicalize, cse, emulate-narrow-floats, arith-expand, then the
//    standard lowerings to the LLVM dialect (math through LLVM intrinsics,
//    leftovers to libm calls).
// 3. Translate to LLVM IR, run the O<n> pipeline, emit with LLVM's x86
//    TargetMachine (PIC, so the object links into shared libraries).
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Host/HostTarget.h"
#include "HostLauncher.h"

#include "tilec/Target/Host/DebugInfo.h"
#include "tilec/Target/Host/ToolCommand.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/Conversion/TileToLoops/TileToLoops.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace tilec;

/// A T.Parallel body over `limit` operations: an error, before LLVM (whose
/// loop and SLP vectorizers took minutes on 60k statements in one body).
static LogicalResult checkParallelBodies(ModuleOp module, int64_t limit) {
  WalkResult r = module.walk<WalkOrder::PreOrder>([&](tile::ParallelOp par) {
    int64_t n = -1; // the tile.parallel itself is not counted
    par->walk([&](Operation *) { ++n; });
    if (n <= limit)
      return WalkResult::skip(); // nested ones are smaller
    par.emitError() << "this T.Parallel's body has " << n << " operations; the host target compiles at most " << limit
                    << " in one T.Parallel (LLVM's loop optimizations take minutes on longer bodies): "
                    << "split it into several T.Parallel loops, or raise the limit with --max-parallel-ops=N";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

LogicalResult tilec::lowerTileToHostLLVM(ModuleOp module, const HostOptions &options,
                                         std::vector<KernelSignature> &kernels) {
  if (failed(getKernelSignatures(module, kernels)) || failed(checkParallelBodies(module, options.maxParallelOps)))
    return failure();
  // Through a pass manager, so the dialects the lowering creates get loaded.
  PassManager loops(module.getContext());
  loops.enableVerifier(true);
  loops.addPass(createConvertTileToLoops(ConvertTileToLoopsOptions{options.stackLimit}));
  if (failed(loops.run(module)) || failed(buildHostLaunchers(module, kernels, options.threads)))
    return failure();
  host::guardIntegerDivision(module); // before arith-expand: x // 0 must not trap

  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createEmulateNarrowFloats());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(module)))
    return failure();
  if (options.debugInfo != DebugInfoLevel::None)
    attachDebugInfo(module, hostEmissionKind(options.debugInfo));
  return success();
}

/// The x86-64 target machine for `options` (PIC, default code model).
static std::unique_ptr<llvm::TargetMachine> createTargetMachine(const HostOptions &options, std::string &error) {
  static bool initialized = [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    LLVMInitializeX86AsmParser();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple(options.triple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions targetOptions;
  llvm::CodeGenOptLevel level = options.optLevel == 0   ? llvm::CodeGenOptLevel::None
                                : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                                        : llvm::CodeGenOptLevel::Aggressive;
  return std::unique_ptr<llvm::TargetMachine>(
      target->createTargetMachine(triple, options.cpu, "", targetOptions, llvm::Reloc::PIC_, std::nullopt, level));
}

std::unique_ptr<llvm::Module> tilec::translateToHostLLVMIR(ModuleOp module, llvm::LLVMContext &llvmContext,
                                                           const HostOptions &options, std::string &error) {
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, llvmContext, "tilec");
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return nullptr;
  }
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm)
    return nullptr;
  llvmModule->setTargetTriple(tm->getTargetTriple());
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->setPICLevel(llvm::PICLevel::BigPIC);
  if (options.debugInfo != DebugInfoLevel::None && !llvmModule->getModuleFlag("Dwarf Version"))
    llvmModule->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 5);

  if (options.optLevel > 0) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::OptimizationLevel level = options.optLevel == 1   ? llvm::OptimizationLevel::O1
                                    : options.optLevel == 2 ? llvm::OptimizationLevel::O2
                                                            : llvm::OptimizationLevel::O3;
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(level);
    mpm.run(*llvmModule, mam);
  }
  return llvmModule;
}

LogicalResult tilec::emitHostMachineCode(llvm::Module &module, const HostOptions &options, bool assembly,
                                         llvm::SmallVectorImpl<char> &bytes, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm)
    return failure();
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              assembly ? llvm::CodeGenFileType::AssemblyFile : llvm::CodeGenFileType::ObjectFile)) {
    error = "the x86-64 target cannot emit this file type";
    return failure();
  }
  pm.run(module);
  return success();
}

LogicalResult tilec::linkHostSharedLibrary(llvm::StringRef objectPath, llvm::StringRef outputPath,
                                           llvm::raw_ostream *commandLog, std::string &error) {
  for (const char *name : {"clang-22", "clang", "cc"}) {
    llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(name);
    if (!program)
      continue;
    ToolRun run = runToolCommand({*program, "-shared", "-o", outputPath, objectPath, "-lm", "-lpthread"}, commandLog,
                                 /*capture=*/false);
    if (run.exitCode != 0) {
      error =
          run.error.empty()
              ? (llvm::Twine(name) + " failed to link the shared library (exit code " + llvm::Twine(run.exitCode) + ")")
                    .str()
              : run.error;
      return failure();
    }
    return success();
  }
  llvm::ErrorOr<std::string> lld = llvm::sys::findProgramByName("ld.lld-22");
  if (!lld)
    lld = llvm::sys::findProgramByName("ld.lld");
  if (!lld) {
    error = "no linker found on PATH (tried clang-22, clang, cc, ld.lld-22, ld.lld)";
    return failure();
  }
  ToolRun run = runToolCommand({*lld, "-shared", "-o", outputPath, objectPath}, commandLog, /*capture=*/false);
  if (run.exitCode != 0) {
    error = run.error.empty() ? "ld.lld failed to link the shared library" : run.error;
    return failure();
  }
  return success();
}
