//===- TileInterfaces.td - Interfaces of the tile dialect --*- tablegen -*-===//
//
// TileLayoutAttrInterface: how a buffer's elements map to memory, threads and
// registers. Passes read layouts only through this interface.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEINTERFACES_TD
#define TILEC_DIALECT_TILE_IR_TILEINTERFACES_TD

include "mlir/IR/OpBase.td"

def TileLayoutAttrInterface : AttrInterface<"TileLayoutAttrInterface"> {
  let cppNamespace = "::tilec::tile";
  let description = [{
    A layout of a tile buffer. Two families implement it:

    - shared-memory layouts (`#tile.swizzled<bytes = N>`): an address
      permutation of a shared buffer that avoids bank conflicts;
    - fragment layouts (`#tile.fragment_layout<...>`): the mapping
      element -> (thread, register) of a fragment buffer, which layout
      inference computes.

    Layout inference writes these attributes; later passes query them through
    this interface, never by attribute name.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/[{Returns the number of buffer dimensions the layout describes,
                 or 0 when it applies to a buffer of any rank.}],
      /*retTy=*/"int64_t", /*methodName=*/"getRank">,
    InterfaceMethod<
      /*desc=*/[{Returns true for a shared-memory swizzle (an address
                 permutation), false for a thread/register mapping.}],
      /*retTy=*/"bool", /*methodName=*/"isSwizzled">,
    InterfaceMethod<
      /*desc=*/[{Returns the buffer scope this layout applies to.}],
      /*retTy=*/"::tilec::tile::Scope", /*methodName=*/"getScope">,
    InterfaceMethod<
      /*desc=*/[{Checks that the layout can describe a buffer of type `type`;
                 reports through `emitError` and fails otherwise.}],
      /*retTy=*/"::llvm::LogicalResult", /*methodName=*/"verifyBuffer",
      /*args=*/(ins "::mlir::MemRefType":$type,
                    "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError)>,
  ];
}

#endif // TILEC_DIALECT_TILE_IR_TILEINTERFACES_TD
