//===- HopperMatch.cpp - Which kernels take the TMA + WGMMA path ----------===//
//
// Recognises the launch bodies the Hopper emitter handles and records their
// parts in a HopperGemmPlan; anything else is left to the mma.sync path.
//
//===----------------------------------------------------------------------===//
#include "HopperPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::hopper;

bool tilec::hopper::isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// The operand types the path takes: 16-bit floats, and fp8 (e4m3/e5m2,
/// stored as bytes on the CUDA target) and int8 when B is stored N x K.
static bool isWgmmaOperandType(Type t) { return t.isF16() || t.isBF16() || isFp8(t) || t.isInteger(8); }

/// A rank-2 global memref whose row stride is static and a multiple of 16
/// bytes (TMA's stride rule).
static bool isTMAGlobal(Value v, tile::KernelOp kernel) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return false;
  auto t = dyn_cast<MemRefType>(v.getType());
  if (!t || t.getRank() != 2 || ShapedType::isDynamic(t.getDimSize(1)))
    return false;
  unsigned bits = t.getElementType().getIntOrFloatBitWidth();
  return (t.getDimSize(1) * bits / 8) % 16 == 0;
}

static bool isZeroOffsets(ValueRange offsets) {
  for (Value o : offsets)
    if (!matchPattern(o, m_Zero()))
      return false;
  return true;
}

/// A global -> shared copy of a whole shared tile.
static bool isTileLoad(tile::CopyOp copy, tile::KernelOp kernel) {
  auto dst = dyn_cast<MemRefType>(copy.getDst().getType());
  if (!dst || !isTMAGlobal(copy.getSrc(), kernel) || !isZeroOffsets(copy.getDstOffsets()))
    return false;
  return llvm::equal(copy.getSrcSizes(), dst.getShape()) && llvm::equal(copy.getDstSizes(), dst.getShape());
}

/// `par` is `for i, j in T.Parallel(M, N): total[i, j] += local[i, j]` over
/// the whole of both fragments (same shape, f32): loads of total[i, j] and
/// local[i, j], one addf of the two (either order), a store to total[i, j].
static bool isPromotion(tile::ParallelOp par, Value local, Value total) {
  auto localT = dyn_cast<MemRefType>(local.getType());
  auto totalT = dyn_cast<MemRefType>(total.getType());
  if (local == total || !localT || !totalT || localT != totalT || localT.getRank() != 2 ||
      !localT.getElementType().isF32() || par.getExtents() != localT.getShape())
    return false;
  auto ivs = par.getInductionVars();
  auto atIJ = [&](ValueRange idx) { return idx.size() == 2 && idx[0] == ivs[0] && idx[1] == ivs[1]; };
  memref::LoadOp loadTotal, loadLocal;
  arith::AddFOp sum;
  memref::StoreOp store;
  for (Operation &op : *par.getBodyBlock()) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (auto ld = dyn_cast<memref::LoadOp>(op)) {
      memref::LoadOp &slot = ld.getMemRef() == total ? loadTotal : loadLocal;
      if (slot || (ld.getMemRef() != total && ld.getMemRef() != local) || !atIJ(ld.getIndices()))
        return false;
      slot = ld;
      continue;
    }
    if (auto add = dyn_cast<arith::AddFOp>(op)) {
      if (sum)
        return false;
      sum = add;
      continue;
    }
    if (auto st = dyn_cast<memref::StoreOp>(op)) {
      if (store || st.getMemRef() != total || !atIJ(st.getIndices()))
        return false;
      store = st;
      continue;
    }
    return false;
  }
  if (!loadTotal || !loadLocal || !sum || !store || store.getValue() != sum.getResult())
    return false;
  Value x = sum.getLhs(), y = sum.getRhs();
  return (x == loadTotal.getResult() && y == loadLocal.getResult()) ||
         (x == loadLocal.getResult() && y == loadTotal.getResult());
}

/// Why a kernel does not take the path (null: it may).
using Reason = const char *;

/// 1b. Every gemm's A and B in shared memory: wgmma's register-A form (RS,
///     e.g. FlashAttention's P @ V on a cast of an accumulator) has no
///     lowering here.
static Reason matchRegisterOperands(tile::LaunchOp launch) {
  Reason reason = nullptr;
  launch.walk([&](tile::GemmOp g) {
    if (!tile::isBufferInScope(g.getA().getType(), tile::Scope::Shared) ||
        !tile::isBufferInScope(g.getB().getType(), tile::Scope::Shared)) {
      reason = "a T.gemm with an operand in registers (a fragment: wgmma's RS form, e.g. P @ V), which the wgmma "
               "path does not take";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return reason;
}

/// 2. The launch body: allocs, an optional rasterization, a zero fill of the
///    accumulator, one pipelined loop, the store (or atomic add) of the
///    accumulator, and pure index arithmetic.
static Reason matchLaunchBody(tile::LaunchOp launch, HopperGemmPlan &plan) {
  for (Operation &op : *launch.getBodyBlock()) {
    if (op.hasTrait<OpTrait::IsTerminator>() || isa<tile::AllocOp>(op))
      continue;
    if (auto sw = dyn_cast<tile::UseSwizzleOp>(op)) {
      plan.swizzle = sw;
      continue;
    }
    if (auto fill = dyn_cast<tile::FillOp>(op)) {
      if (plan.fill || plan.loop || !(matchPattern(fill.getValue(), m_AnyZeroFloat()) || matchPattern(fill.getValue(), m_Zero())))
        return "a second fill, a fill after the loop or a non-zero fill";
      plan.fill = fill;
      continue;
    }
    if (auto loop = dyn_cast<tile::ForOp>(op)) {
      if (plan.loop || loop.getKind() != tile::LoopKind::Pipelined)
        return "a second loop or a loop that is not T.Pipelined";
      plan.loop = loop;
      continue;
    }
    if (auto copy = dyn_cast<tile::CopyOp>(op)) {
      if (!plan.loop || plan.store || plan.atomic)
        return "a copy before the loop or a second epilogue";
      if (!plan.stagedStore && tile::isBufferInScope(copy.getDst().getType(), tile::Scope::Shared)) {
        plan.stagedStore = copy;
        continue;
      }
      plan.store = copy;
      continue;
    }
    if (auto at = dyn_cast<tile::AtomicAddOp>(op)) {
      if (!plan.loop || plan.store || plan.atomic || !at.isRegionForm())
        return "an atomic add before the loop, a second epilogue or an element atomic add";
      plan.atomic = at;
      continue;
    }
    if (op.getDialect() && op.getDialect()->getNamespace() == "arith" && isPure(&op))
      continue;
    return "an op of another kind in the launch body";
  }
  if (!plan.fill || !plan.loop || (!plan.store && !plan.atomic))
    return "no fill, no pipelined loop or no epilogue";
  return nullptr;
}

/// 3. The loop body: two tile loads feeding one gemm (plus, fp8, the
///    promotion), plus index arithmetic; the gemm's operand form.
static Reason matchLoopBody(tile::KernelOp kernel, HopperGemmPlan &plan) {
  llvm::SmallVector<tile::CopyOp> loads;
  for (Operation &op : *plan.loop.getBodyBlock()) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (auto copy = dyn_cast<tile::CopyOp>(op)) {
      if (!isTMAGlobal(copy.getSrc(), kernel))
        return "a loop copy whose source is not a rank-2 kernel tensor with a static row of a multiple of 16 "
               "bytes (a TMA stride)";
      if (!isTileLoad(copy, kernel))
        return "a loop copy that is not a whole-tile load into a shared tile";
      loads.push_back(copy);
      continue;
    }
    if (auto gemm = dyn_cast<tile::GemmOp>(op)) {
      if (plan.gemm)
        return "two gemms in the loop";
      plan.gemm = gemm;
      continue;
    }
    // The promotion: one T.Parallel after the gemm (checked below).
    if (auto par = dyn_cast<tile::ParallelOp>(op)) {
      if (!plan.gemm || plan.promote)
        return "a T.Parallel before the gemm or a second one";
      plan.promote = par;
      continue;
    }
    if (op.getDialect() && op.getDialect()->getNamespace() == "arith" && isPure(&op))
      continue;
    return "an op of another kind in the loop body";
  }
  tile::GemmOp gemm = plan.gemm;
  if (!gemm || loads.size() != 2 || gemm.getKPack() != 1)
    return "no gemm, not two loads, or k_pack";
  plan.fp8 = isFp8(cast<MemRefType>(gemm.getA().getType()).getElementType());
  plan.int8 = cast<MemRefType>(gemm.getA().getType()).getElementType().isInteger(8);
  plan.transA = gemm.getTransposeA();
  plan.transB = gemm.getTransposeB();
  // Plain form: the gemm accumulates into the filled buffer. Promoted form
  // (fp8 only): the gemm clears its own fragment, which the T.Parallel adds
  // into the filled one.
  if (plan.promote ? !(plan.fp8 && gemm.getClearAccum() && isPromotion(plan.promote, gemm.getC(),
                                                                        plan.fill.getBuffer()))
                   : (gemm.getClearAccum() || gemm.getC() != plan.fill.getBuffer()))
    return "the gemm does not accumulate into the filled buffer (or its promotion)";
  // wgmma reads 8-bit operands only K-major from shared memory: A M x K and
  // B N x K (transpose_B). 16-bit ones take either major order.
  if (plan.kMajor() && (plan.transA || !plan.transB))
    return "8-bit operands stored other than A M x K, B N x K (wgmma reads them only K-major)";
  for (tile::CopyOp l : loads) {
    if (l.getDst() == gemm.getA())
      plan.loadA = l;
    else if (l.getDst() == gemm.getB())
      plan.loadB = l;
  }
  if (!plan.loadA || !plan.loadB)
    return "the loads do not fill the gemm's operands";
  // wgmma's 8-bit integer path here is signed (s8): uint8 operands, which
  // share the signless i8 type, keep the generic path.
  if (plan.int8) {
    auto isUnsigned = [&](Value v) {
      StringAttr dtype = tile::getBufferDtype(v);
      return dtype && dtype.getValue().starts_with("u");
    };
    if (isUnsigned(gemm.getA()) || isUnsigned(gemm.getB()) || isUnsigned(plan.loadA.getSrc()) ||
        isUnsigned(plan.loadB.getSrc()))
      return "unsigned 8-bit operands";
  }
  return nullptr;
}

/// 4. Shapes and types wgmma and 128-byte swizzled TMA boxes take: K is 128
///    bytes (the swizzle atom's row: one box row of a K-major tile, 64 boxes
///    of a MN-major one), a MN-major operand (A K x M, B K x N) comes in
///    boxes of 64 columns, a K-major one (A M x K, B N x K) in one box of at
///    most 256 rows; each warpgroup's rows a multiple of 64, and its
///    accumulator at most 128 registers per thread. The accumulator store of
///    the plain 16-bit form (nvgpu.warpgroup.mma.store) places a warpgroup's
///    second 64-row half correctly only for N = 128 and the rows of
///    warpgroup w at 64 w, so there each of two warpgroups owns 64 rows and
///    one of a single warpgroup more than 64 only when N = 128; other tiles
///    of that form, and the other 16-bit forms, take ownDescriptors
///    (HopperWgmma.h), which stores its registers itself.
static Reason matchShapes(HopperGemmPlan &plan) {
  tile::GemmOp gemm = plan.gemm;
  auto aT = cast<MemRefType>(gemm.getA().getType());
  auto bT = cast<MemRefType>(gemm.getB().getType());
  auto cT = cast<MemRefType>(gemm.getC().getType());
  Type elem = aT.getElementType();
  if (!isWgmmaOperandType(elem) || bT.getElementType() != elem ||
      !(plan.int8 ? cT.getElementType().isInteger(32) : cT.getElementType().isF32()))
    return "operand or accumulator types wgmma does not take";
  if (cast<MemRefType>(plan.loadA.getSrc().getType()).getElementType() != elem ||
      cast<MemRefType>(plan.loadB.getSrc().getType()).getElementType() != elem)
    return "the loads convert the element type";
  plan.blockM = aT.getDimSize(plan.transA ? 1 : 0);
  plan.blockK = aT.getDimSize(plan.transA ? 0 : 1);
  plan.blockN = bT.getDimSize(plan.transB ? 0 : 1);
  plan.elemBytes = elem.getIntOrFloatBitWidth() / 8;
  if (bT.getDimSize(plan.transB ? 1 : 0) != plan.blockK || cT.getDimSize(0) != plan.blockM ||
      cT.getDimSize(1) != plan.blockN)
    return "operand shapes that do not agree";
  int64_t wgRows = plan.blockM / plan.warpgroups;
  // fp8 / int8: one 64-row wgmma block per warpgroup (the emitter issues one
  // k32 wgmma per 32-byte column of the 128-byte swizzled rows).
  if (plan.kMajor() && wgRows != 64)
    return "8-bit operands with other than 64 rows per warpgroup";
  // 8-bit: 128-byte K rows. 16-bit: K rows of 32, 64 or 128 bytes, the
  // swizzle of a K-major tile (block_K 16, 32 or 64).
  int64_t kBytes = plan.kRowBytes();
  if (plan.kMajor() ? kBytes != 128 : (kBytes != 32 && kBytes != 64 && kBytes != 128))
    return plan.kMajor() ? "block_K is not 128 bytes of K (128 8-bit elements: the 128-byte swizzle's row)"
                         : "block_K is not 16, 32 or 64 (K rows of 32, 64 or 128 bytes: a swizzle's row)";
  if (plan.blockM % (64 * plan.warpgroups) != 0 || plan.blockN % 64 != 0 || plan.blockM > 256 || plan.blockN > 256)
    return "block_M is not a multiple of 64 rows per warpgroup, or block_N of 64, or one is over 256";
  if (wgRows * plan.blockN / 128 > 128)
    return "an accumulator of more than 128 registers per thread (block_M / warpgroups x block_N / 128)";
  plan.ownDescriptors = !plan.kMajor() && (plan.transA || plan.transB || kBytes != 128 ||
                                           (wgRows > 64 && (plan.warpgroups > 1 || plan.blockN != 128)));
  return nullptr;
}

/// 5. The epilogue stores the whole accumulator into a rank-2 global tensor.
///    Or (split-K) adds it atomically into an f16/bf16 one: the whole
///    accumulator at two indices (red.global.add.noftz.f16x2 / .bf16x2),
///    for 16-bit and fp8 operands (f32 accumulators); not int8 (i32 ones).
static Reason matchEpilogue(tile::KernelOp kernel, HopperGemmPlan &plan) {
  auto cT = cast<MemRefType>(plan.gemm.getC().getType());
  auto outT = dyn_cast<MemRefType>(plan.outTensor().getType());
  if (!outT || outT.getRank() != 2)
    return "the epilogue's tensor is not rank 2";
  Type outElem = outT.getElementType();
  Value stored = plan.fill.getBuffer();
  if (tile::CopyOp sc = plan.stagedStore) {
    auto sT = cast<MemRefType>(sc.getDst().getType());
    if (!plan.store || sc.getSrc() != stored || !isZeroOffsets(sc.getSrcOffsets()) ||
        !isZeroOffsets(sc.getDstOffsets()) || sT.getShape() != cT.getShape() ||
        !llvm::equal(sc.getSrcSizes(), cT.getShape()) || !llvm::equal(sc.getDstSizes(), cT.getShape()))
      return "the epilogue through a shared tile does not copy the whole accumulator into it and store that tile";
    if (sT.getElementType() != outElem && sT.getElementType() != cT.getElementType())
      return "the epilogue's shared tile has a type other than the accumulator's and the output's";
    stored = sc.getDst();
  }
  if (tile::CopyOp st = plan.store) {
    if (st.getSrc() != stored || !isZeroOffsets(st.getSrcOffsets()) || !llvm::equal(st.getSrcSizes(), cT.getShape()) ||
        !llvm::equal(st.getDstSizes(), cT.getShape()))
      return "the epilogue does not store the whole accumulator";
  } else if (plan.atomic.getValue() != plan.fill.getBuffer() || plan.atomic.getIndices().size() != 2 || plan.int8) {
    return "the atomic epilogue does not add the whole f32 accumulator";
  }
  if (plan.atomic ? (!outElem.isF16() && !outElem.isBF16())
                  : plan.int8 ? !outElem.isInteger(32) : (!outElem.isF16() && !outElem.isBF16() && !outElem.isF32()))
    return "an output element type the epilogue does not write";
  auto outArg = dyn_cast<BlockArgument>(plan.outTensor());
  if (!outArg || outArg.getOwner() != &kernel.getBody().front())
    return "the output is not a kernel argument";
  return nullptr;
}

/// 7. Warp specialization (HopperPlan.h, warpSpecialized) under --hopper-ws:
///    a producer needs stages to run ahead into. `auto` keeps the one-role
///    loop for now: the producer/consumer form has not been measured on the
///    GPU yet (bench/README.md: the kit's `ws` configurations time both).
static Reason decideWarpSpecialization(const HopperGemmPlan &plan, HopperWarpSpecialization ws) {
  if (ws == HopperWarpSpecialization::Off)
    return "--hopper-ws=off";
  if (plan.stages < 2)
    return "one stage (num_stages = 1): nothing for a producer to run ahead into";
  if (ws == HopperWarpSpecialization::Auto)
    return "--hopper-ws=auto keeps one role per thread until the producer/consumer form is measured on the "
           "GPU (--hopper-ws=on applies it)";
  return nullptr;
}

/// 8. --hopper-tma-store: a TMA store needs a copy epilogue (not split-K's
///    atomic add) into a C whose rows are a multiple of 16 bytes, of a type
///    the launcher encodes (f16, bf16, f32), and room for its tile of C's
///    type beside the f32 scratch tile (HopperGemm.cpp's layout: 1 KB of
///    alignment slack, blockM x (blockN + 8) f32, then the tile).
static Reason decideTMAStore(HopperGemmPlan &plan, tile::KernelOp kernel, const TargetInfo &target) {
  if (!plan.store)
    return "an atomic (split-K) epilogue";
  Type outElem = cast<MemRefType>(plan.outTensor().getType()).getElementType();
  if (!outElem.isF16() && !outElem.isBF16() && !outElem.isF32())
    return "an output type other than f16, bf16 and f32";
  if (!isTMAGlobal(plan.outTensor(), kernel))
    return "C's row is not static or not a multiple of 16 bytes (a TMA stride)";
  int64_t bytes = 1024 + plan.blockM * (plan.blockN + 8) * 4 + plan.blockM * plan.blockN * outElem.getIntOrFloatBitWidth() / 8;
  if (bytes > target.getMaxSharedMemoryBytes())
    return "the shared tile of C does not fit beside the f32 scratch tile";
  return nullptr;
}

/// 9. --hopper-persistent=on: a warp-specialized kernel (the producer runs
///    ahead into the next tile), with the vector-store epilogue, whose f32
///    epilogue tile fits after at least two stages: the most stages that
///    fit beside the whole tile or, with two consumer warpgroups, beside one
///    warpgroup's rows of it (the whole tile first at equal stages). Blocks
///    per multiprocessor: the one-wave form's, as far as the shared memory
///    (228 KB per multiprocessor, 1 KB reserved per block) holds them.
static Reason decidePersistent(HopperGemmPlan &plan, const TargetInfo &target) {
  if (!plan.warpSpecialized)
    return "not warp-specialized (the persistent form needs --hopper-ws=on)";
  if (plan.tmaStore)
    return "the TMA-store epilogue";
  int64_t limit = target.getMaxSharedMemoryBytes();
  auto fits = [&](int64_t stages) { return 1024 + stages * plan.stageBytes() + plan.scratchBytes() <= limit; };
  int64_t stages = plan.stages;
  for (; stages >= 2; --stages) {
    plan.scratchRows = 0;
    if (fits(stages))
      break;
    plan.scratchRows = plan.blockM / plan.warpgroups;
    if (plan.warpgroups > 1 && fits(stages))
      break;
  }
  if (stages < 2) {
    plan.scratchRows = 0;
    return "the epilogue's f32 tile does not fit beside two stages";
  }
  if (plan.scratchRows == plan.blockM)
    plan.scratchRows = 0;
  plan.stages = stages;
  int64_t shared = 1024 + stages * plan.stageBytes() + plan.scratchBytes();
  constexpr int64_t kSharedPerSM = 228 * 1024;
  plan.persistentBlocksPerSM = std::max<int64_t>(1, std::min<int64_t>(plan.minBlocksPerSM(), kSharedPerSM / (shared + 1024)));
  return nullptr;
}

/// 10. --hopper-persistent=pingpong: the kernel's tile is one warpgroup's
///     (threads = 128) of 16-bit operands with a copy epilogue (not split-K's
///     atomic add, not the TMA store), and a producer may run (stages >= 2,
///     warp specialization not turned off). The plan then is warp-specialized
///     and persistent, with two consumer warpgroups on alternate tiles
///     (HopperPlan.h, pingpong), on own descriptors (its epilogue reads the
///     registers of wgmma's m64 fragments), one block per multiprocessor.
static Reason decidePingpong(HopperGemmPlan &plan, HopperWarpSpecialization ws) {
  if (ws == HopperWarpSpecialization::Off)
    return "--hopper-ws=off (the ping-pong form is warp-specialized)";
  if (plan.warpgroups != 1)
    return "the kernel's tile is not one warpgroup's (threads = 128)";
  if (plan.kMajor() || plan.promote)
    return "8-bit operands";
  if (!plan.store)
    return "an atomic (split-K) epilogue";
  if (plan.tmaStore)
    return "the TMA-store epilogue";
  if (plan.stages < 2)
    return "one stage (num_stages = 1): nothing for a producer to run ahead into";
  plan.warpSpecialized = true;
  plan.notWarpSpecialized = nullptr;
  plan.ownDescriptors = plan.registerEpilogue = true;
  plan.persistentBlocksPerSM = 1;
  return nullptr;
}

std::optional<HopperGemmPlan> tilec::hopper::matchGemmKernel(tile::KernelOp kernel, tile::LaunchOp launch,
                                                             const TargetInfo &target, llvm::StringRef *whyNot,
                                                             HopperWarpSpecialization ws, bool tmaStore,
                                                             HopperPersistence persistent) {
  HopperGemmPlan plan;
  Reason reason = nullptr;
  // 1. Warpgroup MMA (sm_90a), one or two warpgroups.
  llvm::ArrayRef<int64_t> threads = launch.getThreads();
  if (!target.hasWarpgroupMMA())
    reason = "the target has no warpgroup MMA";
  else if (threads.empty() || (threads[0] != 128 && threads[0] != 256) ||
           llvm::any_of(threads.drop_front(), [](int64_t t) { return t != 1; }))
    reason = "the block is not one or two warpgroups";
  else
    plan.warpgroups = threads[0] / 128;
  if (!reason)
    reason = matchRegisterOperands(launch);
  if (!reason)
    reason = matchLaunchBody(launch, plan);
  if (!reason)
    reason = matchLoopBody(kernel, plan);
  if (!reason)
    reason = matchShapes(plan);
  if (!reason)
    reason = matchEpilogue(kernel, plan);
  if (reason) {
    if (whyNot)
      *whyNot = reason;
    return std::nullopt;
  }
  // 6. Stages: as many as asked that fit beside the 1 KB alignment slack.
  plan.stages = std::max<int64_t>(1, plan.loop.getNumStages().value_or(2));
  int64_t stageBytes = (plan.blockM + plan.blockN) * plan.blockK * plan.elemBytes;
  // No more stages than the shared memory could hold at all: -D num_stages=2**62 overflowed the
  // product below and counted down from 2^62 (a hang, then out of memory).
  plan.stages = std::min<int64_t>(plan.stages, target.getMaxSharedMemoryBytes() / std::max<int64_t>(1, stageBytes) + 1);
  while (plan.stages > 1 && plan.stages * stageBytes + 1024 > target.getMaxSharedMemoryBytes())
    --plan.stages;
  plan.notWarpSpecialized = decideWarpSpecialization(plan, ws);
  plan.warpSpecialized = !plan.notWarpSpecialized;
  if (tmaStore) {
    plan.notTMAStore = decideTMAStore(plan, kernel, target);
    plan.tmaStore = !plan.notTMAStore;
  }
  bool ownDescriptors = plan.ownDescriptors;
  if (persistent == HopperPersistence::Pingpong) {
    plan.notPersistent = launch.getCluster() ? "a thread-block cluster launch" : decidePingpong(plan, ws);
    plan.persistent = plan.pingpong = !plan.notPersistent;
  } else if (persistent == HopperPersistence::On || persistent == HopperPersistence::OnRegisters) {
    // The register epilogue reads own-descriptor accumulators of 16-bit operands into a copy epilogue.
    if (persistent == HopperPersistence::OnRegisters && !plan.kMajor() && !plan.promote && plan.store && !plan.tmaStore)
      plan.registerEpilogue = plan.ownDescriptors = true;
    // A cluster launch's grid must stay a multiple of the cluster shape.
    plan.notPersistent = launch.getCluster() ? "a thread-block cluster launch" : decidePersistent(plan, target);
    plan.persistent = !plan.notPersistent;
    if (!plan.persistent)
      plan.registerEpilogue = false, plan.ownDescriptors = ownDescriptors;
  }
  return plan;
}

void tilec::hopper::recordWgmmaDecision(Operation *func, tile::LaunchOp launch, const HopperGemmPlan *plan,
                                        llvm::StringRef whyNot) {
  tile::GemmOp any;
  launch.walk([&](tile::GemmOp g) {
    any = g;
    return WalkResult::interrupt();
  });
  if (!any)
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!plan) {
    os << "mma.sync: " << whyNot;
  } else {
    Type elem = cast<MemRefType>(tile::GemmOp(plan->gemm).getA().getType()).getElementType();
    os << "wgmma " << (plan->transA ? "T" : "N") << (plan->transB ? "T" : "N") << " " << elem << " " << plan->blockM
       << "x" << plan->blockN << "x" << plan->blockK << " warpgroups " << plan->warpgroups << " stages "
       << plan->stages;
  }
  func->setAttr(kWgmmaDecisionAttr, StringAttr::get(func->getContext(), text));
  if (!plan)
    return;
  std::string ws;
  llvm::raw_string_ostream wos(ws);
  if (plan->warpSpecialized)
    wos << "producer warpgroup " << plan->consumerGroups() << ", setmaxnreg " << HopperGemmPlan::kProducerRegs << "/"
        << plan->consumerRegs() << ", " << plan->blockThreads() << " threads, " << plan->minBlocksPerSM()
        << " blocks/SM";
  else
    wos << "off: " << plan->notWarpSpecialized;
  func->setAttr(kWarpSpecializationAttr, StringAttr::get(func->getContext(), ws));
  if (plan->persistent || plan->notPersistent) {
    std::string text = plan->pingpong     ? "pingpong: 2 consumer warpgroups on alternate tiles, grid min(tiles, SMs), "
                                            "stages " +
                                                std::to_string(plan->stages) + ", epilogue from registers"
                       : plan->persistent ? "grid min(tiles, SMs x " + std::to_string(plan->persistentBlocksPerSM) +
                                                "), stages " + std::to_string(plan->stages) +
                                                (plan->registerEpilogue       ? ", epilogue from registers"
                                                 : plan->epiloguePasses() > 1 ? ", epilogue by warpgroup"
                                                                              : "")
                                          : std::string("off: ") + plan->notPersistent;
    func->setAttr(kPersistentDecisionAttr, StringAttr::get(func->getContext(), text));
  }
  if (plan->tmaStore || plan->notTMAStore)
    func->setAttr(kEpilogueDecisionAttr,
                  StringAttr::get(func->getContext(), plan->tmaStore ? std::string("tma store")
                                                                     : std::string("vector stores: ") +
                                                                           plan->notTMAStore));
}
