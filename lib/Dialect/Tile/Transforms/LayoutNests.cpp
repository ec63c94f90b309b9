//===- LayoutNests.cpp - Loop layouts from the fragments they index -------===//
//
// Internal to tile-infer-layouts (LayoutInference.cpp): T.Parallel nests
// merged into one loop, and the iteration layout a loop adopts from a
// fragment it indexes at some of its induction variables.
//
//===----------------------------------------------------------------------===//
#include "LayoutAccess.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <numeric>

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;
using namespace tilec::tile::layout_access;

/// Whether `v` is the same in every iteration of `body`: defined outside
/// it, or pure arithmetic on such values.
static bool isInvariant(Value v, Region &body, int depth = 0) {
  if (!body.isAncestor(v.getParentRegion()))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 8 || !isa<arith::ArithDialect>(def->getDialect()) || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value o) { return isInvariant(o, body, depth + 1); });
}

/// A known divisor of index value `v` (large for 0).
static int64_t knownMultiple(Value v, int depth = 0) {
  constexpr int64_t kAny = int64_t(1) << 30;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c == 0 ? kAny : std::min<int64_t>(std::abs(*c), kAny);
  Operation *def = v.getDefiningOp();
  if (!def || depth > 8)
    return 1;
  if (isa<arith::MulIOp>(def))
    return std::min(kAny, knownMultiple(def->getOperand(0), depth + 1) * knownMultiple(def->getOperand(1), depth + 1));
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(knownMultiple(def->getOperand(0), depth + 1), knownMultiple(def->getOperand(1), depth + 1));
  if (isa<arith::ShLIOp>(def))
    if (std::optional<int64_t> k = getConstantIntValue(def->getOperand(1)); k && *k >= 0 && *k < 30)
      return std::min(kAny, knownMultiple(def->getOperand(0), depth + 1) << *k);
  return 1;
}

std::optional<tile::OffsetIndex> tilec::tile::matchOffsetIndex(Value idx, ValueRange ivs, Region &body) {
  auto add = idx.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (unsigned side = 0; side < 2; ++side) {
    Value iv = add->getOperand(side), off = add->getOperand(1 - side);
    auto k = llvm::find(ivs, iv);
    if (k == ivs.end() || !isInvariant(off, body))
      continue;
    int64_t m = knownMultiple(off);
    if (m > 1)
      return OffsetIndex{unsigned(k - ivs.begin()), m};
  }
  return std::nullopt;
}

/// The layout of fragment layout `f`'s dimension `d` as a loop dimension of
/// `extent` reached at offsets that are multiples of `m`: the whole
/// dimension, or its part below `m` when the extent is `m`.
static bool offsetDim(FragmentLayout &f, unsigned d, int64_t extent, int64_t m) {
  for (const LayoutField &x : f.dims[d])
    if (x.onThread && x.count > 1 && m % (x.scale * x.count) != 0)
      return false;
  if (extent == f.shape[d])
    return true;
  if (extent != m || f.shape[d] % m != 0)
    return false;
  llvm::SmallVector<LayoutField> low;
  for (const LayoutField &x : f.dims[d]) {
    if (x.count == 1 || x.scale >= m)
      continue;
    if (x.scale * x.count > m)
      return false;
    low.push_back(x);
  }
  f.dims[d] = low;
  f.shape[d] = m;
  return true;
}

std::optional<FragmentLayout> tilec::tile::layout_access::adoptSubsetLayout(
    const ParallelInfo &p, llvm::function_ref<const FragmentLayout *(Value)> layoutOf, bool offsetsOnly) {
  ArrayRef<int64_t> extents = ParallelOp(p.op).getExtents();
  for (const Access &a : p.accesses) {
    const FragmentLayout *f = layoutOf(a.buffer);
    if (!f || f->isFullyReplicated() || a.divided() || (offsetsOnly && !a.offset()) ||
        (!a.offset() && a.dims.size() >= extents.size()))
      continue;
    // Induction variables in increasing order, each dimension reachable.
    FragmentLayout core = *f;
    bool ok = true;
    for (unsigned d = 0; d < a.dims.size() && ok; ++d) {
      int k = a.dims[d];
      ok = k >= 0 && (d == 0 || k > a.dims[d - 1]);
      if (ok && a.alignOf(d))
        ok = offsetDim(core, d, extents[k], a.alignOf(d));
      else if (ok)
        ok = f->shape[d] == extents[k];
    }
    if (!ok)
      continue;
    llvm::SmallVector<unsigned> all;
    for (unsigned d = 0; d < core.shape.size(); ++d)
      all.push_back(d);
    core = core.project(all);
    Access loopDims{a.buffer, {}, {}};
    for (unsigned k = 0; k < extents.size(); ++k) {
      int at = llvm::find(a.dims, (int)k) - a.dims.begin();
      bool held = at < (int)a.dims.size();
      loopDims.dims.push_back(held ? at : -1);
      loopDims.constant.push_back(!held);
    }
    return extendWithConstantDims(core, loopDims, extents);
  }
  return std::nullopt;
}

FragmentLayout
tilec::tile::layout_access::placeSplit(ArrayRef<int64_t> shape, ArrayRef<int64_t> aligns, ArrayRef<bool> regDims,
                                       llvm::function_ref<FragmentLayout(ArrayRef<int64_t>, ArrayRef<bool>)> place) {
  llvm::SmallVector<int64_t> parts;
  llvm::SmallVector<bool> regs;
  llvm::SmallVector<bool> split;
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t m = d < aligns.size() ? aligns[d] : 0;
    split.push_back(m > 1 && m < shape[d] && shape[d] % m == 0 && !regDims[d]);
    if (split.back())
      parts.append({shape[d] / m, m}), regs.append({true, false});
    else
      parts.push_back(shape[d]), regs.push_back(regDims[d]);
  }
  if (!llvm::is_contained(split, true))
    return place(shape, regDims);
  FragmentLayout whole = place(parts, regs);
  FragmentLayout l;
  l.shape.assign(shape.begin(), shape.end());
  l.numThreads = whole.numThreads;
  l.numRegs = whole.numRegs;
  for (unsigned d = 0, at = 0; d < shape.size(); ++d) {
    if (!split[d]) {
      l.dims.push_back(whole.dims[at++]);
      continue;
    }
    llvm::SmallVector<LayoutField> fields = whole.dims[at + 1];
    for (LayoutField f : whole.dims[at])
      f.scale *= aligns[d], fields.push_back(f);
    l.dims.push_back(fields);
    at += 2;
  }
  return l;
}

llvm::SmallVector<int64_t> tilec::tile::layout_access::splitAligns(Value frag, ArrayRef<ParallelInfo> loops) {
  auto shape = cast<MemRefType>(frag.getType()).getShape();
  llvm::SmallVector<int64_t> aligns(shape.size(), 0);
  llvm::SmallVector<Value> group{frag};
  for (Operation *u : frag.getUsers())
    if (auto c = dyn_cast<CopyOp>(u); c && c.getSrc().getType().getShape() == c.getDst().getType().getShape() &&
                                      isBufferInScope(c.getSrc().getType(), Scope::Fragment) &&
                                      isBufferInScope(c.getDst().getType(), Scope::Fragment))
      group.push_back(c.getSrc() == frag ? c.getDst() : c.getSrc());
  for (const ParallelInfo &p : loops)
    for (const Access &a : p.accesses) {
      if (!llvm::is_contained(group, a.buffer) || a.dims.size() != shape.size())
        continue;
      for (unsigned d = 0; d < shape.size(); ++d)
        if (int64_t m = a.alignOf(d); m > 1 && m < shape[d] && shape[d] % m == 0)
          aligns[d] = aligns[d] ? std::gcd(aligns[d], m) : m;
    }
  return aligns;
}

/// The T.Parallel that is the only op of `outer`'s body, if any (neither
/// with an iteration layout of its own).
static ParallelOp onlyInner(ParallelOp outer) {
  Block *body = outer.getBodyBlock();
  if (body->getOperations().size() != 2)
    return nullptr;
  auto inner = dyn_cast<ParallelOp>(body->front());
  if (!inner || outer->hasAttr("tile.layout") || inner->hasAttr("tile.layout"))
    return nullptr;
  return inner;
}

void tilec::tile::layout_access::fuseParallelNests(LaunchOp launch) {
  llvm::SmallVector<ParallelOp> outers;
  launch.walk<WalkOrder::PreOrder>([&](ParallelOp p) {
    if (onlyInner(p) && !p->getParentOfType<ParallelOp>())
      outers.push_back(p);
  });
  for (ParallelOp outer : outers) {
    llvm::SmallVector<int64_t> extents;
    llvm::SmallVector<Value> ivs;
    llvm::SmallVector<ParallelOp> nest{outer};
    while (ParallelOp inner = onlyInner(nest.back()))
      nest.push_back(inner);
    for (ParallelOp p : nest)
      llvm::append_range(extents, p.getExtents());
    OpBuilder b(outer);
    auto fused = ParallelOp::create(b, outer.getLoc(), extents);
    unsigned next = 0;
    for (ParallelOp p : nest)
      for (BlockArgument iv : p.getInductionVars())
        iv.replaceAllUsesWith(fused.getInductionVars()[next++]);
    Block *from = nest.back().getBodyBlock();
    Block *to = fused.getBodyBlock();
    to->getOperations().splice(to->getTerminator()->getIterator(), from->getOperations(), from->begin(),
                               std::prev(from->end()));
    outer.erase();
  }
}

bool tilec::tile::layout_access::isLoadedOnly(Value frag) {
  auto alloc = frag.getDefiningOp<AllocOp>();
  if (!alloc || alloc.getReducer())
    return false;
  return llvm::all_of(frag.getUsers(), [&](Operation *u) {
    if (auto c = dyn_cast<CopyOp>(u))
      return c.getSrc() == frag || !isBufferInScope(c.getSrc().getType(), Scope::Fragment);
    return isa<memref::LoadOp, FillOp>(u);
  });
}

void tilec::tile::layout_access::noteVectors(LaunchOp launch, llvm::SmallVectorImpl<Value> &frags,
                                             llvm::DenseMap<Value, int64_t> &vecOf) {
  auto isFragment = [](Value v) { return isBufferInScope(v.getType(), Scope::Fragment); };
  launch.walk([&](AllocOp a) {
    if (a.getScope() == Scope::Fragment) {
      frags.push_back(a.getResult());
      unsigned bits = a.getType().getElementType().getIntOrFloatBitWidth();
      vecOf[a.getResult()] = std::max<int64_t>(1, std::min<int64_t>(4, 128 / std::max(8u, bits)));
    }
  });
  // Fragments copied from/to global memory take that tensor's 16-byte vector.
  launch.walk([&](CopyOp c) {
    auto note = [&](Value frag, Value other) {
      if (isFragment(frag) && isBufferInScope(other.getType(), Scope::Global)) {
        unsigned bits = cast<MemRefType>(other.getType()).getElementType().getIntOrFloatBitWidth();
        vecOf[frag] = std::max<int64_t>(vecOf[frag], 128 / std::max(8u, bits));
      }
    };
    note(c.getDst(), c.getSrc());
    note(c.getSrc(), c.getDst());
  });
}
