//===- Passes.td - Vulkan legalization of thread-level gpu IR -*- tablegen -*-===//
//
// Passes that turn the gpu-dialect output of the shared thread-level lowering
// (TileToGPU) into IR that convert-gpu-to-spirv accepts for Vulkan compute.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_PASSES_TD
#define TILEC_TARGET_SPIRV_PASSES_TD

include "mlir/Pass/PassBase.td"

def VulkanMaterializeWorkgroupMemory : Pass<"tilec-vulkan-materialize-workgroup-memory", "mlir::gpu::GPUModuleOp"> {
  let summary = "replace dynamic shared memory and its views by typed workgroup buffers";
  let description = [{
    SPIR-V for Vulkan has no untyped workgroup memory: the byte buffer of
    `gpu.dynamic_shared_memory` and the typed `memref.view`s carved from it
    have no lowering. Per kernel, the views are grouped by element type; each
    group becomes one static `memref.alloc` in workgroup memory (a
    `spirv.GlobalVariable` of Workgroup storage after conversion) spanning
    the bytes its views cover, and every access through a view is re-indexed
    into it. Views of different element types get separate buffers (they do
    not alias: tilec's views of different types never pass data to each
    other). A view at a dynamic byte offset makes its group span the whole
    dynamic shared memory (`tile.shared_bytes`). The kernel's
    `tile.shared_bytes` becomes 0: the buffers are counted as allocations.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::memref::MemRefDialect"];
}

def VulkanScalarizeVectors : Pass<"tilec-vulkan-scalarize-vectors", "mlir::gpu::GPUModuleOp"> {
  let summary = "unroll 1-D vector values into scalars";
  let description = [{
    Vulkan SPIR-V in logical addressing cannot load a vector from an array of
    scalars without a pointer bitcast, and has no vectors of more than four
    elements; the thread-level lowering emits `vector<8xf16>` loads for
    fragment copies regardless of the target's vector width. Every 1-D
    vector value becomes one scalar per element: `vector.load`/`store` become
    `memref.load`/`store` at consecutive innermost indices, `extract`,
    `insert`, `from_elements`, `broadcast` and dense constants are resolved,
    and elementwise ops (arith, math) are cloned per element.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::memref::MemRefDialect"];
}

def VulkanLegalizeSubgroupOps : Pass<"tilec-vulkan-legalize-subgroup-ops", "mlir::gpu::GPUModuleOp"> {
  let summary = "give gpu.shuffle the target's subgroup size as width";
  let description = [{
    convert-gpu-to-spirv lowers `gpu.shuffle` only when its width equals the
    target's subgroup size. An xor shuffle whose offset is below both its
    width and the subgroup size exchanges within an aligned group of lanes
    either way, so its width is set to the subgroup size; other shuffles
    that cross the subgroup are reported.
  }];
  let options = [
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"32",
           "the target's subgroup size">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def VulkanNarrowIndexCasts : Pass<"tilec-vulkan-narrow-index-casts", "mlir::gpu::GPUModuleOp"> {
  let summary = "keep index values 32-bit: no 64-bit detour for index -> float or index compares";
  let description = [{
    The frontend converts an index value (a loop variable, a `T.Parallel`
    index, a block or thread index) to a float through i64, which is exact on
    the host, where index is 64 bits. On the SPIR-V targets index is 32 bits,
    so `arith.index_cast %x : index to i64` is a sign extension and the i64 is
    pure detour: WGSL has no 64-bit integers (webgpu rejected the kernel), and
    lavapipe evaluates `OpSLessThan(OpSConvert(uint -> ulong), const)` wrongly
    (the canonicalizer folds `sitofp(i64) < 2.0` to that compare). Rewrites,
    each exact when index is 32 bits:
      sitofp(index_cast x to iN), N > 32   -> sitofp(index_cast x to i32)
      uitofp(index_castui x to iN), N > 32 -> uitofp(index_castui x to i32)
      index_cast(fptosi f to iN) to index  -> index_cast(fptosi f to i32)
      cmpi(index_cast x to iN, c)          -> cmpi(x, c : index) when c fits
                                              in 32 bits (or both sides casts)
    A 64-bit integer the kernel computes with (an explicit int64 cast that is
    then added to, say) is left alone.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

#endif // TILEC_TARGET_SPIRV_PASSES_TD
