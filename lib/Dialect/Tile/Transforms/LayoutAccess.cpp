//===- LayoutAccess.cpp - Fragment accesses of T.Parallel loops -----------===//
//
// How tile-infer-layouts reads one fragment access of a T.Parallel: which
// induction variable each index is, and the layouts that follow from it.
//
//===----------------------------------------------------------------------===//
#include "LayoutAccess.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

#include <numeric>

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;
using namespace tilec::tile::layout_access;

bool tilec::tile::layout_access::isIdentity(const Access &a, ArrayRef<int64_t> extents) {
  auto type = cast<MemRefType>(a.buffer.getType());
  if (a.divided() || a.offset())
    return false;
  if (type.getShape() != extents)
    return false;
  for (unsigned i = 0; i < a.dims.size(); ++i)
    if (a.dims[i] != (int)i)
      return false;
  return true;
}

/// Whether every index is a constant or an induction variable, the latter
/// increasing, with at least one constant.
bool tilec::tile::layout_access::isConstantAndIncreasing(const Access &a) {
  if (a.divided() || a.offset())
    return false;
  int last = -1;
  bool anyConstant = false;
  for (unsigned i = 0; i < a.dims.size(); ++i) {
    if (a.constant[i]) {
      anyConstant = true;
      continue;
    }
    if (a.dims[i] <= last)
      return false;
    last = a.dims[i];
  }
  return anyConstant;
}

/// `sub` (the layout of the induction-variable dimensions of `a`) with the
/// constant-index dimensions of `a` added as register-only dimensions.
FragmentLayout tilec::tile::layout_access::extendWithConstantDims(const FragmentLayout &sub, const Access &a,
                                                                  ArrayRef<int64_t> shape) {
  FragmentLayout l;
  l.numThreads = sub.numThreads;
  l.numRegs = sub.numRegs;
  unsigned next = 0;
  for (unsigned i = 0; i < a.dims.size(); ++i) {
    l.shape.push_back(shape[i]);
    if (!a.constant[i]) {
      l.dims.push_back(sub.dims[next++]);
      continue;
    }
    l.dims.push_back({});
    if (shape[i] > 1)
      l.dims.back().push_back({false, l.numRegs, shape[i], 1});
    l.numRegs *= shape[i];
  }
  return l;
}

/// Whether every index is a distinct induction variable (in any order: a
/// transposed access `x[j, i]` takes the loop's layout with its dimensions
/// permuted).
bool tilec::tile::layout_access::isDistinctSubset(const Access &a) {
  if (a.divided() || a.offset())
    return false;
  llvm::SmallDenseSet<int, 4> seen;
  for (int d : a.dims)
    if (d < 0 || !seen.insert(d).second)
      return false;
  return true;
}

/// The iteration layout of a loop that accesses a fragment of layout `l` at
/// a permutation `a` of all its induction variables: `l` with its
/// dimensions put back in the loop's order.
std::optional<FragmentLayout> tilec::tile::layout_access::unpermute(const FragmentLayout &l, const Access &a,
                                                                    ArrayRef<int64_t> extents) {
  // `y[i, 0]` with dimension 1 held in registers only: the loop takes the
  // projection on the induction variables (each thread holds all of a row).
  if (!a.divided() && llvm::is_contained(a.dims, -1)) {
    Access rest{a.buffer, {}, {}};
    llvm::SmallVector<unsigned> kept;
    for (unsigned d = 0; d < a.dims.size(); ++d) {
      if (a.dims[d] >= 0) {
        kept.push_back(d), rest.dims.push_back(a.dims[d]);
        continue;
      }
      if (!a.constant[d] || llvm::any_of(l.threadFields(d), [](const LayoutField &f) { return f.count > 1; }))
        return std::nullopt;
    }
    return kept.empty() ? std::nullopt : unpermute(l.project(kept), rest, extents);
  }
  if (a.dims.size() != extents.size() || !isDistinctSubset(a))
    return std::nullopt;
  FragmentLayout out = l;
  for (unsigned d = 0; d < a.dims.size(); ++d) {
    out.shape[a.dims[d]] = l.shape[d];
    out.dims[a.dims[d]] = l.dims[d];
  }
  if (out.shape != llvm::to_vector(extents))
    return std::nullopt;
  return out;
}


static llvm::SmallVector<LayoutField> spread(const FragmentLayout &l, unsigned d) {
  llvm::SmallVector<LayoutField> tf = l.threadFields(d);
  llvm::erase_if(tf, [](const LayoutField &f) { return f.count == 1; });
  return tf;
}

std::optional<FragmentLayout> tilec::tile::layout_access::dividedProjection(const FragmentLayout &driver,
                                                                            const Access &a) {
  llvm::SmallVector<unsigned> kept;
  for (int d : a.dims) {
    if (d < 0 || (!kept.empty() && (unsigned)d <= kept.back()))
      return std::nullopt;
    kept.push_back(d);
  }
  std::optional<FragmentLayout> l = driver.project(kept);
  for (unsigned i = 0; i < a.dims.size() && l; ++i)
    if (a.divOf(i) != 1)
      l = l->divideDim(i, a.divOf(i));
  return l;
}

bool tilec::tile::layout_access::reaches(const FragmentLayout &frag, const FragmentLayout &driver, const Access &a) {
  if (frag.isFullyReplicated())
    return true;
  if (a.divided()) {
    std::optional<FragmentLayout> l = dividedProjection(driver, a);
    if (!l)
      return false;
    for (unsigned d = 0; d < a.dims.size(); ++d)
      if (spread(frag, d) != spread(*l, d))
        return false;
    return true;
  }
  for (unsigned d = 0; d < a.dims.size(); ++d) {
    if (a.dims[d] >= 0 ? spread(frag, d) != spread(driver, a.dims[d]) : !a.constant[d] || !spread(frag, d).empty())
      return false;
    // `iv + offset`: the offset changes no thread digit.
    if (int64_t m = a.alignOf(d))
      for (const LayoutField &f : spread(frag, d))
        if (m % (f.scale * f.count) != 0)
          return false;
  }
  return true;
}

std::optional<SliceCopy> tilec::tile::layout_access::sliceCopy(CopyOp c) {
  auto whole = [](Value buf, ArrayRef<int64_t> sizes, OperandRange off) {
    return cast<MemRefType>(buf.getType()).getShape() == sizes &&
           llvm::all_of(off, [](Value v) { return getConstantIntValue(v) == 0; });
  };
  bool srcWhole = whole(c.getSrc(), c.getSrcSizes(), c.getSrcOffsets());
  bool dstWhole = whole(c.getDst(), c.getDstSizes(), c.getDstOffsets());
  if (srcWhole == dstWhole)
    return std::nullopt;
  SliceCopy sc;
  sc.whole = srcWhole ? c.getSrc() : c.getDst();
  Value part = srcWhole ? c.getDst() : c.getSrc();
  ArrayRef<int64_t> sizes = srcWhole ? c.getDstSizes() : c.getSrcSizes();
  sc.partShape = llvm::to_vector(cast<MemRefType>(part.getType()).getShape());
  sc.access.buffer = part;
  llvm::SmallVector<int64_t> core;
  for (unsigned d = 0; d < sizes.size(); ++d) {
    bool unit = sizes[d] == 1;
    sc.access.dims.push_back(unit ? -1 : (int)core.size());
    sc.access.constant.push_back(unit);
    if (!unit)
      sc.kept.push_back(d), core.push_back(sizes[d]);
  }
  // Only slices whose other dimensions are whole, against a fragment of
  // that shape.
  for (unsigned k = 0; k < sc.kept.size(); ++k)
    if (sc.partShape[sc.kept[k]] != core[k])
      return std::nullopt;
  if (llvm::to_vector(cast<MemRefType>(sc.whole.getType()).getShape()) != core)
    return std::nullopt;
  return sc;
}

std::optional<FragmentLayout> tilec::tile::layout_access::liftReduced(const FragmentLayout &dst, int64_t dim,
                                                                      int64_t extent) {
  llvm::SmallVector<LayoutField> replicas;
  if (dim < 0 || dim > (int64_t)dst.shape.size() || extent < 1 || !dst.replicationFields(replicas))
    return std::nullopt;
  llvm::SmallVector<LayoutField> fields;
  int64_t left = extent, scale = 1;
  for (const LayoutField &r : replicas) {
    int64_t k = std::gcd(r.count, left);
    if (k > 1)
      fields.push_back({true, r.stride, k, scale});
    scale *= k, left /= k;
  }
  FragmentLayout l = dst;
  if (left > 1) {
    fields.push_back({false, l.numRegs, left, scale});
    l.numRegs *= left;
  }
  l.shape.insert(l.shape.begin() + dim, extent);
  l.dims.insert(l.dims.begin() + dim, fields);
  return l;
}

/// A view and its base hold the same registers: whichever is placed first
/// gives the other its layout reshaped.
bool layout_access::propagateThroughViews(ArrayRef<memref::ReinterpretCastOp> views,
                                          llvm::DenseMap<Value, FragmentLayout> &fragments) {
  bool changed = false;
  for (memref::ReinterpretCastOp v : views) {
    Value base = v.getSource(), view = v.getResult();
    auto bl = fragments.find(base), vl = fragments.find(view);
    if ((bl == fragments.end()) == (vl == fragments.end()))
      continue;
    Value to = bl == fragments.end() ? base : view;
    const FragmentLayout &known = bl == fragments.end() ? vl->second : bl->second;
    if (std::optional<FragmentLayout> l = known.reshape(cast<MemRefType>(to.getType()).getShape()))
      fragments[to] = *l, changed = true;
  }
  return changed;
}

LogicalResult layout_access::checkViews(ArrayRef<memref::ReinterpretCastOp> views,
                                        const llvm::DenseMap<Value, FragmentLayout> &fragments) {
  for (memref::ReinterpretCastOp v : views) {
    auto bl = fragments.find(v.getSource()), vl = fragments.find(v.getResult());
    if (bl == fragments.end())
      continue;
    std::optional<FragmentLayout> l = bl->second.reshape(v.getType().getShape());
    if (!l)
      return v.emitError("this view of a fragment cannot be built on the GPU: the fragment's layout ")
             << bl->second.str() << " spreads the elements of one view dimension over another (write the "
             << "values to a fragment of the view's shape with T.copy instead)";
    if (vl == fragments.end() || vl->second != *l)
      return v.emitError("this view of a fragment is used in layout ")
             << (vl == fragments.end() ? std::string("(none)") : vl->second.str())
             << ", but the fragment's layout seen through the view is " << l->str()
             << " (write the values to a fragment of the view's shape with T.copy instead)";
  }
  return success();
}
