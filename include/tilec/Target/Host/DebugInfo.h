//===- DebugInfo.h - Source lines of the .tile file in LLVM code -*- C++ -*-===//
//
// `-g` and `-lineinfo`: the frontend gives every op the .tile file:line:col
// it comes from; before the translation to LLVM IR every llvm.func gets a
// DISubprogram, so that the translation turns those locations into
// DILocations (DWARF line tables on the host, `.loc` directives in PTX).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_HOST_DEBUGINFO_H
#define TILEC_TARGET_HOST_DEBUGINFO_H

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/IR/Operation.h"
#include "tilec/Target/Backend.h"

namespace tilec {

/// Gives every llvm.func directly in `scope` (a builtin.module or a
/// gpu.module) that has a body a DISubprogram, all in one compile unit of
/// `kind` named after the first source file found. Each op of a body keeps
/// its first file:line:col; one from another file (an imported helper
/// module) is scoped to that file, one without a source line gets line 0,
/// as compilers mark code of their own, so that every call has a location.
void attachDebugInfo(mlir::Operation *scope, mlir::LLVM::DIEmissionKind kind);

/// The LLVM emission kind of `level` on the host: Full or LineTablesOnly.
mlir::LLVM::DIEmissionKind hostEmissionKind(DebugInfoLevel level);

} // namespace tilec

#endif // TILEC_TARGET_HOST_DEBUGINFO_H
