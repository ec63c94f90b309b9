//===- VulkanPrints.h - T.print through a storage buffer --------*- C++ -*-===//
//
// Private to lib/Target/SPIRV (VulkanPrints.cpp); dropPrints is public in
// VulkanTarget.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_SPIRV_VULKANPRINTS_H
#define TILEC_LIB_TARGET_SPIRV_VULKANPRINTS_H

#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace tilec::vulkan {

/// Rewrites each gpu.printf of `kernel` on the 32-bit values its operands
/// were widened from (64-bit ones stay), recording their kinds.
void narrowPrints(mlir::gpu::GPUFuncOp kernel);

/// After the ABI rewrite: adds the print buffer argument (binding
/// r.bindings.size() of set 0) and replaces each gpu.printf with the append
/// of one record; fills r's print fields.
mlir::LogicalResult lowerPrints(mlir::gpu::GPUFuncOp kernel, vk::Reflection &r);

} // namespace tilec::vulkan

#endif // TILEC_LIB_TARGET_SPIRV_VULKANPRINTS_H
