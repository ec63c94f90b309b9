//===- SPIRVPipeline.h - The pipeline Vulkan, Metal and WebGPU share -*- C++ -*-===//
//
// Every SPIR-V-family target takes the same steps: the kernels' C ABI, the
// thread-level lowering and the Vulkan legalization under its TargetInfo
// (`--emit=gpu`), its own check of what it cannot take, SPIR-V per kernel
// (`--emit=spirv`: the SPIR-V assembly of every kernel), its own translation
// of each kernel, then the header, or one kernel's file for the default stage.
// A target supplies only the steps that differ.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_SPIRV_SPIRVPIPELINE_H
#define TILEC_TARGET_SPIRV_SPIRVPIPELINE_H

#include "tilec/Target/Backend.h"
#include "tilec/Target/KernelABI.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"
#include "tilec/Target/SPIRV/VulkanTargetInfo.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <vector>

namespace tilec {

/// The shared pipeline; Vulkan, Metal and WebGPU derive from it.
class SPIRVPipelineBackend : public TargetBackend {
public:
  /// `target` answers the thread-level lowering's questions; its options are
  /// the limits the SPIR-V is compiled and checked under.
  explicit SPIRVPipelineBackend(std::unique_ptr<VulkanTargetInfo> target) : target(std::move(target)) {}

  mlir::LogicalResult lower(mlir::ModuleOp module, EmitStage stage) final;
  mlir::LogicalResult serialize(mlir::ModuleOp module, EmitStage stage, llvm::StringRef sourceName,
                                llvm::raw_ostream &out) final;
  mlir::LogicalResult collectLayouts(mlir::ModuleOp module, std::vector<KernelLayouts> &out) final;

protected:
  /// Rejects what the target cannot take, on the thread-level gpu IR.
  virtual mlir::LogicalResult checkKernels(mlir::ModuleOp module) { return mlir::success(); }
  /// Empty when the target keeps T.print (Vulkan: a print buffer); else why
  /// it drops them, for the warning at each print (Metal, WebGPU).
  virtual llvm::StringRef whyPrintsDropped() const { return {}; }
  /// Sees each kernel's validated spirv.module (not for `--emit=spirv`).
  virtual mlir::LogicalResult translateModule(mlir::Operation *spirvModule, VulkanKernel &kernel) {
    return mlir::success();
  }
  /// Runs after every kernel compiled (not for `--emit=spirv`).
  virtual mlir::LogicalResult translateKernels(mlir::MLIRContext *ctx) { return mlir::success(); }
  /// What the error for a file of several kernels says after "the file has
  /// N kernels; ", e.g. "a .spv holds one: use --emit=header (...)".
  virtual llvm::StringRef oneKernelPerFile() const = 0;
  /// Writes the one kernel's file: the default stage, and the target's
  /// source stage (msl, wgsl).
  virtual void writeKernel(llvm::raw_ostream &out) = 0;

  const VulkanTargetOptions &getVulkanOptions() const { return target->getOptions(); }

  std::unique_ptr<VulkanTargetInfo> target;
  llvm::StringMap<KernelSignature> signatures;
  std::vector<VulkanKernel> vkKernels;
};

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_SPIRVPIPELINE_H
