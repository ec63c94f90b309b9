//===- Passes.h - Vulkan legalization passes ---------------------*- C++ -*-===//
//
// Declarations and registration of the passes in Target/SPIRV/Passes.td, and
// the legalization pipeline the Vulkan target runs before convert-gpu-to-spirv.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_SPIRV_PASSES_H
#define TILEC_TARGET_SPIRV_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace tilec {

struct VulkanTargetOptions;

#define GEN_PASS_DECL
#include "tilec/Target/SPIRV/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Target/SPIRV/Passes.h.inc"

/// Adds the Vulkan legalization passes, nested on gpu.module, to `pm` (a
/// module-level pass manager): async copies, workgroup memory, vectors,
/// subgroup ops, 32-bit index casts, then canonicalization.
void buildVulkanLegalizationPipeline(mlir::OpPassManager &pm, const VulkanTargetOptions &options);

/// Runs the legalization pipeline on `module` (the output of lowerTileToGPU).
mlir::LogicalResult legalizeGPUForVulkan(mlir::ModuleOp module, const VulkanTargetOptions &options);

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_PASSES_H
