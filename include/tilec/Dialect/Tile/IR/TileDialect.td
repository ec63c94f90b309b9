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
      unsignedness, which signless IR types do not carry); also on the op
      that defines a buffer of such a dtype (`tile.alloc`, and the buffers
      the lowerings make of it);
    - `tile.dynamic`: marks an `index` argument as a runtime dimension;
    - `tile.shape = ["M", "64"]`: on tensor arguments, each dimension as
      written (for the generated header's documentation).

    Operation attributes the planning passes write (typed, through the
    dialect's attribute helpers):
    - `tile.layout = #tile.fragment_layout<...>` on fragment allocations and
      on `tile.parallel` loops that no fragment drives (tile-infer-layouts);
    - `tile.gemm_plan = #tile.gemm_plan<...>` on gemms that run on warp-level
      matrix instructions (tile-infer-layouts);
    - `tile.pipeline = #tile.pipeline<...>` on T.Pipelined loops with staged
      copies, and `tile.staged` (unit) on those copies (tile-plan-pipelines);
    - `tile.shared_buffer = #tile.shared_buffer<...>` on shared allocations
      and `tile.shared_memory = #tile.shared_memory<...>` on the launch
      (tile-plan-shared-memory).

    Attributes the lowerings write on the functions they make, for the
    targets (typed accessors in TileDialect.h):
    - `tile.threads = array<i64: x, y, z>`: the block's threads;
    - `tile.shared_bytes = N : i64`: dynamic shared memory the kernel needs;
    - `tile.tensor_maps = [#tile.tensor_map<...>, ...]`: the tensor-copy
      descriptors of the trailing kernel parameters, which the launcher
      encodes;
    - `tile.grid_constant_params = array<i64: ...>`: LLVM-level parameter
      indices that are by-value grid constants (the tensor maps);
    - `tile.stack_limit = N : i64` (host): bytes of buffers kept on the stack;
    - `tile.thread_loop` (host, unit, on the loop over a block's threads).
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  // clang-format off
  let discardableAttrs = (ins
    // Plans (tile-infer-layouts, tile-plan-pipelines, tile-plan-shared-memory).
    "::tilec::tile::FragmentLayoutAttr":$layout,
    "::tilec::tile::GemmPlanAttr":$gemm_plan,
    "::tilec::tile::PipelinePlanAttr":$pipeline,
    "::mlir::UnitAttr":$staged,
    "::tilec::tile::SharedBufferAttr":$shared_buffer,
    "::tilec::tile::SharedMemoryPlanAttr":$shared_memory,
    // Kernel arguments (and buffer dtypes).
    "::mlir::StringAttr":$name,
    "::mlir::StringAttr":$dtype,
    "::mlir::UnitAttr":$dynamic,
    "::mlir::ArrayAttr":$shape,
    // Lowered kernels.
    "::mlir::DenseI64ArrayAttr":$threads,
    "::mlir::IntegerAttr":$shared_bytes,
    "::mlir::ArrayAttr":$tensor_maps,
    "::mlir::DenseI64ArrayAttr":$grid_constant_params,
    "::mlir::IntegerAttr":$stack_limit,
    "::mlir::UnitAttr":$thread_loop
  );
  // clang-format on
  let extraClassDeclaration = [{
    /// Registers the attributes (TileAttrs.cpp).
    void registerAttributes();
  }];
}

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_TD
