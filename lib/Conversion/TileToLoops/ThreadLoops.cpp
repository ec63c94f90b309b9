//===- ThreadLoops.cpp - Per-thread regions of a block on the host --------===//
//
// The SIMT semantics on the host (spec §6): plain statements run once for
// every thread index, tile operations and T.Parallel loops once per block.
// 1. formThreadLoops (tile level, in the outlined body function): a maximal
//    run of per-thread statements becomes one `scf.for` over the block's
//    threads; T.get_thread_binding inside it is the loop's thread index. A
//    run is cut where a statement reads shared memory an earlier statement
//    of the run wrote (or writes what it read), as the GPU targets put a
//    barrier there; a serial loop or `if` with uniform bounds whose body
//    needs such a cut, or holds tile operations, stays at block level and
//    its body is split the same way. A scalar a run computes and a later
//    run or tile operation reads goes through a per-thread slot (a tile
//    operation reads thread 0's). A per-thread `if` without an else whose body
//    needs such a cut (threads of one range exchanging through shared
//    memory: tile-lang's `if tx < n:` around T.sync_threads(id, n)) stays at
//    block level too, its condition made true: the runs inside it run each
//    thread's part only where that thread's condition holds.
// 2. expandLocalBuffers (after the tile ops are lowered): every local buffer
//    gets one copy per thread, indexed by the enclosing thread loop's index
//    (thread 0's copy at block level).
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/IR/TileSIMT.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetOperations.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

namespace {

bool inScope(Value v, tile::Scope s) { return tile::isBufferInScope(v.getType(), s); }
bool isLocal(Value v) { return inScope(v, tile::Scope::Local); }
using tile::containsCollective;
using tile::isCollectiveLeaf;

/// The shared buffers `op` (and what it holds) reads and writes.
struct Accesses {
  llvm::SmallDenseSet<Value, 4> reads, writes;
};
Accesses sharedAccesses(Operation *op) {
  Accesses a;
  op->walk([&](MemoryEffectOpInterface iface) {
    llvm::SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (auto &e : effects) {
      Value v = e.getValue();
      if (!v || !inScope(v, tile::Scope::Shared))
        continue;
      if (isa<MemoryEffects::Read>(e.getEffect()))
        a.reads.insert(v);
      else if (isa<MemoryEffects::Write>(e.getEffect()))
        a.writes.insert(v);
    }
  });
  return a;
}

template <typename Set>
bool intersects(const Set &a, const Set &b) {
  return llvm::any_of(a, [&](Value v) { return b.contains(v); });
}

/// Whether the body of a structured op needs a barrier inside: a statement
/// reads shared memory an earlier one wrote (or writes what an earlier one
/// read), a loop both reads and writes a shared buffer (the next iteration
/// reads what this one wrote), or a nested op needs one.
bool needsBarrierInside(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      Accesses seen;
      for (Operation &inner : block.without_terminator()) {
        Accesses a = sharedAccesses(&inner);
        if (intersects(a.reads, seen.writes) || intersects(a.writes, seen.reads))
          return true;
        if (inner.getNumRegions() && !isa<tile::ParallelOp>(inner) && needsBarrierInside(&inner))
          return true;
        seen.reads.insert(a.reads.begin(), a.reads.end());
        seen.writes.insert(a.writes.begin(), a.writes.end());
      }
      if (isa<tile::ForOp, scf::ForOp, scf::WhileOp>(op) && intersects(seen.reads, seen.writes))
        return true;
    }
  return false;
}

/// A run of per-thread ops being collected in one block.
struct Run {
  llvm::SmallVector<Operation *> members, floating;
  Accesses accesses;
  bool empty() const { return members.empty(); }
};

class ThreadLoopBuilder {
public:
  ThreadLoopBuilder(func::FuncOp fn, llvm::ArrayRef<int64_t> threads) : fn(fn), threads(threads) {
    numThreads = 1;
    for (int64_t t : threads)
      numThreads *= t;
  }

  void processBlock(Block &block);
  /// Passes every scalar that leaves the run defining it through a slot.
  void carryValues();

private:
  void flush(Run &run);
  bool isUniform(Value v) const { return !perThread.contains(v); }

  func::FuncOp fn;
  llvm::ArrayRef<int64_t> threads;
  int64_t numThreads;
  llvm::DenseSet<Value> perThread;
  llvm::SmallVector<scf::ForOp> loops;
  /// The conditions of the per-thread `if`s around the block being processed.
  llvm::SmallVector<Value> guards;
  /// The scf.ifs flush put around guarded runs (their ops are the run's).
  llvm::DenseSet<Operation *> guardIfs;
};

/// A per-thread `if` (no else, no results, no tile operation) whose body
/// needs a barrier inside.
bool isGuardedRegion(Operation *op, bool uniformCondition) {
  auto i = dyn_cast<scf::IfOp>(op);
  return i && !uniformCondition && i.getElseRegion().empty() && i.getNumResults() == 0 && !containsCollective(op) &&
         needsBarrierInside(op);
}

void ThreadLoopBuilder::processBlock(Block &block) {
  Run run;
  for (Operation &opRef : llvm::make_early_inc_range(block.without_terminator())) {
    Operation *op = &opRef;
    bool uniformOperands = llvm::all_of(op->getOperands(), [&](Value v) { return isUniform(v); });
    // Allocations and uniform arithmetic stay at block level.
    bool pure = op->getNumRegions() == 0 && isMemoryEffectFree(op) && !isa<tile::ThreadIdOp>(op);
    if (isa<tile::AllocOp>(op) || (pure && uniformOperands)) {
      if (!run.empty())
        run.floating.push_back(op);
      continue;
    }
    if (isGuardedRegion(op, uniformOperands)) {
      flush(run);
      auto i = cast<scf::IfOp>(op);
      guards.push_back(i.getCondition());
      OpBuilder b(op);
      i.getConditionMutable().assign(arith::ConstantIntOp::create(b, op->getLoc(), 1, 1));
      processBlock(*i.thenBlock());
      guards.pop_back();
      continue;
    }
    bool collective;
    if (op->getNumRegions() && !isa<tile::ParallelOp>(op))
      collective = containsCollective(op) || (uniformOperands && needsBarrierInside(op));
    else
      collective = isCollectiveLeaf(op);
    if (collective) {
      flush(run);
      // A collective T.Parallel's iterations run once each, at block level.
      if (isa<tile::ParallelOp>(op))
        continue;
      for (Region &region : op->getRegions())
        for (Block &inner : region)
          processBlock(inner);
      continue;
    }
    Accesses a = sharedAccesses(op);
    if (!run.empty() && (intersects(a.reads, run.accesses.writes) || intersects(a.writes, run.accesses.reads)))
      flush(run);
    run.members.push_back(op);
    run.accesses.reads.insert(a.reads.begin(), a.reads.end());
    run.accesses.writes.insert(a.writes.begin(), a.writes.end());
    for (Value r : op->getResults())
      perThread.insert(r);
  }
  flush(run);
}

void ThreadLoopBuilder::flush(Run &run) {
  if (run.empty()) {
    run = Run();
    return;
  }
  Operation *first = run.members.front();
  for (Operation *f : run.floating)
    f->moveBefore(first);
  OpBuilder b(first);
  Location loc = first->getLoc();
  auto loop = scf::ForOp::create(b, loc, indexConst(b, loc, 0), indexConst(b, loc, numThreads), indexConst(b, loc, 1));
  tile::setThreadLoop(loop);
  b.setInsertionPointToStart(loop.getBody());
  // (tx, ty, tz) from the linear index, x fastest.
  Value t = loop.getInductionVar();
  llvm::SmallVector<Value, 3> tid;
  int64_t stride = 1;
  for (unsigned d = 0; d < 3; ++d) {
    int64_t extent = d < threads.size() ? threads[d] : 1;
    if (extent == 1) {
      tid.push_back(indexConst(b, loc, 0));
      continue;
    }
    Value v = stride == 1 ? t : arith::DivUIOp::create(b, loc, t, indexConst(b, loc, stride)).getResult();
    if (stride * extent != numThreads)
      v = arith::RemUIOp::create(b, loc, v, indexConst(b, loc, extent));
    tid.push_back(v);
    stride *= extent;
  }
  // What T.get_thread_binding became differs between threads, like what
  // the run computes.
  perThread.insert(tid.begin(), tid.end());
  perThread.insert(t);
  Operation *end = loop.getBody()->getTerminator();
  if (!guards.empty()) { // only the threads whose guarding conditions hold
    Value all = guards.front();
    for (Value g : llvm::drop_begin(guards))
      all = arith::AndIOp::create(b, loc, all, g);
    auto only = scf::IfOp::create(b, loc, all, /*withElseRegion=*/false);
    guardIfs.insert(only);
    end = only.thenBlock()->getTerminator();
  }
  for (Operation *m : run.members)
    m->moveBefore(end);
  loop.getBody()->walk([&](tile::ThreadIdOp op) {
    op.getResult().replaceAllUsesWith(tid[std::min<int64_t>(op.getDim(), 2)]);
    op->erase();
  });
  loops.push_back(loop);
  run = Run();
}

void ThreadLoopBuilder::carryValues() {
  Block &entry = fn.getBody().front();
  for (scf::ForOp loop : loops) {
    // The thread index itself (what T.get_thread_binding became) and what
    // the run's statements compute.
    llvm::SmallVector<Value> values{loop.getInductionVar()};
    for (Operation &op : loop.getBody()->without_terminator()) {
      values.append(op.result_begin(), op.result_end());
      if (guardIfs.contains(&op))
        for (Operation &inner : cast<scf::IfOp>(op).thenBlock()->without_terminator())
          values.append(inner.result_begin(), inner.result_end());
    }
    for (Value r : values) {
      llvm::SmallVector<OpOperand *> outside;
      for (OpOperand &use : r.getUses())
        if (!loop->isAncestor(use.getOwner()))
          outside.push_back(&use);
      if (outside.empty())
        continue;
      Location loc = loop.getLoc();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      auto slot = memref::AllocaOp::create(b, loc, MemRefType::get({numThreads}, r.getType()));
      if (Operation *def = r.getDefiningOp())
        b.setInsertionPointAfter(def);
      else
        b.setInsertionPointToStart(loop.getBody());
      memref::StoreOp::create(b, loc, r, slot, loop.getInductionVar());
      for (OpOperand *use : outside) {
        Operation *user = use->getOwner();
        b.setInsertionPoint(user);
        Value index = threadIndexAt(user);
        if (!index)
          index = indexConst(b, loc, 0);
        use->set(memref::LoadOp::create(b, loc, slot, index));
      }
    }
  }
}

} // namespace

Value loops::threadIndexAt(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(p); loop && tile::isThreadLoop(loop))
      return loop.getInductionVar();
  return nullptr;
}

void loops::formThreadLoops(func::FuncOp fn, llvm::ArrayRef<int64_t> threads) {
  ThreadLoopBuilder builder(fn, threads);
  builder.processBlock(fn.getBody().front());
  builder.carryValues();
}

LogicalResult loops::expandLocalBuffers(func::FuncOp fn, int64_t numThreads) {
  if (numThreads <= 1)
    return success();
  IRRewriter rewriter(fn.getContext());
  llvm::SmallVector<Operation *> locals;
  for (Operation &op : fn.getBody().front())
    if (isa<memref::AllocaOp, memref::AllocOp>(op) && isLocal(op.getResult(0)))
      locals.push_back(&op);
  for (Operation *old : locals) {
    Value buffer = old->getResult(0);
    auto type = cast<MemRefType>(buffer.getType());
    llvm::SmallVector<int64_t> shape{numThreads};
    shape.append(type.getShape().begin(), type.getShape().end());
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
      else if (!isa<memref::LoadOp, memref::StoreOp>(user))
        return user->emitOpError("uses a local buffer in a way the host's per-thread copies cannot follow");
    Value expanded = createBlockBuffer(rewriter, old, MemRefType::get(shape, type.getElementType(), AffineMap(),
                                                                      type.getMemorySpace()));
    if (StringAttr dtype = tile::getDtype(old))
      tile::setDtype(expanded.getDefiningOp(), dtype);
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
      rewriter.setInsertionPoint(user);
      Value t = threadIndexAt(user);
      if (!t)
        t = indexConst(rewriter, user->getLoc(), 0);
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        llvm::SmallVector<Value> idx{t};
        idx.append(load.getIndices().begin(), load.getIndices().end());
        rewriter.replaceOpWithNewOp<memref::LoadOp>(load, expanded, idx);
      } else {
        auto store = cast<memref::StoreOp>(user);
        llvm::SmallVector<Value> idx{t};
        idx.append(store.getIndices().begin(), store.getIndices().end());
        rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(), expanded, idx);
      }
    }
    old->erase();
  }
  return success();
}
