//===- Driver.cpp - One tilec invocation, from file to outputs ------------===//
//
// 1. Read the input (optionally split at `# -----` markers).
// 2. Per chunk: set up a context, a source manager and a diagnostic handler
//    (printing, or verifying `expected-*` markers).
// 3. Run the frontend up to the requested stage, then the target pipeline.
// 4. Write the result to `-o` or stdout, and the dependency file for `-MD`.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/Driver.h"
#include "tilec/Driver/ExportNames.h"
#include "tilec/Driver/OutputFile.h"
#include "tilec/Driver/Pipelines.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Lexer.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/TileGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Timer.h"

#include <chrono>

using namespace tilec;

void tilec::registerTilecDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect>();
}

namespace {

/// Reports how long each phase took when `-v` is given.
class PhaseTimer {
public:
  PhaseTimer(bool enabled, llvm::raw_ostream &errs) : enabled(enabled), errs(errs) {}
  void done(llvm::StringRef phase) {
    if (!enabled)
      return;
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last).count();
    errs << llvm::format("tilec: %-10s %8.3f ms\n", phase.str().c_str(), ms);
    last = now;
  }

private:
  bool enabled;
  llvm::raw_ostream &errs;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

/// Whether the requested output is text, which goes to stdout when `-o` is
/// absent or `-`: every stage but cubin, fatbin and the default stage of the
/// targets that write objects or SPIR-V.
bool isTextOutput(const CompileOptions &opts) {
  switch (opts.emit) {
  case EmitStage::Cubin:
  case EmitStage::Fatbin:
    return false;
  case EmitStage::Obj:
    return opts.target.getDescription().textDefault;
  default:
    return true;
  }
}

/// Writes a make rule for `-MD` / `--emit=deps`: the targets (`-MT`/`-MQ`,
/// else the output), the input and the helper modules it imports, and with
/// `-MP` a phony rule for each module so that deleting one does not break
/// the build.
void writeDeps(const CompileOptions &opts, llvm::ArrayRef<std::string> imports, llvm::raw_ostream &os) {
  std::vector<std::string> targets = opts.depTargets;
  if (targets.empty())
    targets.push_back(quoteForMake(opts.emit == EmitStage::Deps ? defaultOutputName(opts) : outputPath(opts)));
  os << llvm::join(targets, " ") << ": " << quoteForMake(opts.inputFile);
  for (const std::string &file : imports)
    os << " \\\n  " << quoteForMake(file);
  os << "\n";
  if (opts.depPhonyTargets)
    for (const std::string &file : imports)
      os << "\n" << quoteForMake(file) << ":\n";
}

/// Prepends `prefix` to the symbol of every kernel of `module` (the exported
/// launchers and the private kernels of launch sequences) and to the calls
/// of them, so that every symbol the outputs export carries it.
void applyKernelPrefix(mlir::ModuleOp module, llvm::StringRef prefix) {
  if (prefix.empty())
    return;
  llvm::SmallVector<tile::KernelOp> kernels(module.getOps<tile::KernelOp>());
  for (tile::KernelOp kernel : kernels) {
    mlir::StringAttr renamed = mlir::StringAttr::get(module.getContext(), prefix + kernel.getSymName());
    (void)mlir::SymbolTable::replaceAllSymbolUses(kernel, renamed, module);
    mlir::SymbolTable::setSymbolName(kernel, renamed);
  }
}

/// Prints the diagnostics at getToolLoc() (no source location) as
/// `tilec: error: <message>`; the others go on to the printer or verifier
/// registered before it. In verify mode they are printed, not verified.
class ToolDiagnosticPrinter {
public:
  ToolDiagnosticPrinter(mlir::MLIRContext &context, llvm::raw_ostream &os) : context(context) {
    mlir::Location toolLoc = getToolLoc(&context);
    handlerId = context.getDiagEngine().registerHandler([toolLoc, &os](mlir::Diagnostic &diag) {
      if (diag.getLocation() != toolLoc)
        return mlir::failure();
      auto print = [&](mlir::Diagnostic &d) {
        llvm::StringRef kind = d.getSeverity() == mlir::DiagnosticSeverity::Error     ? "error"
                               : d.getSeverity() == mlir::DiagnosticSeverity::Warning ? "warning"
                               : d.getSeverity() == mlir::DiagnosticSeverity::Note    ? "note"
                                                                                      : "remark";
        os << "tilec: " << kind << ": " << d.str() << "\n";
      };
      print(diag);
      for (mlir::Diagnostic &note : diag.getNotes())
        print(note);
      return mlir::success();
    });
  }
  ~ToolDiagnosticPrinter() { context.getDiagEngine().eraseHandler(handlerId); }

private:
  mlir::MLIRContext &context;
  mlir::DiagnosticEngine::HandlerID handlerId;
};

/// Applies -w, -Werror and -W[no-]NAME to each warning before the printer
/// or verifier sees it: a suppressed one goes no further, one made an error
/// is emitted again as an error. A warning with a name (diagnostic metadata,
/// e.g. "spill") says which flag controls it: `[-Wspill]`,
/// `[-Werror,-Wspill]`.
class WarningControl {
public:
  WarningControl(mlir::MLIRContext &context, const WarningOptions &options) : context(context) {
    handlerId = context.getDiagEngine().registerHandler([this, &options](mlir::Diagnostic &diag) {
      if (diag.getSeverity() != mlir::DiagnosticSeverity::Warning)
        return mlir::failure();
      llvm::StringRef name = warningName(diag);
      if (!options.isEnabled(name))
        return mlir::success();
      if (!options.isError(name)) {
        if (!name.empty())
          diag << (" [-W" + name + "]").str();
        return mlir::failure();
      }
      ++errors;
      std::string flag = name.empty() ? " [-Werror]" : (" [-Werror,-W" + name + "]").str();
      mlir::InFlightDiagnostic error = mlir::emitError(diag.getLocation()) << diag.str() << flag;
      for (mlir::Diagnostic &note : diag.getNotes())
        error.attachNote(note.getLocation()) << note.str();
      return mlir::success();
    });
  }
  ~WarningControl() { context.getDiagEngine().eraseHandler(handlerId); }

  /// How many warnings -Werror made errors.
  unsigned getNumErrors() const { return errors; }

private:
  /// The name a warning carries as its first string metadata, else the
  /// frontend kind its message is of; "" for none.
  static llvm::StringRef warningName(mlir::Diagnostic &diag) {
    for (const mlir::DiagnosticArgument &arg : diag.getMetadata())
      if (arg.getKind() == mlir::DiagnosticArgument::DiagnosticArgumentKind::String)
        return arg.getAsString();
    return frontendWarningName(diag.str());
  }

  mlir::MLIRContext &context;
  mlir::DiagnosticEngine::HandlerID handlerId;
  unsigned errors = 0;
};

/// One compilation of one buffer (a whole file, or one `# -----` chunk).
class Compilation {
public:
  Compilation(const CompileOptions &opts, llvm::raw_ostream &out, llvm::raw_ostream &errs)
      : opts(opts), out(out), errs(errs) {
    mlir::DialectRegistry registry;
    registerTilecDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    // User-facing errors point at the .tile source; a dump of generic IR
    // under them would only confuse.
    context.printOpOnDiagnostic(false);
  }

  /// The helper modules the frontend imported, in import order.
  void appendImports(std::vector<std::string> &files) const {
    for (unsigned id = 2; id <= srcMgr.getNumBuffers(); ++id) {
      std::string file = srcMgr.getMemoryBuffer(id)->getBufferIdentifier().str();
      // Buffers of -D values ("<-D NAME>") and other in-memory sources are
      // not files a build system could depend on.
      if (!llvm::sys::fs::is_regular_file(file))
        continue;
      if (!llvm::is_contained(files, file))
        files.push_back(file);
    }
  }

  mlir::LogicalResult run(std::unique_ptr<llvm::MemoryBuffer> buffer) {
    unsigned bufferId = srcMgr.AddNewSourceBuffer(normalizeLineEnds(std::move(buffer)), llvm::SMLoc());
    if (opts.verifyDiagnostics) {
      mlir::SourceMgrDiagnosticVerifierHandler verifier(srcMgr, &context, errs);
      ToolDiagnosticPrinter toolPrinter(context, errs);
      WarningControl warnings(context, opts.warnings);
      (void)runPipeline(bufferId);
      return verifier.verify();
    }
    RangeDiagnosticPrinter printer(srcMgr, context, errs);
    ToolDiagnosticPrinter toolPrinter(context, errs);
    WarningControl warnings(context, opts.warnings);
    warningControl = &warnings;
    mlir::LogicalResult result = runPipeline(bufferId);
    warningControl = nullptr;
    return mlir::failure(mlir::failed(result) || warnings.getNumErrors());
  }

private:
  FrontendOptions frontendOptions() const {
    FrontendOptions f;
    f.defines = opts.defines;
    f.includeDirs = opts.includeDirs;
    f.kernel = opts.kernel;
    f.kernelName = opts.kernelName;
    // `torch.cuda.get_device_capability()` in harness code that picks a
    // config: the CUDA target's first arch (sm_90a: (9, 0)); other targets
    // answer as sm_90 (docs/differences.md).
    if (opts.target.description && opts.target.description->kind == TargetKind::CUDA && !opts.target.archs.empty()) {
      llvm::StringRef arch = opts.target.archs.front();
      unsigned cc = 0;
      if (arch.consume_front("sm_") && !arch.take_while(llvm::isDigit).getAsInteger(10, cc) && cc >= 10) {
        f.deviceMajor = int(cc / 10);
        f.deviceMinor = int(cc % 10);
      }
    }
    return f;
  }

  mlir::LogicalResult runPipeline(unsigned bufferId) {
    DiagnosticEmitter diags(context, srcMgr);
    PhaseTimer timer(opts.verbose, errs);

    if (opts.emit == EmitStage::Tokens) {
      dumpTokens(srcMgr, bufferId, diags, out);
      timer.done("lex");
      return mlir::success(diags.getNumErrors() == 0);
    }

    ast::ASTContext astCtx;
    ast::Module module = parseModule(srcMgr, bufferId, astCtx, diags);
    timer.done("parse");
    if (diags.getNumErrors())
      return mlir::failure();
    if (opts.emit == EmitStage::AST) {
      ast::dump(module, srcMgr, out);
      return mlir::success();
    }

    mlir::OwningOpRef<mlir::ModuleOp> tileModule =
        generateTileModule(module, srcMgr, astCtx, diags, context, frontendOptions());
    timer.done("sema+gen");
    if (!tileModule || diags.getNumErrors())
      return mlir::failure();
    applyKernelPrefix(*tileModule, opts.kernelPrefix);
    if (opts.emit == EmitStage::Tile) {
      tileModule->print(out);
      return mlir::success();
    }
    // The symbols the target's outputs export (before launch sequences add
    // their private kernels): `main` or `exp` on host, CUDA, Ascend, in the
    // stages that write them (an object, its assembly, a header, Ascend C).
    TargetKind kind = opts.target.description ? opts.target.description->kind : TargetKind::Host;
    bool exportsSymbols = opts.emit == EmitStage::Obj || opts.emit == EmitStage::Asm ||
                          opts.emit == EmitStage::Header || opts.emit == EmitStage::AscendC;
    if (exportsSymbols &&
        mlir::failed(checkExportedNames(*tileModule, kind, !opts.kernelName.empty(), !opts.kernelPrefix.empty())))
      return mlir::failure();

    if (mlir::failed(runTileOptimizations(*tileModule)))
      return mlir::failure();
    timer.done("tile-opt");
    if (opts.emit == EmitStage::TileOpt) {
      tileModule->print(out);
      return mlir::success();
    }

    // A warning -Werror made an error fails the compile: no header either.
    mlir::LogicalResult result = runTargetPipeline(*tileModule, opts, out, errs,
                                                   [this] { return warningControl && warningControl->getNumErrors(); });
    timer.done("target");
    return result;
  }

  /// The target-neutral steps every pipeline starts with: kernel functions
  /// with several T.Kernel blocks or global buffers become launch sequences,
  /// then cleanups.
  mlir::LogicalResult runTileOptimizations(mlir::ModuleOp module) {
    mlir::PassManager pm(&context);
    pm.enableVerifier(true);
    pm.addPass(tilec::createTileOutlineLaunches());
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
    return pm.run(module);
  }

  const CompileOptions &opts;
  llvm::raw_ostream &out;
  llvm::raw_ostream &errs;
  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};
  const WarningControl *warningControl = nullptr; ///< while run() prints diagnostics
  llvm::SourceMgr srcMgr;
};

} // namespace

std::string tilec::quoteForMake(llvm::StringRef path) {
  std::string quoted;
  for (size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == ' ' || c == '\t') {
      // The backslashes before a blank are doubled, then the blank escaped.
      for (size_t j = i; j > 0 && path[j - 1] == '\\'; --j)
        quoted += '\\';
      quoted += '\\';
    } else if (c == '$') {
      quoted += '$';
    } else if (c == '#') {
      quoted += '\\';
    }
    quoted += c;
  }
  return quoted;
}

/// Writes the `-MD` dependency file beside the output (or at `-MF`).
static bool writeDepFile(const CompileOptions &opts, llvm::ArrayRef<std::string> imports, llvm::raw_ostream &errs) {
  std::string depPath = opts.depFile;
  if (depPath.empty()) {
    llvm::SmallString<128> p(outputPath(opts));
    llvm::sys::path::replace_extension(p, ".d");
    depPath = p.str().str();
  }
  std::string text, error;
  llvm::raw_string_ostream os(text);
  writeDeps(opts, imports, os);
  if (!writeFileAtomically(depPath, text, error)) {
    errs << "tilec: error: " << error << "\n";
    return false;
  }
  return true;
}

int tilec::compile(const CompileOptions &opts, llvm::raw_ostream &outs, llvm::raw_ostream &errs) {
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(opts.inputFile, &errorMessage);
  if (!input) {
    errs << "tilec: error: " << errorMessage << "\n";
    return 1;
  }

  // Text goes to stdout without -o or with `-o -`; a binary output to a
  // file. A file output is collected here and written only on success.
  bool text = isTextOutput(opts);
  if (opts.outputFile == "-" && !text) {
    errs << "tilec: error: -o - writes text to standard output, but "
         << (opts.emit == EmitStage::Obj ? "the default stage of target '" + opts.target.spelling + "'"
                                         : "--emit=" + stageName(opts.emit).str())
         << " writes a binary file; name it with -o FILE\n";
    return 1;
  }
  // Without -o the default stage writes its file (k.metal) like the binary ones.
  bool toStdout = opts.outputFile == "-" || (opts.outputFile.empty() && text && opts.emit != EmitStage::Obj);
  if (!toStdout) {
    // Say so before compiling (and before the header beside it is written).
    std::string path = outputPath(opts);
    llvm::StringRef dir = llvm::sys::path::parent_path(path);
    if (!dir.empty() && !llvm::sys::fs::is_directory(dir)) {
      errs << "tilec: error: cannot open output file '" << path << "': No such file or directory\n";
      return 1;
    }
  }
  std::string buffer;
  llvm::raw_string_ostream bufferStream(buffer);
  llvm::raw_ostream *out = toStdout ? &outs : &bufferStream;

  std::vector<std::string> imports;
  auto processChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk, llvm::raw_ostream &os) {
    Compilation compilation(opts, os, errs);
    mlir::LogicalResult result = compilation.run(std::move(chunk));
    compilation.appendImports(imports);
    return result;
  };
  mlir::LogicalResult result = mlir::success();
  if (opts.emit == EmitStage::Deps) {
    // The dependencies are the input and what it imports: run the frontend.
    CompileOptions frontendOnly = opts;
    frontendOnly.emit = EmitStage::Tile;
    llvm::raw_null_ostream discard;
    Compilation compilation(frontendOnly, discard, errs);
    result = compilation.run(std::move(input));
    compilation.appendImports(imports);
    if (mlir::succeeded(result))
      writeDeps(opts, imports, *out);
  } else {
    result = opts.splitInputFile
                 ? mlir::splitAndProcessBuffer(std::move(input), processChunk, *out, "# -----", "// -----")
                 : processChunk(std::move(input), *out);
  }
  if (mlir::failed(result))
    return 1;

  if (!toStdout && !writeFileAtomically(outputPath(opts), buffer, errorMessage)) {
    errs << "tilec: error: " << errorMessage << "\n";
    return 1;
  }
  if (opts.writeDepFile && opts.emit != EmitStage::Deps && !writeDepFile(opts, imports, errs))
    return 1;
  return 0;
}
