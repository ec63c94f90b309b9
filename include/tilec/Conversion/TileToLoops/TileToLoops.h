//===- TileToLoops.h - Tile dialect to scf/memref loops ---------*- C++ -*-===//
//
// The host lowering of the tile dialect: every tile operation becomes a
// serial loop nest over the whole tile (spec section 6, literally).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_CONVERSION_TILETOLOOPS_TILETOLOOPS_H
#define TILEC_CONVERSION_TILETOLOOPS_TILETOLOOPS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace tilec {

/// Names of the functions `convert-tile-to-loops` makes of kernel `name`.
std::string hostBodyFunctionName(llvm::StringRef kernel);
std::string hostGridFunctionName(llvm::StringRef kernel);

/// Patterns lowering the tile operations inside a function (copy, gemm,
/// fill, reduce, cumsum, atomic_add, print, alloc, parallel, for, hints) to
/// scf/memref/arith/math (and llvm for printf). Buffers keep their scopes.
void populateTileToLoopsPatterns(mlir::RewritePatternSet &patterns);

/// Replaces every `tile.kernel` of `module` by its grid and body functions
/// (see ConvertTileToLoops in Passes.td), lowers their tile operations,
/// strips the buffer scopes and legalizes i4 buffers. `stackLimit` bounds
/// the block buffers placed on the stack.
mlir::LogicalResult convertTileToLoops(mlir::ModuleOp module, int64_t stackLimit);

} // namespace tilec

#endif // TILEC_CONVERSION_TILETOLOOPS_TILETOLOOPS_H
