//===- Passes.td - Thread-level lowering passes (GPU targets) -*- tablegen -*-===//
//
// convert-tile-to-gpu: tile kernels -> gpu.module / gpu.func for one thread.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILETOGPU_PASSES_TD
#define TILEC_CONVERSION_TILETOGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToGPU : Pass<"convert-tile-to-gpu", "mlir::ModuleOp"> {
  let summary = "lower tile kernels to thread-level gpu code for one target";
  let description = [{
    Each `tile.kernel @k` becomes:
    - `gpu.func @k` (kernel) in `gpu.module @tilec_kernels`, taking the
      kernel's arguments (global tensors in `#gpu.address_space<global>`),
      with attributes `tile.threads` (block size x, y, z) and
      `tile.shared_bytes` (dynamic shared memory per block);
    - `func.func @__tilec_k_grid(args...) -> (index, index, index)`: the grid
      the launcher computes on the host.

    Fragments get layouts (element -> thread, register) by inference: mma.sync
    accumulator layouts for f16/bf16 gemms with shared operands, projections
    through T.Parallel loops and reductions, blocked layouts otherwise. Shared
    buffers live in dynamic shared memory; gemm operand tiles are XOR
    swizzled; pipelined loops multi-buffer their global -> shared copies
    through the target's async copy engine. The target (`target`: any
    registered TargetInfo, e.g. `sm_90a`, `vulkan`, `metal`, `webgpu`) answers
    warp size, shared memory limits and matrix instruction shapes, and writes
    the target-specific code (matrix instructions, async and tensor copies;
    the CUDA targets' nvvm/nvgpu dialects are loaded for them).
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::func::FuncDialect",
    "mlir::gpu::GPUDialect", "mlir::LLVM::LLVMDialect", "mlir::math::MathDialect",
    "mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
    "mlir::vector::VectorDialect"];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_80\"",
           "the registered target whose TargetInfo drives the lowering "
           "(sm_XX, vulkan, vulkan1.x, metal, webgpu)">,
  ];
}

#endif // TILEC_CONVERSION_TILETOGPU_PASSES_TD
