//===- ConvertToSPIRV.h - gpu.module -> spirv.module for Vulkan -*- C++ -*-===//
//
// The dialect conversion of the Vulkan target (library-internal).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_SPIRV_CONVERTTOSPIRV_H
#define TILEC_LIB_TARGET_SPIRV_CONVERTTOSPIRV_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace tilec {

/// Converts `gpuModule` (its memrefs already in SPIR-V storage classes, a
/// #spirv.target_env attached) into a spirv.module in place: the patterns of
/// convert-gpu-to-spirv plus math, vector and index, and the math ops
/// GLSL.std.450 has that the upstream math patterns skip (exp2; floor, sqrt,
/// inverse sqrt and abs of float64), atomic add on int32 and float32.
mlir::LogicalResult convertGPUModuleToSPIRV(mlir::gpu::GPUModuleOp gpuModule);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_CONVERTTOSPIRV_H
