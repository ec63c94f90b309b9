//===- TileAttrs.td - Attributes and enums of the tile dialect -*- tablegen -*-===//
//
// Enums (scope, gemm policy, reduce kind, loop kind) and the layout attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEATTRS_TD
#define TILEC_DIALECT_TILE_IR_TILEATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "tilec/Dialect/Tile/IR/TileDialect.td"
include "tilec/Dialect/Tile/IR/TileInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_Scope : I32EnumAttr<"Scope", "memory scope of a tile buffer", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Shared", 1, "shared">,
    I32EnumAttrCase<"Fragment", 2, "fragment">,
    I32EnumAttrCase<"Local", 3, "local">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tilec::tile";
}

/// `#tile.scope<shared>`: the memory space of a tile buffer's memref type.
def Tile_ScopeAttr : EnumAttr<Tile_Dialect, Tile_Scope, "scope"> {
  let summary = "buffer scope (global, shared, fragment or local)";
  let description = [{
    The memory space of every tile buffer, e.g.
    `memref<128x64xf16, #tile.scope<shared>>`.
    - `global`: device memory; only kernel arguments have this scope.
    - `shared`: block-shared memory.
    - `fragment`: a register tile declared whole for the block; layout
      inference decides which thread holds which element.
    - `local`: per-thread private memory (also `alloc_var`, rank 0).
  }];
  let assemblyFormat = "`<` $value `>`";
}

def Tile_GemmPolicy : I32EnumAttr<"GemmPolicy", "how warps split M x N", [
    I32EnumAttrCase<"Square", 0, "square">,
    I32EnumAttrCase<"FullRow", 1, "full_row">,
    I32EnumAttrCase<"FullCol", 2, "full_col">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tilec::tile";
}

def Tile_GemmPolicyAttr : EnumAttr<Tile_Dialect, Tile_GemmPolicy, "gemm_policy"> {
  let summary = "warp partition policy of tile.gemm";
  let assemblyFormat = "`<` $value `>`";
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "reduction combiner", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Min", 1, "min">,
    I32EnumAttrCase<"Sum", 2, "sum">,
    I32EnumAttrCase<"AbsSum", 3, "abssum">,
    I32EnumAttrCase<"AbsMax", 4, "absmax">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tilec::tile";
}

def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce_kind"> {
  let summary = "combiner of tile.reduce";
  let assemblyFormat = "`<` $value `>`";
}

def Tile_LoopKind : I32EnumAttr<"LoopKind", "schedule of a tile.for loop", [
    I32EnumAttrCase<"Serial", 0, "serial">,
    I32EnumAttrCase<"Unroll", 1, "unroll">,
    I32EnumAttrCase<"Pipelined", 2, "pipelined">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tilec::tile";
}

def Tile_LoopKindAttr : EnumAttr<Tile_Dialect, Tile_LoopKind, "loop_kind"> {
  let summary = "schedule of tile.for (serial, unroll, pipelined)";
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_SwizzledAttr : Tile_Attr<"Swizzled", "swizzled", [
    DeclareAttrInterfaceMethods<TileLayoutAttrInterface>]> {
  let summary = "shared-memory swizzle layout";
  let description = [{
    An XOR swizzle of a shared buffer's rows over `bytes` (32, 64 or 128)
    bytes, as used by `T.make_swizzled_layout`: within each group of
    `bytes / 16` rows, the 16-byte chunk `c` of row `r` is stored at chunk
    `c ^ (r % (bytes / 16))`. Applies to shared buffers of rank >= 2 (the two
    innermost dimensions are swizzled).

    ```mlir
    #tile.swizzled<bytes = 128>
    ```
  }];
  let parameters = (ins "unsigned":$bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Tile_FragmentLayoutAttr : Tile_Attr<"FragmentLayout", "fragment_layout", [
    DeclareAttrInterfaceMethods<TileLayoutAttrInterface>]> {
  let summary = "element -> (thread, register) mapping of a fragment";
  let description = [{
    A blocked mapping of a fragment buffer onto the threads of a block:
    dimension `d` of the buffer is split into `thread_shape[d]` groups of
    threads, each holding `value_shape[d]` consecutive elements in registers.
    The parameters are placeholders that layout inference will fill and
    refine; the rank is the number of entries.

    ```mlir
    #tile.fragment_layout<thread_shape = [32, 4], value_shape = [4, 32]>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "threads per dimension">:$thread_shape,
    ArrayRefParameter<"int64_t", "registers per thread per dimension">:$value_shape);
  let assemblyFormat = [{
    `<` `thread_shape` `=` `[` $thread_shape `]` `,`
        `value_shape` `=` `[` $value_shape `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of threads the layout spreads the fragment over.
    int64_t getNumThreads() const;
  }];
}

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_TD
