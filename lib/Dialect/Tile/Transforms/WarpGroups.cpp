//===- WarpGroups.cpp - Program-order runs of T.ws regions ----------------===//
//
// tile-lower-warp-groups (Passes.td), for one tile.launch:
// 1. On a target without explicit warp specialization, the first
//    tile.warp_group and the first tile.alloc_barrier are diagnostics naming
//    the target; a gemm marked wgmma (T.wgmma_gemm) is one on a GPU
//    target without warpgroup MMA; every tile.call_extern is one on a
//    target that does not compile T.import_source's code.
// 2. Each tile.warp_group, innermost first: its groups must exist in the
//    block; in its body (and in the bodies of loops and branches that hold
//    tile operations) every run of per-thread ops that write moves into an
//    scf.if on the linear thread id lying in one of the groups; then the
//    body moves in front of the op, which goes.
// 3. Barrier arrives and waits go, then the barrier allocations.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/IR/TileSIMT.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

/// Whether `op` (or an op inside it) may write memory or has effects the
/// interfaces do not describe.
static bool mayWrite(Operation *op) {
  bool writes = false;
  op->walk([&](Operation *inner) {
    auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!iface) {
      writes |= !inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
      return;
    }
    llvm::SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (MemoryEffects::EffectInstance &e : effects)
      writes |= !isa<MemoryEffects::Read>(e.getEffect());
  });
  return writes;
}

/// Step 1: what the target cannot take.
static LogicalResult checkSupport(LaunchOp launch, const TargetInfo *target) {
  if (!target)
    return success();
  bool ok = true;
  if (!target->hasWarpSpecialization()) {
    launch.walk([&](WarpGroupOp ws) {
      if (ws->hasAttr(kThreadRangeAttr))
        return WalkResult::advance(); // a thread-range `if`: runs in program order on every target
      ws.emitError() << "T.ws (explicit warp specialization) is not available on target '" << target->getName()
                     << "' (tile-lang writes such kernels for Hopper, sm_90a); T.Pipelined overlaps copies and "
                        "compute on every target";
      ok = false;
      return WalkResult::interrupt();
    });
    launch.walk([&](AllocBarrierOp a) {
      a.emitError() << "T.alloc_barrier (mbarriers for warp-specialized kernels) is not available on target '"
                    << target->getName() << "'";
      ok = false;
      return WalkResult::interrupt();
    });
  }
  if (!target->hasExternCalls() && failed(reportExternCalls(launch, target->getName())))
    ok = false;
  if (!target->hasWarpgroupMMA())
    launch.walk([&](GemmOp g) {
      if (!g.getWgmma())
        return;
      g.emitError() << "T.wgmma_gemm needs warpgroup MMA (wgmma), which target '" << target->getName()
                    << "' does not have; use T.gemm";
      ok = false;
    });
  return success(ok);
}

/// The linear thread id of the calling thread, built at `b`.
static Value linearThreadId(OpBuilder &b, Location loc, LaunchOp launch) {
  llvm::ArrayRef<int64_t> threads = launch.getThreads();
  Value tid;
  int64_t stride = 1;
  for (unsigned d = 0; d < threads.size(); ++d) {
    if (threads[d] == 1 && d > 0)
      continue;
    Value t = ThreadIdOp::create(b, loc, b.getIndexType(), uint64_t(d));
    if (stride != 1)
      t = arith::MulIOp::create(b, loc, t, arith::ConstantIndexOp::create(b, loc, stride));
    tid = tid ? arith::AddIOp::create(b, loc, tid, t).getResult() : t;
    stride *= threads[d];
  }
  return tid;
}

namespace {
/// Guards the per-thread writers of one warp group's body.
class GroupGuard {
public:
  GroupGuard(Value cond, StringRef where) : cond(cond), where(where) {}
  LogicalResult guardBlock(Block &block);

private:
  LogicalResult flush(llvm::SmallVectorImpl<Operation *> &run);
  Value cond;
  StringRef where;
};
} // namespace

LogicalResult GroupGuard::flush(llvm::SmallVectorImpl<Operation *> &run) {
  if (run.empty())
    return success();
  llvm::SmallPtrSet<Operation *, 8> inRun(run.begin(), run.end());
  for (Operation *op : run)
    for (Value r : op->getResults())
      for (Operation *user : r.getUsers()) {
        Operation *top = user;
        while (top && !inRun.contains(top) && top->getBlock() != op->getBlock())
          top = top->getParentOp();
        if (!top || !inRun.contains(top))
          return op->emitError() << "a value computed by per-thread code " << where
                                 << " is used outside the statements that compute it; tilec runs such regions in "
                                    "program order and cannot give it to the other threads (compute it outside)";
      }
  OpBuilder b(run.front());
  auto ifOp = scf::IfOp::create(b, run.front()->getLoc(), cond, /*withElseRegion=*/false);
  Operation *yield = ifOp.thenBlock()->getTerminator();
  for (Operation *op : run)
    op->moveBefore(yield);
  run.clear();
  return success();
}

LogicalResult GroupGuard::guardBlock(Block &block) {
  llvm::SmallVector<Operation *> run;
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
    if (isa<BarrierArriveOp, BarrierWaitOp>(op))
      continue; // removed in step 3
    if (containsCollective(&op)) {
      if (failed(flush(run)))
        return failure();
      // Loops and branches around tile operations stay at block level; what
      // they hold is guarded the same way. A tile operation itself (a
      // T.Parallel spread over the threads included) is block work: its
      // body's stores are its own, not per-thread statements.
      if (isCollectiveLeaf(&op))
        continue;
      for (Region &r : op.getRegions())
        for (Block &inner : r)
          if (failed(guardBlock(inner)))
            return failure();
      continue;
    }
    if (!mayWrite(&op)) {
      if (failed(flush(run)))
        return failure();
      continue;
    }
    run.push_back(&op);
  }
  return flush(run);
}

/// Step 2 for one tile.warp_group.
static LogicalResult inlineWarpGroup(WarpGroupOp ws, LaunchOp launch) {
  int64_t threads = 1;
  for (int64_t t : launch.getThreads())
    threads *= t;
  int64_t size = int64_t(ws.getGroupSize());
  for (int64_t g : ws.getGroups())
    if (g * size >= threads)
      return ws.emitError() << "T.ws(" << g << ") names warp group " << g << ", but the block's " << threads
                            << " threads make " << (threads + size - 1) / size << " warp group"
                            << ((threads + size - 1) / size == 1 ? "" : "s") << " of " << size;
  OpBuilder b(ws);
  Location loc = ws.getLoc();
  Value tid = linearThreadId(b, loc, launch);
  Value cond;
  for (int64_t g : ws.getGroups()) {
    Value lo = arith::ConstantIndexOp::create(b, loc, g * size);
    Value hi = arith::ConstantIndexOp::create(b, loc, std::min((g + 1) * size, threads));
    Value in = arith::AndIOp::create(b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, tid, lo),
                                     arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, hi));
    cond = cond ? arith::OrIOp::create(b, loc, cond, in).getResult() : in;
  }
  StringRef where = ws->hasAttr(kThreadRangeAttr) ? "under a thread-range condition" : "inside T.ws";
  if (failed(GroupGuard(cond, where).guardBlock(*ws.getBodyBlock())))
    return failure();
  Block *body = ws.getBodyBlock();
  body->getTerminator()->erase();
  ws->getBlock()->getOperations().splice(Block::iterator(ws), body->getOperations());
  ws.erase();
  return success();
}

LogicalResult tile::lowerWarpGroups(LaunchOp launch, const TargetInfo *target) {
  if (failed(checkSupport(launch, target)))
    return failure();
  launch.walk([](GemmOp g) { g.setWgmma(false); });
  // Post-order: inner regions first.
  llvm::SmallVector<WarpGroupOp> groups;
  launch.walk([&](WarpGroupOp ws) { groups.push_back(ws); });
  for (WarpGroupOp ws : groups)
    if (failed(inlineWarpGroup(ws, launch)))
      return failure();
  // 3. The barriers.
  launch.walk([](Operation *op) {
    if (isa<BarrierArriveOp, BarrierWaitOp>(op))
      op->erase();
  });
  bool ok = true;
  launch.walk([&](AllocBarrierOp a) {
    if (!a->use_empty()) {
      a.emitOpError("has uses other than barrier arrives and waits");
      ok = false;
      return;
    }
    a->erase();
  });
  return success(ok);
}
