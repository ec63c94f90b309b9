//===- EmitBarriers.cpp - Cross-thread accesses, barriers, serial loops ---===//
//
// The barriers of the thread-level lowering: every shared (or global)
// buffer access a thread makes is noted (noteAccess); an access that
// another thread's pending one conflicts with (a read after a write, a
// write after a read or write) gets a gpu.barrier before it, and the
// pending sets start again. Per-thread control flow (a condition or loop
// bound that differs between threads) takes no barrier inside: its accesses
// become pending after it. Serial loops (emitFor) place the barrier the
// body's first access needs before the loop, and the one the next
// iteration needs at the end of the body.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

void KernelEmitter::barrier() {
  // Not every thread gets here in per-thread control flow (noteAccess keeps
  // its accesses for after it).
  if (divergentDepth)
    return;
  rangeThreads ? target.emitRangeBarrier(b, loc, rangeThreads) : target.emitBarrier(b, loc);
  scratchPendingHalf = -1;
  pendingReads.clear();
  pendingWrites.clear();
}

bool KernelEmitter::isPending(const llvm::DenseSet<Value> &set, Value v) const {
  return set.count(v) || llvm::any_of(sharedAliases.lookup(v), [&](Value o) { return set.count(o) > 0; });
}

void KernelEmitter::noteAccess(ArrayRef<Value> reads, ArrayRef<Value> writes) {
  if (divergentDepth) {
    // No barrier in per-thread control flow; the accesses become pending
    // when it ends (exitDivergent).
    for (Value r : reads)
      if (!untracked.count(r))
        divergentReads.insert(r);
    for (Value w : writes)
      if (!untracked.count(w))
        divergentWrites.insert(w);
    return;
  }
  auto pending = [&](const llvm::DenseSet<Value> &set, Value v) { return isPending(set, v); };
  bool conflict = false;
  for (Value r : reads)
    conflict |= !untracked.count(r) && pending(pendingWrites, r);
  for (Value w : writes)
    conflict |= !untracked.count(w) && (pending(pendingWrites, w) || pending(pendingReads, w));
  if (conflict)
    barrier();
  for (Value r : reads)
    if (!untracked.count(r))
      pendingReads.insert(r);
  for (Value w : writes)
    if (!untracked.count(w))
      pendingWrites.insert(w);
}

bool KernelEmitter::isDivergent(Operation *op) {
  return llvm::any_of(op->getOperands(), [&](Value v) { return plan.threadVariant.contains(v); });
}

void KernelEmitter::enterDivergent() {
  // What other threads did before must be complete when some threads go on.
  if (divergentDepth == 0 && (!pendingReads.empty() || !pendingWrites.empty()))
    barrier();
  ++divergentDepth;
}

void KernelEmitter::exitDivergent() {
  if (--divergentDepth)
    return;
  pendingReads.insert(divergentReads.begin(), divergentReads.end());
  pendingWrites.insert(divergentWrites.begin(), divergentWrites.end());
  divergentReads.clear();
  divergentWrites.clear();
}

llvm::DenseSet<Value> gpu_lowering::buffersWritten(Operation *op) {
  llvm::DenseSet<Value> out;
  op->walk([&](Operation *inner) {
    if (auto c = dyn_cast<tile::CopyOp>(inner))
      out.insert(c.getDst());
    else if (auto f = dyn_cast<tile::FillOp>(inner))
      out.insert(f.getBuffer());
    else if (auto s = dyn_cast<memref::StoreOp>(inner))
      out.insert(s.getMemRef());
    else if (auto c = dyn_cast<tile::CumsumOp>(inner))
      out.insert(c.getDst());
    else if (auto a = dyn_cast<tile::AtomicAddOp>(inner))
      out.insert(a.getDst());
  });
  return out;
}

/// A value `v` is known to be at least: constants, sums, and induction
/// variables of serial loops (their lower bound), e.g. `i1 + 1` in
/// `for i1 in T.serial(n): for i2 in T.serial(i1 + 1)`.
static std::optional<int64_t> lowerBoundOf(Value v) {
  // The summands still to bound (at most 16 looked at).
  llvm::SmallVector<Value, 8> work{v};
  int64_t total = 0;
  for (int seen = 0; !work.empty(); ++seen) {
    if (seen > 16)
      return std::nullopt;
    Value x = work.pop_back_val();
    if (std::optional<int64_t> c = getConstantIntValue(x)) {
      total += *c;
      continue;
    }
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      auto loop = dyn_cast<tile::ForOp>(arg.getOwner()->getParentOp());
      std::optional<int64_t> step = loop ? getConstantIntValue(loop.getStep()) : std::nullopt;
      if (!loop || arg != loop.getInductionVar() || !step || *step <= 0)
        return std::nullopt;
      work.push_back(loop.getLowerBound());
      continue;
    }
    auto add = x.getDefiningOp<arith::AddIOp>();
    if (!add)
      return std::nullopt;
    work.push_back(add.getLhs());
    work.push_back(add.getRhs());
  }
  return total;
}

LogicalResult KernelEmitter::emitFor(tile::ForOp op) {
  // Bounds that differ between threads: each thread runs its own trip
  // count (per-thread statements only, as for conditions).
  bool divergent = isDivergent(op);
  Value lb = map.lookup(op.getLowerBound()), ub = map.lookup(op.getUpperBound()), step = map.lookup(op.getStep());
  if (divergent)
    enterDivergent();
  // The barrier that the body's first access of a buffer accessed before
  // the loop needs goes before the loop, not into every iteration (a
  // per-thread loop over a row that all threads stored just before it:
  // T.any_sync, T.syncthreads_count, ...).
  if (!divergent && divergentDepth == 0 && (!pendingReads.empty() || !pendingWrites.empty())) {
    bool conflict = false;
    op.getBodyBlock()->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        conflict |= isa<MemRefType>(v.getType()) && !untracked.count(v) && isPending(pendingWrites, v);
    });
    for (Value w : gpu_lowering::buffersWritten(op))
      conflict |= !untracked.count(w) && isPending(pendingReads, w);
    if (conflict)
      barrier();
  }
  AccessState before = saveAccessState();
  auto loop = scf::ForOp::create(b, loc, lb, ub, step);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    map.map(op.getInductionVar(), loop.getInductionVar());
    if (failed(emitBlock(*op.getBodyBlock())))
      return failure();
  }
  if (divergent)
    exitDivergent();
  if (divergentDepth)
    return success();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  // Accesses left pending at the end of an iteration meet the next one.
  llvm::DenseSet<Value> bodyWrites = gpu_lowering::buffersWritten(op);
  bool needed = !pendingWrites.empty();
  for (Value r : pendingReads)
    needed |= bodyWrites.count(r) > 0;
  if (needed)
    barrier();
  // A loop that may run no iteration leaves the accesses pending before it
  // pending after it.
  std::optional<int64_t> lo = getConstantIntValue(op.getLowerBound()), hi = lowerBoundOf(op.getUpperBound());
  if (!lo || !hi || *hi <= *lo) {
    pendingReads.insert(before.reads.begin(), before.reads.end());
    pendingWrites.insert(before.writes.begin(), before.writes.end());
  }
  return success();
}
