//===- LayoutPlacement.cpp - Gemm warp splits and fragment placement -----===//
//
// Internal to tile-infer-layouts (LayoutInference.cpp): the warp split of an
// mma gemm, the layout of a fragment placed when propagation is stuck, and
// the shared copy of a gemm operand that no plan takes from registers.
//
//===----------------------------------------------------------------------===//
#include "LayoutAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;
using namespace tilec::tile::layout_access;

static bool isFragment(Value v) { return isBufferInScope(v.getType(), Scope::Fragment); }

/// Picks the warp split of an mma gemm for `policy`, as tile-lang does
/// (ComputeDefaultWarpPartition): FullRow takes the most row warps that
/// divide the tile, the rest on columns; FullCol the most column warps;
/// Square the split whose per-warp tile ratio is closest to the tile's. Two
/// gemms of one kernel then split alike where tile-lang's do, so the row
/// vectors of FlashAttention's two accumulators agree.
bool tilec::tile::layout_access::chooseWarps(int64_t m, int64_t n, int64_t warps, tile::GemmPolicy policy, int64_t &wm,
                                             int64_t &wn) {
  auto fits = [&](int64_t a, int64_t b) { return a * b == warps && m % (16 * a) == 0 && n % (8 * b) == 0; };
  if (policy == tile::GemmPolicy::FullRow || policy == tile::GemmPolicy::FullCol) {
    bool rows = policy == tile::GemmPolicy::FullRow;
    for (int64_t a = warps; a >= 1; --a)
      if (warps % a == 0 && (rows ? fits(a, warps / a) : fits(warps / a, a))) {
        wm = rows ? a : warps / a, wn = rows ? warps / a : a;
        return true;
      }
    return false;
  }
  double best = 1e30, ideal = double(m) / double(n);
  bool found = false;
  for (int64_t a = 1; a <= warps; ++a) {
    if (warps % a != 0 || !fits(a, warps / a))
      continue;
    int64_t c = warps / a;
    double score = std::abs((double(m) / double(16 * a)) / (double(n) / double(8 * c)) - ideal);
    if (score < best)
      best = score, wm = a, wn = c, found = true;
  }
  return found;
}

/// The canonical layout of a fragment, except that one reduced along its
/// innermost dimension gives the outer dimensions as many warps as they can
/// take (whole rows per warp when there are enough rows): its reductions then
/// need fewer shuffles and, with a row per warp, no shared memory or barrier.
static FragmentLayout placeFree(Value frag, ArrayRef<int64_t> shape, int64_t threads, int64_t vector, int64_t warp) {
  FragmentLayout plain = FragmentLayout::canonical(shape, threads, vector);
  bool rowReduced = shape.size() >= 2 && llvm::any_of(frag.getUsers(), [&](Operation *u) {
                      auto r = dyn_cast<tile::ReduceOp>(u);
                      return r && r.getSrc() == frag && r.getDim() == (int64_t)shape.size() - 1;
                    });
  if (!rowReduced || warp <= 0 || threads % warp != 0)
    return plain;
  int64_t outer = 1;
  for (unsigned d = 0; d + 1 < shape.size(); ++d) {
    int64_t e = std::max<int64_t>(shape[d], 1);
    while (e % 2 == 0)
      outer *= 2, e /= 2;
  }
  int64_t cap = std::max(warp, threads / std::min(outer, threads / warp));
  FragmentLayout capped = FragmentLayout::canonical(shape, threads, vector, cap);
  // Only when every thread still holds distinct elements and the rows'
  // threads shrank.
  if (capped.distinctThreads() != plain.distinctThreads() || capped == plain)
    return plain;
  return capped;
}

FragmentLayout tilec::tile::layout_access::placeFragment(Value frag, ArrayRef<int64_t> shape, int64_t threads,
                                                         int64_t vector, int64_t warp, ArrayRef<bool> regDims) {
  if (llvm::none_of(regDims, [](bool r) { return r; }) || llvm::all_of(regDims, [](bool r) { return r; }))
    return placeFree(frag, shape, threads, vector, warp);
  // The other dimensions placed as a fragment of their own, the register
  // dimensions added in registers only.
  Access a{frag, {}, {}};
  llvm::SmallVector<int64_t> sub;
  for (unsigned d = 0; d < shape.size(); ++d) {
    a.dims.push_back(regDims[d] ? -1 : (int)sub.size());
    a.constant.push_back(regDims[d]);
    if (!regDims[d])
      sub.push_back(shape[d]);
  }
  return extendWithConstantDims(FragmentLayout::canonical(sub, threads, regDims.back() ? 1 : vector), a, shape);
}

/// The dimensions of `f` that some T.Parallel indexes with a constant or a
/// value defined outside it, directly or through a fragment of the same
/// shape that the same loop accesses at its induction variables along with
/// `f` (`y[i, j] = x[i, j]` with `x[k, j]` elsewhere), or copies a slice of
/// to another fragment: placed in registers.
llvm::SmallVector<bool> tilec::tile::layout_access::registerDims(Value f, ArrayRef<ParallelInfo> loops) {
  auto shape = cast<MemRefType>(f.getType()).getShape();
  llvm::SmallVector<bool> regs(shape.size(), false);
  llvm::SmallVector<Value> group{f};
  for (const ParallelInfo &p : loops) {
    auto extents = ParallelOp(p.op).getExtents();
    if (llvm::any_of(p.accesses, [&](const Access &a) { return a.buffer == f && isIdentity(a, extents); }))
      for (const Access &a : p.accesses)
        if (isIdentity(a, extents) && !llvm::is_contained(group, a.buffer))
          group.push_back(a.buffer);
  }
  for (const ParallelInfo &p : loops)
    for (const Access &a : p.accesses)
      if (llvm::is_contained(group, a.buffer) && isConstantAndIncreasing(a))
        for (unsigned d = 0; d < a.constant.size(); ++d)
          regs[d] = regs[d] || a.constant[d];
  // So do the unit dimensions of a slice copied to or from another fragment
  // (`T.copy(x[k, :], row)`).
  for (Value g : group)
    for (Operation *u : g.getUsers())
      if (auto c = dyn_cast<CopyOp>(u); c && isFragment(c.getSrc()) && isFragment(c.getDst())) {
        ArrayRef<int64_t> sizes = c.getSrc() == g ? c.getSrcSizes() : c.getDstSizes();
        for (unsigned d = 0; d < sizes.size() && d < regs.size(); ++d)
          regs[d] = regs[d] || (sizes[d] == 1 && shape[d] > 1);
      }
  return regs;
}

/// Gives gemm `g` a shared copy of the fragment operand `operand`: a shared
/// buffer of its shape in the launch body (one per fragment) and a tile.copy
/// into it right before the gemm.
/// Whether `op` or an op nested in it may write `buf` (any use but a read).
static bool mayWrite(Operation *op, Value buf) {
  WalkResult r = op->walk([&](Operation *inner) {
    for (OpOperand &use : inner->getOpOperands()) {
      if (use.get() != buf)
        continue;
      auto copy = dyn_cast<CopyOp>(inner);
      auto gemm = dyn_cast<GemmOp>(inner);
      bool read = isa<memref::LoadOp>(inner) || (copy && copy.getSrc() == buf) ||
                  (gemm && (gemm.getA() == buf || gemm.getB() == buf));
      if (!read)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

static bool isWholeRegion(Value buf, OperandRange offsets, ArrayRef<int64_t> sizes) {
  return cast<MemRefType>(buf.getType()).getShape() == sizes &&
         llvm::all_of(offsets, [](Value v) { return getConstantIntValue(v) == 0; });
}

/// The shared buffer `frag` holds a copy of at gemm `g`: the last write of
/// `frag` before `g` in its block is a whole copy from a shared buffer of
/// the same type that nothing writes in between (FlashAttention's
/// `T.copy(S_shared, P)` before `T.gemm(P, V_shared, acc)`); null otherwise.
static Value sharedSourceOf(Value frag, GemmOp g) {
  auto fragType = cast<MemRefType>(frag.getType());
  for (Operation *prev = g->getPrevNode(); prev; prev = prev->getPrevNode()) {
    auto copy = dyn_cast<CopyOp>(prev);
    if (copy && copy.getDst() == frag) {
      Value src = copy.getSrc();
      auto srcType = cast<MemRefType>(src.getType());
      if (!isBufferInScope(srcType, Scope::Shared) || srcType.getShape() != fragType.getShape() ||
          srcType.getElementType() != fragType.getElementType() ||
          !isWholeRegion(src, copy.getSrcOffsets(), copy.getSrcSizes()) ||
          !isWholeRegion(frag, copy.getDstOffsets(), copy.getDstSizes()))
        return Value();
      for (Operation *op = copy->getNextNode(); op != g.getOperation(); op = op->getNextNode())
        if (mayWrite(op, src))
          return Value();
      return src;
    }
    if (mayWrite(prev, frag))
      return Value();
  }
  return Value();
}

void tilec::tile::layout_access::stageGemmOperand(LaunchOp launch, GemmOp g, OpOperand &operand,
                                                  llvm::DenseMap<Value, Value> &stagedCopies) {
  Value frag = operand.get();
  if (Value src = sharedSourceOf(frag, g)) {
    operand.set(src);
    return;
  }
  auto type = cast<MemRefType>(frag.getType());
  Location loc = g.getLoc();
  OpBuilder b(launch.getBodyBlock(), launch.getBodyBlock()->begin());
  Value &staged = stagedCopies[frag];
  if (!staged) {
    Operation *def = frag.getDefiningOp();
    if (def && def->getBlock() == launch.getBodyBlock())
      b.setInsertionPointAfter(def);
    staged = AllocOp::create(b, loc, getBufferType(type.getShape(), type.getElementType(), Scope::Shared));
  }
  b.setInsertionPoint(g);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  llvm::SmallVector<Value> offsets(type.getRank(), zero);
  CopyOp::create(b, loc, frag, offsets, type.getShape(), staged, offsets, type.getShape());
  operand.set(staged);
}
