//===- CUDATargetInfo.h - TargetInfo of the NVIDIA sm_XX targets -*- C++ -*-===//
//
// Facts of sm_80 ... sm_90a as thread-level lowering sees them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CUDA_CUDATARGETINFO_H
#define TILEC_TARGET_CUDA_CUDATARGETINFO_H

#include "tilec/Target/TargetInfo.h"

namespace tilec {

/// TargetInfo of one `sm_XX` architecture.
class CUDATargetInfo : public TargetInfo {
public:
  /// `arch` is `sm_80`, `sm_86`, `sm_89`, `sm_90` or `sm_90a`.
  explicit CUDATargetInfo(llvm::StringRef arch);

  llvm::StringRef getName() const override { return arch; }
  int64_t getWarpSize() const override { return 32; }
  int64_t getMaxThreadsPerBlock() const override { return 1024; }
  int64_t getDefaultSharedMemoryBytes() const override { return 48 * 1024; }
  int64_t getMaxSharedMemoryBytes() const override;
  int64_t getMaxRegistersPerThread() const override { return 255; }
  bool hasWarpShuffle() const override { return true; }
  int64_t getMaxVectorBytes() const override { return 16; }
  llvm::SmallVector<MatrixShape> getMatrixShapes(mlir::Type ab, mlir::Type acc) const override;
  bool hasMatrixLoad(unsigned elementBits) const override { return elementBits == 16; }
  /// cp.async from sm_80; the tensor memory accelerator (TMA) from sm_90,
  /// which the mma.sync path uses for the staged tiles of a pipelined gemm.
  AsyncCopyEngine getAsyncCopyEngine() const override {
    return cc >= 90 ? AsyncCopyEngine::TensorBulk : AsyncCopyEngine::PerThread;
  }

  /// The compute capability as a number (80, 86, 89, 90).
  int getComputeCapability() const { return cc; }

private:
  std::string arch;
  int cc = 80;
};

} // namespace tilec

#endif // TILEC_TARGET_CUDA_CUDATARGETINFO_H
