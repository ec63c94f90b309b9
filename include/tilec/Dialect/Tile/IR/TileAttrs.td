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

def Tile_CopyEngine : I32EnumAttr<"CopyEngine", "engine of a pipeline's staged copies",
                                  [I32EnumAttrCase<"Sync", 0, "sync">, I32EnumAttrCase<"Async", 1, "async">,
                                   I32EnumAttrCase<"Tensor", 2, "tensor">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tilec::tile";
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
    Which thread holds which element of a fragment (or of a `T.Parallel`
    iteration space), and in which of its `regs` registers. Each dimension's
    index is a sum of mixed-radix digits of the thread id `t` (in
    `[0, threads)`) or of the register number `r` (in `[0, regs)`):

        index[d] = sum of ((x / stride) % count) * scale

    over the fields of dimension `d`, written `thread(stride, count, scale)`
    (x = t) or `reg(stride, count, scale)` (x = r). Thread digits no field
    reads replicate the fragment: those threads hold the same elements.

    The mma.sync m16n8 accumulator of a 16 x 8 tile on one warp:

    ```mlir
    #tile.fragment_layout<shape = [16, 8], threads = 32, regs = 4,
        dims = [[thread(4, 8, 1), reg(2, 2, 8)], [reg(1, 2, 1), thread(1, 4, 2)]]>
    ```

    Layout inference (`tile-infer-layouts`) writes one on every fragment
    allocation; `tile.annotate_layout` pins one.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "extent of every dimension">:$shape,
    "int64_t":$numThreads,
    "int64_t":$numRegs,
    ArrayRefParameter<"::tilec::tile::DimLayoutField", "the fields, in dimension order">:$fields);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::tilec::tile::FragmentLayout &":$layout), [{
      auto fields = layout.flatFields();
      return $_get($_ctxt, layout.shape, layout.numThreads, layout.numRegs, fields);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The layout as the algebra of FragmentLayout.h works on it.
    ::tilec::tile::FragmentLayout getLayout() const;
  }];
}

/// `#tile.gemm_plan<...>`: how tile-infer-layouts decided a tile.gemm runs.
def Tile_GemmPlanAttr : Tile_Attr<"GemmPlan", "gemm_plan"> {
  let summary = "warp-level matrix instruction plan of a tile.gemm";
  let description = [{
    The gemm runs on the target's warp-level matrix instruction, its M x N
    tile split over `warps_m` x `warps_n` warps; the accumulator has the
    instruction's accumulator layout. `a_in_registers`: A is a fragment held
    in the accumulator layout of an M x K tile over `warps_m` x 1 warps, whose
    registers are the instruction's A operands. A gemm without this attribute
    runs element by element.

    ```mlir
    #tile.gemm_plan<warps_m = 2, warps_n = 2, a_in_registers = false>
    ```
  }];
  let parameters = (ins "int64_t":$warps_m, "int64_t":$warps_n, "bool":$a_in_registers);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Plan attributes (tile-plan-pipelines, tile-plan-shared-memory)
//===----------------------------------------------------------------------===//

/// `#tile.pipeline<...>`: how tile-plan-pipelines decided a T.Pipelined loop runs.
def Tile_PipelinePlanAttr : Tile_Attr<"PipelinePlan", "pipeline"> {
  let summary = "software pipeline plan of a T.Pipelined tile.for";
  let description = [{
    The loop's staged copies (the `tile.copy` ops of its body marked
    `tile.staged`: global -> shared, issued `stages - 1` iterations ahead
    into `stages` buffers each) run on `engine`:
    - `sync`: plain loads and stores (the target has no asynchronous copy);
    - `async`: per-thread asynchronous copies, one commit group per
      iteration (cp.async);
    - `tensor`: descriptor-driven tensor copies issued by one lane,
      completing on one barrier per stage (TMA); their tiles are placed on
      1 KB boundaries by tile-plan-shared-memory.
    `handoff`: the loop ends in a matrix-instruction gemm of two staged tiles
    (the consumer); its next tile's first fragments are loaded during its
    last k step, and the wait for the producer's copies moves there.

    ```mlir
    #tile.pipeline<stages = 3, engine = async, handoff = true>
    ```
  }];
  let parameters = (ins "int64_t":$stages, EnumParameter<Tile_CopyEngine>:$engine, "bool":$handoff);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

/// `#tile.shared_buffer<...>`: where tile-plan-shared-memory placed a shared buffer.
def Tile_SharedBufferAttr : Tile_Attr<"SharedBuffer", "shared_buffer"> {
  let summary = "placement of a shared tile.alloc in the kernel's shared window";
  let description = [{
    The buffer's `stages` copies (more than one when a pipeline stages it)
    start at byte `offset` of the shared window, one after the other. Its
    16-byte chunks are XOR-swizzled over `swizzle` bytes (32, 64 or 128; 0:
    none; SharedSwizzle.h). `box_cols` (0: none): rows wider than 128 bytes
    are stored as column boxes of `box_cols` elements, box-major, each box
    swizzled like a tile of 128-byte rows (the layout of tensor-copy boxes).

    ```mlir
    #tile.shared_buffer<offset = 0, stages = 3, swizzle = 128, box_cols = 0>
    ```
  }];
  let parameters = (ins "int64_t":$offset, "int64_t":$stages, "int64_t":$swizzle, "int64_t":$box_cols);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

/// `#tile.shared_memory<...>`: the shared window of one tile.launch.
def Tile_SharedMemoryPlanAttr : Tile_Attr<"SharedMemoryPlan", "shared_memory"> {
  let summary = "the shared memory window of a tile.launch";
  let description = [{
    The window is `size` bytes: the shared buffers (`tile.shared_buffer`
    offsets), then from `scratch_offset` the scratch area of cross-warp
    reductions (two halves of `reduce_scratch` bytes, used in turn) and of
    fragment scans. `aligned_window`: the window starts at the first 1 KB boundary
    of the dynamic shared memory (tensor copies with 128-byte swizzle need
    their tiles there), which then holds 1 KB more for the pad.

    ```mlir
    #tile.shared_memory<size = 49152, scratch_offset = 49152, reduce_scratch = 0, aligned_window = true>
    ```
  }];
  let parameters = (ins "int64_t":$size, "int64_t":$scratch_offset, "int64_t":$reduce_scratch, "bool":$aligned_window);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Dynamic shared memory bytes the kernel needs (the pad included).
    int64_t getKernelBytes() const { return getSize() + (getAlignedWindow() ? 1024 : 0); }
  }];
}

//===----------------------------------------------------------------------===//
// Attributes of lowered kernels
//===----------------------------------------------------------------------===//

/// `#tile.tensor_map<...>`: one tensor-copy descriptor of a lowered kernel.
def Tile_TensorMapAttr : Tile_Attr<"TensorMap", "tensor_map"> {
  let summary = "a tensor-copy descriptor the launcher encodes for a kernel";
  let description = [{
    The kernel's tensor argument `arg` (rank 2) copied in boxes of
    `box_inner` (contiguous) x `box_outer` elements of `dtype` (the kernel
    argument spelling), with `swizzle` bytes of 16-byte-chunk XOR swizzle
    (0, 32, 64 or 128). A lowered kernel lists them, one per trailing
    parameter, in `tile.tensor_maps`; the launcher encodes each (on CUDA a
    CUtensorMap) and passes it by value.

    ```mlir
    #tile.tensor_map<arg = 0, box_inner = 64, box_outer = 128, dtype = "float16", swizzle = 128>
    ```
  }];
  let parameters = (ins "int64_t":$arg, "int64_t":$box_inner, "int64_t":$box_outer,
      StringRefParameter<"the element dtype">:$dtype, "int64_t":$swizzle);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_TD
