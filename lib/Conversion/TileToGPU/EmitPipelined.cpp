//===- EmitPipelined.cpp - T.Pipelined loops -------------------------------===//
//
// Pipelined loops as tile-plan-pipelines planned them (tile.pipeline,
// num_stages = S): the staged global -> shared copies of iteration k + S - 1
// are issued as the target's async copies (cp.async on CUDA) into stage
// (k + S - 1) % S while iteration k computes on stage k % S; one commit group
// per iteration.
//
// Engine `tensor` (CUDA from compute capability 9.0, a loop that ends in a
// matrix-instruction gemm of its staged tiles, tiles that suit the TMA): one
// elected lane of warp 0 loads them with tensor copies onto one completion
// barrier per stage instead (docs/cuda.md).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

StagedLoop KernelEmitter::analyzeStagedLoop(tile::ForOp op) {
  StagedLoop sl;
  auto *dialect = op->getContext()->getLoadedDialect<tile::TileDialect>();
  tile::PipelinePlanAttr pipeline = dialect->getPipelineAttrHelper().getAttr(op);
  if (!pipeline)
    return sl;
  for (auto copy : op.getBodyBlock()->getOps<tile::CopyOp>())
    if (dialect->getStagedAttrHelper().isAttrPresent(copy))
      sl.copies.push_back(copy);
  for (tile::CopyOp c : sl.copies)
    if (!shared.count(c.getDst()) || shared[c.getDst()].stages != pipeline.getStages())
      return StagedLoop();
  if (sl.copies.empty() || !tile::collectStagedCopyDependencies(op, sl.copies, sl.needed))
    return StagedLoop();
  sl.lastCopy = sl.copies.back();
  // The consumer (tile-plan-pipelines): a matrix-instruction gemm of two
  // staged buffers right after the last copy, ending the body; its next
  // tile's first fragments are loaded during the last k step (the wait and
  // the barrier move there from the top of the loop).
  if (pipeline.getHandoff())
    sl.gemm = dyn_cast_or_null<tile::GemmOp>(sl.lastCopy->getNextNode());
  // Tensor copies: one lane issues the staged tiles, completion on one
  // barrier per stage, instead of 16-byte async copies by every thread: no
  // per-thread global address arithmetic in the loop and bounds handled by
  // the engine (zero fill); tile-plan-shared-memory put the tiles on 1 KB
  // boundaries of an aligned window.
  sl.tensorCopies = sl.gemm && pipeline.getEngine() == tile::CopyEngine::Tensor;
  return sl;
}

namespace {
/// The emission of one T.Pipelined loop with staged copies: the prologue
/// that fills the first S - 1 stages, the loop that issues iteration
/// k + S - 1's copies while computing on stage k % S, the final wait; per
/// engine, the target's async copies (commit/wait groups) or its tensor
/// copies (TMA: one issuing lane, one completion barrier per stage).
struct PipelinedLoop {
  KernelEmitter &e;
  tile::ForOp op;
  StagedLoop sl;
  int64_t stages;
  Value lb, ub, step;
  /// Bounds handling of the async copies of the version being emitted.
  KernelEmitter::AsyncBounds mode = KernelEmitter::AsyncBounds::PerCopy;
  bool useTMA = false;
  // Tensor copies: the barrier ring, thread-0 and warp-0 tests, the shared
  // window's 32-bit base, the descriptors and the bytes of one stage.
  Value tmaGroup, isThread0, isWarp0, sharedBase32;
  llvm::SmallVector<Value> tmaMaps;
  int64_t tmaBytes = 0;
  /// The stage and barrier phase the next `sync` waits for (TMA), and
  /// whether that tile exists.
  Value waitSlot, waitParity, waitCond;
  KernelEmitter::MmaHandoff handoff;

  PipelinedLoop(KernelEmitter &e, tile::ForOp op, StagedLoop sl)
      : e(e), op(op), sl(std::move(sl)), stages(*op.getNumStages()) {}
  const TargetInfo &target() const { return e.target; }
  Value i32(Value index) {
    return arith::IndexCastUIOp::create(e.b, e.loc, e.b.getI32Type(), index).getResult();
  }
  LogicalResult issue(Value kv, Value slot);
  void issueTMA(Value kv, Value slot);
  LogicalResult setUpTMA();
  void sync();
  void commit() {
    if (!useTMA)
      target().emitAsyncCommit(e.b, e.loc);
  }
  LogicalResult prologue();
  LogicalResult loop();
  LogicalResult version(KernelEmitter::AsyncBounds m);
  LogicalResult run();
};
} // namespace

/// Issues iteration `kv`'s copies into stage `slot` (async, bounds as `mode`).
LogicalResult PipelinedLoop::issue(Value kv, Value slot) {
  e.map.map(op.getInductionVar(), kv);
  for (Operation &inner : *op.getBodyBlock()) {
    if (&inner == sl.lastCopy->getNextNode())
      break;
    if (auto c = dyn_cast<tile::CopyOp>(inner); c && llvm::is_contained(sl.copies, c)) {
      Location loopLoc = e.loc;
      e.loc = c.getLoc(); // the copy's statement (-g's .loc), not the loop's
      e.stageBase[c.getDst()] = arith::MulIOp::create(e.b, e.loc, slot, e.cIdx(e.shared[c.getDst()].numel));
      e.asyncBounds = mode;
      LogicalResult r = e.emitCopy(c, /*async=*/true);
      e.asyncBounds = KernelEmitter::AsyncBounds::PerCopy;
      e.loc = loopLoc;
      if (failed(r))
        return failure();
      continue;
    }
    if (sl.needed.contains(&inner))
      e.b.clone(inner, e.map);
  }
  return success();
}

/// One elected lane of warp 0 (a warp-uniform branch, then the election,
/// so that the other warps skip the issue with one branch instead of
/// running it predicated off): iteration `kv`'s tiles by tensor copies into
/// stage `slot`, completing on that stage's barrier. 32-bit shared
/// addresses throughout.
void PipelinedLoop::issueTMA(Value kv, Value slot) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  OpBuilder::InsertionGuard guard(b);
  e.beginIf(isWarp0);
  e.beginIf(target().emitElect(b, loc));
  e.map.map(op.getInductionVar(), kv);
  for (Operation &inner : *op.getBodyBlock()) {
    if (&inner == sl.lastCopy->getNextNode())
      break;
    if (sl.needed.contains(&inner))
      b.clone(inner, e.map);
  }
  Value bar = target().emitTensorCopyArrive(b, loc, tmaGroup, slot, tmaBytes);
  for (auto [c, m] : llvm::zip(sl.copies, tmaMaps)) {
    Location loc = c.getLoc(); // the copy's statement (-g's .loc)
    SharedBuffer &sb = e.shared[c.getDst()];
    int64_t bytes = sb.elementType.getIntOrFloatBitWidth() / 8;
    int64_t boxCols = sb.boxCols ? sb.boxCols : sb.shape[1];
    Value at = e.add(e.cIdx(sb.byteOffset), arith::MulIOp::create(b, loc, slot, e.cIdx(sb.numel * bytes)));
    auto offs = c.getSrcOffsets();
    for (int64_t j = 0; j < sb.shape[1] / boxCols; ++j) {
      Value dst = arith::AddIOp::create(b, loc, sharedBase32, i32(e.addc(at, j * sb.shape[0] * boxCols * bytes)));
      target().emitTensorCopyLoad2D(b, loc, dst, m, i32(e.addc(e.map.lookup(offs[1]), j * boxCols)),
                                    i32(e.map.lookup(offs[0])), bar);
    }
  }
}

/// The descriptors (kernel parameters), the barrier ring initialised by
/// thread 0, the warp-0 test and the shared base of the tensor copies.
LogicalResult PipelinedLoop::setUpTMA() {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  isThread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, e.tid, e.cIdx(0));
  llvm::SmallVector<TensorCopyDescriptor> specs;
  for (tile::CopyOp c : sl.copies) {
    SharedBuffer &sb = e.shared[c.getDst()];
    int64_t boxCols = sb.boxCols ? sb.boxCols : sb.shape[1];
    specs.push_back(
        {cast<BlockArgument>(c.getSrc()).getArgNumber(), boxCols, sb.shape[0], sb.elementType, sb.swizzleBytes});
    tmaBytes += sb.numel * (sb.elementType.getIntOrFloatBitWidth() / 8);
  }
  FailureOr<unsigned> first = target().addTensorCopyDescriptors(e.getFunc(), specs);
  if (failed(first))
    return failure();
  for (size_t i = 0; i < specs.size(); ++i)
    tmaMaps.push_back(e.getFunc().getArgument(*first + i));
  tmaGroup = target().emitTensorCopyBarriers(b, loc, stages);
  {
    OpBuilder::InsertionGuard guard(b);
    e.beginIf(isThread0);
    target().emitTensorCopyInit(b, loc, tmaGroup, stages, tmaMaps);
  }
  e.barrier();
  isWarp0 = target().emitIsWarpZero(b, loc, e.tid);
  sharedBase32 = i32(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, e.scratchBase));
  return success();
}

/// The wait for the tile the gemm reads next, then a barrier.
void PipelinedLoop::sync() {
  if (useTMA) {
    // Only for a tile that exists: the last iteration's (and an empty
    // loop's) next tile was never loaded, and its phase never completes.
    OpBuilder::InsertionGuard guard(e.b);
    e.beginIf(waitCond);
    target().emitTensorCopyWait(e.b, e.loc, tmaGroup, waitSlot, waitParity);
  } else
    target().emitAsyncWait(e.b, e.loc, stages - 2);
  e.barrier();
}

/// The first S - 1 stages' copies, and the gemm hand-off's first fragments.
LogicalResult PipelinedLoop::prologue() {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  for (int64_t s = 0; s + 1 < stages; ++s) {
    Value kv = e.add(lb, arith::MulIOp::create(b, loc, step, e.cIdx(s)));
    Value cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, kv, ub);
    {
      OpBuilder::InsertionGuard guard(b);
      e.beginIf(cond);
      if (useTMA) {
        issueTMA(kv, e.cIdx(s));
      } else if (failed(issue(kv, e.cIdx(s)))) {
        return failure();
      }
    }
    commit();
  }
  tile::GemmOp hg = sl.gemm;
  if (!hg)
    return success();
  waitSlot = e.cIdx(0);
  waitParity = arith::ConstantIntOp::create(b, loc, 0, 1);
  waitCond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
  sync();
  for (tile::CopyOp c : sl.copies)
    e.stageBase[c.getDst()] = e.cIdx(0);
  handoff.prologue = true;
  e.mmaHandoff = &handoff;
  LogicalResult r = e.emitOp(hg);
  e.mmaHandoff = nullptr;
  handoff.prologue = false;
  return r;
}

/// The loop. Carried: the stage of iteration `it` (it % S) and the parity
/// of its round ((it / S) & 1), so that the loop needs no division.
LogicalResult PipelinedLoop::loop() {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  tile::GemmOp hg = sl.gemm;
  auto loop = e.loopWithIterArgs(lb, ub, step, {e.cIdx(0), e.cIdx(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value k = loop.getInductionVar();
  Value slot = loop.getRegionIterArg(0), parity = loop.getRegionIterArg(1);
  Value lastSlot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot, e.cIdx(stages - 1));
  Value slotAfter = arith::SelectOp::create(b, loc, lastSlot, e.cIdx(0), e.addc(slot, 1));
  Value parityAfter =
      arith::SelectOp::create(b, loc, lastSlot, arith::XOrIOp::create(b, loc, parity, e.cIdx(1)), parity);
  Value firstSlot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot, e.cIdx(0));
  Value slotNext = arith::SelectOp::create(b, loc, firstSlot, e.cIdx(stages - 1), e.addc(slot, -1));
  loop.getBody()->getTerminator()->setOperands({slotAfter, parityAfter});
  if (!hg) {
    target().emitAsyncWait(b, loc, stages - 2);
    e.barrier();
  }
  Value kn = e.add(k, arith::MulIOp::create(b, loc, step, e.cIdx(stages - 1)));
  Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, kn, ub);
  {
    OpBuilder::InsertionGuard guard2(b);
    e.beginIf(more);
    if (useTMA)
      issueTMA(kn, slotNext);
    else if (failed(issue(kn, slotNext)))
      return failure();
  }
  commit();
  for (tile::CopyOp c : sl.copies) {
    e.stageBase[c.getDst()] = arith::MulIOp::create(b, loc, slot, e.cIdx(e.shared[c.getDst()].numel));
    handoff.nextStage[c.getDst()] = arith::MulIOp::create(b, loc, slotAfter, e.cIdx(e.shared[c.getDst()].numel));
  }
  if (useTMA) {
    // The next tile (it + 1) is in stage slotAfter, in round (it + 1) / S.
    waitSlot = slotAfter;
    waitParity = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, parityAfter, e.cIdx(0));
    waitCond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, e.add(k, step), ub);
  }
  e.map.map(op.getInductionVar(), k);
  for (Operation &inner : *op.getBodyBlock()) {
    if (isa<tile::YieldOp>(inner) || llvm::is_contained(sl.copies, dyn_cast<tile::CopyOp>(inner)))
      continue;
    if (&inner == hg.getOperation())
      e.mmaHandoff = &handoff;
    LogicalResult r = e.emitOp(&inner);
    e.mmaHandoff = nullptr;
    if (failed(r))
      return failure();
  }
  return success();
}

/// The prologue, the loop and the final wait, with the copies' bounds
/// handled as `m`.
LogicalResult PipelinedLoop::version(KernelEmitter::AsyncBounds m) {
  mode = m;
  if (failed(prologue()) || failed(loop()))
    return failure();
  if (useTMA) {
    // Every load completed (each was waited for); thread 0 retires the
    // barriers once no thread waits on them.
    e.barrier();
    OpBuilder::InsertionGuard guard(e.b);
    e.beginIf(isThread0);
    target().emitTensorCopyRelease(e.b, e.loc, tmaGroup, stages);
    return success();
  }
  target().emitAsyncWait(e.b, e.loc, 0);
  e.barrier();
  return success();
}

LogicalResult PipelinedLoop::run() {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  lb = e.map.lookup(op.getLowerBound()), ub = e.map.lookup(op.getUpperBound()), step = e.map.lookup(op.getStep());
  for (tile::CopyOp c : sl.copies)
    e.untracked.insert(c.getDst());
  tile::GemmOp hg = sl.gemm;
  useTMA = sl.tensorCopies;
  if (hg) {
    const GemmPlan &gp = e.plan.gemms[hg];
    auto ct = cast<MemRefType>(hg.getC().getType());
    int64_t mTiles = ct.getDimSize(0) / gp.warpsM / 16, nTiles = ct.getDimSize(1) / gp.warpsN / 8;
    handoff.carry = memref::AllocaOp::create(b, loc, MemRefType::get({mTiles * 4 + nTiles * 2}, b.getI32Type()));
  }
  // (After the allocas, so that they stay in the entry block: registers.)
  if (useTMA && failed(setUpTMA()))
    return failure();
  handoff.sync = [this] { sync(); };
  auto finish = [&]() -> LogicalResult {
    for (tile::CopyOp c : sl.copies) {
      e.stageBase.erase(c.getDst());
      e.untracked.erase(c.getDst());
    }
    return success();
  };
  // A block whose source tiles are in bounds for every iteration runs a loop
  // with only unchecked async copies; other blocks run the zero-filling one.
  // The test is block-uniform and made once, so each loop has one copy form
  // live.
  Value allIn =
      useTMA ? Value() : wholeFootprintInBounds(e, op, sl.copies, sl.lastCopy, sl.needed, lb, ub, step);
  if (!allIn)
    return failed(version(KernelEmitter::AsyncBounds::PerCopy)) ? failure() : finish();
  auto ifOp = scf::IfOp::create(b, loc, allIn, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    KernelEmitter::AccessState state = e.saveAccessState();
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    if (failed(version(KernelEmitter::AsyncBounds::Unchecked)))
      return failure();
    e.restoreAccessState(state);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    if (failed(version(KernelEmitter::AsyncBounds::Checked)))
      return failure();
  }
  return finish();
}

LogicalResult KernelEmitter::emitPipelined(tile::ForOp op) {
  StagedLoop sl = analyzeStagedLoop(op);
  if (!sl.lastCopy)
    return emitFor(op);
  return PipelinedLoop(*this, op, std::move(sl)).run();
}
