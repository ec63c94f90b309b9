//===- CUDATarget.cpp - The NVIDIA target pipeline ------------------------===//
//
// 1. Signatures from the tile kernels; `header` stops here.
// 2. convert-tile-to-gpu against each arch's TargetInfo (in place for one
//    arch; for several, on clones, archs with identical results grouped);
//    `gpu` stops.
// 3. Per arch, on its group's module: MLIR's NVVM lowering and
//    gpu-module-to-binary (format isa: PTX from LLVM NVPTX in process,
//    libdevice linked); `ptx` stops.
// 4. ptxas per arch (`cubin` stops), one fatbinary per group of its cubins
//    plus the PTX of its last arch (`fatbin` stops).
// 5. Host side: each group's grid functions (lowered with the device
//    pipeline's host half) translated to LLVM IR and linked, launchers that
//    pick a group's image at run time added with IRBuilder (launch
//    sequences: launchers calling their parts'), x86-64 code generation
//    (`asm`, `obj`, `-shared`).
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/CUDA/CUDATarget.h"

#include "CUDALauncher.h"
#include "NVVMPipeline.h"
#include "PtxasReport.h"

#include "tilec/Conversion/TileToGPU/LayoutReport.h"
#include "tilec/Conversion/TileToGPU/TileToGPU.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Target/CUDA/CUDAArch.h"
#include "tilec/Target/CUDA/CUDATargetInfo.h"
#include "tilec/Target/Host/DebugInfo.h"
#include "tilec/Target/Host/HostTarget.h"
#include "tilec/Target/Host/ToolCommand.h"
#include "tilec/Target/KernelABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdlib>

using namespace mlir;
using namespace tilec;

static LogicalResult fail(MLIRContext *ctx, const llvm::Twine &message) {
  return emitToolError(ctx) << message;
}

/// The toolkit root: --cuda-path, then CUDA_PATH, then /usr/local/cuda.
static std::string cudaRoot(const CUDATargetOptions &opts) {
  if (!opts.cudaPath.empty())
    return opts.cudaPath;
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("CUDA_PATH"))
    return *env;
  return "/usr/local/cuda";
}

/// Runs `tool` from the toolkit's bin directory; `output` receives what it
/// printed.
static LogicalResult runTool(MLIRContext *ctx, const CUDATargetOptions &opts, llvm::StringRef tool,
                             llvm::ArrayRef<std::string> args, std::string *output = nullptr) {
  llvm::SmallString<128> path(cudaRoot(opts));
  llvm::sys::path::append(path, "bin", tool);
  if (!llvm::sys::fs::can_execute(path))
    return fail(ctx, "cannot find " + tool + " at '" + path + "' (set --cuda-path or CUDA_PATH)");
  llvm::SmallVector<llvm::StringRef> argv{path};
  for (const std::string &a : args)
    argv.push_back(a);
  // The tool's own output (ptxas prints "info" lines about the code it
  // generated) is shown with its failure, or with -v; otherwise kept quiet.
  ToolRun run = runToolCommand(argv, opts.toolLog, /*capture=*/true);
  if (run.exitCode != 0)
    return fail(ctx, tool + " failed (exit code " + llvm::Twine(run.exitCode) + ")" +
                         (run.error.empty() ? "" : ": " + run.error) + (run.output.empty() ? "" : ":\n" + run.output));
  if (opts.toolLog)
    *opts.toolLog << run.output;
  if (output)
    *output = std::move(run.output);
  return success();
}

static LogicalResult readFile(MLIRContext *ctx, llvm::StringRef path, std::string &bytes) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buf)
    return fail(ctx, "cannot read '" + path + "'");
  bytes = (*buf)->getBuffer().str();
  return success();
}

static LogicalResult writeTemp(MLIRContext *ctx, llvm::StringRef suffix, llvm::StringRef bytes,
                               llvm::SmallString<128> &path) {
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tilec", suffix, fd, path))
    return fail(ctx, "cannot create a temporary file");
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << bytes;
  return success();
}

/// Registers what the NVVM lowering and the LLVM IR export need.
static void registerEverything(MLIRContext *ctx) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  ctx->appendDialectRegistry(registry);
  ctx->loadAllAvailableDialects();
  static bool once = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    return true;
  }();
  (void)once;
}

/// PTX ISA features for an arch (sm_90a needs PTX 8.0).
static std::string ptxFeatures(llvm::StringRef arch) { return "+ptx80"; }

/// Lowers a clone of the gpu-level module for `arch` with `format`
/// (isa or llvm); returns the lowered module and the object bytes.
static FailureOr<OwningOpRef<ModuleOp>> lowerForArch(ModuleOp gpuLevel, llvm::StringRef arch, llvm::StringRef format,
                                                     const CUDATargetOptions &opts, std::string &object) {
  OwningOpRef<ModuleOp> clone(gpuLevel.clone());
  NVVMPipelineOptions options;
  options.chip = arch.str();
  options.features = ptxFeatures(arch);
  options.format = format.str();
  options.optLevel = 3;
  options.debugInfo = opts.debugInfo;
  options.clang = opts.clang;
  options.cudaRoot = cudaRoot(opts);
  options.toolLog = opts.toolLog;
  if (failed(runNVVMPipeline(*clone, options)))
    return failure();
  for (auto bin : llvm::make_early_inc_range(clone->getOps<gpu::BinaryOp>())) {
    for (Attribute a : bin.getObjects())
      if (auto obj = dyn_cast<gpu::ObjectAttr>(a))
        object = obj.getObject().getValue().str();
    bin.erase();
  }
  return clone;
}

/// The 16-byte alignment a tensor needs when its rows allow vector access.
static int64_t tensorAlignment(const KernelArg &a) {
  int64_t inner = 0;
  if (a.shape.empty() || llvm::StringRef(a.shape.back()).getAsInteger(10, inner))
    return 1;
  llvm::StringRef c = cElementType(a.dtype);
  int64_t bytes = c.contains("64") || c == "double" ? 8 : c.contains("32") || c == "float" ? 4 : c.contains("16") ? 2 : 1;
  return (inner * bytes) % 16 == 0 ? 16 : bytes;
}

namespace {
/// One thread-level lowering and the archs that share it (every arch whose
/// TargetInfo lowers the tile module to the same gpu-level module).
struct ArchGroup {
  std::vector<unsigned> archs; ///< indices into the arch list, in -target order
  OwningOpRef<ModuleOp> owned; ///< the lowered clone (unset for the module lowered in place)
  ModuleOp module;
  std::vector<CUDAKernelLaunch> launches; ///< per kernel, in signature order
  OwningOpRef<ModuleOp> host;             ///< the host half after the NVVM pipeline
  std::string fatbin;
};
} // namespace

/// Reads what the launcher needs of each kernel from a lowered module.
static std::vector<CUDAKernelLaunch> readLaunches(ModuleOp lowered, llvm::ArrayRef<CUDAKernelInfo> kernels) {
  std::vector<CUDAKernelLaunch> launches(kernels.size());
  for (auto gm : lowered.getOps<gpu::GPUModuleOp>())
    for (auto fn : gm.getOps<gpu::GPUFuncOp>())
      for (unsigned i = 0; i < kernels.size(); ++i)
        if (kernels[i].signature.name == fn.getName()) {
          CUDAKernelLaunch &l = launches[i];
          if (DenseI64ArrayAttr t = tile::getThreads(fn))
            for (unsigned d = 0; d < 3 && d < t.size(); ++d)
              l.threads[d] = t[d];
          if (std::optional<int64_t> s = tile::getSharedBytes(fn))
            l.sharedBytes = *s;
          l.tma = readTMADescriptors(fn); // TMA descriptors the launcher encodes
          if (std::optional<llvm::ArrayRef<int32_t>> c = fn.getKnownClusterSize())
            for (unsigned d = 0; d < 3 && d < c->size(); ++d)
              l.cluster[d] = (*c)[d];
          if (auto blocks = fn->getAttrOfType<IntegerAttr>("tilec.persistent_blocks"))
            l.persistentBlocksPerSM = blocks.getInt();
        }
  for (unsigned i = 0; i < kernels.size(); ++i)
    launches[i].gridFunction = "__tilec_" + kernels[i].signature.name + "_grid";
  return launches;
}

/// The archs of a group, as the user spelled them, joined by ", ".
static std::string groupArchs(const ArchGroup &g, llvm::ArrayRef<std::string> archs) {
  std::vector<std::string> names;
  for (unsigned a : g.archs)
    names.push_back(archs[a]);
  return llvm::join(names, ", ");
}

/// Lowers the tile module once per arch (in place when there is one) and
/// keeps one group per distinct gpu-level result.
static LogicalResult lowerPerArch(ModuleOp module, llvm::ArrayRef<std::string> archs,
                                  llvm::ArrayRef<CUDAKernelInfo> kernels, std::vector<ArchGroup> &groups,
                                  const GPULimits &limits, HopperWarpSpecialization ws, bool tmaStore,
                                  HopperPersistence persistent) {
  // fp8 values and packed 4-bit tensors: bytes with software conversions.
  GPULoweringOptions lowering;
  lowering.limits = limits;
  lowering.emulateNarrowTypes = true;
  lowering.launchSequences = true; // the launchers run them (CUDASequence.cpp)
  if (archs.size() == 1) {
    CUDATargetInfo info(archs.front());
    info.setWarpSpecialization(ws);
    info.setTMAStore(tmaStore);
    info.setPersistent(persistent);
    if (failed(lowerTileToGPU(module, info, lowering)))
      return failure();
    ArchGroup &g = groups.emplace_back();
    g.archs = {0};
    g.module = module;
    g.launches = readLaunches(module, kernels);
    return success();
  }
  // Several archs: lower clones of the untouched tile module, compare the
  // printed results (the lowering reads the TargetInfo in several places:
  // the Hopper path, fp8 mma shapes, shared memory limits).
  std::vector<std::string> texts;
  for (unsigned a = 0; a < archs.size(); ++a) {
    OwningOpRef<ModuleOp> clone(module.clone());
    CUDATargetInfo info(archs[a]);
    info.setWarpSpecialization(ws);
    info.setTMAStore(tmaStore);
    info.setPersistent(persistent);
    if (failed(lowerTileToGPU(*clone, info, lowering)))
      return failure();
    std::string text;
    llvm::raw_string_ostream os(text);
    clone->print(os);
    auto same = llvm::find(texts, text);
    if (same != texts.end()) {
      groups[same - texts.begin()].archs.push_back(a);
      continue;
    }
    texts.push_back(std::move(text));
    ArchGroup &g = groups.emplace_back();
    g.archs = {a};
    g.module = *clone;
    g.owned = std::move(clone);
    g.launches = readLaunches(g.module, kernels);
  }
  return success();
}

/// Runs fatbinary on `images` (cubins, PTX: arch and file) into `fatbin`.
static LogicalResult makeFatbin(MLIRContext *ctx, const CUDATargetOptions &opts,
                                llvm::ArrayRef<std::pair<std::string, std::string>> cubins,
                                llvm::ArrayRef<std::pair<std::string, std::string>> ptx, std::string &fatbin) {
  llvm::SmallString<128> fatPath;
  if (llvm::sys::fs::createTemporaryFile("tilec", "fatbin", fatPath))
    return fail(ctx, "cannot create a temporary file");
  llvm::scope_exit cleanup([&] { llvm::sys::fs::remove(fatPath); });
  std::vector<std::string> args{"-64", "--create", fatPath.str().str()};
  auto sm = [](llvm::StringRef arch) { return arch.drop_front(3).str(); };
  for (auto &[arch, file] : cubins)
    args.push_back("--image3=kind=elf,sm=" + sm(arch) + ",file=" + file);
  for (auto &[arch, file] : ptx)
    args.push_back("--image3=kind=ptx,sm=" + sm(arch) + ",file=" + file);
  if (failed(runTool(ctx, opts, "fatbinary", args)))
    return failure();
  return readFile(ctx, fatPath, fatbin);
}

namespace {
using Image = std::pair<std::string, std::string>; // arch, file

/// The CUDA pipeline, its steps joined by what they leave behind.
class CUDABackend : public TargetBackend {
public:
  explicit CUDABackend(const CUDATargetOptions &options) : options(options), archs(options.archs) {
    if (archs.empty())
      archs.push_back("sm_80");
  }
  ~CUDABackend() override {
    for (auto &t : temps)
      llvm::sys::fs::remove(t);
  }

  LogicalResult lower(ModuleOp module, EmitStage stage) override;
  LogicalResult serialize(ModuleOp module, EmitStage stage, llvm::StringRef sourceName,
                          llvm::raw_ostream &out) override;
  void writeHeader(const HeaderInfo &info, llvm::raw_ostream &os) override {
    writeCHeader(sigs, info, HeaderFlavor::CUDA, os);
  }
  /// Per arch, as its lowering would choose them.
  LogicalResult collectLayouts(ModuleOp module, std::vector<KernelLayouts> &out) override {
    registerEverything(module.getContext());
    for (const std::string &arch : archs)
      if (failed(collectKernelLayouts(module, CUDATargetInfo(arch), out)))
        return failure();
    return success();
  }

private:
  bool severalArchs() const { return archs.size() > 1; }
  LogicalResult readSignatures(ModuleOp module);
  void printGPU(llvm::raw_ostream &out);
  LogicalResult printDeviceLLVM(llvm::raw_ostream &out);
  LogicalResult emitPTX();
  LogicalResult emitCubins(MLIRContext *ctx);
  void reportResources(MLIRContext *ctx, unsigned arch, llvm::StringRef ptxasOutput);
  void groupImages(const ArchGroup &g, std::vector<Image> &elf, std::vector<Image> &text) const;
  LogicalResult emitFatbins(MLIRContext *ctx, EmitStage stage, llvm::raw_ostream &out);
  LogicalResult emitHost(MLIRContext *ctx, EmitStage stage, llvm::raw_ostream &out);
  LogicalResult linkShared(MLIRContext *ctx, llvm::ArrayRef<char> bytes, llvm::raw_ostream &out);

  CUDATargetOptions options;
  std::vector<std::string> archs;
  std::vector<CUDAKernelInfo> kernels;
  std::vector<KernelSignature> sigs;
  std::vector<ArchGroup> groups;
  std::vector<unsigned> groupOf; ///< per arch, the group that lowers it
  std::vector<std::string> ptx, cubins, ptxPaths, cubinPaths;
  llvm::SmallVector<llvm::SmallString<128>> temps;
};
} // namespace

/// 1. Signatures.
LogicalResult CUDABackend::readSignatures(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations()) {
    if (!isa<tile::KernelOp>(op))
      continue;
    CUDAKernelInfo k;
    if (failed(getKernelSignature(&op, k.signature)))
      return failure();
    for (const KernelArg &a : k.signature.args)
      if (a.kind == KernelArg::Kind::Tensor)
        k.alignment.push_back(tensorAlignment(a));
    sigs.push_back(k.signature);
    kernels.push_back(std::move(k));
  }
  return success();
}

/// 2. Thread-level lowering, per arch.
LogicalResult CUDABackend::lower(ModuleOp module, EmitStage stage) {
  if (failed(readSignatures(module)))
    return failure();
  if (stage == EmitStage::Header)
    return success();
  registerEverything(module.getContext());
  // MLIR's NVVM serializer finds libdevice through CUDA_ROOT (it has no
  // option for it in the prebuilt pipeline): point it at the chosen toolkit.
  ::setenv("CUDA_ROOT", cudaRoot(options).c_str(), 1);
  if (failed(lowerPerArch(module, archs, kernels, groups, options.limits, options.warpSpecialization, options.tmaStore,
                          options.persistent)))
    return failure();
  groupOf.assign(archs.size(), 0);
  for (unsigned gi = 0; gi < groups.size(); ++gi)
    for (unsigned a : groups[gi].archs)
      groupOf[a] = gi;
  return success();
}

void CUDABackend::printGPU(llvm::raw_ostream &out) {
  for (ArchGroup &g : groups) {
    if (severalArchs())
      out << "// tilec: the lowering for " << groupArchs(g, archs) << "\n";
    g.module.print(out);
  }
}

/// 3. Device LLVM IR per arch (--emit=llvm).
LogicalResult CUDABackend::printDeviceLLVM(llvm::raw_ostream &out) {
  for (unsigned a = 0; a < archs.size(); ++a) {
    std::string bitcode;
    ModuleOp module = groups[groupOf[a]].module;
    if (failed(lowerForArch(module, archs[a], "llvm", options, bitcode)))
      return failure();
    llvm::LLVMContext llvmCtx;
    auto parsed = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "device"), llvmCtx);
    if (!parsed)
      return fail(module.getContext(), "cannot read the device bitcode: " + llvm::toString(parsed.takeError()));
    if (severalArchs())
      out << "; tilec: the device LLVM IR for " << archs[a] << "\n";
    (*parsed)->print(out, nullptr);
  }
  return success();
}

/// 3. PTX per arch; each group keeps the host half of its first arch's run.
LogicalResult CUDABackend::emitPTX() {
  ptx.resize(archs.size());
  for (unsigned a = 0; a < archs.size(); ++a) {
    ArchGroup &g = groups[groupOf[a]];
    auto lowered = lowerForArch(g.module, archs[a], "isa", options, ptx[a]);
    if (failed(lowered))
      return failure();
    if (!g.host)
      g.host = std::move(*lowered);
  }
  return success();
}

/// 4. ptxas per arch.
LogicalResult CUDABackend::emitCubins(MLIRContext *ctx) {
  cubins.resize(archs.size());
  ptxPaths.resize(archs.size());
  cubinPaths.resize(archs.size());
  for (unsigned i = 0; i < archs.size(); ++i) {
    llvm::SmallString<128> ptxPath, cubinPath;
    if (failed(writeTemp(ctx, "ptx", ptx[i], ptxPath)))
      return failure();
    temps.push_back(ptxPath);
    if (llvm::sys::fs::createTemporaryFile("tilec", "cubin", cubinPath))
      return fail(ctx, "cannot create a temporary file");
    temps.push_back(cubinPath);
    // -v: the resources of each kernel (spills warn, --resource-usage).
    std::vector<std::string> args{"-arch=" + archs[i], "-O3", "-v"};
    if (options.debugInfo != DebugInfoLevel::None)
      args.push_back("-lineinfo"); // line info on optimised code, as nvcc -lineinfo
    llvm::append_range(args, options.ptxasOptions);
    llvm::append_range(args, std::vector<std::string>{ptxPath.str().str(), "-o", cubinPath.str().str()});
    std::string report;
    if (failed(runTool(ctx, options, "ptxas", args, &report)))
      return failure();
    reportResources(ctx, i, report);
    if (failed(readFile(ctx, cubinPath, cubins[i])))
      return failure();
    ptxPaths[i] = ptxPath.str().str();
    cubinPaths[i] = cubinPath.str().str();
  }
  return success();
}

/// Warns of the kernels ptxas spilled registers of (-Wspill) and prints
/// every kernel's resources for --resource-usage.
void CUDABackend::reportResources(MLIRContext *ctx, unsigned arch, llvm::StringRef ptxasOutput) {
  for (KernelResources &k : parsePtxasInfo(ptxasOutput, archs[arch])) {
    for (unsigned i = 0; i < kernels.size(); ++i)
      if (kernels[i].signature.name == k.name)
        k.dynamicShared = groups[groupOf[arch]].launches[i].sharedBytes;
    if (k.spillStores || k.spillLoads) {
      InFlightDiagnostic d = emitWarning(getToolLoc(ctx))
                             << "kernel '" << k.name << "' spills registers on " << k.arch << ": " << k.spillStores
                             << " bytes spill stores, " << k.spillLoads << " bytes spill loads per thread ("
                             << k.registers << " registers; smaller tiles or fewer pipeline stages need fewer)";
      d.getUnderlyingDiagnostic()->getMetadata().push_back(DiagnosticArgument(llvm::StringRef("spill")));
    }
    if (options.resourceLog) {
      *options.resourceLog << "tilec: resource usage: ";
      printResources(k, *options.resourceLog);
    }
  }
}

/// A group's images: its archs' cubins and the PTX of its last arch.
void CUDABackend::groupImages(const ArchGroup &g, std::vector<Image> &elf, std::vector<Image> &text) const {
  for (unsigned a : g.archs)
    elf.push_back({archs[a], cubinPaths[a]});
  text.push_back({archs[g.archs.back()], ptxPaths[g.archs.back()]});
}

/// 4. One fatbin per group; --emit=fatbin with several groups writes one
/// fatbin holding everything instead.
LogicalResult CUDABackend::emitFatbins(MLIRContext *ctx, EmitStage stage, llvm::raw_ostream &out) {
  if (stage == EmitStage::Fatbin && groups.size() > 1) {
    std::vector<Image> elf, text;
    for (const ArchGroup &g : groups)
      groupImages(g, elf, text);
    std::string fatbin;
    if (failed(makeFatbin(ctx, options, elf, text, fatbin)))
      return failure();
    out << fatbin;
    return success();
  }
  for (ArchGroup &g : groups) {
    std::vector<Image> elf, text;
    groupImages(g, elf, text);
    if (failed(makeFatbin(ctx, options, elf, text, g.fatbin)))
      return failure();
  }
  if (stage == EmitStage::Fatbin)
    out << groups.front().fatbin;
  return success();
}

/// Links the launcher object into a shared library against the driver API.
LogicalResult CUDABackend::linkShared(MLIRContext *ctx, llvm::ArrayRef<char> bytes, llvm::raw_ostream &out) {
  llvm::SmallString<128> objPath, soPath;
  if (failed(writeTemp(ctx, "o", llvm::StringRef(bytes.data(), bytes.size()), objPath)))
    return failure();
  temps.push_back(objPath);
  if (llvm::sys::fs::createTemporaryFile("tilec", "so", soPath))
    return fail(ctx, "cannot create a temporary file");
  temps.push_back(soPath);
  llvm::ErrorOr<std::string> lld = llvm::sys::findProgramByName("ld.lld-22");
  if (!lld)
    lld = llvm::sys::findProgramByName("ld.lld");
  if (!lld)
    return fail(ctx, "cannot find ld.lld to link the shared library");
  llvm::SmallString<128> stubs(cudaRoot(options));
  llvm::sys::path::append(stubs, "lib64", "stubs");
  std::string lpath = ("-L" + stubs).str();
  ToolRun run = runToolCommand({*lld, "-shared", "-o", soPath, objPath, lpath, "-lcuda"}, options.toolLog,
                               /*capture=*/false);
  if (run.exitCode != 0)
    return fail(ctx, "ld.lld failed to link the shared library" + (run.error.empty() ? "" : ": " + run.error));
  std::string so;
  if (failed(readFile(ctx, soPath, so)))
    return failure();
  out << so;
  return success();
}

/// 5. Host launchers: the grid functions of every group (those of later
/// groups renamed `__tilec_<k>_grid.<group>`), the images, the launchers.
LogicalResult CUDABackend::emitHost(MLIRContext *ctx, EmitStage stage, llvm::raw_ostream &out) {
  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> llvmModule;
  std::vector<CUDAImage> images;
  for (unsigned gi = 0; gi < groups.size(); ++gi) {
    ArchGroup &g = groups[gi];
    if (options.debugInfo != DebugInfoLevel::None)
      attachDebugInfo(*g.host, hostEmissionKind(options.debugInfo));
    std::unique_ptr<llvm::Module> part = translateModuleToLLVMIR(*g.host, llvmCtx, "tilec_cuda_launchers");
    if (!part)
      return fail(ctx, "cannot translate the launchers to LLVM IR");
    part->setTargetTriple(llvm::Triple("x86_64-unknown-linux-gnu"));
    part->setDataLayout("e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128");
    if (gi > 0) {
      for (CUDAKernelLaunch &l : g.launches) {
        std::string renamed = l.gridFunction + "." + std::to_string(gi);
        if (llvm::Function *grid = part->getFunction(l.gridFunction))
          grid->setName(renamed);
        l.gridFunction = renamed;
      }
      // Workspace layouts are the same in every lowering: the first one's.
      for (const KernelSignature &sig : sigs)
        if (llvm::Function *layout = sig.hasWorkspace() ? part->getFunction(sig.workspaceFunction) : nullptr) {
          layout->setName(sig.workspaceFunction + "." + std::to_string(gi));
          layout->setLinkage(llvm::GlobalValue::InternalLinkage);
        }
    }
    if (!llvmModule)
      llvmModule = std::move(part);
    else if (llvm::Linker::linkModules(*llvmModule, std::move(part)))
      return fail(ctx, "cannot link the host code of the lowering for " + groupArchs(g, archs));
    CUDAImage &image = images.emplace_back();
    for (unsigned a : g.archs)
      image.archs.cubins.push_back(archs[a]);
    image.archs.ptx = archs[g.archs.back()];
    image.fatbin = std::move(g.fatbin);
  }
  for (unsigned i = 0; i < kernels.size(); ++i)
    for (const ArchGroup &g : groups)
      kernels[i].launches.push_back(g.launches[i]);
  for (const KernelSignature &sig : sigs)
    if (sig.hasWorkspace() && !llvmModule->getFunction(sig.workspaceFunction))
      return fail(ctx, "no workspace layout '" + sig.workspaceFunction + "' for kernel '" + sig.name + "'");
  buildCUDALaunchers(*llvmModule, kernels, images);
  if (options.debugInfo != DebugInfoLevel::None && !llvmModule->getModuleFlag("Dwarf Version"))
    llvmModule->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 5);
  HostOptions hostOpts;
  llvm::SmallVector<char> bytes;
  std::string error;
  if (failed(emitHostMachineCode(*llvmModule, hostOpts, stage == EmitStage::Asm, bytes, error)))
    return fail(ctx, error);
  if (stage == EmitStage::Obj && options.shared)
    return linkShared(ctx, bytes, out);
  out.write(bytes.data(), bytes.size());
  return success();
}

LogicalResult CUDABackend::serialize(ModuleOp module, EmitStage stage, llvm::StringRef, llvm::raw_ostream &out) {
  MLIRContext *ctx = module.getContext();
  switch (stage) {
  case EmitStage::Header:
    return success();
  case EmitStage::GPU:
    printGPU(out);
    return success();
  case EmitStage::LLVM:
    return printDeviceLLVM(out);
  default:
    break;
  }
  if (failed(emitPTX()))
    return failure();
  if (stage == EmitStage::PTX) {
    for (const std::string &p : ptx)
      out << p;
    return success();
  }
  if (stage == EmitStage::Cubin && severalArchs())
    return fail(ctx, "--emit=cubin writes one ELF image, but -target names " + llvm::Twine(archs.size()) +
                         " architectures; name one, or use --emit=fatbin");
  if (failed(emitCubins(ctx)))
    return failure();
  if (stage == EmitStage::Cubin) {
    out << cubins.front();
    return success();
  }
  if (failed(emitFatbins(ctx, stage, out)))
    return failure();
  if (stage == EmitStage::Fatbin)
    return success();
  return emitHost(ctx, stage, out);
}

/// `sm_XY` or a comma list of them (each once, in the order given).
static bool parseCUDA(llvm::StringRef spelling, std::vector<std::string> &archs) {
  llvm::SmallVector<llvm::StringRef> parts;
  spelling.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (parts.empty())
    return false;
  std::vector<std::string> parsed;
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (!CUDAArch::parse(part) || !llvm::is_contained(CUDAArch::supported(), part))
      return false;
    if (!llvm::is_contained(parsed, part.str()))
      parsed.push_back(part.str());
  }
  archs = std::move(parsed);
  return true;
}

static const EmitStage cudaStages[] = {EmitStage::Layout, EmitStage::GPU,   EmitStage::LLVM,
                                       EmitStage::PTX,    EmitStage::Cubin, EmitStage::Fatbin,
                                       EmitStage::Asm,    EmitStage::Obj,   EmitStage::Header};

const TargetDescription &tilec::getCUDATargetDescription() {
  static const TargetDescription description{TargetKind::CUDA,
                                             "cuda",
                                             "sm_80, sm_86, sm_89, sm_90, sm_90a (comma lists of sm_* make a fatbin)",
                                             parseCUDA,
                                             "CUDA architectures only (sm_80, sm_86, sm_89, sm_90, sm_90a)",
                                             cudaStages,
                                             ".o",
                                             ".so",
                                             "an object and a header"};
  return description;
}

std::unique_ptr<TargetBackend> tilec::createCUDABackend(const CUDATargetOptions &options) {
  return std::make_unique<CUDABackend>(options);
}
