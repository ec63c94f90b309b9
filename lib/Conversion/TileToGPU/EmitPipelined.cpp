//===- EmitPipelined.cpp - T.Pipelined loops -------------------------------===//
//
// Pipelined loops (num_stages = S): the global -> shared copies of iteration
// k + S - 1 are issued as cp.async into stage (k + S - 1) % S while iteration
// k computes on stage k % S; one commit group per iteration.
//
// sm_90+: when the loop ends in an mma.sync gemm of its staged tiles and the
// tiles suit the TMA, one elected lane of warp 0 loads them with
// cp.async.bulk.tensor onto one mbarrier per stage instead (docs/cuda.md).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tilec/Conversion/TileToGPU/Hopper/HopperGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <functional>

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

/// How `v` (a value of the source loop `op`'s body or above) depends on the
/// loop's induction variable: 0 not at all, 1 affinely, -1 otherwise.
static int affineKind(tile::ForOp op, Value v) {
  if (v == op.getInductionVar())
    return 1;
  if (!op.getRegion().isAncestor(v.getParentRegion()))
    return 0;
  Operation *def = v.getDefiningOp();
  if (!def || !isPure(def))
    return -1;
  llvm::SmallVector<int> kinds;
  for (Value o : def->getOperands())
    kinds.push_back(affineKind(op, o));
  if (llvm::is_contained(kinds, -1))
    return -1;
  int most = kinds.empty() ? 0 : *llvm::max_element(kinds);
  if (most == 0)
    return 0;
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return 1;
  if (isa<arith::MulIOp>(def) && kinds[0] + kinds[1] == 1)
    return 1;
  return -1;
}

/// i1, block-uniform: every staged copy's source tile is in bounds in every
/// iteration of `op` (offsets affine in the induction variable, so the tiles
/// of the first and the last iteration bound all others); null when an offset
/// is not affine.
static Value wholeFootprintInBounds(KernelEmitter &e, tile::ForOp op, ArrayRef<tile::CopyOp> copies, Operation *lastCopy,
                                    const llvm::DenseSet<Operation *> &needed, Value lb, Value ub, Value step) {
  for (tile::CopyOp c : copies)
    for (Value o : c.getSrcOffsets())
      if (affineKind(op, o) < 0)
        return Value();
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // The last iteration: lb + (ub - lb - 1) / step * step (unused when there is none).
  Value span = arith::SubIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb), e.cIdx(1));
  Value kLast = e.add(lb, arith::MulIOp::create(b, loc, arith::DivSIOp::create(b, loc, span, step), step));
  Value all;
  for (Value kv : {lb, kLast}) {
    e.map.map(op.getInductionVar(), kv);
    for (Operation &inner : *op.getBodyBlock()) {
      if (&inner == lastCopy)
        break;
      if (needed.contains(&inner))
        b.clone(inner, e.map);
    }
    for (tile::CopyOp c : copies) {
      Value mem = e.globals.lookup(c.getSrc());
      llvm::SmallVector<Value> first, last;
      for (auto [o, size] : llvm::zip(c.getSrcOffsets(), c.getSrcSizes())) {
        first.push_back(e.map.lookup(o));
        last.push_back(e.addc(first.back(), size - 1));
      }
      Value in = arith::AndIOp::create(b, loc, e.inBounds(mem, first), e.inBounds(mem, last));
      all = all ? (Value)arith::AndIOp::create(b, loc, all, in) : in;
    }
  }
  return all;
}

/// A staged copy the TMA can do: a whole 2-D tile of a kernel argument
/// (static row length, rows 16-byte aligned) into a swizzled shared tile of
/// 32-, 64- or 128-byte rows (the TMA's swizzle of that span is the same XOR
/// of 16-byte chunks, SharedSwizzle.h) or of rows of several 128 bytes (then
/// stored as boxes of 128-byte columns, SharedBuffer::boxCols), on 1 KB
/// boundaries (the 128-byte pattern's repeat, a multiple of the others').
static bool isTMATile(KernelEmitter &e, tile::CopyOp c) {
  auto arg = dyn_cast<BlockArgument>(c.getSrc());
  auto src = dyn_cast<MemRefType>(c.getSrc().getType());
  if (!arg || !isa<tile::KernelOp>(arg.getOwner()->getParentOp()) || !src || src.getRank() != 2 ||
      ShapedType::isDynamic(src.getDimSize(1)))
    return false;
  const SharedBuffer &sb = e.shared[c.getDst()];
  int64_t bytes = sb.elementType.getIntOrFloatBitWidth() / 8;
  if (sb.shape.size() != 2 || !sb.swizzled || bytes != 2 || sb.shape[0] > 256 ||
      (src.getDimSize(1) * bytes) % 16 != 0 || sb.byteOffset % 1024 != 0 || (sb.numel * bytes) % 1024 != 0)
    return false;
  for (Value o : c.getDstOffsets())
    if (!matchPattern(o, m_Zero()))
      return false;
  return llvm::equal(c.getSrcSizes(), sb.shape) && llvm::equal(c.getDstSizes(), sb.shape);
}

StagedCopies tilec::gpu_lowering::stagedCopies(tile::ForOp loop) {
  StagedCopies sc;
  Block *body = loop.getBodyBlock();
  for (Operation &op : *body)
    if (auto copy = dyn_cast<tile::CopyOp>(op))
      if (tile::isBufferInScope(copy.getSrc().getType(), tile::Scope::Global) &&
          tile::isBufferInScope(copy.getDst().getType(), tile::Scope::Shared))
        sc.copies.push_back(copy);
  // Each copy is issued S - 1 iterations ahead, at the top of an iteration:
  // what computes its offsets must be pure non-tile work of the body (cloned
  // with it), and nothing before it in the body may touch its destination.
  std::function<bool(Value)> clonable = [&](Value v) -> bool {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body)
      return true;
    if (sc.needed.contains(def))
      return true;
    if (def->getDialect()->getNamespace() == "tile" || !isPure(def) || def->getNumRegions() != 0)
      return false;
    for (Value o : def->getOperands())
      if (!clonable(o))
        return false;
    sc.needed.insert(def);
    return true;
  };
  auto touches = [](Operation &op, Value buf) {
    WalkResult r = op.walk([&](Operation *x) {
      return llvm::is_contained(x->getOperands(), buf) ? WalkResult::interrupt() : WalkResult::advance();
    });
    return r.wasInterrupted();
  };
  for (tile::CopyOp c : sc.copies) {
    bool ok = llvm::all_of(c->getOperands(), clonable);
    for (Operation &op : *body) {
      if (!ok || &op == c.getOperation())
        break;
      ok = sc.needed.contains(&op) || !touches(op, c.getDst());
    }
    if (!ok) {
      sc.copies.clear();
      sc.needed.clear();
      return sc;
    }
  }
  return sc;
}

StagedLoop KernelEmitter::analyzeStagedLoop(tile::ForOp op) {
  StagedLoop sl;
  int64_t stages = *op.getNumStages();
  StagedCopies sc = stagedCopies(op);
  for (tile::CopyOp c : sc.copies)
    if (!shared.count(c.getDst()) || shared[c.getDst()].stages != stages)
      return sl;
  if (sc.copies.empty())
    return sl;
  sl.copies = sc.copies;
  sl.needed = sc.needed;
  sl.lastCopy = sc.copies.back();
  // An mma.sync gemm of two staged buffers right after the last copy, ending
  // the body: its next tile's first fragments are loaded during the last k
  // step (the wait and the barrier move there from the top of the loop).
  sl.gemm = dyn_cast_or_null<tile::GemmOp>(sl.lastCopy->getNextNode());
  tile::GemmOp hg = sl.gemm;
  if (hg && !(isa<tile::YieldOp>(hg->getNextNode()) && plan.gemms.count(hg) && plan.gemms[hg].mma && stages >= 2 &&
              llvm::any_of(sl.copies, [&](tile::CopyOp c) { return c.getDst() == hg.getA(); }) &&
              llvm::any_of(sl.copies, [&](tile::CopyOp c) { return c.getDst() == hg.getB(); })))
    sl.gemm = nullptr;
  // sm_90+: the staged tiles of such a gemm can come in by TMA (one lane
  // issues them, completion on one mbarrier per stage) instead of 16-byte
  // cp.async by every thread: no per-thread global address arithmetic in the
  // loop and bounds handled by the TMA (zero fill). They need the shared
  // window's base on a 1 KB boundary (planBuffers reserves it).
  sl.tmaCapable = sl.gemm && target.getAsyncCopyEngine() == AsyncCopyEngine::TensorBulk &&
                  llvm::all_of(sl.copies, [&](tile::CopyOp c) { return isTMATile(*this, c); });
  return sl;
}

LogicalResult KernelEmitter::emitPipelined(tile::ForOp op) {
  int64_t stages = *op.getNumStages();
  StagedLoop sl = analyzeStagedLoop(op);
  if (!sl.lastCopy)
    return emitFor(op);
  llvm::SmallVector<tile::CopyOp> &copies = sl.copies;
  Operation *lastCopy = sl.lastCopy;
  Value lb = map.lookup(op.getLowerBound()), ub = map.lookup(op.getUpperBound()), step = map.lookup(op.getStep());
  // Issues iteration `kv`'s copies into stage `slot`, cp.async bounds as `mode`.
  AsyncBounds mode = AsyncBounds::PerCopy;
  auto issue = [&](Value kv, Value slot) -> LogicalResult {
    map.map(op.getInductionVar(), kv);
    for (Operation &inner : *op.getBodyBlock()) {
      if (&inner == lastCopy->getNextNode())
        break;
      if (auto c = dyn_cast<tile::CopyOp>(inner); c && llvm::is_contained(copies, c)) {
        stageBase[c.getDst()] = arith::MulIOp::create(b, loc, slot, cIdx(shared[c.getDst()].numel));
        asyncBounds = mode;
        LogicalResult r = emitCopy(c, /*async=*/true);
        asyncBounds = AsyncBounds::PerCopy;
        if (failed(r))
          return failure();
        continue;
      }
      if (sl.needed.contains(&inner))
        b.clone(inner, map);
    }
    return success();
  };
  for (tile::CopyOp c : copies)
    untracked.insert(c.getDst());
  tile::GemmOp hg = sl.gemm;
  bool useTMA = sl.tmaCapable && sharedAligned1K;
  Value tmaGroup, isThread0, isWarp0, sharedBase32;
  llvm::SmallVector<Value> tmaMaps;
  int64_t tmaBytes = 0;
  auto i32 = [&](Value index) { return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index).getResult(); };
  // One elected lane of warp 0 (a warp-uniform branch, then elect.sync, so
  // that the other warps skip the issue with one branch instead of running
  // it predicated off): iteration `kv`'s tiles by TMA into stage `slot`,
  // completing on that stage's mbarrier. 32-bit shared addresses throughout.
  auto issueTMA = [&](Value kv, Value slot) {
    OpBuilder::InsertionGuard guard(b);
    beginIf(isWarp0);
    beginIf(NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value()));
    map.map(op.getInductionVar(), kv);
    for (Operation &inner : *op.getBodyBlock()) {
      if (&inner == lastCopy->getNextNode())
        break;
      if (sl.needed.contains(&inner))
        b.clone(inner, map);
    }
    Value bar = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), tmaGroup, slot);
    hopper::createArriveExpectTx(b, loc, bar, tmaBytes);
    for (auto [c, m] : llvm::zip(copies, tmaMaps)) {
      SharedBuffer &sb = shared[c.getDst()];
      int64_t bytes = sb.elementType.getIntOrFloatBitWidth() / 8;
      int64_t boxCols = sb.boxCols ? sb.boxCols : sb.shape[1];
      Value at = add(cIdx(sb.byteOffset), arith::MulIOp::create(b, loc, slot, cIdx(sb.numel * bytes)));
      auto offs = c.getSrcOffsets();
      for (int64_t j = 0; j < sb.shape[1] / boxCols; ++j) {
        Value dst = arith::AddIOp::create(b, loc, sharedBase32, i32(addc(at, j * sb.shape[0] * boxCols * bytes)));
        hopper::createTMALoad2D(b, loc, dst, m, i32(addc(map.lookup(offs[1]), j * boxCols)), i32(map.lookup(offs[0])),
                                bar);
      }
    }
  };
  // The stage and mbarrier phase the next `sync` waits for (TMA), and whether
  // that tile exists.
  Value waitSlot, waitParity, waitCond;
  Value carryRegs;
  if (hg) {
    const GemmPlan &gp = plan.gemms[hg];
    auto ct = cast<MemRefType>(hg.getC().getType());
    int64_t mTiles = ct.getDimSize(0) / gp.warpsM / 16, nTiles = ct.getDimSize(1) / gp.warpsN / 8;
    carryRegs = memref::AllocaOp::create(b, loc, MemRefType::get({mTiles * 4 + nTiles * 2}, b.getI32Type()));
  }
  // (After the allocas, so that they stay in the entry block: registers.)
  if (useTMA) {
    MLIRContext *ctx = b.getContext();
    isThread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cIdx(0));
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    llvm::SmallVector<hopper::TMADescriptorSpec> specs;
    for (tile::CopyOp c : copies) {
      SharedBuffer &sb = shared[c.getDst()];
      int64_t elemBytes = sb.elementType.getIntOrFloatBitWidth() / 8;
      if (sb.shape[1] * elemBytes > 128)
        sb.boxCols = 128 / elemBytes;
      int64_t boxCols = sb.boxCols ? sb.boxCols : sb.shape[1];
      specs.push_back(
          {cast<BlockArgument>(c.getSrc()).getArgNumber(), boxCols, sb.shape[0], sb.elementType, sb.swizzleBytes});
      tmaBytes += sb.numel * (sb.elementType.getIntOrFloatBitWidth() / 8);
    }
    FailureOr<unsigned> first = hopper::appendTMADescriptorParams(func, specs);
    if (failed(first))
      return failure();
    for (size_t i = 0; i < specs.size(); ++i)
      tmaMaps.push_back(func.getArgument(*first + i));
    tmaGroup = nvgpu::MBarrierCreateOp::create(b, loc, nvgpu::MBarrierGroupType::get(ctx, wg, stages));
    {
      OpBuilder::InsertionGuard guard(b);
      beginIf(isThread0);
      for (int64_t s = 0; s < stages; ++s)
        nvgpu::MBarrierInitOp::create(b, loc, tmaGroup, cIdx(1), cIdx(s), Value());
      // The initialised barriers must be visible to the TMA unit (async proxy).
      NVVM::FenceMbarrierInitOp::create(b, loc);
      for (Value m : tmaMaps)
        hopper::createInlinePTX(b, loc, "prefetch.tensormap [$0];", "l", {m});
    }
    barrier();
    isWarp0 = hopper::createIsWarp0(b, loc, tid);
    sharedBase32 = i32(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, scratchBase));
  }
  MmaHandoff handoff;
  handoff.carry = carryRegs;
  handoff.sync = [&] {
    if (useTMA) {
      // Only for a tile that exists: the last iteration's (and an empty
      // loop's) next tile was never loaded, and its phase never completes.
      OpBuilder::InsertionGuard guard(b);
      beginIf(waitCond);
      nvgpu::MBarrierTryWaitParityOp::create(b, loc, tmaGroup, waitParity, cIdx(10000000), waitSlot);
    } else
      NVVM::CpAsyncWaitGroupOp::create(b, loc, stages - 2);
    barrier();
  };
  // The prologue, the loop and the final wait, with the copies' bounds handled as `mode`.
  auto version = [&](AsyncBounds m) -> LogicalResult {
    mode = m;
    for (int64_t s = 0; s + 1 < stages; ++s) {
      Value kv = add(lb, arith::MulIOp::create(b, loc, step, cIdx(s)));
      Value cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, kv, ub);
      {
        OpBuilder::InsertionGuard guard(b);
        beginIf(cond);
        if (useTMA) {
          issueTMA(kv, cIdx(s));
        } else if (failed(issue(kv, cIdx(s)))) {
          return failure();
        }
      }
      if (!useTMA)
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
    }
    if (hg) {
      waitSlot = cIdx(0);
      waitParity = arith::ConstantIntOp::create(b, loc, 0, 1);
      waitCond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
      handoff.sync();
      for (tile::CopyOp c : copies)
        stageBase[c.getDst()] = cIdx(0);
      handoff.prologue = true;
      mmaHandoff = &handoff;
      LogicalResult r = emitOp(hg);
      mmaHandoff = nullptr;
      handoff.prologue = false;
      if (failed(r))
        return failure();
    }
    // Carried: the stage of iteration `it` (it % S) and the parity of its
    // round ((it / S) & 1), so that the loop needs no division.
    auto loop = loopWithIterArgs(lb, ub, step, {cIdx(0), cIdx(0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value k = loop.getInductionVar();
      Value slot = loop.getRegionIterArg(0), parity = loop.getRegionIterArg(1);
      Value lastSlot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot, cIdx(stages - 1));
      Value slotAfter = arith::SelectOp::create(b, loc, lastSlot, cIdx(0), addc(slot, 1));
      Value parityAfter = arith::SelectOp::create(b, loc, lastSlot, arith::XOrIOp::create(b, loc, parity, cIdx(1)), parity);
      Value firstSlot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot, cIdx(0));
      Value slotNext = arith::SelectOp::create(b, loc, firstSlot, cIdx(stages - 1), addc(slot, -1));
      loop.getBody()->getTerminator()->setOperands({slotAfter, parityAfter});
      if (!hg) {
        NVVM::CpAsyncWaitGroupOp::create(b, loc, stages - 2);
        barrier();
      }
      Value kn = add(k, arith::MulIOp::create(b, loc, step, cIdx(stages - 1)));
      Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, kn, ub);
      if (useTMA) {
        OpBuilder::InsertionGuard guard2(b);
        beginIf(more);
        issueTMA(kn, slotNext);
      } else {
        {
          OpBuilder::InsertionGuard guard2(b);
          beginIf(more);
          if (failed(issue(kn, slotNext)))
            return failure();
        }
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
      }
      for (tile::CopyOp c : copies) {
        stageBase[c.getDst()] = arith::MulIOp::create(b, loc, slot, cIdx(shared[c.getDst()].numel));
        handoff.nextStage[c.getDst()] = arith::MulIOp::create(b, loc, slotAfter, cIdx(shared[c.getDst()].numel));
      }
      if (useTMA) {
        // The next tile (it + 1) is in stage slotAfter, in round (it + 1) / S.
        waitSlot = slotAfter;
        waitParity = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, parityAfter, cIdx(0));
        waitCond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, add(k, step), ub);
      }
      map.map(op.getInductionVar(), k);
      for (Operation &inner : *op.getBodyBlock()) {
        if (isa<tile::YieldOp>(inner) || llvm::is_contained(copies, dyn_cast<tile::CopyOp>(inner)))
          continue;
        if (&inner == hg.getOperation())
          mmaHandoff = &handoff;
        LogicalResult r = emitOp(&inner);
        mmaHandoff = nullptr;
        if (failed(r))
          return failure();
      }
    }
    if (useTMA) {
      // Every load completed (each was waited for); thread 0 retires the
      // mbarriers once no thread waits on them.
      barrier();
      OpBuilder::InsertionGuard guard(b);
      beginIf(isThread0);
      auto ptrT = LLVM::LLVMPointerType::get(b.getContext(), 3);
      for (int64_t s = 0; s < stages; ++s) {
        Value addr = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), tmaGroup, cIdx(s));
        NVVM::MBarrierInvalOp::create(b, loc, LLVM::IntToPtrOp::create(b, loc, ptrT, addr));
      }
      return success();
    }
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
    barrier();
    return success();
  };
  auto finish = [&]() -> LogicalResult {
    for (tile::CopyOp c : copies) {
      stageBase.erase(c.getDst());
      untracked.erase(c.getDst());
    }
    return success();
  };
  // A block whose source tiles are in bounds for every iteration runs a loop
  // with only unchecked cp.async; other blocks run the zero-filling one. The
  // test is block-uniform and made once, so each loop has one copy form live.
  Value allIn = useTMA ? Value() : wholeFootprintInBounds(*this, op, copies, lastCopy, sl.needed, lb, ub, step);
  if (!allIn)
    return failed(version(AsyncBounds::PerCopy)) ? failure() : finish();
  auto ifOp = scf::IfOp::create(b, loc, allIn, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    auto reads = pendingReads, writes = pendingWrites;
    int half = scratchPendingHalf;
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    if (failed(version(AsyncBounds::Unchecked)))
      return failure();
    pendingReads = reads, pendingWrites = writes, scratchPendingHalf = half;
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    if (failed(version(AsyncBounds::Checked)))
      return failure();
  }
  return finish();
}
