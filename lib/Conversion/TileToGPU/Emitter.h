//===- Emitter.h - Thread-level emission of one tile kernel -----*- C++ -*-===//
//
// KernelEmitter walks one tile.launch body and writes the thread-level code of
// a gpu.func: shared buffers carved from dynamic shared memory, fragments as
// per-thread register arrays placed by FragmentLayout, every tile op as the
// code one thread runs, barriers where shared or global data crosses threads.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_CONVERSION_TILETOGPU_EMITTER_H
#define TILEC_LIB_CONVERSION_TILETOGPU_EMITTER_H

#include "tilec/Dialect/Tile/IR/FragmentLayout.h"
#include "tilec/Dialect/Tile/IR/SharedSwizzle.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Target/GPULimits.h"
#include "tilec/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include <functional>

namespace tilec::gpu_lowering {

using tile::FragmentLayout;
using tile::kSwizzleChunkBytes;
using tile::LayoutField;
using tile::SwizzleAtom;
using tile::swizzleAtom;
using tile::swizzledIndex;
using tile::swizzleSpanFor;
using tile::swizzleXor;

/// A shared buffer: a flat view of `stages * numel` elements in workgroup
/// memory; stage s of a multi-buffered buffer starts at element s * numel.
struct SharedBuffer {
  llvm::SmallVector<int64_t> shape;
  mlir::Type elementType;
  int64_t numel = 0;
  int64_t stages = 1;
  int64_t byteOffset = 0;
  /// 16-byte chunks XOR-swizzled over `swizzleBytes` (SharedSwizzle.h): 128
  /// (chunk ^ row % 8) for rows of a multiple of 128 bytes, else the row
  /// length, 64 or 32; set together with `swizzled`.
  bool swizzled = false;
  int64_t swizzleBytes = 0;
  mlir::Value flat; ///< memref<(stages*numel) x T, workgroup>
  /// Non-zero: rows wider than 128 bytes are stored as column boxes of
  /// `boxCols` elements (128 bytes), box-major ([box][row][boxCols], each box
  /// swizzled like a 128-byte-row tile): the layout of TMA boxes.
  int64_t boxCols = 0;
};

/// A fragment: `layout.numRegs` registers per thread.
struct Fragment {
  FragmentLayout layout;
  mlir::Type elementType;
  mlir::Value regs; ///< memref<numRegs x T> (private; promoted to registers)
};

/// How one tile.gemm runs: mma.sync tiles or the per-element fallback.
struct GemmPlan {
  bool mma = false;
  int64_t warpsM = 1, warpsN = 1;
  /// A is a fragment in the mma accumulator layout of an M x K tile split
  /// over warpsM x 1 warps (e.g. FlashAttention's P = softmax(S) cast to
  /// fp16): its registers are the mma's A operands, no ldmatrix.
  bool aRegs = false;
};

/// A T.Pipelined loop as tile-plan-pipelines planned it (EmitPipelined.cpp):
/// its staged global->shared copies (empty when it is not pipelined that
/// way), the body's pure non-tile ops their offsets are computed from
/// (cloned where the copies are issued ahead), the matrix-instruction gemm
/// that ends it on two staged tiles (the fragment hand-off), and whether the
/// copies are tensor copies.
struct StagedLoop {
  llvm::SmallVector<tile::CopyOp> copies;
  llvm::DenseSet<mlir::Operation *> needed;
  mlir::Operation *lastCopy = nullptr;
  tile::GemmOp gemm;
  bool tensorCopies = false;
};

/// The plans of one launch as tile-infer-layouts wrote them (tile.layout,
/// tile.gemm_plan), decoded once for the emission.
struct LayoutPlan {
  llvm::DenseMap<mlir::Value, FragmentLayout> fragments;
  llvm::DenseMap<mlir::Operation *, GemmPlan> gemms;
  /// Iteration layouts of T.Parallel loops that no fragment drives.
  llvm::DenseMap<mlir::Operation *, FragmentLayout> parallels;
  /// Values of the source IR that may differ between the threads of a block
  /// (T.get_thread_binding and what is computed from it).
  llvm::DenseSet<mlir::Value> threadVariant;
};

/// Reads the layout and gemm plan attributes of `launch`.
LayoutPlan readLayoutPlan(tile::LaunchOp launch);

/// Checks the planned layouts and gemms of `launch` against `limits`
/// (Limits.cpp); a diagnostic at the fragment or gemm names the figure.
mlir::LogicalResult checkPlannedLimits(const LayoutPlan &plan, tile::LaunchOp launch, int64_t threads,
                                       const GPULimits &limits);

/// Emits the body of one kernel.
class KernelEmitter {
public:
  KernelEmitter(tile::KernelOp kernel, tile::LaunchOp launch, mlir::gpu::GPUFuncOp func,
                const TargetInfo &target, LayoutPlan plan);
  /// Emits everything; on failure a diagnostic has been reported.
  mlir::LogicalResult run();
  /// Dynamic shared memory bytes the kernel needs.
  int64_t getSharedBytes() const { return window ? window.getKernelBytes() : 0; }
  /// The gpu.func being written.
  mlir::gpu::GPUFuncOp getFunc() const { return func; }
  /// The pending cross-thread accesses (noteAccess) and the scratch half in
  /// use, saved and restored around alternative versions of the same code.
  struct AccessState {
    llvm::DenseSet<mlir::Value> reads, writes;
    int scratchHalf = -1;
  };
  AccessState saveAccessState() const { return {pendingReads, pendingWrites, scratchPendingHalf}; }
  void restoreAccessState(const AccessState &s) {
    pendingReads = s.reads, pendingWrites = s.writes, scratchPendingHalf = s.scratchHalf;
  }

  // --- helpers shared by the emission files -------------------------------
  mlir::OpBuilder b;
  mlir::Location loc;
  const TargetInfo &target;
  int64_t numThreads = 1;
  mlir::Value tid; ///< linear thread id (index)

  mlir::Value cIdx(int64_t v);
  mlir::Value add(mlir::Value a, mlir::Value c);
  mlir::Value mul(mlir::Value a, int64_t c);
  mlir::Value addc(mlir::Value a, int64_t c);
  mlir::Value zeroOf(mlir::Type t);
  mlir::Value identityOf(tile::ReduceKind kind, mlir::Type t);
  mlir::Value combine(tile::ReduceKind kind, mlir::Value acc, mlir::Value v);
  /// Converts a scalar or vector value to element type `to`; integers read
  /// as unsigned when `fromUnsigned`, written as unsigned when `toUnsigned`.
  mlir::Value convert(mlir::Value v, mlir::Type to, bool fromUnsigned = false, bool toUnsigned = false);
  /// Whether `buffer`'s elements are unsigned (i1, or a `tile.dtype` such as
  /// "uint8" on the kernel argument or the alloc).
  static bool isUnsignedBuffer(mlir::Value buffer);
  /// The thread part of dimension `d` of `layout` (cached per layout).
  mlir::Value threadPart(const FragmentLayout &layout, unsigned d);
  /// i1: this thread is the first replica of `layout`'s elements.
  mlir::Value isFirstReplica(const FragmentLayout &layout);
  /// Emits `scf.if cond` and positions the builder in its then block; returns
  /// the insertion point to restore.
  mlir::OpBuilder::InsertPoint beginIf(mlir::Value cond);
  /// i1: every index within [0, size) of `buffer`'s dims (global tensors).
  mlir::Value inBounds(mlir::Value globalBuf, llvm::ArrayRef<mlir::Value> idx, int64_t innerExtra = 0);
  /// A known divisor of an index value (1 when unknown).
  int64_t knownMultiple(mlir::Value v);
  /// Linear element index of a shared buffer access (stage base included).
  mlir::Value sharedIndex(mlir::Value buf, llvm::ArrayRef<mlir::Value> idx);
  /// The XOR term of row `row` (index) of swizzled buffer `sb`: swizzleXor
  /// of SharedSwizzle.h, built as index arithmetic.
  mlir::Value emitSwizzleXor(const SharedBuffer &sb, mlir::Value row);
  /// An scf.for whose body yields its iteration arguments unchanged: build
  /// the body before the terminator, then set the terminator's operands.
  mlir::scf::ForOp loopWithIterArgs(mlir::Value lb, mlir::Value ub, mlir::Value step, mlir::ValueRange inits);
  /// Emits a barrier and forgets pending cross-thread accesses.
  void barrier();
  /// Records that the current op reads/writes shared or global buffers and
  /// emits a barrier first when an earlier access conflicts.
  void noteAccess(llvm::ArrayRef<mlir::Value> reads, llvm::ArrayRef<mlir::Value> writes);
  /// Whether `set` (pendingReads or pendingWrites) holds `v` or a buffer sharing its bytes.
  bool isPending(const llvm::DenseSet<mlir::Value> &set, mlir::Value v) const;

  /// Translated buffers of the source IR.
  llvm::DenseMap<mlir::Value, SharedBuffer> shared;
  llvm::DenseMap<mlir::Value, Fragment> fragments;
  llvm::DenseMap<mlir::Value, mlir::Value> locals;  ///< private memrefs
  llvm::DenseMap<mlir::Value, mlir::Value> globals; ///< kernel arguments
  llvm::DenseMap<mlir::Value, mlir::Value> stageBase; ///< pipelined buffers: element offset of the current stage
  llvm::DenseSet<mlir::Value> untracked; ///< buffers whose barriers a pipelined loop manages
  /// Bounds handling of cp.async tile copies: PerCopy tests each copy's
  /// source tile (unchecked or zero-filling form); Unchecked / Checked when
  /// the pipelined loop decided once per block (EmitGemm.cpp).
  enum class AsyncBounds { PerCopy, Unchecked, Checked } asyncBounds = AsyncBounds::PerCopy;
  /// A pipelined loop's hand-off to its mma.sync gemm (EmitGemm.cpp): the
  /// fragments of the next tile's first k step are loaded before the mma of
  /// the last k step (after `sync`: the cp.async wait and the barrier) and
  /// kept in `carry` (i32 registers) across iterations; `prologue` loads only
  /// those of the first tile.
  struct MmaHandoff {
    mlir::Value carry;
    std::function<void()> sync;
    llvm::DenseMap<mlir::Value, mlir::Value> nextStage;
    bool prologue = false;
  } *mmaHandoff = nullptr;
  mlir::IRMapping map;
  LayoutPlan plan;
  /// The launch's shared window (tile-plan-shared-memory): its size, the
  /// scratch area's offset and the half of it each cross-warp reduction uses.
  tile::SharedMemoryPlanAttr window;
  /// Nesting of regions under a condition or loop bound that differs between
  /// threads (per-thread code, spec §6): no barrier may be emitted there, so
  /// cross-thread accesses inside are recorded in divergentReads/Writes and
  /// become pending when the outermost such region ends.
  unsigned divergentDepth = 0;
  llvm::DenseSet<mlir::Value> divergentReads, divergentWrites;
  /// Whether `op` (an scf.if or tile.for) has an operand that differs
  /// between threads.
  bool isDivergent(mlir::Operation *op);
  /// Brackets the emission of a divergent region (see divergentDepth).
  void enterDivergent();
  void exitDivergent();
  /// An scf.if without an else whose condition holds on the threads of
  /// whole warps [lo, hi) (a compare of the thread index with a constant, in
  /// a 1-D block): hi - lo, or 0. Its body runs with barriers among those
  /// threads (tile-lang's `if tx < n:` around T.sync_threads(id, n)).
  int64_t rangeRegionThreads(mlir::Operation *op);
  /// Inside such a region (not nested in divergent code): its thread count.
  int64_t rangeThreads = 0;
  /// memref<? x i8, workgroup>: the shared window (tile.shared_memory), the
  /// dynamic shared memory or a view of it from its first 1 KB boundary.
  mlir::Value scratchBase;
  bool insideParallel = false;

  // --- per-op emission (Emit*.cpp) ----------------------------------------
  mlir::LogicalResult emitBlock(mlir::Block &block);
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult emitOpImpl(mlir::Operation *op);
  mlir::LogicalResult emitCopy(tile::CopyOp op, bool async = false);
  mlir::LogicalResult emitFill(tile::FillOp op);
  mlir::LogicalResult emitParallel(tile::ParallelOp op);
  mlir::LogicalResult emitReduce(tile::ReduceOp op);
  mlir::LogicalResult emitCumsum(tile::CumsumOp op);
  mlir::LogicalResult emitFinalizeReducer(tile::FinalizeReducerOp op);
  mlir::LogicalResult emitAtomicAdd(tile::AtomicAddOp op);
  /// T.atomic_add(..., return_prev=True): a per-thread fetch-and-add.
  mlir::LogicalResult emitFetchAdd(mlir::memref::AtomicRMWOp op);
  /// The calling thread's T.print or T.call_extern (EmitMisc.cpp).
  mlir::LogicalResult emitThreadCall(mlir::Operation *op);
  mlir::LogicalResult emitPrint(tile::PrintOp op);
  mlir::LogicalResult emitCallExtern(tile::CallExternOp op);
  mlir::LogicalResult emitGemm(tile::GemmOp op);
  /// T.gemm as subgroup matrix operations (EmitGemmSubgroupMMA.cpp); nullopt
  /// when the target has none for this gemm.
  std::optional<mlir::LogicalResult> emitGemmSubgroupMMA(tile::GemmOp op);
  mlir::LogicalResult emitFor(tile::ForOp op);
  mlir::LogicalResult emitWhile(mlir::scf::WhileOp op);
  mlir::LogicalResult emitPipelined(tile::ForOp op);
  StagedLoop analyzeStagedLoop(tile::ForOp op);
  mlir::LogicalResult emitLoad(mlir::memref::LoadOp op);
  mlir::LogicalResult emitStore(mlir::memref::StoreOp op);

  /// Parallel-body context: fragment register lookups per (buffer, indices).
  struct ParallelCtx {
    const FragmentLayout *driver = nullptr;
    int64_t reg = 0;
    llvm::SmallVector<mlir::Value> ivs; ///< source induction variables
  };
  ParallelCtx *par = nullptr;
  /// The register of fragment `buf` that `idx` names inside the current
  /// parallel iteration; fails with a diagnostic on `op`.
  mlir::FailureOr<mlir::Value> fragmentRegIndex(mlir::Operation *op, mlir::Value buf, mlir::ValueRange idx);
  /// `sum` (null: 0) plus the register digits of index `v` on dimension `d`
  /// of layout `l`, computed at run time.
  mlir::Value addRegisterDigits(mlir::Value sum, const FragmentLayout &l, unsigned d, mlir::Value v);

  /// Cross-warp reductions use two halves of the scratch area, each of
  /// `window.getReduceScratch()` bytes, in turn: a reduction writes the half
  /// the previous one did not read, so it needs no barrier before its
  /// writes. The half whose reads may still be in flight: 0 or 1, -1 none (a
  /// barrier since), -2 unknown (control flow or another scratch user since).
  int scratchPendingHalf = -1;

private:
  tile::KernelOp kernel;
  tile::LaunchOp launch;
  mlir::gpu::GPUFuncOp func;
  llvm::DenseSet<mlir::Value> pendingReads, pendingWrites;
  /// The other shared buffers each shared buffer shares bytes with.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value>> sharedAliases;
  llvm::StringMap<mlir::Value> threadPartCache;
  mlir::Operation *entryAnchor = nullptr; ///< cached per-kernel values go before it
  /// The buffers of the launch body as the plans place them.
  mlir::LogicalResult createBuffers();
};

/// Makes fp8 values and packed 4-bit global tensors of `func` bytes
/// (NarrowStorage.cpp); fails with a diagnostic on an access it cannot pack.
mlir::LogicalResult legalizeNarrowStorage(mlir::gpu::GPUFuncOp func);

/// Element indices of register `reg` of `layout` for this thread (thread
/// part + constant register part).
llvm::SmallVector<mlir::Value> layoutIndex(KernelEmitter &e, const FragmentLayout &layout, int64_t reg);
/// Element indices for a register number known only at run time.
llvm::SmallVector<mlir::Value> layoutIndexDyn(KernelEmitter &e, const FragmentLayout &layout, mlir::Value reg);

/// The buffers that tile operations and stores inside `op` write (for the barrier a loop's next
/// iteration needs).
llvm::DenseSet<mlir::Value> buffersWritten(mlir::Operation *op);

} // namespace tilec::gpu_lowering

#endif // TILEC_LIB_CONVERSION_TILETOGPU_EMITTER_H
