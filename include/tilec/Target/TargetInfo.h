//===- TargetInfo.h - What thread-level lowering asks a GPU target -*- C++ -*-===//
//
// The one door from the generic thread-level lowering (TileToGPU) to the
// hardware: capability queries, and emission hooks for what differs between
// targets (matrix instructions, async and tensor copies, barriers, shuffles).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_TARGETINFO_H
#define TILEC_TARGET_TARGETINFO_H

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mlir {
class DialectRegistry;
class Location;
class OpBuilder;
namespace gpu {
class GPUFuncOp;
} // namespace gpu
} // namespace mlir

namespace tilec {
struct KernelLayouts;
namespace tile {
class KernelOp;
class LaunchOp;
class CallExternOp;
} // namespace tile

/// One C++ argument of an extern call (emitExternCall): a pointer to
/// `buffer[indices]` (a memref in the target's memory spaces), or `value`.
struct ExternCallArg {
  mlir::Value buffer;
  llvm::SmallVector<mlir::Value, 4> indices;
  mlir::Value value;
};

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

/// One tensor-copy descriptor a kernel takes: tensor argument `arg` of the
/// tile kernel, copied in boxes of `boxInner` x `boxOuter` elements (inner,
/// contiguous dimension first) into shared tiles swizzled over `swizzle`
/// bytes (SharedSwizzle.h).
struct TensorCopyDescriptor {
  unsigned arg = 0;
  int64_t boxInner = 0, boxOuter = 0;
  mlir::Type elementType;
  int64_t swizzle = 128;
};

/// Target facts the generic lowering queries, and the code it asks the
/// target to write. Implementations are cheap value objects owned by the
/// target pipeline. An emission hook is called only when the matching query
/// allows it (getMatrixShapes, hasMatrixLoad, getAsyncCopyEngine); the
/// defaults are what a target without the feature does.
class TargetInfo {
public:
  virtual ~TargetInfo();

  // --- Capabilities --------------------------------------------------------

  /// The target's name as the user spelled it (`sm_90a`, `vulkan1.1`, ...),
  /// for diagnostics only: the lowering never branches on it.
  virtual llvm::StringRef getName() const = 0;
  /// Threads per warp / subgroup.
  virtual int64_t getWarpSize() const = 0;
  /// Most threads in one block.
  virtual int64_t getMaxThreadsPerBlock() const = 0;
  /// Shared memory one block may use at most (bytes), after opting in.
  virtual int64_t getMaxSharedMemoryBytes() const = 0;
  /// Whether warp shuffles (butterfly exchange within a warp) exist.
  virtual bool hasWarpShuffle() const = 0;
  /// The lanes one butterfly exchange spans: the warp where shuffles exist,
  /// else one (every exchange goes through shared memory).
  int64_t getShuffleLanes() const { return hasWarpShuffle() ? getWarpSize() : 1; }
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
  virtual llvm::SmallVector<MatrixShape> getSubgroupMatrixShapes(mlir::Type ab, mlir::Type acc) const;
  /// Whether warpgroup-wide asynchronous matrix multiplies from shared
  /// memory exist (CUDA's wgmma); lowerKernel may then take gemm kernels.
  virtual bool hasWarpgroupMMA() const { return false; }
  /// A failed cf.assert (T.device_assert) can trap the kernel with its
  /// message; without it the lowering drops the asserts.
  virtual bool hasDeviceAssert() const { return false; }
  /// Whether hand-written warp-specialized kernels (T.ws regions,
  /// T.alloc_barrier mbarriers) are taken; tile-lang writes them for Hopper.
  virtual bool hasWarpSpecialization() const { return false; }
  /// The most thread blocks one cluster may hold (blocks of a cluster are
  /// co-scheduled and launched together, CUDA's thread-block clusters); 0
  /// when the target has no clusters (the default).
  virtual int64_t getMaxClusterSize() const { return 0; }
  /// Whether T.call_extern can call device functions of T.import_source's
  /// CUDA C++ code (the target compiles the sources with the kernels).
  virtual bool hasExternCalls() const { return false; }
  /// Whether fp8 values and packed 4-bit global tensors are stored as bytes
  /// and converted with integer arithmetic (the target has no such types).
  virtual bool emulatesNarrowTypes() const { return false; }

  // --- Emission hooks ------------------------------------------------------

  /// Adds the dialects the hooks below create ops of.
  virtual void getDependentDialects(mlir::DialectRegistry &registry) const;

  /// Lowers the whole of `kernel` into `func` (which has the kernel's
  /// arguments and an empty body) through a path of the target's own, when
  /// it has one for this kernel's shape. Returns true when it did, false when
  /// the kernel does not match (nothing changed; the default), failure after
  /// a diagnostic.
  virtual mlir::FailureOr<bool> lowerKernel(tile::KernelOp kernel, tile::LaunchOp launch,
                                            mlir::gpu::GPUFuncOp func) const;
  /// The layouts lowerKernel's own path gives `kernel`'s buffers, for
  /// `--emit=layout`: true when it takes the kernel (`out` filled), false
  /// when the generic lowering's plans apply (the default).
  virtual mlir::FailureOr<bool> describeKernelLayouts(tile::KernelOp kernel, tile::LaunchOp launch,
                                                      KernelLayouts &out) const;

  /// Warp-cooperative load (hasMatrixLoad) of `tiles` 8x8 tiles of 16-bit
  /// elements from shared memory: this lane's row starts at 32-bit shared
  /// address `addr` + `offset` bytes; `transpose` loads them transposed.
  /// Returns one i32 register (two packed elements) per tile.
  virtual llvm::SmallVector<mlir::Value> emitMatrixLoad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value addr,
                                                        int64_t offset, int tiles, bool transpose) const;
  /// Warp-level D = A * B + C of a getMatrixShapes() `shape` on operands of
  /// type `ab`: A and B as this lane's i32 registers of packed element pairs
  /// (as emitMatrixLoad returns them); C and D are this lane's accumulator
  /// registers `acc[accFirst ...]` (a private memref), read and written.
  virtual void emitMatrixMultiply(mlir::OpBuilder &b, mlir::Location loc, MatrixShape shape, mlir::Type ab,
                                  llvm::ArrayRef<mlir::Value> a, llvm::ArrayRef<mlir::Value> bRegs, mlir::Value acc,
                                  int64_t accFirst) const;

  /// Copies `elements` consecutive elements global `src[srcIndices...]` ->
  /// shared `dst[dstIndices...]`, asynchronously where the target can
  /// (complete after emitAsyncWait); only the first `srcElements` (an index,
  /// null: all) are read, the rest become zero. The default (AsyncCopyEngine
  /// None) copies element by element at once.
  virtual void emitAsyncCopy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst, mlir::ValueRange dstIndices,
                             mlir::Value src, mlir::ValueRange srcIndices, int64_t elements,
                             mlir::Value srcElements) const;
  /// Closes the group of the async copies issued since the last one (the
  /// default: nothing, copies are synchronous).
  virtual void emitAsyncCommit(mlir::OpBuilder &b, mlir::Location loc) const;
  /// Waits until at most `pending` groups of async copies are in flight
  /// (the default: nothing).
  virtual void emitAsyncWait(mlir::OpBuilder &b, mlir::Location loc, int64_t pending) const;

  /// Tensor copies (AsyncCopyEngine::TensorBulk): appends one kernel
  /// parameter per descriptor after `func`'s arguments (what the launcher
  /// passes) and returns the index of the first.
  virtual mlir::FailureOr<unsigned> addTensorCopyDescriptors(mlir::gpu::GPUFuncOp func,
                                                             llvm::ArrayRef<TensorCopyDescriptor> descs) const;
  /// A ring of `stages` completion barriers in shared memory; thread 0 (the
  /// caller's branch) initialises them with emitTensorCopyInit, which also
  /// prefetches `descriptors`.
  virtual mlir::Value emitTensorCopyBarriers(mlir::OpBuilder &b, mlir::Location loc, int64_t stages) const;
  virtual void emitTensorCopyInit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barriers, int64_t stages,
                                  mlir::ValueRange descriptors) const;
  /// One issuing thread: barrier `slot` of `barriers` expects `bytes` more;
  /// returns the barrier for emitTensorCopyLoad2D.
  virtual mlir::Value emitTensorCopyArrive(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barriers,
                                           mlir::Value slot, int64_t bytes) const;
  /// The box at element coordinates (`inner`, `outer`) (i32) of the tensor
  /// that `descriptor` describes into 32-bit shared address `dst`,
  /// completing on `barrier`.
  virtual void emitTensorCopyLoad2D(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst, mlir::Value descriptor,
                                    mlir::Value inner, mlir::Value outer, mlir::Value barrier) const;
  /// Waits until barrier `slot` completes the phase of `parity` (i1).
  virtual void emitTensorCopyWait(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barriers, mlir::Value slot,
                                  mlir::Value parity) const;
  /// Thread 0, once no thread waits any more: retires the barriers.
  virtual void emitTensorCopyRelease(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barriers,
                                     int64_t stages) const;

  /// The calling thread's call of `call`'s extern (hasExternCalls) with
  /// `args`; returns its result (null for a void extern), or failure after a
  /// diagnostic.
  virtual mlir::FailureOr<mlir::Value> emitExternCall(mlir::OpBuilder &b, tile::CallExternOp call,
                                                      llvm::ArrayRef<ExternCallArg> args) const;

  /// i1: true on one lane of the (converged) warp.
  virtual mlir::Value emitElect(mlir::OpBuilder &b, mlir::Location loc) const;
  /// i1: linear thread id `tid` (index) is in warp 0, in a form the target
  /// knows to be warp-uniform (a branch on it is skipped, not predicated).
  virtual mlir::Value emitIsWarpZero(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tid) const;
  /// A block-wide barrier (shared memory visible to every thread after it).
  virtual void emitBarrier(mlir::OpBuilder &b, mlir::Location loc) const;
  /// Whether emitRangeBarrier exists: a barrier among the `count` threads of
  /// whole warps that reach it (the others go on).
  virtual bool hasRangeBarrier() const { return false; }
  virtual void emitRangeBarrier(mlir::OpBuilder &b, mlir::Location loc, int64_t count) const { emitBarrier(b, loc); }
  /// The value `v` (i32 or f32) of the lane whose id is this lane's XOR
  /// `mask`, among `width` lanes (hasWarpShuffle).
  virtual mlir::Value emitShuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, int64_t mask,
                                     int64_t width) const;
};

/// Makes the TargetInfo of the target spelled `name` (`sm_90a`, `vulkan`,
/// ...), or null when the family does not know the name.
using TargetInfoFactory = std::unique_ptr<TargetInfo> (*)(llvm::StringRef name);

/// Adds a target family to the registry convert-tile-to-gpu reads (each
/// family registers once; tilec-opt registers them all).
void registerTargetInfoFactory(TargetInfoFactory factory);

/// The TargetInfo of `name` from the first registered family that knows it;
/// null when none does.
std::unique_ptr<TargetInfo> createTargetInfo(llvm::StringRef name);

} // namespace tilec

#endif // TILEC_TARGET_TARGETINFO_H
