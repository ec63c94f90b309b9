//===- Passes.td - Planning passes of the tile dialect -----*- tablegen -*-===//
//
// Target-aware planning over tile IR: each pass decides one thing and writes
// it as typed tile attributes that convert-tile-to-gpu reads.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileInferLayouts : Pass<"tile-infer-layouts", "mlir::ModuleOp"> {
  let summary = "choose the fragment layouts and gemm plans of every tile.launch";
  let description = [{
    Writes, for every `tile.launch` of the module:
    - `tile.gemm_plan = #tile.gemm_plan<...>` on each `tile.gemm` that runs
      on the target's warp-level matrix instruction (f16/bf16 operands, B in
      shared memory, A in shared memory or a fragment in the accumulator
      layout of an M x K tile), with its warp split;
    - `tile.layout = #tile.fragment_layout<...>` on every fragment
      `tile.alloc`: the matrix accumulator layout for gemm accumulators,
      projections through `T.Parallel` loops, reductions and copies, and the
      canonical blocked layout otherwise;
    - `tile.layout` on each `tile.parallel` that no fragment drives (its
      iteration layout), replicated on every thread for loops over
      thread-private state.

    `tile.annotate_layout` with a fragment layout, and a `tile.layout` already
    on an allocation, pin that fragment's layout; a layout the gemm needs
    that disagrees is a diagnostic. The target (`target`: `sm_80`, `sm_90a`,
    `vulkan`, ...) answers the warp size and the matrix instructions.
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"sm_80\"",
           "the target whose TargetInfo drives the choices">,
  ];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
