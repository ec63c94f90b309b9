//===- VulkanPipeline.h - Driver-pipeline steps shared with Metal -*- C++ -*-===//
//
// The steps of the driver's Vulkan pipeline (lib/Target/SPIRV/
// VulkanPipeline.cpp) that the Metal pipeline (lib/Target/Metal/
// MetalPipeline.cpp), which compiles through it, takes as they are.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_SPIRV_VULKANPIPELINE_H
#define TILEC_TARGET_SPIRV_VULKANPIPELINE_H

#include "tilec/Target/KernelABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec {

struct CompileOptions;
class VulkanTargetInfo;

/// Prints "tilec: error: <message>" to `errs`; returns failure().
mlir::LogicalResult pipelineError(llvm::raw_ostream &errs, const llvm::Twine &message);

/// The C ABI of every kernel (into `signatures`, before the tile kernels are
/// lowered away), then the thread-level lowering under `target` and the
/// Vulkan legalization under its options (what `--emit=gpu` prints).
mlir::LogicalResult lowerTileForVulkan(mlir::ModuleOp module, const VulkanTargetInfo &target,
                                       llvm::StringMap<KernelSignature> &signatures);

/// How the generated headers name the input: its file name, "<stdin>" for "-".
std::string headerSourceName(const CompileOptions &opts);

/// Writes the header beside the default output (`-o`, else the input's file
/// name, with the extension .h) through `write`.
mlir::LogicalResult writeHeaderBeside(const CompileOptions &opts, llvm::raw_ostream &errs,
                                      llvm::function_ref<void(llvm::raw_ostream &)> write);

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_VULKANPIPELINE_H
