//===- Pipelines.cpp - The target half of one compilation -----------------===//
//
// 1. Check `--emit` against the target's stages.
// 2. Create its backend (TargetOptions.cpp copies the flags into the
//    target's options).
// 3. lower, serialize into the output; `header` then writes the header;
//    `layout` draws the layouts the lowering would choose instead.
// 4. The default stage also writes the header beside the output file.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/Pipelines.h"
#include "tilec/Driver/LayoutSVG.h"
#include "tilec/Driver/OutputFile.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace tilec;

std::string tilec::defaultOutputName(const CompileOptions &opts) {
  const TargetDescription &target = opts.target.getDescription();
  // The file name of the input (assigning a SmallString a piece of itself overlaps: ASan).
  llvm::SmallString<128> path(llvm::sys::path::filename(opts.inputFile == "-" ? "a.tile" : opts.inputFile));
  llvm::StringRef ext = opts.emit == EmitStage::Header                     ? ".h"
                        : opts.emit == EmitStage::Cubin                      ? ".cubin"
                        : opts.emit == EmitStage::Fatbin                     ? ".fatbin"
                        : opts.shared && !target.sharedExtension.empty() ? target.sharedExtension
                                                                          : target.extension;
  llvm::sys::path::replace_extension(path, ext);
  return path.str().str();
}

std::string tilec::outputPath(const CompileOptions &opts) {
  bool toFile = !opts.outputFile.empty() && opts.outputFile != "-";
  return toFile ? opts.outputFile : defaultOutputName(opts);
}

std::string tilec::sourceName(const CompileOptions &opts) {
  return opts.inputFile == "-" ? "<stdin>" : llvm::sys::path::filename(opts.inputFile).str();
}

/// The error for a stage the target does not offer: its text stages, and
/// what the default writes.
static mlir::LogicalResult stageUnavailable(mlir::MLIRContext *ctx, const CompileOptions &opts) {
  const TargetDescription &target = opts.target.getDescription();
  llvm::SmallVector<llvm::StringRef> names;
  for (EmitStage stage : target.stages)
    if (stage != EmitStage::Obj)
      names.push_back(stageName(stage));
  std::string use = names.size() < 2 ? llvm::join(names, "")
                                     : llvm::join(llvm::ArrayRef(names).drop_back(), ", ") + " or " +
                                           names.back().str();
  return emitDriverError(ctx, DiagID::drv_stage_unavailable, stageName(opts.emit), opts.target.spelling, use,
                         target.defaultWrites);
}

std::string tilec::headerPath(const CompileOptions &opts) {
  llvm::SmallString<128> path(outputPath(opts));
  if (opts.emit != EmitStage::Header)
    llvm::sys::path::replace_extension(path, ".h");
  return path.str().str();
}

/// Writes `k.h` beside the default output `k.o`, `k.spv`, `k.metal`, ...
static mlir::LogicalResult writeHeaderBeside(mlir::MLIRContext *ctx, const CompileOptions &opts,
                                             TargetBackend &backend) {
  std::string path = headerPath(opts);
  std::string source = sourceName(opts), guard = headerGuard(path), text, error;
  llvm::raw_string_ostream os(text);
  backend.writeHeader(HeaderInfo{source, guard}, os);
  // An unchanged header keeps its time stamp: what includes it need not rebuild.
  if (!writeFileAtomically(path, text, error, /*keepIfUnchanged=*/true))
    return emitDriverError(ctx, DiagID::drv_output_unwritable, error);
  return mlir::success();
}

mlir::LogicalResult tilec::runTargetPipeline(mlir::ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                             llvm::raw_ostream &errs, llvm::function_ref<bool()> failedSoFar) {
  mlir::MLIRContext *ctx = module.getContext();
  if (!opts.target.getDescription().offers(opts.emit))
    return stageUnavailable(ctx, opts);
  std::unique_ptr<TargetBackend> backend = createBackend(opts, ctx, errs);
  if (!backend)
    return mlir::failure();
  std::string source = sourceName(opts);
  if (opts.emit == EmitStage::Layout) {
    std::vector<KernelLayouts> kernels;
    if (mlir::failed(backend->collectLayouts(module, kernels)))
      return mlir::failure();
    renderLayoutSVG(kernels, source, out);
    return mlir::success();
  }
  if (mlir::failed(backend->lower(module, opts.emit)) ||
      mlir::failed(backend->serialize(module, opts.emit, source, out)))
    return mlir::failure();
  if (opts.emit == EmitStage::Header) {
    std::string guard = headerGuard(headerPath(opts));
    backend->writeHeader(HeaderInfo{source, guard}, out);
    return mlir::success();
  }
  if (opts.emit != EmitStage::Obj || opts.outputFile == "-" || (failedSoFar && failedSoFar()))
    return mlir::success();
  return writeHeaderBeside(ctx, opts, *backend);
}
