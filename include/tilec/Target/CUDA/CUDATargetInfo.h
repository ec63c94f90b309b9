//===- CUDATargetInfo.h - TargetInfo of the NVIDIA sm_XX targets -*- C++ -*-===//
//
// Facts of sm_80 ... sm_90a as thread-level lowering sees them, and the
// NVVM/NVGPU code it writes for them (lib/Target/CUDA/NVGPUEmit.cpp, Hopper/).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CUDA_CUDATARGETINFO_H
#define TILEC_TARGET_CUDA_CUDATARGETINFO_H

#include "tilec/Target/CUDA/WarpSpecialization.h"
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
  int64_t getMaxSharedMemoryBytes() const override;
  bool hasWarpShuffle() const override { return true; }
  int64_t getMaxVectorBytes() const override { return 16; }
  llvm::SmallVector<MatrixShape> getMatrixShapes(mlir::Type ab, mlir::Type acc) const override;
  bool hasMatrixLoad(unsigned elementBits) const override { return elementBits == 16; }
  /// cp.async from sm_80; the tensor memory accelerator (TMA) from sm_90,
  /// which the mma.sync path uses for the staged tiles of a pipelined gemm.
  AsyncCopyEngine getAsyncCopyEngine() const override {
    return cc >= 90 ? AsyncCopyEngine::TensorBulk : AsyncCopyEngine::PerThread;
  }
  /// wgmma needs the arch-specific sm_90a.
  bool hasWarpgroupMMA() const override { return cc == 90 && archSpecific; }
  bool hasDeviceAssert() const override { return true; } // __assertfail
  bool emulatesNarrowTypes() const override { return true; }
  bool hasExternCalls() const override { return true; } // clang compiles T.import_source's code (ExternCode.cpp)
  /// tile-lang's T.ws / T.alloc_barrier kernels are Hopper kernels (sm_90+).
  bool hasWarpSpecialization() const override { return cc >= 90; }
  /// Thread-block clusters from sm_90; 8 blocks is the portable limit.
  int64_t getMaxClusterSize() const override { return cc >= 90 ? 8 : 0; }

  void getDependentDialects(mlir::DialectRegistry &registry) const override;
  /// Gemm kernels of the shape hopper::matchGemmKernel takes, on targets
  /// with warpgroup MMA: TMA + mbarrier + wgmma (Hopper/).
  mlir::FailureOr<bool> lowerKernel(tile::KernelOp kernel, tile::LaunchOp launch,
                                    mlir::gpu::GPUFuncOp func) const override;
  /// The wgmma path's fixed layouts of the kernels it takes (Hopper/HopperLayouts.cpp).
  mlir::FailureOr<bool> describeKernelLayouts(tile::KernelOp kernel, tile::LaunchOp launch,
                                              KernelLayouts &out) const override;
  llvm::SmallVector<mlir::Value> emitMatrixLoad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value addr,
                                                int64_t offset, int tiles, bool transpose) const override;
  void emitMatrixMultiply(mlir::OpBuilder &b, mlir::Location loc, MatrixShape shape, mlir::Type ab,
                          llvm::ArrayRef<mlir::Value> a, llvm::ArrayRef<mlir::Value> bRegs, mlir::Value acc,
                          int64_t accFirst) const override;
  void emitAsyncCopy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst, mlir::ValueRange dstIndices,
                     mlir::Value src, mlir::ValueRange srcIndices, int64_t elements,
                     mlir::Value srcElements) const override;
  void emitAsyncCommit(mlir::OpBuilder &b, mlir::Location loc) const override;
  void emitAsyncWait(mlir::OpBuilder &b, mlir::Location loc, int64_t pending) const override;
  mlir::FailureOr<unsigned> addTensorCopyDescriptors(mlir::gpu::GPUFuncOp func,
                                                     llvm::ArrayRef<TensorCopyDescriptor> descs) const override;
  mlir::Value emitTensorCopyBarriers(mlir::OpBuilder &b, mlir::Location loc, int64_t stages) const override;
  void emitTensorCopyInit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barriers, int64_t stages,
                          mlir::ValueRange descriptors) const override;
  mlir::Value emitTensorCopyArrive(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barriers, mlir::Value slot,
                                   int64_t bytes) const override;
  void emitTensorCopyLoad2D(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst, mlir::Value descriptor,
                            mlir::Value inner, mlir::Value outer, mlir::Value barrier) const override;
  void emitTensorCopyWait(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barriers, mlir::Value slot,
                          mlir::Value parity) const override;
  void emitTensorCopyRelease(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barriers,
                             int64_t stages) const override;
  mlir::FailureOr<mlir::Value> emitExternCall(mlir::OpBuilder &b, tile::CallExternOp call,
                                              llvm::ArrayRef<ExternCallArg> args) const override;
  mlir::Value emitElect(mlir::OpBuilder &b, mlir::Location loc) const override;
  bool hasRangeBarrier() const override { return true; }
  /// bar.sync 2, count (named barrier 2; Hopper's consumer warpgroups use 1).
  void emitRangeBarrier(mlir::OpBuilder &b, mlir::Location loc, int64_t count) const override;
  mlir::Value emitIsWarpZero(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tid) const override;

  /// The compute capability as a number (80, 86, 89, 90).
  int getComputeCapability() const { return cc; }
  /// `--hopper-ws`: whether the wgmma path warp-specializes its loop.
  HopperWarpSpecialization getWarpSpecialization() const { return warpSpecialization; }
  void setWarpSpecialization(HopperWarpSpecialization mode) { warpSpecialization = mode; }
  /// `--hopper-tma-store`: whether the wgmma path stores C by TMA.
  bool getTMAStore() const { return tmaStore; }
  void setTMAStore(bool on) { tmaStore = on; }
  /// `--hopper-persistent`: whether the warp-specialized wgmma path is persistent.
  HopperPersistence getPersistent() const { return persistent; }
  void setPersistent(HopperPersistence mode) { persistent = mode; }

private:
  std::string arch;
  int cc = 80;
  bool archSpecific = false; ///< `a` suffix (sm_90a)
  HopperWarpSpecialization warpSpecialization = HopperWarpSpecialization::Auto;
  bool tmaStore = false;
  HopperPersistence persistent = HopperPersistence::Auto;
};

/// Registers the `sm_XX` family with the TargetInfo registry.
void registerCUDATargetInfo();

} // namespace tilec

#endif // TILEC_TARGET_CUDA_CUDATARGETINFO_H
