//===- VulkanTargetInfo.h - TargetInfo of the Vulkan target -----*- C++ -*-===//
//
// What the shared thread-level lowering (TileToGPU) asks, answered from the
// VulkanTargetOptions limits: subgroup size, shared memory, no matrix
// instructions or async copies, 32-bit scalar accesses.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_SPIRV_VULKANTARGETINFO_H
#define TILEC_TARGET_SPIRV_VULKANTARGETINFO_H

#include "tilec/Target/SPIRV/VulkanTarget.h"
#include "tilec/Target/TargetInfo.h"

namespace tilec {

class VulkanTargetInfo : public TargetInfo {
public:
  explicit VulkanTargetInfo(VulkanTargetOptions options) : options(std::move(options)) {}
  llvm::StringRef getName() const override { return options.env; }
  int64_t getWarpSize() const override { return options.subgroupSize; }
  int64_t getMaxThreadsPerBlock() const override { return options.maxWorkgroupInvocations; }
  int64_t getDefaultSharedMemoryBytes() const override { return options.maxSharedMemoryBytes; }
  int64_t getMaxSharedMemoryBytes() const override { return options.maxSharedMemoryBytes; }
  int64_t getMaxRegistersPerThread() const override { return 128; }
  bool hasWarpShuffle() const override { return true; }
  int64_t getMaxVectorBytes() const override { return 4; }
  llvm::SmallVector<MatrixShape> getMatrixShapes(mlir::Type, mlir::Type) const override { return {}; }
  bool hasMatrixLoad(unsigned) const override { return false; }
  AsyncCopyEngine getAsyncCopyEngine() const override { return AsyncCopyEngine::None; }
  const VulkanTargetOptions &getOptions() const { return options; }

private:
  VulkanTargetOptions options;
};

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_VULKANTARGETINFO_H
