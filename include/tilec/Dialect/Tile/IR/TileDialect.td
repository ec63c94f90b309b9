//===- TileDialect.td - The tile dialect definition --------*- tablegen -*-===//
//
// The `tile` dialect: block-level, target-neutral IR mirroring the .tile
// language (kernels, launches, buffers with a scope, whole-tile operations).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilec::tile";
  let summary = "Block-level tile operations of the .tile language";
  let description = [{
    The `tile` dialect is the first IR `tilec` builds from a `.tile` kernel.
    It is block-level and target-neutral: a `tile.kernel` holds one
    `tile.launch` whose body runs once per block; tile operations (`tile.copy`,
    `tile.gemm`, `tile.reduce`, ...) are collective over the whole block.

    Buffers are builtin memrefs whose memory space is a `#tile.scope<...>`
    attribute (`global`, `shared`, `fragment`, `local`). Scalars, element
    loads/stores and control flow use upstream dialects (`arith`, `math`,
    `memref`, `scf`).

    Layouts are attributes implementing `TileLayoutAttrInterface`
    (`#tile.swizzled<...>`, `#tile.fragment_layout<...>`).

    Kernel argument attributes understood by the dialect:
    - `tile.name = "A"`: the source-level name of the argument;
    - `tile.dtype = "float16"`: the source dtype spelling (records e.g.
      unsignedness, which signless IR types do not carry);
    - `tile.dynamic`: marks an `index` argument as a runtime dimension.

    Operation attributes the planning passes write (typed, through the
    dialect's attribute helpers):
    - `tile.layout = #tile.fragment_layout<...>` on fragment allocations and
      on `tile.parallel` loops that no fragment drives (tile-infer-layouts);
    - `tile.gemm_plan = #tile.gemm_plan<...>` on gemms that run on warp-level
      matrix instructions (tile-infer-layouts).
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let discardableAttrs = (ins
    "::tilec::tile::FragmentLayoutAttr":$layout,
    "::tilec::tile::GemmPlanAttr":$gemm_plan
  );
  let extraClassDeclaration = [{
    /// Names of the kernel argument attributes.
    static constexpr ::llvm::StringLiteral kArgNameAttrName = "tile.name";
    static constexpr ::llvm::StringLiteral kArgDtypeAttrName = "tile.dtype";
    static constexpr ::llvm::StringLiteral kArgDynamicAttrName = "tile.dynamic";
    /// On tensor arguments: each dimension as written, a number or the name
    /// of a runtime dimension (for the generated header's documentation).
    static constexpr ::llvm::StringLiteral kArgShapeAttrName = "tile.shape";

    /// Registers the attributes (TileAttrs.cpp).
    void registerAttributes();
  }];
}

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_TD
