//===- MetalTarget.h - The Metal target: Vulkan SPIR-V -> MSL --*- C++ -*-===//
//
// The Metal target compiles each kernel through the Vulkan path (TileToGPU,
// Vulkan legalization, SPIR-V, spirv-val) under Metal limits, then turns the
// SPIR-V into Metal Shading Language with SPIRV-Cross's C API, and writes a C
// header describing how to dispatch it.
//
// ABI: tensor parameter i (its Vulkan binding) is [[buffer(i)]]; the Vulkan
// push-constant block (dynamic dimensions and scalars, 32-bit fields, 64-bit
// ones at 8-byte offsets) is a `constant` struct at [[buffer(number of
// tensors)]], set with setBytes; the dispatch grid (threadgroups) is the grid
// function; the threadgroup size is fixed per kernel and given by the header.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_METAL_METALTARGET_H
#define TILEC_TARGET_METAL_METALTARGET_H

#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tilec {

/// The device limits and MSL dialect a Metal compile targets.
struct MetalTargetOptions {
  GPULimits limits; ///< size limits checked before the lowering (`--max-*`)
  int64_t maxThreadgroupMemoryBytes = 32768; ///< maxThreadgroupMemoryLength (Apple GPUs)
  int64_t maxThreadsPerThreadgroup = 1024;   ///< maxTotalThreadsPerThreadgroup
  int64_t simdWidth = 32;                    ///< threadExecutionWidth of Apple GPUs
  uint32_t mslMajor = 2, mslMinor = 3;       ///< MSL language version (simd_shuffle_xor, 64-bit ints)

  /// The Vulkan-path options these limits amount to: fp16, int8, int64; no
  /// fp64, no float atomics; diagnostics name "metal" and Metal's limits.
  VulkanTargetOptions toVulkanOptions() const;
  /// "MSL 2.3".
  std::string mslVersion() const;
};

/// One compiled kernel: the Vulkan compile it came from and its MSL.
struct MetalKernel {
  VulkanKernel vulkan;
  std::string msl;
  std::string entryPoint;             ///< the MSL kernel function's name
  std::vector<bool> bufferUsed;       ///< per Vulkan binding: whether the MSL declares it
  int64_t pushConstantBuffer = -1;    ///< [[buffer(n)]] of the constant struct; -1 without one
};

/// Rejects what Metal (or SPIRV-Cross 2021.01.15) cannot take, with a
/// diagnostic on the op: float64, bfloat16, atomics other than int32 add.
/// Runs on the thread-level gpu IR before the SPIR-V conversion.
mlir::LogicalResult checkMetalKernels(mlir::ModuleOp module, const MetalTargetOptions &options);

/// Translates one Vulkan kernel's SPIR-V to MSL with SPIRV-Cross, assigning
/// the buffer indices above. Errors (SPIRV-Cross's message) go to `error`.
bool translateToMSL(const VulkanKernel &kernel, const MetalTargetOptions &options, MetalKernel &out,
                    std::string &error);

/// Writes the C header (C99 and C++) for `kernels`.
void writeMetalHeader(llvm::ArrayRef<MetalKernel> kernels, const HeaderInfo &info,
                      const MetalTargetOptions &options, llvm::raw_ostream &os);

/// The Metal target in the registry: `-target=metal`; the shared SPIR-V
/// pipeline under Metal limits: gpu | spirv (assembly) | msl | header | obj
/// (`k.metal` and `k.h` beside it).
const TargetDescription &getMetalTargetDescription();

/// The Metal backend under `options`.
std::unique_ptr<TargetBackend> createMetalBackend(const MetalTargetOptions &options);

} // namespace tilec

#endif // TILEC_TARGET_METAL_METALTARGET_H
