//===- VulkanTargetInfo.h - TargetInfo of the Vulkan target -----*- C++ -*-===//
//
// What the shared thread-level lowering (TileToGPU) asks, answered from the
// VulkanTargetOptions limits: subgroup size, shared memory, no per-thread
// matrix instructions, no async copy engine (the default hooks: staged
// copies are plain loads and stores), 32-bit scalar accesses; subgroup
// matrix operations when the device has cooperative matrices. Metal and
// WebGPU answer through it too (their own limits and names).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_SPIRV_VULKANTARGETINFO_H
#define TILEC_TARGET_SPIRV_VULKANTARGETINFO_H

#include "tilec/Target/SPIRV/VulkanTarget.h"
#include "tilec/Target/TargetInfo.h"

namespace tilec {

/// TargetInfo of the SPIR-V targets (Vulkan; Metal and WebGPU derive).
class VulkanTargetInfo : public TargetInfo {
public:
  explicit VulkanTargetInfo(VulkanTargetOptions options) : options(std::move(options)) {}
  llvm::StringRef getName() const override { return options.env; }
  int64_t getWarpSize() const override { return options.subgroupSize; }
  int64_t getMaxThreadsPerBlock() const override { return options.maxWorkgroupInvocations; }
  int64_t getMaxSharedMemoryBytes() const override { return options.maxSharedMemoryBytes; }
  /// Subgroup shuffles where a subgroup has more than one invocation.
  bool hasWarpShuffle() const override { return options.subgroupSize > 1; }
  int64_t getMaxVectorBytes() const override { return 4; }
  llvm::SmallVector<MatrixShape> getMatrixShapes(mlir::Type, mlir::Type) const override { return {}; }
  bool hasMatrixLoad(unsigned) const override { return false; }
  AsyncCopyEngine getAsyncCopyEngine() const override { return AsyncCopyEngine::None; }
  /// With `cooperativeMatrix`: 16x16x16 f16 x f16 -> f32 or f16 at subgroup
  /// scope (a shape the SPV_KHR_cooperative_matrix devices commonly list).
  llvm::SmallVector<MatrixShape> getSubgroupMatrixShapes(mlir::Type ab, mlir::Type acc) const override {
    if (!options.cooperativeMatrix || !options.float16 || !ab.isF16() || !(acc.isF32() || acc.isF16()))
      return {};
    return {MatrixShape{16, 16, 16}};
  }
  const VulkanTargetOptions &getOptions() const { return options; }

private:
  VulkanTargetOptions options;
};

/// Registers `vulkan`, `vulkan1.0` ... `vulkan1.3` (desktop preset) with the
/// TargetInfo registry.
void registerVulkanTargetInfo();

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_VULKANTARGETINFO_H
