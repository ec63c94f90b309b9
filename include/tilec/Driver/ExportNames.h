//===- ExportNames.h - Exported kernel symbols that would collide -*- C++ -*-===//
//
// The check of every kernel's exported C symbol against the names a C
// program already has (lib/Driver/ExportNames.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DRIVER_EXPORTNAMES_H
#define TILEC_DRIVER_EXPORTNAMES_H

#include "tilec/Target/Backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilec {

/// Why a kernel exported as C symbol `name` on a `kind` target would
/// collide with the program (`main`, a C library or POSIX function or
/// function-like macro, a <cuda.h> name on CUDA), or "" when it would not.
/// Only host, CUDA and Ascend export the kernel's bare name.
std::string exportedNameConflict(llvm::StringRef name, TargetKind kind);

/// Reports, at each kernel's name, every kernel of `module` whose symbol
/// would collide (exportedNameConflict); `fromKernelName` and `prefixed`
/// say whether --kernel-name or --kernel-prefix made the name.
mlir::LogicalResult checkExportedNames(mlir::ModuleOp module, TargetKind kind, bool fromKernelName, bool prefixed);

} // namespace tilec

#endif // TILEC_DRIVER_EXPORTNAMES_H
