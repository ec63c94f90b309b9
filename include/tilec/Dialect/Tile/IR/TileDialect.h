//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Declares the tile dialect and pulls in everything it defines: enums,
// attributes, the layout interface and the operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_H
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"

#include "tilec/Dialect/Tile/IR/TileAttrs.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h.inc"

#include "tilec/Dialect/Tile/IR/TileOps.h"

namespace tilec::tile {

/// Adds the tile dialect to `registry`.
void registerTileDialect(mlir::DialectRegistry &registry);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_H
