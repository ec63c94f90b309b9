//===- HopperEmitter.h - The emitter of the wgmma gemm body -----*- C++ -*-===//
//
// Private to lib/Target/CUDA/Hopper: the emitter state shared by the files
// that write the body of a matched gemm kernel (HopperPlan.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_HOPPER_HOPPEREMITTER_H
#define TILEC_LIB_TARGET_CUDA_HOPPER_HOPPEREMITTER_H

#include "HopperPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace tilec::hopper {
using mlir::IRMapping;
using mlir::Location;
using mlir::LogicalResult;
using mlir::MemRefType;
using mlir::MLIRContext;
using mlir::OpBuilder;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;
namespace LLVM = mlir::LLVM;
namespace NVVM = mlir::NVVM;
namespace nvgpu = mlir::nvgpu;
namespace gpu = mlir::gpu;
namespace arith = mlir::arith;
namespace memref = mlir::memref;
namespace scf = mlir::scf;

/// Columns of B per TMA box: 128 bytes of 16-bit elements.
constexpr int64_t kBoxN = 64;
/// f32 padding of each row of the epilogue tile (bank conflicts).
constexpr int64_t kEpiloguePad = 8;

/// i1, true in the producer warpgroup (threads from 128 `consumers` on), as
/// a warp-uniform branch condition (HopperWarpSpecialized.cpp).
Value isProducerWarpgroup(OpBuilder &b, Location loc, Value tid, int64_t consumers);
/// The warpgroup index tid / 128 (i32) as lane 0 of the warp has it (shfl.sync idx), which ptxas knows to be
/// warp-uniform.
Value uniformWarpgroup(OpBuilder &b, Location loc, Value tid);

/// The state of one kernel body's emission (HopperGemm.cpp: set-up, loads,
/// the loop, the epilogue; HopperMma.cpp: the wgmma steps of a stage;
/// HopperWarpSpecialized.cpp: the producer/consumer form of the loop).
struct GemmEmitter {
  HopperGemmPlan p;
  tile::KernelOp kernel;
  tile::LaunchOp launch;
  gpu::GPUFuncOp func;
  MLIRContext *ctx;
  Location loc;
  OpBuilder b;
  IRMapping map;
  Value tid, isThread0, isWarp0, smem, alignPad, tmA, tmB, full, empty, numIters;
  Value tiles32;        ///< i32 shared address of the 1 KB aligned tiles
  Value tmAPtr, tmBPtr; ///< the tensor-map parameters themselves (!llvm.ptr)
  Value tmCPtr;         ///< C's, with a TMA-store epilogue
  Type elem;            ///< the operand type (f16, bf16, f8E4M3FN, f8E5M2)
  Type storage;         ///< how shared tiles hold it (i8 for fp8)
  Type accElem;         ///< f32, or i32 for int8
  MemRefType wgATileT, bTileT;
  nvgpu::TensorMapDescriptorType tmAT, tmBT;
  int64_t aStageBytes = 0, bStageBytes = 0;
  int64_t lag = 1;                    ///< wgmma groups left in flight per iteration
  int64_t threads = 128, wgRows = 64; ///< consumer threads (128 W), rows per warpgroup

  GemmEmitter(HopperGemmPlan p, tile::KernelOp kernel, tile::LaunchOp launch, gpu::GPUFuncOp func)
      : p(p), kernel(kernel), launch(launch), func(func), ctx(func.getContext()), loc(kernel.getLoc()), b(ctx) {}

  /// Sets `loc` to the location of `op` (the .tile statement the code being
  /// emitted implements: -g's .loc lines) until the scope ends.
  struct AtOp {
    GemmEmitter &e;
    Location saved;
    AtOp(GemmEmitter &e, mlir::Operation *op) : e(e), saved(e.loc) {
      if (op)
        e.loc = op->getLoc();
    }
    ~AtOp() { e.loc = saved; }
  };

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value ult(Value x, Value y) { return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y); }
  Value slt(Value x, Value y) { return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value i32(Value index) { return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index); }
  /// Runs `body` under `scf.if cond`.
  template <typename F> void ifThen(Value cond, F body) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    body();
  }
  /// Runs `body` in the producer: one elected lane of warp 0, behind a
  /// warp-uniform branch, so that the other warps skip it with one branch
  /// instead of running it predicated off.
  template <typename F> void producer(F body) {
    ifThen(isWarp0, [&] { ifThen(NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value()), body); });
  }
  /// A typed view of dynamic shared memory at `byteOffset` past the 1 KB
  /// aligned base.
  Value view(MemRefType t, Value byteOffset) {
    return memref::ViewOp::create(b, loc, t, smem, add(alignPad, byteOffset), ValueRange{});
  }

  void setUpTypes();
  void blockIndices();
  void mapBlockIndices(Value bx, Value by, llvm::function_ref<std::pair<Value, Value>()> extents);
  void tileSetUp();
  /// Persistent (HopperPersistent.cpp): the tile loops of the producer and
  /// the consumers; `ringSlot`/`ringPhase` carry the consumers' stage and
  /// parity from one tile's mainLoop to the next.
  LogicalResult persistentLoops();
  /// Their frame, shared with pingpongLoops: roles, producer loop, `consumers` at the
  /// pipelined loop, barrier invalidation.
  LogicalResult persistentFrame(llvm::function_ref<LogicalResult()> consumers);
  Value tileCount();
  void tileIndices(Value t);
  void persistentProducer();
  Value ringSlot, ringPhase;
  /// Ping-pong: the persistent consumers' loop (each warpgroup its tiles, the
  /// ring position of each computed from its ordinal), and the hand-off that
  /// mainLoop makes once a tile's wgmmas are issued: bar.arrive on the other
  /// warpgroup's turn barrier `handOffBar` (i32) when `handOffCond` (a next
  /// tile, the other's, exists).
  LogicalResult pingpongLoops();
  Value handOffBar, handOffCond;
  /// Ping-pong's epilogue: the accumulator's registers, converted, stored into
  /// C at (rowOff, colOff) in pairs of columns (bounds-checked only when the
  /// tile reaches past C or C's rows are odd).
  void storeFromRegisters(Value acc, Value out, Value rowOff, Value colOff);
  /// The register epilogue's forms: the zero accumulator (accBlocksType) written by side-effecting
  /// inline PTX at the tile's start, so that the zeros are not materialized between the first
  /// iteration's wgmmas (ptxas then waits for the first block's wgmma there: C7517).
  Value zeroAccBlocks();
  void setUpSharedMemory();
  void issueLoads(Value iter, Value slot);
  void countIterations();
  LogicalResult mainLoop();
  std::pair<Value, Value> advanceStage(Value slot, Value phase, Value phase1);
  /// One stage's wgmma steps in a consumer: the loop's accumulator `accIn`
  /// plus this warpgroup's A rows (`wgAOffset` into the stage) times B of
  /// stage `slot`; the promoted form returns `accIn` and sets `part` to the
  /// stage's product instead.
  Value stageMma(Value accIn, Value slot, Value wgAOffset, nvgpu::WarpgroupAccumulatorType accT, Value &part);
  Value kSliceDescriptor(bool isB, Value off, int64_t k);
  Value fp8Mma(Value acc, nvgpu::WarpgroupAccumulatorType accT, Value aOff, Value bOff);
  Value wgmmaAsyncStage(Value acc, Value aOff, Value bOff, NVVM::WGMMATypes ab, NVVM::WGMMATypes d, bool zeroFirst,
                        int64_t wait);
  Value int8Mma(Value acc, Value aOff, Value bOff);
  Value promotedMma(Value aOff, Value bOff);
  Value addAcc(Value total, Value part);
  void storeAccStruct(Value acc, Value scratch);
  LLVM::LLVMStructType accStructType();
  void epilogue(Value acc);
  void storeAcc(Value acc, Value scratch);
  void storeRows(Value scratch, Value out, Value rowOff, Value colOff, int64_t rowBase);
  void red(Value addr, Value x, bool pair);
  void atomicAddChunk(Value v, Value out, Value gr, Value gc, Value cols, Value rowOk, Value whole);
  void invalidateBarriers();
  /// The TMA-store epilogue (HopperMma.cpp): the bytes of its shared tile of
  /// C's type (after the f32 scratch tile), a view of it, and the store of
  /// it at C[rowOff, colOff] (fence.proxy.async, a consumer barrier, then
  /// thread 0's cp.async.bulk.tensor store, commit and wait for its reads).
  int64_t tmaStoreTileBytes();
  Value tmaStoreTile(Type outElem);
  void tmaStoreOut(Value rowOff, Value colOff);
  /// A barrier of the consumer threads: the block's (gpu.barrier), or, warp
  /// specialized, named barrier 1 over the 128 W consumer threads (the
  /// producer warpgroup takes no part after its loop).
  void syncConsumers();
  /// Warp-specialized (HopperWarpSpecialized.cpp): the producer warpgroup's
  /// branch (setmaxnreg.dec, producerLoop) and the consumers' (setmaxnreg.inc,
  /// mainLoop without its producer parts, the epilogue, invalidateBarriers).
  LogicalResult warpSpecializedLoop();
  /// The producer / consumer split of a warp-specialized kernel: the scf.if on the warpgroup with
  /// setmaxnreg moving registers to the consumers; splitRoles leaves the builder in the producer's
  /// region, enterConsumers moves it to the consumers'.
  scf::IfOp splitRoles();
  void enterConsumers(scf::IfOp roles);
  void producerLoop();
  /// Runs `body(phase0, phase1)` (the i1 constants 0 and 1) on the elected lane of the first
  /// producer warp.
  void inProducerLane(llvm::function_ref<void(Value phase0, Value phase1)> body);
  /// One load of the stage ring inside a loop whose iteration arguments are (slot, phase): waits
  /// for the stage's release once `load` (the load's number in the kernel) reaches the second
  /// round, issues k-step `i` into `slot`, yields the next slot and phase.
  void ringLoad(Value load, Value i, Value slot, Value phase, Value phase1);
  LogicalResult run(unsigned firstDescArg);
};

} // namespace tilec::hopper

#endif // TILEC_LIB_TARGET_CUDA_HOPPER_HOPPEREMITTER_H
