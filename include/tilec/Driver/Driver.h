//===- Driver.h - The compilation pipelines as a library --------*- C++ -*-===//
//
// `compile` runs one invocation described by CompileOptions: reads the input,
// runs the frontend and the target pipeline up to the requested stage, and
// writes the outputs. The tilec CLI only parses flags and calls it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_DRIVER_H
#define TILEC_DRIVER_DRIVER_H

#include "tilec/Driver/CompileOptions.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Registers every dialect tilec's pipelines use.
void registerTilecDialects(mlir::DialectRegistry &registry);

/// Runs one compilation. Diagnostics go to `errs`; text stages without `-o`
/// go to `outs`. Returns the process exit code (0 on success).
int compile(const CompileOptions &options, llvm::raw_ostream &outs, llvm::raw_ostream &errs);

/// `path` as a make rule writes it (as GCC's -MQ does): blanks and '#'
/// escaped with a backslash, '$' doubled.
std::string quoteForMake(llvm::StringRef path);

} // namespace tilec

#endif // TILEC_DRIVER_DRIVER_H
