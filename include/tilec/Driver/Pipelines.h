//===- Pipelines.h - The target half of one compilation ---------*- C++ -*-===//
//
// After the frontend, the driver checks the stage against the target's
// description, creates its backend with the options copied from the command
// line, runs it, and writes the header beside the default output. Every
// error is a diagnostic; those without a source location print as
// `tilec: error: ...`.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_PIPELINES_H
#define TILEC_DRIVER_PIPELINES_H

#include "tilec/Driver/CompileOptions.h"
#include "tilec/Frontend/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace tilec {

/// Runs `opts.target`'s backend on `module` up to `opts.emit`, writing the
/// result to `out` (the `-o` file, or stdout for text stages), and for the
/// default stage the header beside the output file, unless `failedSoFar`
/// says a warning made an error (-Werror). `errs` receives the tools' own
/// output under `-v`.
mlir::LogicalResult runTargetPipeline(mlir::ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                      llvm::raw_ostream &errs, llvm::function_ref<bool()> failedSoFar = nullptr);

/// Creates the backend of `opts.target` with the target's options copied
/// from `opts`; null after an error on a target option.
std::unique_ptr<TargetBackend> createBackend(const CompileOptions &opts, mlir::MLIRContext *context,
                                             llvm::raw_ostream &errs);

/// Emits the driver's diagnostic `id` (DriverDiagnostics.def) at the tool's
/// location: it prints as `tilec: error: <message>`.
template <typename... Args>
mlir::InFlightDiagnostic emitDriverError(mlir::MLIRContext *context, DiagID id, Args &&...args) {
  return emitToolError(context) << llvm::formatv(getDiagFormat(id), std::forward<Args>(args)...).str();
}

/// The name the default stage's file gets when `-o` is absent: the input's
/// file name ("a.tile" for stdin) with the target's extension (".h" for
/// `header`).
std::string defaultOutputName(const CompileOptions &opts);

/// The file the default stage writes: `-o`, else the input's file name
/// ("a.tile" for stdin) with the target's extension (".h" for `header`).
std::string outputPath(const CompileOptions &opts);

/// The header's path: `-o` for `--emit=header` (the input's name with .h
/// without it), else the default output's path with .h. Its include guard
/// comes from it.
std::string headerPath(const CompileOptions &opts);

/// How outputs name the input: its file name, "<stdin>" for "-".
std::string sourceName(const CompileOptions &opts);

} // namespace tilec

#endif // TILEC_DRIVER_PIPELINES_H
