//===- Pipelines.h - Target pipelines after the tile stage ------*- C++ -*-===//
//
// Each target lowers the verified, canonicalized tile module and writes the
// requested stage. The driver dispatches here once the frontend is done.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_PIPELINES_H
#define TILEC_DRIVER_PIPELINES_H

#include "tilec/Driver/CompileOptions.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Runs `opts.target`'s pipeline on `module` up to `opts.emit`, writing the
/// result to `out` (the `-o` file, or stdout for text stages). Side outputs
/// (e.g. the header next to an object) are named after `opts.outputFile`.
/// Stages a target does not have yet end with one error naming both.
mlir::LogicalResult runTargetPipeline(mlir::ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                      llvm::raw_ostream &errs);

} // namespace tilec

#endif // TILEC_DRIVER_PIPELINES_H
