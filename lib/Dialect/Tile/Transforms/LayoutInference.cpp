//===- LayoutInference.cpp - Fragment layouts and gemm plans --------------===//
//
// The tile-infer-layouts planning, written as tile.layout / tile.gemm_plan
// attributes; tile.annotate_layout and existing tile.layout attributes pin
// a fragment's layout first.
// 1. Gemms: mma.sync m16n8k16 when A and B are f16/bf16 shared tiles and the
//    warp split divides the tile; the accumulator takes the mma layout. A
//    distributed fragment operand that the plan cannot take from registers
//    (A in the accumulator layout of one warp column is the only such form)
//    gets a shared copy right before the gemm, which then reads that.
// 2. Propagate until nothing changes: a T.Parallel whose iteration space is
//    a placed fragment's (accessed at exactly its induction variables) gives
//    every fragment it accesses at a subset of them the projection of that
//    layout; a reduction gives its destination the projection of its source;
//    a fragment-to-fragment copy gives the same layout.
// 3. When stuck, place the unplaced fragment (or driverless T.Parallel) of
//    highest rank, then most elements, with the canonical blocked layout,
//    and go back to 2.
// 0. A fragment indexed outside T.Parallel (per-thread code: `if mask[k]:`,
//    `x = rms[0]`) is replicated, as in tile-lang: every thread holds all of
//    it, T.Parallel loops over it run every iteration on every thread (so
//    each copy is complete) and per-thread code reads its own copy. A gemm,
//    reduction or copy that needs it distributed is a diagnostic naming both
//    uses.
// Thread-private state (local buffers, vars) follows the host's single run
// of the body, where T.get_thread_binding is 0: a driverless T.Parallel that
// writes such state, or reads state derived from the thread index, runs
// every iteration on every thread (replicated layout), so each thread's
// copy is complete and thread 0 alone writes shared and global memory.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "LayoutAccess.h"
#include "tilec/Dialect/Tile/IR/TileSIMT.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;
using namespace tilec::tile::layout_access;

/// The most iterations a T.Parallel that every thread runs whole may have
/// (its body is unrolled once per iteration).
static constexpr int64_t kMaxReplicatedIterations = 1024;

static bool isFragment(Value v) { return tile::isBufferInScope(v.getType(), tile::Scope::Fragment); }

static bool isLocal(Value v) { return tile::isBufferInScope(v.getType(), tile::Scope::Local); }

namespace {
/// How one tile.gemm runs (written as #tile.gemm_plan when `mma`).
struct GemmChoice {
  bool mma = false;
  int64_t warpsM = 1, warpsN = 1;
  bool aRegs = false;
};

/// The inference of one launch: the decisions in maps, written as attributes
/// at the end.
class LayoutSolver {
public:
  LayoutSolver(LaunchOp launch, const TargetInfo &target) : launch(launch), target(target) {
    for (int64_t t : launch.getThreads())
      threads *= t;
  }
  LogicalResult run();

private:
  LogicalResult pinLayouts();
  LogicalResult planReplicated();
  LogicalResult checkReplicated();
  void replicateUnreachedCopies();
  /// The error at `at` for a use of replicated fragment `frag` that needs it
  /// distributed, with a note at the use outside T.Parallel.
  InFlightDiagnostic replicatedConflict(Operation *at, Value frag, StringRef what);
  LogicalResult planGemms();
  LogicalResult planGemm(GemmOp g);
  /// Whether `v` is a fragment that is not (yet) fully replicated.
  bool isDistributedFragment(Value v) const;
  void collectParallels();
  LogicalResult planThreadPrivateLoops();
  bool propagateThroughLoops();
  bool propagateThroughReducesAndCopies();
  bool propagateThroughSlice(CopyOp c);
  /// Places the largest unplaced fragment or driverless loop; false when
  /// nothing is left.
  bool placeNext();
  const FragmentLayout *driverOf(ParallelInfo &p);
  static bool hasFullFragment(ParallelInfo &p);
  void writeAttributes();

  LaunchOp launch;
  const TargetInfo &target;
  int64_t threads = 1;
  llvm::SmallVector<Value> frags;
  llvm::DenseMap<Value, int64_t> vecOf;
  llvm::DenseMap<Value, FragmentLayout> fragments;
  llvm::DenseMap<Operation *, GemmChoice> gemms;
  /// Iteration layouts of T.Parallel loops that no fragment drives.
  llvm::DenseMap<Operation *, FragmentLayout> parallels;
  llvm::SmallVector<ParallelInfo> loops;
  llvm::DenseSet<Value> constantIndexed;
  /// Fragments indexed outside T.Parallel, with the first such access.
  llvm::MapVector<Value, Operation *> replicatedUse;
  /// Loops run whole on every thread because they write a replicated
  /// fragment, with such a write.
  llvm::DenseMap<Operation *, memref::StoreOp> replicatedLoops;
  /// The shared copy of each fragment gemm operand staged so far (one
  /// buffer per fragment, copied into before each gemm).
  llvm::DenseMap<Value, Value> stagedCopies;
  /// The op that pinned a fragment's layout.
  llvm::DenseMap<Value, Operation *> pinnedBy;
  /// Views of fragments (T.reshape, T.view): the same registers under
  /// another shape, so each takes its base's layout reshaped.
  llvm::SmallVector<memref::ReinterpretCastOp> views;
};
} // namespace

LogicalResult LayoutSolver::pinLayouts() {
  auto helper = launch->getContext()->getLoadedDialect<TileDialect>()->getLayoutAttrHelper();
  auto pin = [&](Operation *at, Value frag, FragmentLayoutAttr attr) -> LogicalResult {
    FragmentLayout l = attr.getLayout();
    if (l.numThreads != threads)
      return at->emitOpError("pins a fragment layout over ") << l.numThreads << " threads in a block of " << threads;
    auto [it, inserted] = fragments.try_emplace(frag, l);
    pinnedBy.try_emplace(frag, at);
    if (!inserted && it->second != l)
      return at->emitOpError("pins a fragment layout that conflicts with an earlier one of the same buffer");
    return success();
  };
  WalkResult walk = launch.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocOp>(op); alloc && alloc.getScope() == Scope::Fragment)
      if (FragmentLayoutAttr attr = helper.getAttr(op); attr && failed(pin(op, alloc.getResult(), attr)))
        return WalkResult::interrupt();
    if (auto ann = dyn_cast<AnnotateLayoutOp>(op))
      if (auto attr = dyn_cast<FragmentLayoutAttr>(ann.getLayout()); attr && failed(pin(op, ann.getBuffer(), attr)))
        return WalkResult::interrupt();
    if (auto loop = dyn_cast<ParallelOp>(op))
      if (FragmentLayoutAttr attr = helper.getAttr(op))
        parallels[op] = attr.getLayout();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

InFlightDiagnostic LayoutSolver::replicatedConflict(Operation *at, Value frag, StringRef what) {
  Operation *use = replicatedUse.lookup(frag);
  InFlightDiagnostic diag = at->emitError()
                            << what << ", but the fragment is also indexed outside T.Parallel, which replicates "
                                       "it (every thread holds all of it); read it there from a copy (T.copy it "
                                       "into a T.alloc_local or shared buffer) instead";
  if (use)
    diag.attachNote(use->getLoc()) << "indexed outside T.Parallel here";
  return diag;
}

/// Step 0: fragments indexed outside T.Parallel get the replicated layout.
LogicalResult LayoutSolver::planReplicated() {
  launch.walk([&](Operation *op) {
    Value buf;
    if (auto l = dyn_cast<memref::LoadOp>(op))
      buf = l.getMemRef();
    else if (auto s = dyn_cast<memref::StoreOp>(op))
      buf = s.getMemRef();
    if (buf && isFragment(buf) && !op->getParentOfType<ParallelOp>())
      replicatedUse.insert({buf, op});
  });
  for (auto [frag, use] : replicatedUse) {
    FragmentLayout l = FragmentLayout::canonical(cast<MemRefType>(frag.getType()).getShape(), 1, 1);
    l.numThreads = threads;
    if (l.numRegs > kMaxReplicatedIterations)
      return use->emitError("fragment indexed outside T.Parallel: such a fragment is replicated (every thread "
                            "holds all ")
             << l.numRegs << " elements), at most " << kMaxReplicatedIterations
             << "; index it inside T.Parallel, or use a T.alloc_local buffer for per-thread values";
    // A reduction's destination takes the projection of its source.
    bool reduced = llvm::any_of(frag.getUsers(), [&](Operation *u) {
      auto r = dyn_cast<ReduceOp>(u);
      return r && r.getDst() == frag && isFragment(r.getSrc());
    });
    if (reduced && !fragments.count(frag))
      continue;
    auto [it, inserted] = fragments.try_emplace(frag, l);
    if (!inserted && it->second != l)
      return replicatedConflict(pinnedBy.lookup(frag), frag, "this pins a fragment layout distributed over the "
                                                             "threads");
  }
  return success();
}

/// A fragment that two loops read in layouts that do not agree (a row
/// vector read by loops over the gemm accumulator and over another tile),
/// when only copies and fills write it, is replicated instead: every thread
/// then loads it whole and reads its own copy.
void LayoutSolver::replicateUnreachedCopies() {
  for (ParallelInfo &p : loops) {
    const FragmentLayout *d = driverOf(p);
    if (!d)
      continue;
    for (Access &a : p.accesses) {
      auto f = fragments.find(a.buffer);
      if (f == fragments.end() || reaches(f->second, *d, a) || !isLoadedOnly(a.buffer) || pinnedBy.count(a.buffer))
        continue;
      FragmentLayout l = FragmentLayout::canonical(f->second.shape, 1, 1);
      l.numThreads = threads;
      if (l.numRegs <= kMaxReplicatedIterations && d != &f->second)
        f->second = l;
    }
  }
}

/// Every replicated fragment ended fully replicated: a reduction into one
/// gives it the projection of its source (replicated when only the reduced
/// dimension was spread over the threads); a fragment copy needs one layout.
LogicalResult LayoutSolver::checkReplicated() {
  for (ParallelInfo &p : loops) {
    memref::StoreOp w = replicatedLoops.lookup(p.op);
    if (!w)
      continue;
    for (Access &a : p.accesses)
      if (auto f = fragments.find(a.buffer); f != fragments.end() && !f->second.isFullyReplicated())
        return replicatedConflict(p.op, w.getMemRef(), "this T.Parallel writes a replicated fragment, so every "
                                                       "thread runs all its iterations, but it also indexes a "
                                                       "fragment distributed over the threads");
  }
  for (auto [frag, use] : replicatedUse) {
    const FragmentLayout &l = fragments.find(frag)->second;
    Operation *cause = nullptr;
    StringRef what;
    for (Operation *user : frag.getUsers()) {
      if (auto r = dyn_cast<ReduceOp>(user); r && r.getDst() == frag && !l.isFullyReplicated()) {
        cause = r, what = "this reduction gives its destination the layout of its source without the reduced "
                          "dimension, which is distributed over the threads";
        break;
      }
      auto c = dyn_cast<CopyOp>(user);
      Value other = c ? (c.getSrc() == frag ? c.getDst() : c.getSrc()) : Value();
      if (other && isFragment(other) && fragments.count(other) && fragments.find(other)->second != l) {
        cause = c, what = "this copy between fragments needs both in one layout, and the other one is "
                          "distributed over the threads";
        break;
      }
    }
    if (!cause && !l.isFullyReplicated())
      cause = use, what = "this fragment's layout is distributed over the threads";
    if (cause)
      return replicatedConflict(cause, frag, what);
  }
  return success();
}

LogicalResult LayoutSolver::planGemm(GemmOp g) {
  GemmChoice gp;
  int64_t warps = threads / target.getWarpSize();
  auto at = cast<MemRefType>(g.getA().getType()), bt = cast<MemRefType>(g.getB().getType()),
       ct = cast<MemRefType>(g.getC().getType());
  Type ab = at.getElementType();
  int64_t m = ct.getDimSize(0), n = ct.getDimSize(1);
  int64_t k = g.getTransposeA() ? at.getDimSize(0) : at.getDimSize(1);
  auto shapes = target.getMatrixShapes(ab, ct.getElementType());
  bool sharedB = isBufferInScope(bt, Scope::Shared);
  bool sharedA = isBufferInScope(at, Scope::Shared);
  // A in registers: a fragment (not transposed) that each warp holds whole
  // for its rows, in the accumulator layout of an M x K mma tile.
  bool fragA = isFragment(g.getA()) && !g.getTransposeA();
  if (threads % target.getWarpSize() == 0 && sharedB && (sharedA || fragA) && ab == bt.getElementType() &&
      (ab.isF16() || ab.isBF16()) && !shapes.empty() && shapes[0].k == 16 && k % 16 == 0 && target.hasMatrixLoad(16))
    gp.mma = chooseWarps(m, n, warps, g.getPolicy(), gp.warpsM, gp.warpsN);
  if (gp.mma && fragA) {
    FragmentLayout la = FragmentLayout::mmaAccumulator(m, k, gp.warpsM, 1);
    auto it = fragments.find(g.getA());
    gp.aRegs = gp.warpsN == 1 && (it == fragments.end() || it->second == la);
    gp.mma = gp.aRegs;
    if (gp.aRegs)
      fragments[g.getA()] = la;
  }
  // A distributed fragment operand the plan cannot take from registers goes
  // through a shared copy; the gemm is then planned on that copy.
  bool stageA = !gp.aRegs && isDistributedFragment(g.getA()), stageB = isDistributedFragment(g.getB());
  if (stageA)
    stageGemmOperand(launch, g, g.getAMutable(), stagedCopies);
  if (stageB)
    stageGemmOperand(launch, g, g.getBMutable(), stagedCopies);
  if (stageA || stageB)
    return planGemm(g);
  gemms[g] = gp;
  if (!gp.mma)
    return success();
  FragmentLayout l = FragmentLayout::mmaAccumulator(m, n, gp.warpsM, gp.warpsN);
  auto it = fragments.find(g.getC());
  if (it != fragments.end() && it->second != l && replicatedUse.count(g.getC()))
    return replicatedConflict(g, g.getC(), "T.gemm needs its accumulator distributed over the threads (the mma "
                                           "layout)");
  if (it != fragments.end() && it->second != l)
    return g.emitError("the accumulator of this gemm already has another layout (an earlier gemm splits it "
                       "differently, or an annotation pins another)");
  fragments[g.getC()] = l;
  return success();
}

bool LayoutSolver::isDistributedFragment(Value v) const {
  auto it = fragments.find(v);
  return isFragment(v) && (it == fragments.end() || !it->second.isFullyReplicated());
}

LogicalResult LayoutSolver::planGemms() {
  WalkResult walk = launch.walk([&](GemmOp g) {
    return failed(planGemm(g)) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

void LayoutSolver::collectParallels() {
  launch.walk([&](ParallelOp p) {
    ParallelInfo info{p, {}, {}};
    auto ivs = p.getInductionVars();
    p.getBody().walk([&](Operation *op) {
      Value buf;
      ValueRange idx;
      if (auto l = dyn_cast<memref::LoadOp>(op))
        buf = l.getMemRef(), idx = l.getIndices();
      else if (auto s = dyn_cast<memref::StoreOp>(op))
        buf = s.getMemRef(), idx = s.getIndices();
      if (!buf || !isFragment(buf))
        return;
      Access a{buf, {}, {}};
      for (Value i : idx) {
        int which = -1;
        // `iv // c` (a packed element's byte, `x[i, j // 2]`).
        int64_t c = 1;
        if (Operation *def = i.getDefiningOp(); def && isa<arith::FloorDivSIOp, arith::DivUIOp, arith::DivSIOp>(def))
          if (std::optional<int64_t> k = getConstantIntValue(def->getOperand(1));
              k && *k > 1 && llvm::is_contained(ivs, def->getOperand(0)))
            i = def->getOperand(0), c = *k;
        a.div.push_back(c);
        int64_t align = 0;
        if (c == 1 && !llvm::is_contained(ivs, i))
          if (std::optional<OffsetIndex> o = matchOffsetIndex(i, ivs, p.getBody()))
            i = ivs[o->iv], align = o->multiple;
        a.align.push_back(align);
        for (unsigned k = 0; k < ivs.size(); ++k)
          if (ivs[k] == i)
            which = k;
        a.dims.push_back(which);
        // A constant, or a value defined outside the loop (a serial loop's
        // index): the same element in every iteration, held in registers.
        bool invariant = !p.getBody().isAncestor(i.getParentRegion());
        a.constant.push_back(which < 0 && (getConstantIntValue(i).has_value() || invariant));
      }
      if (auto s = dyn_cast<memref::StoreOp>(op))
        info.writes.push_back(s);
      info.accesses.push_back(a);
    });
    loops.push_back(info);
  });
  for (ParallelInfo &p : loops)
    for (Access &a : p.accesses)
      if (isConstantAndIncreasing(a) || a.divided())
        constantIndexed.insert(a.buffer);
}

const FragmentLayout *LayoutSolver::driverOf(ParallelInfo &p) {
  auto it = parallels.find(p.op);
  if (it != parallels.end())
    return &it->second;
  // A distributed fragment drives before a replicated one (whose copy every
  // thread holds, so any iteration layout reaches its elements).
  const FragmentLayout *replicated = nullptr;
  for (Access &a : p.accesses) {
    auto f = fragments.find(a.buffer);
    if (!isIdentity(a, p.op.getExtents()) || f == fragments.end())
      continue;
    if (!f->second.isFullyReplicated())
      return &f->second;
    replicated = replicated ? replicated : &f->second;
  }
  return replicated;
}

bool LayoutSolver::hasFullFragment(ParallelInfo &p) {
  return llvm::any_of(p.accesses, [&](Access &a) { return isIdentity(a, p.op.getExtents()); });
}

/// Loops over thread-private state: replicated, or a diagnostic when a
/// fragment drives them (its elements live on different threads).
LogicalResult LayoutSolver::planThreadPrivateLoops() {
  llvm::DenseSet<Value> variant = tile::threadVariantValues(launch.getOperation());
  for (ParallelInfo &p : loops) {
    bool writesLocal = false, readsVariant = false;
    Operation *variantOp = nullptr;
    p.op.getBody().walk([&](Operation *op) {
      if (auto s = dyn_cast<memref::StoreOp>(op))
        writesLocal |= isLocal(s.getMemRef());
      if (auto l = dyn_cast<memref::LoadOp>(op); l && variant.contains(l.getMemRef()))
        readsVariant = true, variantOp = op;
      if (isa<ThreadIdOp>(op))
        readsVariant = true, variantOp = op;
    });
    if (!writesLocal && !readsVariant)
      continue;
    if (hasFullFragment(p)) {
      if (readsVariant)
        return emitError(variantOp->getLoc(), "value derived from T.get_thread_binding used in a T.Parallel over a "
                                              "fragment; the fragment's elements live on different threads, so the "
                                              "GPU lowering cannot give them thread 0's value (the host target's "
                                              "thread index)");
      continue;
    }
    FragmentLayout l = FragmentLayout::canonical(p.op.getExtents(), 1, 1);
    l.numThreads = threads;
    if (l.numRegs > kMaxReplicatedIterations)
      return p.op.emitOpError("runs ") << l.numRegs
                                       << " iterations over thread-private state (local buffers or "
                                          "T.get_thread_binding); the GPU lowering runs such loops whole on every "
                                          "thread, at most "
                                       << kMaxReplicatedIterations;
    parallels[p.op] = l;
  }
  return success();
}

bool LayoutSolver::propagateThroughLoops() {
  bool changed = false;
  // A loop that writes a replicated fragment runs every iteration on every
  // thread, so that each copy gets all of its elements.
  for (ParallelInfo &p : loops) {
    if (parallels.count(p.op))
      continue;
    for (memref::StoreOp w : p.writes)
      if (auto f = fragments.find(w.getMemRef());
          replicatedUse.count(w.getMemRef()) && f != fragments.end() && f->second.isFullyReplicated()) {
        FragmentLayout l = FragmentLayout::canonical(p.op.getExtents(), 1, 1);
        l.numThreads = threads;
        parallels[p.op] = l;
        replicatedLoops[p.op] = w;
        changed = true;
        break;
      }
  }
  for (ParallelInfo &p : loops) {
    const FragmentLayout *d = driverOf(p);
    // A placed fragment accessed transposed gives the loop its layout.
    for (Access &a : p.accesses) {
      auto f = fragments.find(a.buffer);
      if (d || f == fragments.end())
        continue;
      if (std::optional<FragmentLayout> l = unpermute(f->second, a, p.op.getExtents())) {
        parallels[p.op] = *l;
        d = &parallels.find(p.op)->second;
        changed = true;
      }
    }
    if (!d)
      if (std::optional<FragmentLayout> l = adoptSubsetLayout(
              p,
              [&](Value v) {
                auto f = fragments.find(v);
                return f == fragments.end() ? nullptr : &f->second;
              },
              hasFullFragment(p))) {
        parallels[p.op] = *l;
        d = &parallels.find(p.op)->second;
        changed = true;
      }
    if (!d)
      continue;
    FragmentLayout driver = *d;
    for (Access &a : p.accesses) {
      if (fragments.count(a.buffer))
        continue;
      auto shape = cast<MemRefType>(a.buffer.getType()).getShape();
      if (a.divided()) {
        std::optional<FragmentLayout> l = dividedProjection(driver, a);
        if (l && l->shape == llvm::to_vector(shape))
          fragments[a.buffer] = *l, changed = true;
        continue;
      }
      if (isConstantAndIncreasing(a)) {
        // y[c, i]: the loop's layout on i, every c in registers.
        llvm::SmallVector<unsigned> kept;
        llvm::SmallVector<int64_t> subShape;
        for (unsigned i = 0; i < a.dims.size(); ++i)
          if (!a.constant[i])
            kept.push_back(a.dims[i]), subShape.push_back(shape[i]);
        FragmentLayout sub = driver.project(kept);
        if (sub.shape != subShape)
          continue;
        fragments[a.buffer] = extendWithConstantDims(sub, a, shape);
        changed = true;
        continue;
      }
      if (!isDistinctSubset(a))
        continue;
      llvm::SmallVector<unsigned> kept(a.dims.begin(), a.dims.end());
      FragmentLayout l = driver.project(kept);
      if (l.shape != llvm::to_vector(shape))
        continue;
      fragments[a.buffer] = l;
      changed = true;
    }
  }
  return changed;
}

bool LayoutSolver::propagateThroughReducesAndCopies() {
  bool changed = false;
  launch.walk([&](ReduceOp r) {
    if (!isFragment(r.getDst()) || !isFragment(r.getSrc()))
      return;
    auto it = fragments.find(r.getSrc());
    auto dst = fragments.find(r.getDst());
    if (it == fragments.end() && dst != fragments.end() && !dst->second.isFullyReplicated() &&
        !pinnedBy.count(r.getSrc()) && registerDims(r.getSrc(), loops)[r.getDim()]) {
      // The destination placed first, the reduced dimension one to hold in
      // registers (registerDims): the source takes the destination's layout
      // with that dimension in registers (each thread reduces its own rows).
      Access a{r.getSrc(), {}, {}};
      auto shape = r.getSrc().getType().getShape();
      for (unsigned d = 0, next = 0; d < shape.size(); ++d) {
        a.dims.push_back((int64_t)d == r.getDim() ? -1 : (int)next++);
        a.constant.push_back((int64_t)d == r.getDim());
      }
      fragments[r.getSrc()] = extendWithConstantDims(dst->second, a, shape);
      changed = true;
      return;
    }
    if (it == fragments.end() && dst != fragments.end() && !dst->second.isFullyReplicated() &&
        !pinnedBy.count(r.getSrc())) {
      // Otherwise the source spreads the reduced dimension over the threads
      // that replicate the destination (then registers): its projection is
      // the destination's layout, the reduction combines across them.
      if (std::optional<FragmentLayout> l =
              liftReduced(dst->second, r.getDim(), r.getSrc().getType().getDimSize(r.getDim()))) {
        fragments[r.getSrc()] = *l;
        changed = true;
      }
      return;
    }
    if (it == fragments.end() || dst != fragments.end())
      return;
    llvm::SmallVector<unsigned> kept;
    for (unsigned d = 0; d < it->second.shape.size(); ++d)
      if ((int64_t)d != r.getDim())
        kept.push_back(d);
    fragments[r.getDst()] = it->second.project(kept);
    changed = true;
  });
  launch.walk([&](CopyOp c) {
    if (!isFragment(c.getSrc()) || !isFragment(c.getDst()))
      return;
    if (c.getSrc().getType().getShape() != c.getDst().getType().getShape()) {
      changed |= propagateThroughSlice(c);
      return;
    }
    bool hs = fragments.count(c.getSrc()), hd = fragments.count(c.getDst());
    if (hs && !hd)
      fragments[c.getDst()] = fragments.find(c.getSrc())->second, changed = true;
    else if (hd && !hs)
      fragments[c.getSrc()] = fragments.find(c.getDst())->second, changed = true;
  });
  return changed;
}

/// A copy between a whole fragment and a slice of another: the whole one's
/// layout with the slice's unit dimensions added in registers, or the
/// slice's without them when they are in registers.
bool LayoutSolver::propagateThroughSlice(CopyOp c) {
  std::optional<SliceCopy> sc = sliceCopy(c);
  if (!sc)
    return false;
  auto wl = fragments.find(sc->whole), pl = fragments.find(sc->access.buffer);
  if (wl != fragments.end() && pl == fragments.end() && !pinnedBy.count(sc->access.buffer)) {
    fragments[sc->access.buffer] = extendWithConstantDims(wl->second, sc->access, sc->partShape);
    return true;
  }
  if (pl == fragments.end() || wl != fragments.end() || pinnedBy.count(sc->whole))
    return false;
  for (unsigned d = 0; d < sc->access.dims.size(); ++d)
    if (sc->access.dims[d] < 0 &&
        llvm::any_of(pl->second.threadFields(d), [](const LayoutField &f) { return f.count > 1; }))
      return false;
  fragments[sc->whole] = pl->second.project(sc->kept);
  return true;
}

bool LayoutSolver::placeNext() {
  Value best;
  ParallelInfo *bestLoop = nullptr;
  int64_t bestRank = -1, bestNumel = -1;
  // Fragments indexed with constants in some T.Parallel come last: the loops
  // that index them take their layouts from the other fragments. So do
  // reducers: the loops that update them give them their copies.
  auto isDeferred = [&](Value f) {
    auto alloc = f.getDefiningOp<AllocOp>();
    return constantIndexed.contains(f) || (alloc && alloc.getReducer());
  };
  for (bool deferred : {false, true}) {
    for (Value f : frags) {
      if (fragments.count(f) || isDeferred(f) != deferred)
        continue;
      auto t = cast<MemRefType>(f.getType());
      if (t.getRank() > bestRank || (t.getRank() == bestRank && t.getNumElements() > bestNumel))
        best = f, bestRank = t.getRank(), bestNumel = t.getNumElements();
    }
    if (best)
      break;
  }
  for (ParallelInfo &p : loops) {
    if (driverOf(p) || hasFullFragment(p))
      continue;
    int64_t rank = p.op.getExtents().size();
    if (rank > bestRank)
      bestLoop = &p, best = Value(), bestRank = rank;
  }
  if (bestLoop) {
    parallels[bestLoop->op] = FragmentLayout::canonical(bestLoop->op.getExtents(), threads, 1);
    return true;
  }
  if (!best)
    return false;
  auto t = cast<MemRefType>(best.getType());
  fragments[best] =
      placeSplit(t.getShape(), splitAligns(best, loops), registerDims(best, loops),
                 [&](ArrayRef<int64_t> shape, ArrayRef<bool> regDims) {
                   bool split = shape.size() != (size_t)t.getRank();
                   return placeFragment(best, shape, threads, split ? 1 : vecOf[best], target.getWarpSize(), regDims);
                 });
  return true;
}

void LayoutSolver::writeAttributes() {
  // A loop whose fragments at its induction variables differ in layout (one
  // replicated) names its driver, so the lowering need not pick one.
  for (ParallelInfo &p : loops) {
    const FragmentLayout *d = parallels.count(p.op) ? nullptr : driverOf(p);
    if (d && llvm::any_of(p.accesses, [&](Access &a) {
          auto f = fragments.find(a.buffer);
          return isIdentity(a, p.op.getExtents()) && f != fragments.end() && f->second != *d;
        }))
      parallels[p.op] = FragmentLayout(*d);
  }
  MLIRContext *ctx = launch->getContext();
  auto *dialect = ctx->getLoadedDialect<TileDialect>();
  auto layoutAttr = dialect->getLayoutAttrHelper();
  auto planAttr = dialect->getGemmPlanAttrHelper();
  for (Value f : frags)
    if (auto it = fragments.find(f); it != fragments.end())
      layoutAttr.setAttr(f.getDefiningOp(), FragmentLayoutAttr::get(ctx, it->second));
  for (memref::ReinterpretCastOp v : views)
    if (auto it = fragments.find(v.getResult()); it != fragments.end())
      layoutAttr.setAttr(v, FragmentLayoutAttr::get(ctx, it->second));
  for (ParallelInfo &p : loops)
    if (auto it = parallels.find(p.op); it != parallels.end())
      layoutAttr.setAttr(p.op, FragmentLayoutAttr::get(ctx, it->second));
  launch.walk([&](GemmOp g) {
    GemmChoice gp = gemms.lookup(g);
    if (gp.mma)
      planAttr.setAttr(g, GemmPlanAttr::get(ctx, gp.warpsM, gp.warpsN, gp.aRegs));
    else if (planAttr.isAttrPresent(g))
      planAttr.removeAttr(g);
  });
}

LogicalResult LayoutSolver::run() {
  if (failed(pinLayouts()) || failed(planReplicated()))
    return failure();
  fuseParallelNests(launch);
  noteVectors(launch, frags, vecOf);
  launch.walk([&](memref::ReinterpretCastOp v) {
    if (isFragment(v.getResult()) && isFragment(v.getSource()))
      views.push_back(v);
  });
  // 1. Gemms.
  if (failed(planGemms()))
    return failure();
  collectParallels();
  if (failed(planThreadPrivateLoops()))
    return failure();
  // 2. Propagate until nothing changes; 3. when stuck, place one more.
  do {
    while (propagateThroughLoops() | propagateThroughReducesAndCopies() | propagateThroughViews(views, fragments)) {
    }
  } while (placeNext());
  replicateUnreachedCopies();
  if (failed(checkReplicated()) || failed(checkViews(views, fragments)))
    return failure();
  writeAttributes();
  return success();
}

LogicalResult tilec::tile::inferLayouts(LaunchOp launch, const TargetInfo &target) {
  return LayoutSolver(launch, target).run();
}
