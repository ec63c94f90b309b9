//===- VulkanLimits.h - Limit checks of the Vulkan target -------*- C++ -*-===//
//
// Private to lib/Target/SPIRV: the checks GPUToVulkan runs on each kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_SPIRV_VULKANLIMITS_H
#define TILEC_LIB_TARGET_SPIRV_VULKANLIMITS_H

#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tilec::vulkan {

/// Whether `t` lives in workgroup (shared) memory.
bool isWorkgroupMemory(mlir::MemRefType t);

/// Diagnoses what `kernel` uses beyond the target's limits and features.
mlir::LogicalResult checkLimits(mlir::gpu::GPUFuncOp kernel, const vk::Reflection &r,
                                const VulkanTargetOptions &o);

} // namespace tilec::vulkan

#endif // TILEC_LIB_TARGET_SPIRV_VULKANLIMITS_H
