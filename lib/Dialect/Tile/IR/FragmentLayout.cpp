//===- FragmentLayout.cpp - Element -> (thread, register) maps -------------===//
//
// Construction, projection and queries of fragment layouts.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/FragmentLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>

using namespace tilec::tile;

llvm::SmallVector<DimLayoutField> FragmentLayout::flatFields() const {
  llvm::SmallVector<DimLayoutField> out;
  for (unsigned d = 0; d < dims.size(); ++d)
    for (const LayoutField &f : dims[d])
      out.push_back({d, f});
  return out;
}

FragmentLayout FragmentLayout::fromFlatFields(llvm::ArrayRef<int64_t> shape, int64_t numThreads, int64_t numRegs,
                                              llvm::ArrayRef<DimLayoutField> fields) {
  FragmentLayout l;
  l.shape.assign(shape.begin(), shape.end());
  l.numThreads = numThreads;
  l.numRegs = numRegs;
  l.dims.resize(shape.size());
  for (const DimLayoutField &f : fields)
    if (f.dim < l.dims.size())
      l.dims[f.dim].push_back(f.field);
  return l;
}

bool FragmentLayout::operator==(const FragmentLayout &o) const {
  return shape == o.shape && dims == o.dims && numThreads == o.numThreads && numRegs == o.numRegs;
}

llvm::SmallVector<int64_t> FragmentLayout::regIndex(int64_t reg) const {
  llvm::SmallVector<int64_t> idx;
  for (const auto &fields : dims) {
    int64_t v = 0;
    for (const LayoutField &f : fields)
      if (!f.onThread)
        v += ((reg / f.stride) % f.count) * f.scale;
    idx.push_back(v);
  }
  return idx;
}

int64_t FragmentLayout::threadIndex(unsigned d, int64_t tid) const {
  int64_t v = 0;
  for (const LayoutField &f : dims[d])
    if (f.onThread)
      v += ((tid / f.stride) % f.count) * f.scale;
  return v;
}

FragmentLayout FragmentLayout::project(llvm::ArrayRef<unsigned> kept) const {
  FragmentLayout out;
  out.numThreads = numThreads;
  // Register fields of the kept dimensions, renumbered in the order of their
  // old strides so that the projection keeps the register order.
  llvm::SmallVector<std::pair<int64_t, std::pair<unsigned, unsigned>>> regFields;
  for (unsigned k = 0; k < kept.size(); ++k) {
    out.shape.push_back(shape[kept[k]]);
    out.dims.push_back(dims[kept[k]]);
    for (unsigned i = 0; i < dims[kept[k]].size(); ++i)
      if (!dims[kept[k]][i].onThread)
        regFields.push_back({dims[kept[k]][i].stride, {k, i}});
  }
  llvm::sort(regFields, [](auto &a, auto &b) { return a.first < b.first; });
  int64_t stride = 1;
  for (auto &rf : regFields) {
    LayoutField &f = out.dims[rf.second.first][rf.second.second];
    f.stride = stride;
    stride *= f.count;
  }
  out.numRegs = stride;
  return out;
}

int64_t FragmentLayout::projectReg(llvm::ArrayRef<unsigned> kept, int64_t reg) const {
  FragmentLayout p = project(kept);
  int64_t out = 0;
  for (unsigned k = 0; k < kept.size(); ++k)
    for (unsigned i = 0; i < dims[kept[k]].size(); ++i) {
      const LayoutField &f = dims[kept[k]][i];
      if (!f.onThread)
        out += ((reg / f.stride) % f.count) * p.dims[k][i].stride;
    }
  return out;
}

std::optional<FragmentLayout> FragmentLayout::divideDim(unsigned d, int64_t c) const {
  if (d >= dims.size() || c < 1 || shape[d] % c != 0)
    return std::nullopt;
  FragmentLayout out = *this;
  out.shape[d] = shape[d] / c;
  llvm::SmallVector<LayoutField> kept;
  int64_t below = 0; // the largest sum of the parts below c
  for (LayoutField f : dims[d]) {
    if (f.count == 1)
      continue;
    if (f.scale % c == 0) {
      f.scale /= c;
      kept.push_back(f);
      continue;
    }
    if (f.scale * f.count <= c) {
      below += (f.count - 1) * f.scale;
      continue;
    }
    int64_t k = c / f.scale;
    if (c % f.scale != 0 || f.count % k != 0)
      return std::nullopt;
    below += (k - 1) * f.scale;
    kept.push_back({f.onThread, f.stride * k, f.count / k, 1});
  }
  if (below >= c)
    return std::nullopt;
  out.dims[d] = kept;
  // Dense register numbers in the order of the old strides (project).
  llvm::SmallVector<unsigned> all;
  for (unsigned i = 0; i < dims.size(); ++i)
    all.push_back(i);
  return out.project(all);
}

llvm::SmallVector<LayoutField> FragmentLayout::threadFields(unsigned d) const {
  llvm::SmallVector<LayoutField> out;
  for (const LayoutField &f : dims[d])
    if (f.onThread)
      out.push_back(f);
  return out;
}

int64_t FragmentLayout::innerVectorWidth() const {
  if (dims.empty())
    return 1;
  for (const LayoutField &f : dims.back())
    if (!f.onThread && f.stride == 1 && f.scale == 1)
      return f.count;
  return 1;
}

bool FragmentLayout::isFullyReplicated() const {
  for (const auto &fields : dims)
    for (const LayoutField &f : fields)
      if (f.onThread && f.count > 1)
        return false;
  return true;
}

std::string FragmentLayout::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  for (unsigned d = 0; d < dims.size(); ++d) {
    if (d)
      os << "; ";
    os << shape[d] << ":";
    for (const LayoutField &f : dims[d])
      os << " " << (f.onThread ? "t" : "r") << "/" << f.stride << "%" << f.count << "*" << f.scale;
  }
  os << "] regs=" << numRegs;
  return s;
}

/// Largest power of two dividing both values (values >= 1).
static int64_t pow2Gcd(int64_t a, int64_t b) {
  int64_t g = std::gcd(a, b);
  int64_t p = 1;
  while (g % (p * 2) == 0)
    p *= 2;
  return p;
}

int64_t FragmentLayout::distinctThreads() const {
  int64_t n = 1;
  for (const auto &fields : dims)
    for (const LayoutField &f : fields)
      if (f.onThread)
        n *= f.count;
  return n;
}

bool FragmentLayout::replicationFields(llvm::SmallVectorImpl<LayoutField> &out) const {
  llvm::SmallVector<LayoutField> fields;
  for (const auto &d : dims)
    for (const LayoutField &f : d)
      if (f.onThread && f.count > 1)
        fields.push_back(f);
  llvm::sort(fields, [](const LayoutField &a, const LayoutField &b) { return a.stride < b.stride; });
  int64_t next = 1;
  auto gapUpTo = [&](int64_t stride) {
    if (stride % next != 0)
      return false;
    if (stride > next)
      out.push_back({true, next, stride / next, 0});
    return true;
  };
  for (const LayoutField &f : fields) {
    if (f.stride < next || !gapUpTo(f.stride))
      return false;
    next = f.stride * f.count;
  }
  if (numThreads < next || !gapUpTo(numThreads))
    return false;
  return true;
}

FragmentLayout FragmentLayout::canonical(llvm::ArrayRef<int64_t> shape, int64_t threads, int64_t vector,
                                         int64_t maxInnerThreads) {
  FragmentLayout l;
  l.shape.assign(shape.begin(), shape.end());
  l.numThreads = threads;
  l.dims.resize(shape.size());
  if (shape.empty())
    return l;
  int64_t threadStride = 1, regStride = 1, leftThreads = threads;
  // Register numbering: the inner vector first, then every dimension's
  // cycles from the innermost outwards. Thread digits innermost first.
  llvm::SmallVector<int64_t> vec(shape.size(), 1), thr(shape.size(), 1), rep(shape.size(), 1);
  for (int d = shape.size() - 1; d >= 0; --d) {
    int64_t e = std::max<int64_t>(shape[d], 1);
    vec[d] = d == (int)shape.size() - 1 ? pow2Gcd(e, std::max<int64_t>(vector, 1)) : 1;
    int64_t avail = leftThreads;
    if (d == (int)shape.size() - 1 && maxInnerThreads > 0)
      avail = std::min(avail, maxInnerThreads);
    thr[d] = pow2Gcd(e / vec[d], avail);
    leftThreads /= thr[d];
    rep[d] = e / (vec[d] * thr[d]);
  }
  int last = shape.size() - 1;
  if (vec[last] > 1) {
    l.dims[last].push_back({false, regStride, vec[last], 1});
    regStride *= vec[last];
  }
  for (int d = last; d >= 0; --d) {
    if (thr[d] > 1) {
      l.dims[d].push_back({true, threadStride, thr[d], vec[d]});
      threadStride *= thr[d];
    }
    if (rep[d] > 1) {
      l.dims[d].push_back({false, regStride, rep[d], vec[d] * thr[d]});
      regStride *= rep[d];
    }
  }
  l.numRegs = regStride;
  return l;
}

FragmentLayout FragmentLayout::mmaAccumulator(int64_t m, int64_t n, int64_t warpsM, int64_t warpsN) {
  FragmentLayout l;
  l.shape = {m, n};
  l.numThreads = 32 * warpsM * warpsN;
  int64_t wm = m / warpsM, wn = n / warpsN;
  int64_t mTiles = wm / 16, nTiles = wn / 8;
  l.dims.resize(2);
  // Rows: lane / 4, + 8 for registers 2 and 3, + 16 per m tile, + warp row.
  l.dims[0].push_back({true, 4, 8, 1});
  l.dims[0].push_back({false, 2, 2, 8});
  l.dims[0].push_back({false, 4 * nTiles, mTiles, 16});
  if (warpsM > 1)
    l.dims[0].push_back({true, 32 * warpsN, warpsM, wm});
  // Columns: 2 * (lane % 4), + 1 for odd registers, + 8 per n tile, + warp column.
  l.dims[1].push_back({false, 1, 2, 1});
  l.dims[1].push_back({true, 1, 4, 2});
  l.dims[1].push_back({false, 4, nTiles, 8});
  if (warpsN > 1)
    l.dims[1].push_back({true, 32, warpsN, wn});
  l.numRegs = 4 * mTiles * nTiles;
  return l;
}

static llvm::SmallVector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> st(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    st[d - 1] = st[d] * shape[d];
  return st;
}

std::optional<FragmentLayout> FragmentLayout::reshape(llvm::ArrayRef<int64_t> to) const {
  llvm::SmallVector<int64_t> from = rowMajorStrides(shape), toSt = rowMajorStrides(to);
  llvm::SmallVector<DimLayoutField> out;
  for (unsigned d = 0; d < dims.size(); ++d)
    for (const LayoutField &f : dims[d]) {
      if (f.count == 1)
        continue;
      if (f.scale == 0) {
        out.push_back({0, f});
        continue;
      }
      int64_t s = f.scale * from[d], k = f.count, stride = f.stride;
      while (k > 1) {
        unsigned e = 0;
        while (e < to.size() && !(s >= toSt[e] && s < toSt[e] * to[e]))
          ++e;
        if (e == to.size() || s % toSt[e] != 0)
          return std::nullopt;
        int64_t span = toSt[e] * to[e];
        if (s * k <= span) {
          out.push_back({e, {f.onThread, stride, k, s / toSt[e]}});
          break;
        }
        int64_t m = span / s;
        if (span % s != 0 || k % m != 0)
          return std::nullopt;
        out.push_back({e, {f.onThread, stride, m, s / toSt[e]}});
        stride *= m, k /= m, s = span;
      }
    }
  FragmentLayout v = fromFlatFields(to, numThreads, numRegs, out);
  // Each element of the base in bounds must stay inside every view dimension
  // (no field sum carrying into the next one).
  for (int64_t r = 0; r < numRegs; ++r) {
    llvm::SmallVector<int64_t> bi = regIndex(r), vi = v.regIndex(r);
    for (int64_t t = 0; t < numThreads; ++t) {
      bool inBounds = true;
      for (unsigned d = 0; d < dims.size(); ++d)
        inBounds &= bi[d] + threadIndex(d, t) < shape[d];
      for (unsigned e = 0; inBounds && e < to.size(); ++e)
        if (vi[e] + v.threadIndex(e, t) >= to[e])
          return std::nullopt;
    }
  }
  return v;
}
