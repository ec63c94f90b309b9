//===- TileAttrs.h - Attributes, enums and interfaces of tile ---*- C++ -*-===//
//
// Enums (Scope, GemmPolicy, ReduceKind, LoopKind), buffer-scope helpers,
// TileLayoutAttrInterface and the layout attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEATTRS_H
#define TILEC_DIALECT_TILE_IR_TILEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"

#include <optional>

#include "tilec/Dialect/Tile/IR/FragmentLayout.h"

#include "tilec/Dialect/Tile/IR/TileEnums.h.inc"

namespace tilec::tile {

/// The scope of a buffer type: the `#tile.scope` memory space of `type`, or
/// nullopt when its memory space is something else (or absent).
std::optional<Scope> getBufferScope(mlir::MemRefType type);

/// True when `type` is a memref whose memory space is `#tile.scope<scope>`.
bool isBufferInScope(mlir::Type type, Scope scope);

/// Builds `memref<shape x elementType, #tile.scope<scope>>` (identity layout;
/// use mlir::ShapedType::kDynamic for runtime dimensions of global tensors).
mlir::MemRefType getBufferType(llvm::ArrayRef<int64_t> shape,
                               mlir::Type elementType, Scope scope);

} // namespace tilec::tile

#include "tilec/Dialect/Tile/IR/TileAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileAttrs.h.inc"

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_H
