//===- TileGen.h - Typed AST to the tile dialect ----------------*- C++ -*-===//
//
// The entry point of the semantic half of the frontend: runs Sema on a parsed
// module and builds the tile-dialect module of its kernels.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_TILEGEN_H
#define TILEC_FRONTEND_TILEGEN_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Support/Define.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace tilec {

/// Runs Sema on `module` (constants, -D overrides, factory parameters, name
/// resolution, builtin checks, dtype rules, shapes) and builds the
/// tile-dialect module, then mlir::verify. Returns null after emitting
/// diagnostics on any user error. `srcMgr` is non-const so -D values can be
/// added as buffers.
mlir::OwningOpRef<mlir::ModuleOp> generateTileModule(const ast::Module &module, llvm::SourceMgr &srcMgr,
                                                     ast::ASTContext &ctx, DiagnosticEmitter &diags,
                                                     mlir::MLIRContext &mlirCtx, const FrontendOptions &opts);
/// The same with only -D values.
mlir::OwningOpRef<mlir::ModuleOp> generateTileModule(const ast::Module &module, llvm::SourceMgr &srcMgr,
                                                     ast::ASTContext &ctx, DiagnosticEmitter &diags,
                                                     mlir::MLIRContext &mlirCtx, llvm::ArrayRef<Define> defines);

} // namespace tilec

#endif // TILEC_FRONTEND_TILEGEN_H
