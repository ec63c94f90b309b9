//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Kernels, launches, buffers, the block-collective tile operations, loops and
// hints; TileThreadOps.td has the per-thread calls and warp specialization.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEOPS_TD

include "tilec/Dialect/Tile/IR/TileDialect.td"
include "tilec/Dialect/Tile/IR/TileAttrs.td"
include "tilec/Dialect/Tile/IR/TileInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

/// Element types of tile buffers (all signless; unsignedness lives in the
/// kernel argument's `tile.dtype`).
def Tile_ElementType : AnyTypeOf<[F16, BF16, F32, F64, F8E4M3FN, F8E5M2, F4E2M1FN,
                                  I1, I<4>, I8, I16, I32, I64],
                                 "tile element type">;

/// A memref of tile elements whose memory space is a `#tile.scope`.
def Tile_Buffer : ConfinedType<MemRefOf<[Tile_ElementType]>,
    [CPred<"::tilec::tile::getBufferScope(::llvm::cast<::mlir::MemRefType>($_self)).has_value()">],
    "memref of tile elements in a #tile.scope memory space",
    "::mlir::MemRefType">;

//===----------------------------------------------------------------------===//
// Base class
//===----------------------------------------------------------------------===//

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a kernel: the exported entry point of a .tile program";
  let description = [{
    One `@T.prim_func`. Arguments come in launcher order: global tensors
    (memrefs in `#tile.scope<global>`), then runtime dimensions (`index`),
    then scalars (integers and floats). The kernel has no results and one
    block ending in `tile.return`; it normally holds one `tile.launch`.

    Argument attributes: `tile.name` (source name), `tile.dtype` (source
    dtype spelling, e.g. `"uint8"`), `tile.dynamic` (unit, on `index`
    arguments that are runtime dimensions).

    ```mlir
    tile.kernel @gemm(%A: memref<?x4096xf16, #tile.scope<global>> {tile.name = "A", tile.dtype = "float16"},
                      %M: index {tile.name = "M", tile.dynamic},
                      %alpha: f32 {tile.name = "alpha", tile.dtype = "float32"}) {
      ...
      tile.return
    }
    ```

    Before tile-outline-launches the body may hold several launches, which
    run one after another, and `tile.alloc_global` buffers they share; after
    it such a kernel is a launch sequence (`tile.alloc_global` and
    `tile.call` of private kernels with one launch each).

    The builder does not create the entry block: call `addEntryBlock()`.
  }];

  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);

  let builders = [OpBuilder<(ins
    "::llvm::StringRef":$name, "::mlir::FunctionType":$type,
    CArg<"::llvm::ArrayRef<::mlir::NamedAttribute>", "{}">:$attrs,
    CArg<"::llvm::ArrayRef<::mlir::DictionaryAttr>", "{}">:$argAttrs)>];

  let extraClassDeclaration = [{
    //===------------------------------------------------------------------===//
    // FunctionOpInterface
    //===------------------------------------------------------------------===//
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    bool isDeclaration() { return isExternal(); }

    /// The kernel's first tile.launch, or null when it has none.
    LaunchOp getLaunchOp();
    /// Whether the body runs other kernels (tile.call) instead of holding a
    /// launch: what tile-outline-launches leaves of a kernel function with
    /// several launches or global allocations.
    bool isLaunchSequence();
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_ReturnOp : Tile_Op<"return", [
    Pure, HasParent<"KernelOp">, ReturnLike, Terminator]> {
  let summary = "terminator of a tile.kernel";
  let description = [{
    Ends the kernel body. Kernels return nothing.

    ```mlir
    tile.return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, ReturnLike, Terminator,
                                     ParentOneOf<["LaunchOp", "ParallelOp", "ForOp", "WarpGroupOp"]>]> {
  let summary = "terminator of tile.launch, tile.parallel, tile.for and tile.warp_group bodies";
  let description = [{
    Ends a region of `tile.launch`, `tile.parallel` or `tile.for`. It carries
    no values and may be left out in the textual form (the parser adds it;
    the printer omits it).

    ```mlir
    tile.yield
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_LaunchOp : Tile_Op<"launch", [
    HasParent<"KernelOp">, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "launch a grid of blocks (T.Kernel)";
  let description = [{
    `with T.Kernel(gx, gy, threads=128, cluster=(2, 1, 1)) as (bx, by):`.
    The operands are the 1 to 3 grid extents; the body runs once per block
    and its block arguments are the block indices, one per grid extent.
    `threads` holds the block's thread counts (x, y, z); `cluster`, when
    present, the thread-block cluster shape (x, y, z).

    Syntax:
    ```
    tile.launch grid(%gx[, %gy[, %gz]]) threads [tx, ty, tz]
                [cluster [cx, cy, cz]] as (%bx[, %by[, %bz]])
                (attributes {...})? { body }
    ```

    ```mlir
    tile.launch grid(%gx, %gy) threads [128, 1, 1] as (%bx, %by) {
      ...
    }
    ```

    It must sit directly in a `tile.kernel`; several launches in one kernel
    run in order (tile-outline-launches makes each a kernel of its own). The
    builder creates the body block (index arguments) and its `tile.yield`:
    insert before `getBodyBlock()->getTerminator()`.
  }];

  let arguments = (ins Variadic<Index>:$grid,
                       DenseI64ArrayAttr:$threads,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster);
  let regions = (region SizedRegion<1>:$body);

  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins
    "::mlir::ValueRange":$grid, "::llvm::ArrayRef<int64_t>":$threads,
    CArg<"::llvm::ArrayRef<int64_t>", "{}">:$cluster)>];

  let extraClassDeclaration = [{
    /// The body's block.
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    /// The block indices (bx, by, bz), one per grid extent.
    ::mlir::Block::BlockArgListType getBlockIndices() {
      return getBodyBlock()->getArguments();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_CallOp : Tile_Op<"call", [
    HasParent<"KernelOp">, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run another kernel's launch (a launch sequence)";
  let description = [{
    Runs the launch of the private kernel `callee` with `operands` as its
    arguments; calls run in order, each after the previous one completed (on
    a GPU: on the same stream). tile-outline-launches writes these in the
    kernel function it splits; the operands are the function's arguments and
    its `tile.alloc_global` buffers.

    ```mlir
    tile.call @splitk__k0(%A, %B, %partial, %M) : memref<?x256xf32, #tile.scope<global>>, ...
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let assemblyFormat = "$callee `(` $operands `)` attr-dict (`:` type($operands)^)?";
  let extraClassDeclaration = [{
    /// The kernel this call runs (null when the symbol is missing).
    KernelOp getCalleeKernel();
  }];
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def Tile_AllocGlobalOp : Tile_Op<"alloc_global", [
    HasParent<"KernelOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a global intermediate buffer (T.alloc_global)";
  let description = [{
    `T.alloc_global(shape, dtype)` (or `T.alloc_buffer` in the global scope)
    outside any `T.Kernel`: a row-major global buffer that lives across the
    kernel's launches, carved from the workspace the caller passes (spec §8).
    `dynamic_sizes` gives each dynamic dimension (runtime dimensions of the
    kernel, in order); `name` is the source name.

    ```mlir
    %partial = tile.alloc_global(%M) {name = "partial"} : memref<4x?xf32, #tile.scope<global>>
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamic_sizes, OptionalAttr<StrAttr>:$name);
  let results = (outs Res<Tile_Buffer, "the new buffer", [MemAlloc]>:$result);
  let assemblyFormat = "(`(` $dynamic_sizes^ `)`)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_AllocOp : Tile_Op<"alloc", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "allocate a shared, fragment or local buffer";
  let description = [{
    `T.alloc_shared`, `T.alloc_fragment`, `T.alloc_local` and `T.alloc_var`
    (rank 0, `local`). The scope is the result type's memory space; the shape
    is static. Must be inside a `tile.launch`.

    `reducer` marks a fragment of `T.alloc_reducer(shape, dtype, op=...)`:
    each thread holding a copy of an element accumulates a partial result
    in it, `tile.finalize_reducer` combines the copies with `reducer` (sum,
    max or min), and a fill gives the value to one copy and the combiner's
    identity to the others.

    ```mlir
    %A_s = tile.alloc : memref<128x64xf16, #tile.scope<shared>>
    %v = tile.alloc : memref<f32, #tile.scope<local>>
    %r = tile.alloc {reducer = #tile.reduce_kind<sum>} : memref<64xf32, #tile.scope<fragment>>
    ```
  }];
  let arguments = (ins OptionalAttr<Tile_ReduceKindAttr>:$reducer);
  let results = (outs Res<Tile_Buffer, "the new buffer", [MemAlloc]>:$result);
  let builders = [OpBuilder<(ins "::mlir::Type":$result), [{
    build($_builder, $_state, result, ::tilec::tile::ReduceKindAttr());
  }]>];
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The buffer's scope.
    ::tilec::tile::Scope getScope();
  }];
}

//===----------------------------------------------------------------------===//
// Tile operations (block-collective)
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_Op<"copy", [AttrSizedOperandSegments]> {
  let summary = "copy a region between two buffers (T.copy)";
  let description = [{
    Copies the region of `src` that starts at `src_offsets` with extents
    `src_sizes` into the region of `dst` at `dst_offsets` with extents
    `dst_sizes`. Each side has one offset and one static extent per buffer
    dimension; the two extents agree once unit dimensions are dropped (e.g.
    `[1, 128]` and `[128]`). Reads outside a global tensor yield 0 and writes
    outside it are dropped. Element types may differ: the copy converts.

    ```mlir
    tile.copy %A[%i, %k] sizes [128, 64] to %A_s[%c0, %c0] sizes [128, 64]
        : memref<?x4096xf16, #tile.scope<global>>, memref<128x64xf16, #tile.scope<shared>>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "source", [MemRead]>:$src,
                       Variadic<Index>:$src_offsets,
                       DenseI64ArrayAttr:$src_sizes,
                       Arg<Tile_Buffer, "destination", [MemWrite]>:$dst,
                       Variadic<Index>:$dst_offsets,
                       DenseI64ArrayAttr:$dst_sizes);
  let assemblyFormat = [{
    $src `[` $src_offsets `]` `sizes` $src_sizes `to`
    $dst `[` $dst_offsets `]` `sizes` $dst_sizes attr-dict
    `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def Tile_GemmOp : Tile_Op<"gemm"> {
  let summary = "block matrix multiply-accumulate (T.gemm)";
  let description = [{
    `C += op(A) @ op(B)` where `op` transposes when `transpose_a` /
    `transpose_b` is set. A and B are rank-2 shared or fragment buffers, C a
    rank-2 fragment whose element type is the accumulator type. With
    `clear_accum`, C is zeroed first. `policy` guides how warps split M x N;
    `k_pack` (>= 1) is the K packing factor. `wgmma` marks a `T.wgmma_gemm`
    of a hand-written warp-specialized kernel: it must run on warpgroup MMA
    (targets without it reject the kernel); `tile-lower-warp-groups` checks it
    and drops it.

    ```mlir
    tile.gemm %A_s, %B_s, %C_f {transpose_b, policy = #tile.gemm_policy<full_row>}
        : memref<128x64xf16, #tile.scope<shared>>, memref<128x64xf16, #tile.scope<shared>>,
          memref<128x128xf32, #tile.scope<fragment>>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "A", [MemRead]>:$a,
                       Arg<Tile_Buffer, "B", [MemRead]>:$b,
                       Arg<Tile_Buffer, "C (accumulator)", [MemRead, MemWrite]>:$c,
                       UnitAttr:$transpose_a,
                       UnitAttr:$transpose_b,
                       DefaultValuedAttr<Tile_GemmPolicyAttr,
                                         "::tilec::tile::GemmPolicy::Square">:$policy,
                       UnitAttr:$clear_accum,
                       DefaultValuedAttr<I64Attr, "1">:$k_pack,
                       UnitAttr:$wgmma);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

def Tile_FillOp : Tile_Op<"fill"> {
  let summary = "set every element of a buffer (T.fill, T.clear)";
  let description = [{
    Sets every element of `buffer` to `value`, whose type is the buffer's
    element type. `T.clear(buf)` is a fill with zero.

    ```mlir
    tile.fill %C_f, %zero : memref<128x128xf32, #tile.scope<fragment>>, f32
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "buffer", [MemWrite]>:$buffer,
                       Tile_ElementType:$value);
  let assemblyFormat = "$buffer `,` $value attr-dict `:` type($buffer) `,` type($value)";
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce"> {
  let summary = "reduce a buffer along one dimension (T.reduce_*)";
  let description = [{
    Reduces `src` along `dim` into `dst`, whose shape is `src`'s without
    `dim` (a 1-D source reduces into a rank-0 buffer). `kind` is one of
    `max`, `min`, `sum`, `abssum`, `absmax`. With `clear = false` the result
    is combined with `dst`'s old contents.

    Syntax: `tile.reduce <kind> %src -> %dst dim = <d> ({clear = false})? : src-type, dst-type`

    ```mlir
    tile.reduce max %S -> %m dim = 1
        : memref<128x64xf32, #tile.scope<fragment>>, memref<128xf32, #tile.scope<fragment>>
    ```
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind,
                       Arg<Tile_Buffer, "source", [MemRead]>:$src,
                       Arg<Tile_Buffer, "destination", [MemRead, MemWrite]>:$dst,
                       I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "true">:$clear);
  let assemblyFormat = [{
    custom<ReduceKind>($kind) $src `->` $dst `dim` `=` $dim attr-dict
    `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def Tile_CumsumOp : Tile_Op<"cumsum"> {
  let summary = "inclusive prefix sum along one dimension (T.cumsum)";
  let description = [{
    Writes the inclusive prefix sum of `src` along `dim` into `dst` (same
    shape; may be the same buffer). With `reverse` the sum runs from the end.

    ```mlir
    tile.cumsum %x -> %y dim = 0 {reverse}
        : memref<128xf32, #tile.scope<shared>>, memref<128xf32, #tile.scope<shared>>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "source", [MemRead]>:$src,
                       Arg<Tile_Buffer, "destination", [MemWrite]>:$dst,
                       I64Attr:$dim,
                       UnitAttr:$reverse);
  let assemblyFormat = [{
    $src `->` $dst `dim` `=` $dim attr-dict `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def Tile_FinalizeReducerOp : Tile_Op<"finalize_reducer"> {
  let summary = "combine a reducer's per-thread partial results (T.finalize_reducer)";
  let description = [{
    `reducer` is a fragment allocated with a `reducer` kind: every thread's
    copy of each element is combined with that kind, and each copy then
    holds the result.

    ```mlir
    tile.finalize_reducer %r : memref<64xf32, #tile.scope<fragment>>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "reducer", [MemRead, MemWrite]>:$reducer);
  let assemblyFormat = "$reducer attr-dict `:` type($reducer)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The reducer's combiner.
    ::tilec::tile::ReduceKind getKind();
  }];
}

def Tile_AtomicAddOp : Tile_Op<"atomic_add", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "atomic add of an element or a region (T.atomic_add)";
  let description = [{
    Element form: `value` is a scalar of `dst`'s element type, added
    atomically to `dst[indices]`. Region form: `value` is a static buffer of
    rank <= `dst`'s whose elements are added (converted to `dst`'s element
    type) into the region of `dst` starting at `indices`; its dimensions map
    to `dst`'s trailing dimensions. `dst` is global or shared.

    ```mlir
    tile.atomic_add %C[%i, %j], %v : memref<?x64xf32, #tile.scope<global>>, f32
    tile.atomic_add %C[%i, %j], %C_f : memref<?x64xf32, #tile.scope<global>>,
                                       memref<64x64xf32, #tile.scope<fragment>>
    ```
  }];
  let arguments = (ins Tile_Buffer:$dst,
                       Variadic<Index>:$indices,
                       AnyType:$value);
  let assemblyFormat = [{
    $dst `[` $indices `]` `,` $value attr-dict `:` type($dst) `,` type($value)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True when `value` is a buffer (region form).
    bool isRegionForm() { return ::llvm::isa<::mlir::MemRefType>(getValue().getType()); }
  }];
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

def Tile_ParallelOp : Tile_Op<"parallel", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<LoopLikeOpInterface, ["getLoopInductionVars"]>]> {
  let summary = "element-wise loop nest over a tile (T.Parallel)";
  let description = [{
    `for i, j in T.Parallel(64, 128)`: iterations over the static index space
    `extents` are independent; the compiler maps them to threads and vectors.
    The body's block arguments are the induction variables, one per extent.

    Syntax: `tile.parallel (%i, %j) in [e0, e1] (attributes {...})? { body }`

    ```mlir
    tile.parallel (%i, %j) in [64, 128] {
      %x = memref.load %S[%i, %j] : memref<64x128xf32, #tile.scope<fragment>>
      ...
    }
    ```

    The builder creates the body block and its `tile.yield`.
  }];
  let arguments = (ins DenseI64ArrayAttr:$extents);
  let regions = (region SizedRegion<1>:$body);

  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::ArrayRef<int64_t>":$extents)>];
  let extraClassDeclaration = [{
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    /// The induction variables, one per extent.
    ::mlir::Block::BlockArgListType getInductionVars() {
      return getBodyBlock()->getArguments();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_ForOp : Tile_Op<"for", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<LoopLikeOpInterface, [
      "getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
      "getLoopSteps"]>]> {
  let summary = "serial, unrolled or pipelined loop";
  let description = [{
    `T.serial` / `range` (kind `serial`), `T.unroll` (kind `unroll`) and
    `T.Pipelined` (kind `pipelined`, with `num_stages` >= 1). Iterates the
    induction variable from `lower_bound` (inclusive) to `upper_bound`
    (exclusive) by `step`; no loop-carried values. `order`, `stage` and
    `group` are pipelining annotations (accepted, no effect yet).

    Syntax: `tile.for %k = %lb to %ub step %s [serial|unroll|pipelined]
    (attributes {...})? { body }` (the kind keyword defaults to `serial` and
    is always printed).

    ```mlir
    tile.for %k = %c0 to %n step %c1 pipelined attributes {num_stages = 3 : i64} {
      ...
    }
    ```

    The builder creates the body block and its `tile.yield`.
  }];
  let arguments = (ins Index:$lower_bound, Index:$upper_bound, Index:$step,
                       DefaultValuedAttr<Tile_LoopKindAttr,
                                         "::tilec::tile::LoopKind::Serial">:$kind,
                       OptionalAttr<I64Attr>:$num_stages,
                       OptionalAttr<DenseI64ArrayAttr>:$order,
                       OptionalAttr<DenseI64ArrayAttr>:$stage,
                       OptionalAttr<DenseI64ArrayAttr>:$group);
  let regions = (region SizedRegion<1>:$body);

  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins
    "::mlir::Value":$lowerBound, "::mlir::Value":$upperBound,
    "::mlir::Value":$step,
    CArg<"::tilec::tile::LoopKind", "::tilec::tile::LoopKind::Serial">:$kind,
    CArg<"std::optional<int64_t>", "std::nullopt">:$numStages)>];
  let extraClassDeclaration = [{
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    /// The induction variable.
    ::mlir::BlockArgument getInductionVar() { return getBodyBlock()->getArgument(0); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Scheduling and layout hints, thread indices
//===----------------------------------------------------------------------===//

def Tile_UseSwizzleOp : Tile_Op<"use_swizzle"> {
  let summary = "remap block indices for L2 locality (T.use_swizzle)";
  let description = [{
    Rasterizes blocks in panels of `panel_size` rows (`order = "row"`) or
    columns (`order = "col"`). Directly inside a `tile.launch`.

    ```mlir
    tile.use_swizzle panel_size = 8, order = "row"
    ```
  }];
  let arguments = (ins I64Attr:$panel_size,
                       DefaultValuedStrAttr<StrAttr, "row">:$order);
  let assemblyFormat = "`panel_size` `=` $panel_size `,` `order` `=` $order attr-dict";
  let hasVerifier = 1;
}

def Tile_AnnotateLayoutOp : Tile_Op<"annotate_layout"> {
  let summary = "pin a buffer's layout (T.annotate_layout)";
  let description = [{
    Fixes the layout of `buffer` for layout inference. The buffer is shared
    (swizzled layouts) or a fragment (fragment layouts); the layout must
    accept it (`TileLayoutAttrInterface::verifyBuffer`).

    ```mlir
    tile.annotate_layout %A_s : memref<128x64xf16, #tile.scope<shared>>
        with #tile.swizzled<bytes = 128>
    ```
  }];
  let arguments = (ins Tile_Buffer:$buffer, TileLayoutAttrInterface:$layout);
  // The layout comes last: an attribute followed by `:` would take the type.
  let assemblyFormat = "$buffer `:` type($buffer) `with` $layout attr-dict";
  let hasVerifier = 1;
}

def Tile_ThreadIdOp : Tile_Op<"thread_id", [
    Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "the thread's index in its block (T.get_thread_binding)";
  let description = [{
    The calling thread's index along `dim` (0 = x, 1 = y, 2 = z) of the
    block. Inside a `tile.launch`.

    ```mlir
    %tx = tile.thread_id dim = 0
    ```
  }];
  let arguments = (ins I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "`dim` `=` $dim attr-dict";
  let hasVerifier = 1;
}

// Per-thread calls (T.print, T.call_extern) and explicit warp specialization.
include "tilec/Dialect/Tile/IR/TileThreadOps.td"

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_TD
