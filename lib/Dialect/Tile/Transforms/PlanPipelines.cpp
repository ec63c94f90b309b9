//===- PlanPipelines.cpp - Staged copies of T.Pipelined loops -------------===//
//
// The tile-plan-pipelines planning, written as tile.pipeline / tile.staged
// attributes. Per T.Pipelined loop (num_stages = S > 1) of a launch:
// 1. The producer: the body's global -> shared copies that can be issued
//    S - 1 iterations ahead, at the top of an iteration (their offsets are
//    pure non-tile work of the body, and nothing before them in the body
//    touches their destinations); none when any cannot. A loop whose staged
//    buffers another loop stages at a different depth is left unplanned.
// 2. The consumer: a matrix-instruction gemm of two staged tiles right after
//    the last copy, ending the body, takes its next tile's first fragments
//    during its last k step (the hand-off).
// 3. The engine: the target's (sync, async); tensor copies where the target
//    has them, the loop hands off to a gemm, and every staged copy is a whole
//    2-D tile of a kernel argument into a swizzled shared tile that the TMA
//    can fill (tile-plan-shared-memory then places those tiles on 1 KB
//    boundaries, or falls back to async copies).
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/SharedSwizzle.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

static bool isTileOp(Operation *op) { return isa_and_nonnull<TileDialect>(op->getDialect()); }

bool tilec::tile::collectStagedCopyDependencies(ForOp loop, ArrayRef<CopyOp> copies,
                                                llvm::DenseSet<Operation *> &needed) {
  Block *body = loop.getBodyBlock();
  // Each copy is issued S - 1 iterations ahead, at the top of an iteration:
  // what computes its offsets must be pure non-tile work of the body (cloned
  // with it), and nothing before it in the body may touch its destination.
  std::function<bool(Value)> clonable = [&](Value v) -> bool {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body)
      return true;
    if (needed.contains(def))
      return true;
    if (isTileOp(def) || !isPure(def) || def->getNumRegions() != 0)
      return false;
    for (Value o : def->getOperands())
      if (!clonable(o))
        return false;
    needed.insert(def);
    return true;
  };
  auto touches = [](Operation &op, Value buf) {
    WalkResult r = op.walk([&](Operation *x) {
      return llvm::is_contained(x->getOperands(), buf) ? WalkResult::interrupt() : WalkResult::advance();
    });
    return r.wasInterrupted();
  };
  for (CopyOp c : copies) {
    bool ok = llvm::all_of(c->getOperands(), clonable);
    for (Operation &op : *body) {
      if (!ok || &op == c.getOperation())
        break;
      ok = needed.contains(&op) || !touches(op, c.getDst());
    }
    if (!ok)
      return false;
  }
  return true;
}

/// Step 1: the copies of `loop` that can be staged (empty when any cannot).
static llvm::SmallVector<CopyOp> findStagedCopies(ForOp loop) {
  llvm::SmallVector<CopyOp> copies;
  for (Operation &op : *loop.getBodyBlock())
    if (auto copy = dyn_cast<CopyOp>(op))
      if (isBufferInScope(copy.getSrc().getType(), Scope::Global) &&
          isBufferInScope(copy.getDst().getType(), Scope::Shared))
        copies.push_back(copy);
  llvm::DenseSet<Operation *> needed;
  if (!collectStagedCopyDependencies(loop, copies, needed))
    copies.clear();
  return copies;
}

/// Whether `buf` is only used by copies and matrix-instruction gemms (of
/// which it is not the accumulator), so that it may be swizzled.
static bool onlyCopiesAndGemms(Value buf) {
  for (Operation *user : buf.getUsers()) {
    if (isa<CopyOp>(user))
      continue;
    if (auto g = dyn_cast<GemmOp>(user);
        g && g->hasAttr(TileDialect::GemmPlanAttrHelper::getNameStr()) && g.getC() != buf)
      continue;
    return false;
  }
  return true;
}

int64_t tilec::tile::chooseSharedSwizzle(AllocOp alloc) {
  MemRefType type = alloc.getType();
  int64_t elemBytes = std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
  // 2-byte elements in rows of 32, 64 or n * 128 bytes, read by ldmatrix (8
  // rows of one 16-byte chunk, conflict-free).
  int64_t span = swizzleSpanFor(type.getRank() == 0 ? 0 : type.getShape().back() * elemBytes);
  bool swizzled = type.getRank() >= 2 && span && elemBytes == 2 && onlyCopiesAndGemms(alloc.getResult());
  return swizzled ? span : 0;
}

/// A staged copy the TMA can do, as far as its shapes go: a whole 2-D tile
/// of a kernel argument (static row length, rows 16-byte aligned) into a
/// swizzled shared tile of at most 256 rows of 2-byte elements whose size
/// is a multiple of 1 KB (the 128-byte pattern's repeat). Its placement on a
/// 1 KB boundary is tile-plan-shared-memory's.
static bool isTensorCopyTile(CopyOp c) {
  auto arg = dyn_cast<BlockArgument>(c.getSrc());
  auto src = dyn_cast<MemRefType>(c.getSrc().getType());
  auto alloc = c.getDst().getDefiningOp<AllocOp>();
  if (!arg || !isa<KernelOp>(arg.getOwner()->getParentOp()) || !src || src.getRank() != 2 ||
      ShapedType::isDynamic(src.getDimSize(1)) || !alloc)
    return false;
  MemRefType dst = alloc.getType();
  int64_t bytes = dst.getElementType().getIntOrFloatBitWidth() / 8;
  if (dst.getRank() != 2 || !chooseSharedSwizzle(alloc) || bytes != 2 || dst.getDimSize(0) > 256 ||
      (src.getDimSize(1) * bytes) % 16 != 0 || (dst.getNumElements() * bytes) % 1024 != 0)
    return false;
  for (Value o : c.getDstOffsets())
    if (!matchPattern(o, m_Zero()))
      return false;
  return llvm::equal(c.getSrcSizes(), dst.getShape()) && llvm::equal(c.getDstSizes(), dst.getShape());
}

/// Step 2: whether the loop hands off to a matrix-instruction gemm of two of
/// its staged tiles right after the last copy, ending the body.
static bool handsOffToGemm(ArrayRef<CopyOp> copies) {
  auto gemm = dyn_cast_or_null<GemmOp>(copies.back()->getNextNode());
  if (!gemm || !isa<YieldOp>(gemm->getNextNode()) || !gemm->hasAttr(TileDialect::GemmPlanAttrHelper::getNameStr()))
    return false;
  auto stages = [&](Value buf) { return llvm::any_of(copies, [&](CopyOp c) { return c.getDst() == buf; }); };
  return stages(gemm.getA()) && stages(gemm.getB());
}

LogicalResult tilec::tile::planPipelines(LaunchOp launch, const TargetInfo &target) {
  MLIRContext *ctx = launch.getContext();
  auto pipelineName = TileDialect::PipelineAttrHelper::getNameStr();
  auto stagedName = TileDialect::StagedAttrHelper::getNameStr();
  // Earlier plans are replaced.
  launch.walk([&](Operation *op) {
    op->removeAttr(pipelineName);
    op->removeAttr(stagedName);
  });
  // Step 1 for every loop; a buffer is staged at the depth of the last loop
  // (in walk order) that stages it.
  llvm::SmallVector<std::pair<ForOp, llvm::SmallVector<CopyOp>>> loops;
  llvm::DenseMap<Value, int64_t> depthOf;
  launch.walk([&](ForOp loop) {
    if (loop.getKind() != LoopKind::Pipelined || loop.getNumStages().value_or(1) <= 1)
      return;
    llvm::SmallVector<CopyOp> copies = findStagedCopies(loop);
    for (CopyOp c : copies)
      depthOf[c.getDst()] = *loop.getNumStages();
    loops.push_back({loop, std::move(copies)});
  });
  for (auto &[loop, copies] : loops) {
    int64_t stages = *loop.getNumStages();
    // Multi-buffered shared allocations of the launch body, at this depth.
    bool ok = !copies.empty() && llvm::all_of(copies, [&](CopyOp c) {
      auto alloc = c.getDst().getDefiningOp<AllocOp>();
      return alloc && alloc->getBlock() == launch.getBodyBlock() && depthOf.lookup(c.getDst()) == stages;
    });
    if (!ok)
      continue;
    bool handoff = handsOffToGemm(copies);
    CopyEngine engine = CopyEngine::Async;
    switch (target.getAsyncCopyEngine()) {
    case AsyncCopyEngine::None:
      engine = CopyEngine::Sync;
      break;
    case AsyncCopyEngine::PerThread:
      break;
    case AsyncCopyEngine::TensorBulk:
      if (handoff && llvm::all_of(copies, isTensorCopyTile))
        engine = CopyEngine::Tensor;
      break;
    }
    for (CopyOp c : copies)
      c->setAttr(stagedName, UnitAttr::get(ctx));
    loop->setAttr(pipelineName, PipelinePlanAttr::get(ctx, stages, engine, handoff));
  }
  return success();
}
