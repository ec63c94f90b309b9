//===- Passes.td - Planning passes of the tile dialect -----*- tablegen -*-===//
//
// Target-aware planning over tile IR: each pass decides one thing and writes
// it as typed tile attributes that convert-tile-to-gpu reads.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileOutlineLaunches : Pass<"tile-outline-launches", "mlir::ModuleOp"> {
  let summary = "split kernel functions with several launches or global buffers";
  let description = [{
    A `tile.kernel` with several `tile.launch` ops or `tile.alloc_global`
    buffers (spec §6: the T.Kernel blocks run in order and share the global
    buffers, which live in the caller's workspace, §8) becomes a launch
    sequence:
    - launch i moves into a private `tile.kernel @<k>__k<i>` with one
      launch, whose arguments are the kernel's tensors, then the global
      buffers (tensor arguments named after them, `tile.shape` naming their
      runtime dimensions), then the runtime dimensions and scalars; the ops
      before it that the launch uses come along;
    - the kernel keeps its `tile.alloc_global` ops and runs the parts with
      `tile.call`, in order;
    - `func.func @__tilec_<k>_workspace(dims...) -> (index, index...)`
      returns, from the kernel's runtime dimensions in order, the bytes the
      workspace needs and each buffer's byte offset in it (every buffer on a
      256-byte boundary); the targets' launchers call it and pass each part
      pointers into the workspace.

    A kernel with one launch and no global buffer is left unchanged; so is
    a launch sequence. A global buffer sized by anything but the kernel's
    runtime dimensions is a diagnostic.
  }];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::arith::ArithDialect"];
}

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

def TilePlanPipelines : Pass<"tile-plan-pipelines", "mlir::ModuleOp"> {
  let summary = "choose the staged copies, depth and copy engine of every T.Pipelined loop";
  let description = [{
    For every `tile.for` with `kind = pipelined` and `num_stages` S > 1 of a
    `tile.launch` (after tile-infer-layouts, whose `tile.gemm_plan` it
    reads), writes:
    - `tile.staged` on the producer: the body's global -> shared copies that
      can be issued S - 1 iterations ahead (offsets from pure non-tile work
      of the body, destinations untouched before them); a loop with any
      other is not planned;
    - `tile.pipeline = #tile.pipeline<stages = S, engine = ..., handoff = ...>`
      on the loop: `handoff` when a matrix-instruction gemm of two staged
      tiles ends the body (the consumer); `engine` the target's copy engine
      (`sync` without asynchronous copies, `async` per-thread ones, `tensor`
      where the target has tensor copies, the loop hands off, and every staged
      copy is a whole 2-D tile of a kernel argument into a swizzled shared
      tile the TMA can fill).
  }];
  let options = [Option<"targetName", "target", "std::string", /*default=*/"\"sm_80\"",
                        "the target whose TargetInfo drives the choices">,
  ];
}

def TilePlanSharedMemory : Pass<"tile-plan-shared-memory", "mlir::ModuleOp"> {
  let summary = "place the shared buffers of every tile.launch in one window";
  let description = [{
    After tile-infer-layouts and tile-plan-pipelines (whose attributes it
    reads), writes for every `tile.launch`:
    - `tile.shared_buffer = #tile.shared_buffer<offset, stages, swizzle,
      box_cols>` on each shared `tile.alloc` of the launch body, in order on
      128-byte boundaries; `stages` copies for a pipeline's staged buffers;
      swizzled (16-byte chunks XOR-swizzled over 32, 64 or 128 bytes) when only
      copies and matrix gemms use it;
    - `tile.shared_memory = #tile.shared_memory<size, scratch_offset,
      reduce_scratch, aligned_window>` on the launch: the scratch of cross-warp
      reductions and fragment scans after the buffers, and whether the window
      starts on a 1 KB boundary for tensor copies.

    A window larger than the target's shared memory is a diagnostic. A
    tensor-copy pipeline whose tiles do not land on 1 KB boundaries, or whose
    aligned window would not fit, falls back to `engine = async`; the tiles of
    the others store rows wider than 128 bytes as 128-byte column boxes.
  }];
  let options = [Option<"targetName", "target", "std::string", /*default=*/"\"sm_80\"",
                        "the target whose TargetInfo drives the choices">,
  ];
}

def TileLowerWarpGroups : Pass<"tile-lower-warp-groups", "mlir::ModuleOp"> {
  let summary = "run hand-written warp-specialized regions in program order";
  let description = [{
    For every `tile.launch`: each `tile.warp_group` (T.ws) is replaced by
    its body, whose tile operations then run on the whole block and whose
    per-thread statements with side effects run under a condition on the
    linear thread id (the named warp groups' threads only);
    `tile.barrier_arrive` / `tile.barrier_wait` and `tile.alloc_barrier` go
    away. In the program-order run every tile operation completes on every
    thread before the next statement, so a barrier wait whose phase is
    completed by arrivals earlier in program order (the producer region
    before the consumer region, as written in tile-lang's kernels) is
    already satisfied. On a target without explicit warp specialization
    (`TargetInfo::hasWarpSpecialization`), each `tile.warp_group` and
    `tile.alloc_barrier` is a diagnostic naming the target; so is a gemm
    marked `wgmma` (T.wgmma_gemm) on a GPU target without warpgroup
    MMA. `target=host` takes everything.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
  let options = [Option<"targetName", "target", "std::string", /*default=*/"\"sm_90a\"",
                        "the target (host, or a TargetInfo name)">,
  ];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
