//===- WebGPUTarget.h - The WebGPU target: spirv dialect -> WGSL -*- C++ -*-===//
//
// The WebGPU target compiles each kernel through the Vulkan path (TileToGPU
// without subgroup shuffles, Vulkan legalization, SPIR-V, spirv-val) under
// WebGPU's default limits, prints WGSL from the validated spirv.module, and
// writes a C header describing how to dispatch it.
//
// ABI: tensor parameter i is `@group(0) @binding(i) var<storage, ...>`; the
// dynamic dimensions and scalars (the Vulkan push-constant block: 32-bit
// fields in parameter order) are one uniform buffer at @group(0)
// @binding(number of tensors), its size rounded up to 16 bytes; the dispatch
// grid (workgroups) is the header's grid function. A static tensor must fit
// maxStorageBufferBindingSize (checked); for dynamic shapes the caller must
// keep each binding within its device's limit.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_WGSL_WEBGPUTARGET_H
#define TILEC_TARGET_WGSL_WEBGPUTARGET_H

#include "tilec/Target/KernelABI.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <string>
#include <vector>

namespace tilec {

/// The device limits a WebGPU compile targets: the defaults every WebGPU
/// implementation guarantees (GPUSupportedLimits), overridable from the CLI.
struct WebGPUTargetOptions {
  GPULimits limits; ///< size limits checked before the lowering (`--max-*`)
  int64_t maxWorkgroupStorageBytes = 16384; ///< maxComputeWorkgroupStorageSize
  int64_t maxInvocations = 256;             ///< maxComputeInvocationsPerWorkgroup
  std::array<int64_t, 3> maxWorkgroupSize{256, 256, 64}; ///< maxComputeWorkgroupSize{X,Y,Z}
  int64_t maxStorageBufferBindingSize = 134217728; ///< maxStorageBufferBindingSize (bytes)
  bool float16 = true;                      ///< the 'shader-f16' feature (`enable f16;`)

  /// The Vulkan-path options these limits amount to: subgroup size 1 (core
  /// WebGPU has no subgroup operations, so reductions go through workgroup
  /// memory), fp16, no int8/int64/fp64, no float atomics; diagnostics name
  /// "webgpu" and WebGPU's limits.
  VulkanTargetOptions toVulkanOptions() const;
};

/// One compiled kernel: the Vulkan compile it came from and its WGSL.
struct WebGPUKernel {
  VulkanKernel vulkan;
  std::string wgsl;
  std::string entryPoint;        ///< the WGSL entry point's name
  bool usesFloat16 = false;      ///< the WGSL enables f16 (the device needs 'shader-f16')
  uint32_t uniformBinding = 0;   ///< @binding of the parameter uniform buffer
  uint32_t uniformSize = 0;      ///< its size in bytes (a multiple of 16); 0 without one
  std::vector<bool> bufferUsed;  ///< per tensor binding: whether the WGSL declares it
  std::vector<bool> bufferAtomic; ///< per tensor binding: whether it is declared array<atomic<i32>>
};

/// Rejects what WGSL cannot express, with a diagnostic on the op (the
/// kernel's source location): T.print, float64, bfloat16, 8-bit floats, 8-,
/// 16- and 64-bit integers, bool buffers, atomics other than int32 add, and
/// static tensors larger than maxStorageBufferBindingSize (`signatures` name
/// them). Runs on the thread-level gpu IR before the SPIR-V conversion.
mlir::LogicalResult checkWebGPUKernels(mlir::ModuleOp module, const llvm::StringMap<KernelSignature> &signatures,
                                       const WebGPUTargetOptions &options);

/// Prints the WGSL of one kernel's validated spirv.module (structured
/// control flow, logical addressing, as compileGPUToVulkan makes it).
/// Constructs WGSL cannot express are diagnostics on the ops.
mlir::LogicalResult printWGSL(mlir::Operation *spirvModule, const WebGPUTargetOptions &options, WebGPUKernel &out);

/// Writes the C header (C99 and C++) for `kernels`.
void writeWebGPUHeader(llvm::ArrayRef<WebGPUKernel> kernels, const HeaderInfo &info,
                       const WebGPUTargetOptions &options, llvm::raw_ostream &os);

/// The WebGPU target in the registry: `-target=webgpu`; the shared SPIR-V
/// pipeline under WebGPU limits, without subgroup shuffles: gpu | spirv
/// (assembly) | wgsl | header | obj (`k.wgsl` and `k.h` beside it).
const TargetDescription &getWebGPUTargetDescription();

/// The WebGPU backend under `options`.
std::unique_ptr<TargetBackend> createWebGPUBackend(const WebGPUTargetOptions &options);

} // namespace tilec

#endif // TILEC_TARGET_WGSL_WEBGPUTARGET_H
