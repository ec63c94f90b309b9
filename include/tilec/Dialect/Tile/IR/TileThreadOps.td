//===- TileThreadOps.td - Per-thread calls, warp groups ----*- tablegen -*-===//
//
// Operations that act for one thread or one warp group rather than the whole
// block: T.print and T.call_extern, and the explicit warp specialization of
// T.ws / T.alloc_barrier / T.barrier_*. Included by TileOps.td (one
// tablegen unit: TileOps.h.inc / TileOps.cpp.inc hold these ops too).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILETHREADOPS_TD
#define TILEC_DIALECT_TILE_IR_TILETHREADOPS_TD

//===----------------------------------------------------------------------===//
// Per-thread calls
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print"> {
  let summary = "device print of a scalar or a whole buffer (T.print)";
  let description = [{
    Prints `value` (a scalar or a buffer), prefixed with `msg` and the
    block/thread indices.

    ```mlir
    tile.print %x {msg = "x ="} : f32
    ```
  }];
  let arguments = (ins AnyType:$value, DefaultValuedStrAttr<StrAttr, "">:$msg);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Tile_CallExternOp : Tile_Op<"call_extern"> {
  let summary = "a call of a device function of T.import_source's code (T.call_extern)";
  let description = [{
    `T.call_extern(dtype, name, *args)`: the calling thread calls `callee`,
    a function (or function template) of the CUDA C++ `sources`
    (T.import_source's strings, in order; `source_locs` are where each was
    imported). `args` are the call's arguments in order: a scalar stands for
    itself; a buffer operand is a pointer argument and is followed by one
    index per dimension, the element it points at (`T.address_of(buf[i])`,
    `T.access_ptr(buf[i], "r")`). `arg_ctypes` spells each argument's C++
    type (`int8_t*`, `half_t*`, `float`), `result_ctype` the result's
    (`void` for dtype "handle", no result). Only the CUDA targets compile
    the sources; the others report the call.

    ```mlir
    tile.call_extern "decode"(%q, %c0, %w, %c0)
        {arg_ctypes = ["int8_t*", "int8_t*"], result_ctype = "void",
         sources = ["template <typename T> ..."], source_locs = [loc("k.tile":3:5)]}
        : (memref<4xi8, #tile.scope<local>>, index, memref<16xi8, #tile.scope<local>>, index) -> ()
    ```
  }];
  let arguments = (ins StrAttr:$callee, StrArrayAttr:$arg_ctypes, StrAttr:$result_ctype,
                       Variadic<AnyType>:$args,
                       DefaultValuedAttr<StrArrayAttr, "{}">:$sources,
                       DefaultValuedAttr<ArrayAttr, "{}">:$source_locs);
  let results = (outs Optional<AnyType>:$result);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` functional-type($args, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// One C++ argument of the call: a pointer (`buffer` set, `indices` the
    /// element) or a scalar `value`.
    struct ExternArg {
      ::mlir::Value buffer;
      ::mlir::ValueRange indices;
      ::mlir::Value value;
    };
    /// The C++ arguments, in order (args decoded; empty when malformed).
    ::llvm::SmallVector<ExternArg> getExternArgs();
  }];
}

//===----------------------------------------------------------------------===//
// Explicit warp specialization (T.ws, T.alloc_barrier, T.barrier_*)
//===----------------------------------------------------------------------===//

def Tile_WarpGroupOp : Tile_Op<"warp_group", [RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "code for some warp groups of the block (T.ws)";
  let description = [{
    `with T.ws(0, 1):` in a hand-written warp-specialized kernel: the body is
    meant for the threads of warp groups `groups` (`group_size` consecutive
    linear thread ids each; 128 on CUDA). Tile operations in it are
    collective over those threads. `tile-lower-warp-groups` runs the body in
    program order on every thread instead (tile operations over the whole
    block, per-thread statements only on the named groups' threads), which
    gives what the specialized program computes (docs/cuda.md).

    ```mlir
    tile.warp_group [1] size 128 {
      tile.copy ...
    }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$groups, I64Attr:$group_size);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$groups `size` $group_size attr-dict-with-keyword $body";
  let extraClassDeclaration = [{
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
  }];
  let hasVerifier = 1;
}

def Tile_AllocBarrierOp : Tile_Op<"alloc_barrier"> {
  let summary = "shared-memory mbarriers (T.alloc_barrier)";
  let description = [{
    `T.alloc_barrier([128, 128])`: one barrier per entry of `arrive_counts`
    (the arrivals that complete a phase), as a rank-1 `i64` shared buffer
    indexed by `tile.barrier_arrive` / `tile.barrier_wait`.

    ```mlir
    %bars = tile.alloc_barrier [128, 128] : memref<2xi64, #tile.scope<shared>>
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$arrive_counts);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = "$arrive_counts attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_BarrierArriveOp : Tile_Op<"barrier_arrive"> {
  let summary = "the calling thread arrives at barrier `index` (T.barrier_arrive)";
  let description = [{
    ```mlir
    tile.barrier_arrive %bars[%i] : memref<2xi64, #tile.scope<shared>>
    ```
  }];
  let arguments = (ins Tile_Buffer:$barriers, Index:$index);
  let assemblyFormat = "$barriers `[` $index `]` attr-dict `:` type($barriers)";
}

def Tile_BarrierWaitOp : Tile_Op<"barrier_wait"> {
  let summary = "wait for the phase of `parity` of barrier `index` (T.barrier_wait)";
  let description = [{
    `T.barrier_wait(bar, parity)` / `T.mbarrier_wait_parity`: the calling
    thread waits until the barrier's phase of parity `parity` (0 or 1) has
    completed.

    ```mlir
    tile.barrier_wait %bars[%i], %parity : memref<2xi64, #tile.scope<shared>>
    ```
  }];
  let arguments = (ins Tile_Buffer:$barriers, Index:$index, Index:$parity);
  let assemblyFormat = "$barriers `[` $index `]` `,` $parity attr-dict `:` type($barriers)";
}

#endif // TILEC_DIALECT_TILE_IR_TILETHREADOPS_TD
