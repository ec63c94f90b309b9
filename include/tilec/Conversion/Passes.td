//===- Passes.td - Conversion passes of tilec --------------*- tablegen -*-===//
//
// Lowerings from the tile dialect towards the targets' dialects.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_TD
#define TILEC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToLoops : Pass<"convert-tile-to-loops", "mlir::ModuleOp"> {
  let summary = "lower tile kernels to scf/memref/arith loops (the host semantics)";
  let description = [{
    Implements spec section 6 literally: the body runs once per block and
    every tile operation becomes a serial loop nest over the whole tile.

    Each `tile.kernel @k` becomes two functions:
    - `@__tilec_k_grid(args...) -> (index, index, index)`: the grid extents
      (1 for dimensions the launch does not use);
    - `@__tilec_k_body(args..., %bx, %by, %bz)`: the launch body for one
      block.

    `tile.alloc` becomes `memref.alloca` at the function entry (heap
    `memref.alloc`/`dealloc` once the block's buffers pass
    `stack-limit` bytes); copies, and the kernel's own element loads and
    stores of global tensors, honour the bounds rule (reads outside give 0,
    writes outside are dropped, as tile-lang's safe-memory legalization does);
    `tile.thread_id` is 0; `tile.use_swizzle` and `tile.annotate_layout` are
    dropped. Finally the `#tile.scope` memory spaces are stripped, and `i4`
    buffers become byte buffers: packed two per byte (element `i` of the
    row-major tensor in byte `i / 2`, low nibble first) for global tensors,
    one per byte elsewhere.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::func::FuncDialect",
    "mlir::LLVM::LLVMDialect", "mlir::math::MathDialect",
    "mlir::memref::MemRefDialect", "mlir::scf::SCFDialect"];
  let options = [
    Option<"stackLimit", "stack-limit", "int64_t", /*default=*/"262144",
           "bytes of tile buffers per block placed on the stack; the rest go to the heap">,
  ];
}

def EmulateNarrowFloats : Pass<"emulate-narrow-floats"> {
  let summary = "compute f16/bf16/fp8 in f32 and convert them in software";
  let description = [{
    For CPUs without native narrow float arithmetic: every arith/math op on
    f16, bf16, f8E4M3FN or f8E5M2 values is rewritten to compute in f32 (f64
    for integer conversions) with one rounding per op, and `arith.extf` /
    `arith.truncf` to and from those types become integer bit manipulation
    (round to nearest even; fp8 conversions saturate to the largest finite
    value, as CUDA's `satfinite` conversions do; NaN stays NaN). Selects on
    narrow floats select their bits. Finally the values left (loads, stores,
    constants, loop-carried values, arguments) are retyped to the integer of
    their width, so LLVM never sees half/bfloat and needs no runtime library
    calls for them.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

#endif // TILEC_CONVERSION_PASSES_TD
