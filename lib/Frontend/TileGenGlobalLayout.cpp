//===- TileGenGlobalLayout.cpp - T.Layout on global tensors ---------------===//
//
// tile-lang stores a global tensor annotated with a T.Layout in the layout's
// order: logical element `idx` lives at the row-major offset of `layout(idx)`
// in the layout's output shape (the FlashAttention backward kernels write dQ
// in the mma fragment's order this way and a post-processing kernel reads it
// back through the same layout). tilec does the same:
// 1. annotateGlobal calls the layout function on symbolic indices, giving a
//    size expression per output dimension; their bounds give the output
//    extents; every element is checked to land on its own place inside the
//    tensor (the layout is a permutation of the storage). An identity
//    layout changes nothing.
// 2. Each element access then goes to the element whose row-major offset in
//    the tensor's own shape is that place (remapIndices), guarded by the
//    logical index lying inside the tensor: a read outside gives 0, a write
//    outside is dropped, as for copies.
// 3. A copy with such a tensor on one side becomes a T.Parallel of element
//    moves over the copy's shape (emitLayoutCopy).
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/BitVector.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;
using Op = meta::SizeExpr::Op;

/// The most elements whose places annotateGlobal checks.
static constexpr int64_t kMaxCheckedElements = int64_t(1) << 24;

std::string tilec::detail::globalLayoutIndexName(unsigned k) { return "__ti" + std::to_string(k); }

/// The logical index a size-expression dimension stands for, or -1.
static int indexOfName(llvm::StringRef name) {
  unsigned k;
  if (!name.consume_front("__ti") || name.getAsInteger(10, k))
    return -1;
  return int(k);
}

namespace {
struct Interval {
  int64_t lo = 0, hi = 0;
};

/// Bounds of `e` over indices in [0, shape); nullopt when `e` uses something
/// else or divides by a non-constant. `why` names the problem.
std::optional<Interval> boundsOf(const meta::SizeExpr &e, llvm::ArrayRef<int64_t> shape, std::string &why) {
  switch (e.op) {
  case Op::Const:
    return Interval{e.constant, e.constant};
  case Op::Dim: {
    int k = indexOfName(e.name);
    if (k < 0 || k >= int(shape.size())) {
      why = "it uses the runtime dimension '" + e.name + "'";
      return std::nullopt;
    }
    return Interval{0, shape[k] - 1};
  }
  default:
    break;
  }
  std::optional<Interval> a = boundsOf(*e.lhs, shape, why), b = boundsOf(*e.rhs, shape, why);
  if (!a || !b)
    return std::nullopt;
  switch (e.op) {
  case Op::Add:
    return Interval{a->lo + b->lo, a->hi + b->hi};
  case Op::Sub:
    return Interval{a->lo - b->hi, a->hi - b->lo};
  case Op::Mul: {
    int64_t c[] = {a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi};
    return Interval{*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
  }
  case Op::FloorDiv:
  case Op::Mod:
    if (b->lo != b->hi || b->lo <= 0) {
      why = "it divides by something other than a positive constant";
      return std::nullopt;
    }
    if (e.op == Op::FloorDiv)
      return Interval{floorDiv(a->lo, b->lo), floorDiv(a->hi, b->lo)};
    return a->lo >= 0 && a->hi < b->lo ? *a : Interval{0, b->lo - 1};
  case Op::Min:
    return Interval{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
  case Op::Max:
    return Interval{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
  default:
    return std::nullopt;
  }
}

int64_t evalAt(const meta::SizeExpr &e, llvm::ArrayRef<int64_t> idx) {
  switch (e.op) {
  case Op::Const:
    return e.constant;
  case Op::Dim:
    return idx[indexOfName(e.name)];
  default:
    break;
  }
  int64_t a = evalAt(*e.lhs, idx), b = evalAt(*e.rhs, idx);
  switch (e.op) {
  case Op::Add:
    return a + b;
  case Op::Sub:
    return a - b;
  case Op::Mul:
    return a * b;
  case Op::FloorDiv:
    return floorDiv(a, b);
  case Op::Mod:
    return a - floorDiv(a, b) * b;
  case Op::Min:
    return std::min(a, b);
  case Op::Max:
    return std::max(a, b);
  default:
    return 0;
  }
}
} // namespace

bool KernelGen::annotateGlobal(BufferInfo *buf, const ConstValue &fn, llvm::SMRange range) {
  auto fail = [&](const std::string &why) {
    diags.emit(DiagID::sema_layout_unrepresentable, range, buf->name, why);
    return false;
  };
  if (llvm::any_of(buf->shape, mlir::ShapedType::isDynamic))
    return fail("tilec places the elements of a global tensor with a T.Layout only for static shapes, and " +
                buf->shapeStr() + " has runtime dimensions");
  // 1. The layout on symbolic indices.
  meta::CallArgs args;
  args.range = args.calleeRange = range;
  for (unsigned k = 0; k < buf->rank(); ++k)
    args.args.push_back(meta::Value::ofDynamic(globalLayoutIndexName(k))), args.argRanges.push_back(range);
  ConstValue r = info.interp->call(fn, args);
  if (!r.isValid())
    return false;
  std::vector<ConstValue> outs =
      r.isSequence() ? std::vector<ConstValue>(r.getElts().begin(), r.getElts().end()) : std::vector<ConstValue>{r};
  auto layout = std::make_shared<GlobalLayout>();
  for (const ConstValue &o : outs) {
    meta::SizeRef s = (o.isIntLike() || o.is(meta::Value::Kind::Dynamic)) ? meta::toSize(o) : nullptr;
    if (!s)
      return fail("the layout function returned " + o.describe() +
                  " for an output dimension; on a global tensor tilec takes integer arithmetic (+ - * // % min max) "
                  "of the indices");
    std::string why;
    std::optional<Interval> iv = boundsOf(*s, buf->shape, why);
    if (!iv)
      return fail("output " + std::to_string(layout->outputs.size()) + " has no bounds tilec can compute: " + why);
    if (iv->lo < 0)
      return fail("output " + std::to_string(layout->outputs.size()) + " can be negative");
    layout->outputs.push_back(s);
    layout->extents.push_back(iv->hi + 1);
  }
  // Every element on its own place inside the tensor.
  int64_t numel = 1;
  for (int64_t d : buf->shape)
    numel *= d;
  if (numel > kMaxCheckedElements)
    return fail("the tensor has " + std::to_string(numel) + " elements, more than the " +
                std::to_string(kMaxCheckedElements) + " tilec checks a layout on");
  llvm::BitVector seen(numel);
  llvm::SmallVector<int64_t> idx(buf->rank(), 0);
  bool identity = true;
  for (int64_t e = 0; e < numel; ++e) {
    int64_t off = 0;
    for (size_t k = 0; k < layout->outputs.size(); ++k)
      off = off * layout->extents[k] + evalAt(*layout->outputs[k], idx);
    if (off < 0 || off >= numel || seen.test(off))
      return fail(off >= numel ? "it places elements outside the tensor's " + std::to_string(numel) + " elements"
                               : "it places two elements at the same offset " + std::to_string(off));
    seen.set(off);
    identity &= off == e;
    for (int d = int(buf->rank()) - 1; d >= 0 && ++idx[d] == buf->shape[d]; --d)
      idx[d] = 0;
  }
  if (!identity)
    buf->layout = std::move(layout);
  return true;
}

mlir::Value KernelGen::inBounds(BufferInfo *buf, llvm::ArrayRef<mlir::Value> idx, llvm::SMRange range) {
  mlir::Location l = loc(range);
  mlir::Value ok;
  for (unsigned d = 0; d < idx.size(); ++d) {
    mlir::Value size = mlir::ShapedType::isDynamic(buf->shape[d])
                           ? mlir::Value(mlir::memref::DimOp::create(b, l, buf->value, d))
                           : indexConst(buf->shape[d], range);
    mlir::Value in = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, idx[d], size);
    ok = ok ? arith::AndIOp::create(b, l, ok, in).getResult() : in;
  }
  return ok ? ok : arith::ConstantIntOp::create(b, l, 1, 1).getResult();
}

mlir::Value KernelGen::remapIndices(BufferInfo *buf, llvm::SmallVectorImpl<mlir::Value> &idx, llvm::SMRange range) {
  if (!buf->layout)
    return {};
  mlir::Location l = loc(range);
  mlir::Value ok = inBounds(buf, idx, range);
  // The physical offset, with the indices standing in for the layout's names.
  for (unsigned k = 0; k < idx.size(); ++k)
    dynamicDims[globalLayoutIndexName(k)] = idx[k];
  mlir::Value off;
  for (size_t k = 0; k < buf->layout->outputs.size(); ++k) {
    TValue o = lowerSize(*buf->layout->outputs[k], range);
    mlir::Value v = o.isValid() ? o.value : indexConst(0, range);
    off = off ? arith::AddIOp::create(b, l,
                                      arith::MulIOp::create(b, l, off, indexConst(buf->layout->extents[k], range)), v)
                    .getResult()
              : v;
  }
  for (unsigned k = 0; k < idx.size(); ++k)
    dynamicDims.erase(globalLayoutIndexName(k));
  // The element at that offset in the tensor's own (row-major) shape; index
  // 0 when the logical index is outside.
  mlir::Value zero = indexConst(0, range);
  off = arith::SelectOp::create(b, l, ok, off, zero);
  for (int d = int(idx.size()) - 1; d >= 0; --d) {
    mlir::Value size = indexConst(buf->shape[d], range);
    idx[d] = d == 0 ? off : arith::RemUIOp::create(b, l, off, size).getResult();
    if (d > 0)
      off = arith::DivUIOp::create(b, l, off, size);
  }
  return ok;
}

mlir::Value KernelGen::loadRemapped(BufferInfo *buf, llvm::ArrayRef<mlir::Value> idx, llvm::SMRange range) {
  mlir::Location l = loc(range);
  llvm::SmallVector<mlir::Value, 4> phys(idx.begin(), idx.end());
  mlir::Value ok = remapIndices(buf, phys, range);
  mlir::Value v = mlir::memref::LoadOp::create(b, l, buf->value, phys);
  auto zero = arith::ConstantOp::create(b, l, llvm::cast<mlir::TypedAttr>(b.getZeroAttr(v.getType())));
  return arith::SelectOp::create(b, l, ok, v, zero);
}

void KernelGen::guardedForLayout(BufferInfo *buf, llvm::SmallVectorImpl<mlir::Value> &idx, llvm::SMRange range,
                                 llvm::function_ref<void()> emit) {
  if (!buf->layout)
    return emit();
  mlir::Value ok = remapIndices(buf, idx, range);
  auto ifOp = mlir::scf::IfOp::create(b, loc(range), ok, /*withElseRegion=*/false);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  emit();
}

void KernelGen::emitLayoutCopy(Region &src, Region &dst, llvm::SMRange range) {
  mlir::Location l = loc(range);
  llvm::SmallVector<int64_t> extents;
  for (int64_t s : *src.sizes)
    if (s != 1)
      extents.push_back(s);
  if (extents.empty())
    extents.push_back(1);
  auto par = tile::ParallelOp::create(b, l, extents);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(par.getBodyBlock()->getTerminator());
  auto ivs = par.getInductionVars();
  // Dimension d of a side: its offset, plus the next loop index where the
  // extent is not 1 (the index alone where the offset is 0, so that layout
  // inference sees a fragment accessed at the loop's indices).
  auto indices = [&](Region &r) {
    llvm::SmallVector<mlir::Value, 4> idx;
    unsigned next = 0;
    for (size_t d = 0; d < r.buffer->rank(); ++d) {
      if ((*r.sizes)[d] == 1 || next >= ivs.size()) {
        idx.push_back(r.offsets[d]);
        continue;
      }
      mlir::Value iv = ivs[next++];
      auto c = r.offsets[d].getDefiningOp<arith::ConstantIndexOp>();
      idx.push_back(c && c.value() == 0 ? iv : arith::AddIOp::create(b, l, r.offsets[d], iv).getResult());
    }
    return idx;
  };
  llvm::SmallVector<mlir::Value, 4> si = indices(src), di = indices(dst);
  mlir::Value v;
  if (src.buffer->layout)
    v = loadRemapped(src.buffer, si, range);
  else if (src.buffer->scope == tile::Scope::Global) {
    mlir::Value ok = inBounds(src.buffer, si, range);
    for (mlir::Value &i : si)
      i = arith::SelectOp::create(b, l, ok, i, indexConst(0, range));
    mlir::Value x = mlir::memref::LoadOp::create(b, l, src.buffer->value, si);
    auto zero = arith::ConstantOp::create(b, l, llvm::cast<mlir::TypedAttr>(b.getZeroAttr(x.getType())));
    v = arith::SelectOp::create(b, l, ok, x, zero);
  } else
    v = mlir::memref::LoadOp::create(b, l, src.buffer->value, si);
  TValue c = convert(TValue::ofScalar(v, src.buffer->dtype), dst.buffer->dtype, range);
  if (!c.isValid())
    return;
  if (dst.buffer->layout || dst.buffer->scope != tile::Scope::Global) {
    guardedForLayout(dst.buffer, di, range,
                     [&] { mlir::memref::StoreOp::create(b, l, c.value, dst.buffer->value, di); });
    return;
  }
  auto ifOp = mlir::scf::IfOp::create(b, l, inBounds(dst.buffer, di, range), /*withElseRegion=*/false);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  mlir::memref::StoreOp::create(b, l, c.value, dst.buffer->value, di);
}
