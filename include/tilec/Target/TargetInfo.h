//===- TargetInfo.h - What thread-level lowering asks a GPU target -*- C++ -*-===//
//
// One interface answers the questions generic thread-level lowering asks
// (warp size, shared memory, matrix instructions, async copies). Each target
// family implements it in its own folder (CUDA: Target/CUDA/CUDATargetInfo.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_TARGETINFO_H
#define TILEC_TARGET_TARGETINFO_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tilec {

/// A warp-level matrix instruction shape: D(m x n) += A(m x k) * B(k x n).
struct MatrixShape {
  int64_t m = 0, n = 0, k = 0;
};

/// The engines a target has for global -> shared copies.
enum class AsyncCopyEngine {
  None,        ///< plain loads and stores through registers
  PerThread,   ///< per-thread asynchronous copies with commit/wait groups
  TensorBulk,  ///< also bulk tensor copies driven by a descriptor (TMA)
};

/// Target facts the generic lowering queries. Implementations are cheap value
/// objects owned by the target pipeline.
class TargetInfo {
public:
  virtual ~TargetInfo();

  /// The target's name as the user spelled it (`sm_90a`, `vulkan1.1`, ...).
  virtual llvm::StringRef getName() const = 0;
  /// Threads per warp / subgroup.
  virtual int64_t getWarpSize() const = 0;
  /// Most threads in one block.
  virtual int64_t getMaxThreadsPerBlock() const = 0;
  /// Shared memory one block may use without opting in (bytes).
  virtual int64_t getDefaultSharedMemoryBytes() const = 0;
  /// Shared memory one block may use at most (bytes), after opting in.
  virtual int64_t getMaxSharedMemoryBytes() const = 0;
  /// 32-bit registers one thread may use at most.
  virtual int64_t getMaxRegistersPerThread() const = 0;
  /// Whether warp shuffles (butterfly exchange within a warp) exist.
  virtual bool hasWarpShuffle() const = 0;
  /// The widest single global/shared access one thread can make (bytes).
  virtual int64_t getMaxVectorBytes() const = 0;
  /// The warp-level matrix instruction shapes for operands of type `ab`
  /// accumulating into `acc` (empty when there is none).
  virtual llvm::SmallVector<MatrixShape> getMatrixShapes(mlir::Type ab, mlir::Type acc) const = 0;
  /// Whether a warp-cooperative shared-memory matrix load (ldmatrix-like)
  /// exists for elements of `elementBits` bits.
  virtual bool hasMatrixLoad(unsigned elementBits) const = 0;
  /// The asynchronous copy engine for global -> shared copies.
  virtual AsyncCopyEngine getAsyncCopyEngine() const = 0;
  /// The subgroup-scope matrix multiply-accumulate shapes (whole-subgroup
  /// cooperative operations on matrices loaded from memory, such as
  /// SPV_KHR_cooperative_matrix) for operands of type `ab` accumulating into
  /// `acc`; empty when there is none (the default).
  virtual llvm::SmallVector<MatrixShape> getSubgroupMatrixShapes(mlir::Type ab, mlir::Type acc) const {
    (void)ab, (void)acc;
    return {};
  }
};

} // namespace tilec

#endif // TILEC_TARGET_TARGETINFO_H
