//===- TileSIMT.cpp - Per-thread and block-collective tile IR -------------===//
//
// Classification of ops into per-thread and block-collective work, the
// thread-variance analysis, and the check that tile operations are reached
// by every thread of a block.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/TileSIMT.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

static bool isLocal(Value v) { return isBufferInScope(v.getType(), Scope::Local); }

/// A store into a fragment outside T.Parallel: the fragment is replicated
/// (every thread holds all of it), so the store is block-level work that
/// every thread does on its own copy with the same value.
static bool isReplicatedFragmentStore(Operation *op) {
  auto store = dyn_cast<memref::StoreOp>(op);
  return store && isBufferInScope(store.getMemRef().getType(), Scope::Fragment) &&
         !op->getParentOfType<ParallelOp>();
}

bool tile::isPerThreadParallel(Operation *parallel) {
  bool collective = false;
  parallel->walk([&](Operation *inner) {
    if (inner == parallel)
      return;
    if (auto store = dyn_cast<memref::StoreOp>(inner))
      collective |= !isLocal(store.getMemRef());
    else if (auto load = dyn_cast<memref::LoadOp>(inner))
      collective |= isBufferInScope(load.getMemRef().getType(), Scope::Fragment);
    else if (isa_and_nonnull<TileDialect>(inner->getDialect()) && !isa<YieldOp, ThreadIdOp>(inner))
      collective = true;
  });
  return !collective;
}

bool tile::isPerThreadLeaf(Operation *op) {
  if (isReplicatedFragmentStore(op))
    return false;
  if (isa<memref::LoadOp, memref::StoreOp, ThreadIdOp>(op))
    return true;
  if (auto fill = dyn_cast<FillOp>(op))
    return isLocal(fill.getBuffer());
  if (auto copy = dyn_cast<CopyOp>(op))
    return isLocal(copy.getSrc()) || isLocal(copy.getDst());
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return isLocal(reduce.getSrc()) && isLocal(reduce.getDst());
  if (auto cumsum = dyn_cast<CumsumOp>(op))
    return isLocal(cumsum.getSrc()) && isLocal(cumsum.getDst());
  if (auto atomic = dyn_cast<AtomicAddOp>(op))
    return !atomic.isRegionForm() || isLocal(atomic.getValue());
  if (isa<ParallelOp>(op))
    return isPerThreadParallel(op);
  return false;
}

bool tile::isCollectiveLeaf(Operation *op) {
  if (isReplicatedFragmentStore(op))
    return true;
  if (!isa_and_nonnull<TileDialect>(op->getDialect()) ||
      isa<AllocOp, ThreadIdOp, YieldOp, ReturnOp, ForOp, LaunchOp, KernelOp, WarpGroupOp, AllocBarrierOp,
          BarrierArriveOp, BarrierWaitOp>(op))
    return false;
  return !isPerThreadLeaf(op);
}

bool tile::containsCollective(Operation *op) {
  if (isa<ParallelOp>(op))
    return isCollectiveLeaf(op);
  bool found = false;
  op->walk<WalkOrder::PreOrder>([&](Operation *inner) {
    if (isCollectiveLeaf(inner)) {
      found = true;
      return WalkResult::interrupt();
    }
    // A per-thread T.Parallel holds element accesses only.
    if (isa<ParallelOp>(inner) && inner != op)
      return WalkResult::skip();
    return WalkResult::advance();
  });
  return found;
}

/// The values that decide whether `op`'s regions run: its operands, and for
/// an scf.while (a kernel-level `while`) its condition, computed inside.
static SmallVector<Value> controlValues(Operation *op) {
  SmallVector<Value> out(op->getOperands());
  if (auto w = dyn_cast<scf::WhileOp>(op))
    out.push_back(w.getConditionOp().getCondition());
  return out;
}

DenseSet<Value> tile::threadVariantValues(Operation *root) {
  DenseSet<Value> variant;
  auto isVariant = [&](Value v) { return variant.contains(v); };
  // Whether an enclosing op (up to `root`) has a variant operand.
  auto underVariantControl = [&](Operation *op) {
    for (Operation *p = op->getParentOp(); p && p != root; p = p->getParentOp())
      if (!isa<ParallelOp>(p) && llvm::any_of(controlValues(p), isVariant))
        return true;
    return false;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    auto mark = [&](Value v) { changed |= variant.insert(v).second; };
    root->walk([&](Operation *op) {
      if (isa<ThreadIdOp>(op)) {
        mark(op->getResult(0));
        return;
      }
      bool in = llvm::any_of(op->getOperands(), isVariant) || underVariantControl(op);
      if (auto load = dyn_cast<memref::LoadOp>(op))
        in |= isVariant(load.getMemRef());
      if (!in)
        return;
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        if (isLocal(store.getMemRef()))
          mark(store.getMemRef());
        return;
      }
      if (auto copy = dyn_cast<CopyOp>(op)) {
        if (isLocal(copy.getDst()))
          mark(copy.getDst());
        return;
      }
      if (auto fill = dyn_cast<FillOp>(op)) {
        if (isLocal(fill.getBuffer()))
          mark(fill.getBuffer());
        return;
      }
      for (Value r : op->getResults())
        mark(r);
      // Yields carry variance to the results of their parent.
      if (op->hasTrait<OpTrait::IsTerminator>() && op->getParentOp() != root)
        for (Value r : op->getParentOp()->getResults())
          mark(r);
    });
  }
  return variant;
}

/// The source spelling of a tile operation, for messages.
static StringRef sourceName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case<CopyOp>([](auto) { return "T.copy"; })
      .Case<GemmOp>([](auto) { return "T.gemm"; })
      .Case<FillOp>([](auto) { return "T.fill"; })
      .Case<ReduceOp>([](auto) { return "T.reduce"; })
      .Case<CumsumOp>([](auto) { return "T.cumsum"; })
      .Case<AtomicAddOp>([](auto) { return "T.atomic_add"; })
      .Case<PrintOp>([](auto) { return "T.print"; })
      .Case<ParallelOp>([](auto) { return "a T.Parallel loop that is spread over the threads"; })
      .Case<memref::StoreOp>([](auto) { return "a store into a fragment outside T.Parallel (every thread holds a copy)"; })
      .Default([](Operation *) { return "a tile operation"; });
}

LogicalResult tile::checkUniformControl(Operation *launch) {
  DenseSet<Value> variant = threadVariantValues(launch);
  bool failed = false;
  launch->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isCollectiveLeaf(op))
      return WalkResult::advance();
    bool reported = false;
    // The innermost enclosing condition or loop bound that differs.
    for (Operation *p = op->getParentOp(); p && p != launch; p = p->getParentOp()) {
      if (isa<ParallelOp>(p) || !llvm::any_of(controlValues(p), [&](Value v) { return variant.contains(v); }))
        continue;
      bool isLoop = !isa<scf::IfOp>(p);
      InFlightDiagnostic diag = op->emitError()
                                << sourceName(op) << " runs under " << (isLoop ? "a loop bound" : "a condition")
                                << " that differs between the threads of a block (computed from "
                                   "T.get_thread_binding or thread-private state); every thread must reach a "
                                   "tile operation: compute the "
                                << (isLoop ? "bound" : "condition")
                                << " from block indices and uniform values, or keep only per-thread statements "
                                   "under it"
                                << (isa<memref::StoreOp>(op) ? " (a T.alloc_local buffer in place of the fragment)" : "");
      diag.attachNote(p->getLoc()) << (isLoop ? "the loop is here" : "the condition is here");
      failed = reported = true;
      break;
    }
    // Every thread's copy of a replicated fragment must stay the same.
    if (!reported && isReplicatedFragmentStore(op) && variant.contains(cast<memref::StoreOp>(op).getValueToStore())) {
      op->emitError() << "value computed from T.get_thread_binding or thread-private state stored into a "
                         "fragment outside T.Parallel; such a fragment is replicated (every thread holds all "
                         "of it, and its copies must agree): store the value into a T.alloc_local buffer";
      failed = true;
    }
    return isa<ParallelOp>(op) ? WalkResult::skip() : WalkResult::advance();
  });
  return failure(failed);
}
