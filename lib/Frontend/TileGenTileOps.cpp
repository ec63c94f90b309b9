//===- TileGenTileOps.cpp - Block-collective tile operations -------------===//
//
// T.copy (regions and the element-means-other-extent rule), T.gemm,
// T.fill/T.clear, reductions, T.cumsum, T.atomic_add, T.print,
// T.use_swizzle and T.annotate_layout, each checked before it is built.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

static std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

static llvm::SmallVector<int64_t, 4> squeeze(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> out;
  for (int64_t d : shape)
    if (d != 1)
      out.push_back(d);
  return out;
}

bool KernelGen::evalRegion(const Expr *e, Region &out) {
  out.range = e->getRange();
  if (auto *sub = llvm::dyn_cast<SubscriptExpr>(e)) {
    TValue base = eval(sub->getValue());
    if (!base.isValid())
      return false;
    if (!base.isBuffer()) {
      diags.emit(DiagID::sema_not_buffer, sub->getValue()->getRange(), base.describe());
      return false;
    }
    BufferInfo *buf = base.buffer;
    out.buffer = buf;
    llvm::ArrayRef<Expr *> indices = sub->getIndices();
    if (indices.size() != buf->rank()) {
      diags.emit(DiagID::sema_index_count, e->getRange(), buf->name, buf->rank(), indices.size(),
                 indices.size() == 1 ? "" : "s");
      return false;
    }
    bool anySlice = llvm::any_of(indices, [](const Expr *i) { return llvm::isa<SliceExpr>(i); });
    llvm::SmallVector<int64_t, 4> sizes;
    for (size_t d = 0; d < indices.size(); ++d) {
      auto *slice = llvm::dyn_cast<SliceExpr>(indices[d]);
      if (!slice) {
        TValue v = eval(indices[d]);
        if (!v.isValid())
          return false;
        mlir::Value idx = toIndex(v, indices[d]->getRange());
        if (!idx)
          return false;
        out.offsets.push_back(idx);
        sizes.push_back(1);
        continue;
      }
      if (slice->getStep()) {
        TValue st = eval(slice->getStep());
        if (!st.isValid())
          return false;
        if (!st.isConst() || !st.cst.isInt() || st.cst.getInt() != 1) {
          diags.emit(DiagID::sema_slice_step, slice->getStep()->getRange());
          return false;
        }
      }
      TValue lo = slice->getLower() ? eval(slice->getLower()) : TValue::ofConst(ConstValue::ofInt(0));
      if (!lo.isValid())
        return false;
      TValue hi;
      if (slice->getUpper()) {
        hi = eval(slice->getUpper());
        if (!hi.isValid())
          return false;
      } else if (mlir::ShapedType::isDynamic(buf->shape[d])) {
        diags.emit(DiagID::sema_slice_extent, slice->getRange(),
                   llvm::StringRef(slice->getRange().Start.getPointer(),
                                   slice->getRange().End.getPointer() - slice->getRange().Start.getPointer()));
        return false;
      } else {
        hi = TValue::ofConst(ConstValue::ofInt(buf->shape[d]));
      }
      std::optional<LinearForm> lf = linOf(lo), hf = linOf(hi);
      std::optional<LinearForm> ext = lf && hf ? hf->sub(*lf) : std::nullopt;
      if (!ext || !ext->isConstant()) {
        diags.emit(DiagID::sema_slice_extent, slice->getRange(),
                   llvm::StringRef(slice->getRange().Start.getPointer(),
                                   slice->getRange().End.getPointer() - slice->getRange().Start.getPointer()));
        return false;
      }
      if (ext->constant <= 0) {
        diags.emit(DiagID::sema_slice_empty, slice->getRange(), d, ext->constant);
        return false;
      }
      mlir::Value idx = toIndex(lo, slice->getLower() ? slice->getLower()->getRange() : slice->getRange());
      if (!idx)
        return false;
      out.offsets.push_back(idx);
      sizes.push_back(ext->constant);
    }
    if (anySlice)
      out.sizes = sizes;
    return true;
  }
  TValue v = eval(e);
  if (!v.isValid())
    return false;
  if (!v.isBuffer() || v.buffer->isVar) {
    diags.emit(DiagID::sema_not_buffer, e->getRange(), v.describe());
    return false;
  }
  out.buffer = v.buffer;
  llvm::SmallVector<int64_t, 4> sizes;
  for (size_t d = 0; d < v.buffer->rank(); ++d) {
    if (mlir::ShapedType::isDynamic(v.buffer->shape[d])) {
      diags.emit(DiagID::sema_slice_extent, e->getRange(), v.buffer->dimNames[d]);
      return false;
    }
    sizes.push_back(v.buffer->shape[d]);
    out.offsets.push_back(indexConst(0, e->getRange()));
  }
  out.sizes = sizes;
  return true;
}

/// Sizes for an element region of rank `rank` taking the extent `other`.
static std::optional<llvm::SmallVector<int64_t, 4>> fitExtent(llvm::ArrayRef<int64_t> other, unsigned rank) {
  llvm::SmallVector<int64_t, 4> e(other.begin(), other.end());
  while (e.size() > rank && e.front() == 1)
    e.erase(e.begin());
  if (e.size() > rank)
    e = squeeze(e);
  if (e.size() > rank)
    return std::nullopt;
  while (e.size() < rank)
    e.insert(e.begin(), 1);
  return e;
}

void KernelGen::genCopy(const BoundCall &call) {
  Region src, dst;
  if (!evalRegion(call.get("src"), src) || !evalRegion(call.get("dst"), dst))
    return;
  argFailed = false;
  if (call.get("coalesced_width"))
    constIntArg(call, "coalesced_width");
  constBoolArg(call, "disable_tma");
  if (argFailed)
    return;
  emitCopy(src, dst, call.call->getRange());
}

void KernelGen::emitCopy(Region &src, Region &dst, llvm::SMRange range) {
  if (!src.sizes && !dst.sizes) {
    diags.emit(DiagID::sema_copy_no_extent, range);
    return;
  }
  if (!src.sizes || !dst.sizes) {
    Region &open = src.sizes ? dst : src;
    Region &given = src.sizes ? src : dst;
    auto fitted = fitExtent(*given.sizes, open.buffer->rank());
    if (!fitted) {
      diags.emit(DiagID::sema_copy_rank_mismatch, open.range, shapeText(*given.sizes), open.buffer->rank());
      return;
    }
    open.sizes = *fitted;
  }
  if (squeeze(*src.sizes) != squeeze(*dst.sizes)) {
    diags.emit(DiagID::sema_copy_shape_mismatch, range, shapeText(*src.sizes), shapeText(*dst.sizes));
    return;
  }
  // Constant regions must fit non-global buffers (global accesses are masked).
  for (Region *r : {&src, &dst}) {
    if (r->buffer->scope == tile::Scope::Global)
      continue;
    for (size_t d = 0; d < r->buffer->rank(); ++d) {
      auto c = r->offsets[d].getDefiningOp<mlir::arith::ConstantIndexOp>();
      int64_t size = r->buffer->shape[d];
      if (c && c.value() + (*r->sizes)[d] > size) {
        diags.emit(DiagID::sema_index_out_of_bounds, r->range, c.value() + (*r->sizes)[d] - 1, d, r->buffer->name,
                   size);
        return;
      }
    }
  }
  if (src.buffer->layout || dst.buffer->layout)
    return emitLayoutCopy(src, dst, range);
  tile::CopyOp::create(b, loc(range), src.buffer->value, src.offsets, *src.sizes, dst.buffer->value, dst.offsets,
                       *dst.sizes);
}

void KernelGen::genGemm(const BoundCall &call) {
  argFailed = false;
  // clear_accum is a constant, or a runtime condition (`clear_accum=(k == 0)`):
  // then C is cleared under it and the gemm accumulates.
  mlir::Value clearCond;
  if (const Expr *ce = call.get("clear_accum")) {
    TValue cv = eval(ce);
    if (!cv.isValid())
      return;
    if (!cv.isConst() && !cv.isBuffer()) {
      cv = toBool(cv, ce->getRange());
      if (!cv.isValid())
        return;
      clearCond = cv.value;
    }
  }
  std::optional<bool> clear = clearCond ? std::optional<bool>(false) : constBoolArg(call, "clear_accum");
  if (!clear)
    return;
  llvm::SmallVector<RegionWriteBack, 1> writeBacks;
  BufferInfo *A = regionArg(call, "A", RegionUse::Read, writeBacks);
  BufferInfo *B = regionArg(call, "B", RegionUse::Read, writeBacks);
  BufferInfo *C = regionArg(call, "C", *clear ? RegionUse::Write : RegionUse::ReadWrite, writeBacks);
  std::optional<bool> ta = constBoolArg(call, "transpose_A");
  std::optional<bool> tb = constBoolArg(call, "transpose_B");
  std::optional<int64_t> kPack = constIntArg(call, "k_pack");
  constIntArg(call, "wg_wait");
  std::optional<tile::GemmPolicy> policy = gemmPolicyArg(call);
  if (!policy)
    return;
  if (argFailed || !A || !B || !C || !ta || !tb || !clear || !kPack)
    return;
  if (*kPack < 1) {
    diags.emit(DiagID::sema_positive_const, call.rangeOf("k_pack"), "k_pack", *kPack);
    return;
  }
  struct Operand {
    const char *name;
    BufferInfo *buf;
  } ops[] = {{"A", A}, {"B", B}, {"C", C}};
  for (const Operand &o : ops)
    if (o.buf->rank() != 2 || o.buf->isVar) {
      diags.emit(DiagID::sema_gemm_rank, call.rangeOf(o.name), o.name, o.buf->shapeStr());
      return;
    }
  using S = tile::Scope;
  if (!checkScope(A, {S::Shared, S::Fragment}, "T.gemm operand A", call.rangeOf("A")) ||
      !checkScope(B, {S::Shared, S::Fragment}, "T.gemm operand B", call.rangeOf("B")) ||
      !checkScope(C, {S::Fragment}, "T.gemm operand C", call.rangeOf("C")))
    return;
  int64_t M = *ta ? A->shape[1] : A->shape[0], K = *ta ? A->shape[0] : A->shape[1];
  int64_t Kb = *tb ? B->shape[1] : B->shape[0], N = *tb ? B->shape[0] : B->shape[1];
  std::string why;
  if (K != Kb)
    why = llvm::formatv("K of A is {0} but K of B is {1}", K, Kb).str();
  else if (C->shape[0] != M)
    why = llvm::formatv("C has {0} rows but op(A) has M = {1}", C->shape[0], M).str();
  else if (C->shape[1] != N)
    why = llvm::formatv("C has {0} columns but op(B) has N = {1}", C->shape[1], N).str();
  if (!why.empty()) {
    diags.emit(DiagID::sema_gemm_shape_mismatch, call.call->getRange(), A->shapeStr(), B->shapeStr(), C->shapeStr(),
               why);
    return;
  }
  if (clearCond) {
    TValue zero = implicitCast(TValue::ofConst(ConstValue::ofInt(0)), C->dtype, "buffer '" + C->name + "'",
                               call.rangeOf("clear_accum"));
    if (!zero.isValid())
      return;
    mlir::Location cl = loc(call.rangeOf("clear_accum"));
    auto ifOp = mlir::scf::IfOp::create(b, cl, clearCond, /*withElseRegion=*/false);
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    tile::FillOp::create(b, cl, C->value, zero.value);
  }
  tile::GemmOp::create(b, loc(call.call->getRange()), A->value, B->value, C->value, *ta, *tb, *policy, *clear,
                       uint64_t(*kPack));
  flushWriteBacks(writeBacks);
}

std::optional<int64_t> KernelGen::normalizeDim(const BoundCall &call, int64_t dim, int64_t rank) {
  int64_t d = dim < 0 ? dim + rank : dim;
  if (d < 0 || d >= rank) {
    diags.emit(DiagID::sema_dim_out_of_range, call.rangeOf("dim"), dim, rank);
    return std::nullopt;
  }
  return d;
}

void KernelGen::genReduce(const BoundCall &call) {
  argFailed = false;
  std::optional<int64_t> dim = constIntArg(call, "dim");
  std::optional<bool> clear = constBoolArg(call, "clear");
  if (argFailed || !dim || !clear)
    return;
  llvm::SmallVector<RegionWriteBack, 1> writeBacks;
  BufferInfo *src = regionArg(call, "buffer", RegionUse::Read, writeBacks);
  BufferInfo *dst = regionArg(call, "out", *clear ? RegionUse::Write : RegionUse::ReadWrite, writeBacks);
  if (!src || !dst)
    return;
  std::optional<int64_t> nd = normalizeDim(call, *dim, src->rank());
  if (!nd)
    return;
  int64_t d = *nd;
  llvm::SmallVector<int64_t, 4> expected(src->shape.begin(), src->shape.end());
  expected.erase(expected.begin() + d);
  // tile-lang's usual form of a full 1-D reduction: a (1,) destination.
  bool unitDst = expected.empty() && dst->rank() == 1 && dst->shape[0] == 1 && !dst->isVar;
  if (!unitDst && llvm::ArrayRef<int64_t>(expected) != llvm::ArrayRef<int64_t>(dst->shape)) {
    diags.emit(DiagID::sema_reduce_shape_mismatch, call.call->getRange(), call.info->name, src->shapeStr(), d,
               expected.empty() ? "[] (or [1])" : shapeText(expected), dst->shapeStr());
    return;
  }
  mlir::Value srcValue = src->value;
  if (src->dtype != dst->dtype) {
    // A wider destination (bfloat16 into float32): the source is converted
    // first, as tile-lang reduces in the destination's dtype.
    if (src->shape.empty() || llvm::any_of(src->shape, mlir::ShapedType::isDynamic) ||
        !conversionLoss(src->dtype, dst->dtype).empty()) {
      diags.emit(DiagID::sema_reduce_narrowing, call.call->getRange(), call.info->name, dtypeName(src->dtype),
                 dtypeName(dst->dtype));
      return;
    }
    mlir::Location l = loc(call.call->getRange());
    tile::Scope scope = src->scope == tile::Scope::Global ? tile::Scope::Fragment : src->scope;
    {
      // Allocated at the top of the launch, as the kernel's own buffers are.
      mlir::OpBuilder::InsertionGuard top(b);
      b.setInsertionPointToStart(launch.getBodyBlock());
      srcValue = createAlloc(l, src->shape, dst->dtype, scope);
    }
    // Element-wise, as a T.Parallel, so that layout inference gives both
    // fragments one layout.
    auto par = tile::ParallelOp::create(b, l, llvm::ArrayRef<int64_t>(src->shape));
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(par.getBodyBlock()->getTerminator());
    mlir::ValueRange idx = par.getInductionVars();
    TValue v = TValue::ofScalar(mlir::memref::LoadOp::create(b, l, src->value, idx), src->dtype);
    v = convert(v, dst->dtype, call.call->getRange());
    mlir::memref::StoreOp::create(b, l, v.value, srcValue, idx);
  }
  tile::ReduceKind kind;
  switch (call.info->id) {
  case BuiltinID::ReduceMax:
    kind = tile::ReduceKind::Max;
    break;
  case BuiltinID::ReduceMin:
    kind = tile::ReduceKind::Min;
    break;
  case BuiltinID::ReduceSum:
    kind = tile::ReduceKind::Sum;
    break;
  case BuiltinID::ReduceAbsSum:
    kind = tile::ReduceKind::AbsSum;
    break;
  default:
    kind = tile::ReduceKind::AbsMax;
    break;
  }
  mlir::Location l = loc(call.call->getRange());
  if (!unitDst) {
    tile::ReduceOp::create(b, l, kind, srcValue, dst->value, uint64_t(d), *clear);
    flushWriteBacks(writeBacks);
    return;
  }
  // Normalised to the one form the lowerings know, a rank-0 destination: the
  // reduction goes into a rank-0 buffer of dst's scope, which takes dst's old
  // value first (clear=False) and gives its result back, element-wise. Only
  // kernel arguments live in global memory: a global dst reduces through a
  // local buffer.
  tile::Scope scalarScope = dst->scope == tile::Scope::Global ? tile::Scope::Local : dst->scope;
  mlir::Value scalar = createAlloc(l, {}, dst->dtype, scalarScope);
  // unitCopy(from, to, fromDst): dst[0] -> scalar[] or scalar[] -> dst[0].
  auto unitCopy = [&](mlir::Value from, mlir::Value to, bool fromDst) {
    auto par = tile::ParallelOp::create(b, l, llvm::ArrayRef<int64_t>{1});
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(par.getBodyBlock()->getTerminator());
    mlir::Value element[] = {par.getInductionVars()[0]};
    mlir::ValueRange dstIdx(element), scalarIdx;
    mlir::Value v = mlir::memref::LoadOp::create(b, l, from, fromDst ? dstIdx : scalarIdx);
    mlir::memref::StoreOp::create(b, l, v, to, fromDst ? scalarIdx : dstIdx);
  };
  if (!*clear)
    unitCopy(dst->value, scalar, true);
  tile::ReduceOp::create(b, l, kind, srcValue, scalar, uint64_t(d), *clear);
  unitCopy(scalar, dst->value, false);
  flushWriteBacks(writeBacks);
}

void KernelGen::genCumSum(const BoundCall &call) {
  argFailed = false;
  std::optional<int64_t> dim = constIntArg(call, "dim");
  std::optional<bool> reverse = constBoolArg(call, "reverse");
  if (argFailed || !dim || !reverse)
    return;
  // Without dst the scan is in place: a src region is read and written back.
  llvm::SmallVector<RegionWriteBack, 1> writeBacks;
  bool inPlace = !call.get("dst");
  BufferInfo *src = regionArg(call, "src", inPlace ? RegionUse::ReadWrite : RegionUse::Read, writeBacks);
  BufferInfo *dst = inPlace ? src : regionArg(call, "dst", RegionUse::Write, writeBacks);
  if (!src || !dst)
    return;
  std::optional<int64_t> nd = normalizeDim(call, *dim, src->rank());
  if (!nd)
    return;
  int64_t d = *nd;
  if (src->shape != dst->shape) {
    diags.emit(DiagID::sema_copy_shape_mismatch, call.call->getRange(), src->shapeStr(), dst->shapeStr());
    return;
  }
  tile::CumsumOp::create(b, loc(call.call->getRange()), src->value, dst->value, uint64_t(d), *reverse);
  flushWriteBacks(writeBacks);
}

bool KernelGen::atomicOrderArg(const BoundCall &call) {
  // The atomics are relaxed, so only that order is taken.
  std::optional<std::string> order = constStrArg(call, "memory_order");
  if (!order)
    return false;
  if (*order != "relaxed") {
    diags.emit(DiagID::meta_error, call.rangeOf("memory_order"),
               "memory_order='" + *order +
                   "' is not supported: tilec's atomics are relaxed "
                   "(memory_order='relaxed'); order other accesses with a barrier");
    return false;
  }
  return true;
}

void KernelGen::genAtomicAdd(const BoundCall &call) {
  Region dst;
  if (!evalRegion(call.get("dst"), dst))
    return;
  using S = tile::Scope;
  if (!checkScope(dst.buffer, {S::Global, S::Shared}, "T.atomic_add destination", call.rangeOf("dst")))
    return;
  // use_tma is an engine hint (the target picks how the adds are issued;
  // results are the same). return_prev=True in a statement drops the value.
  if (!atomicOrderArg(call) || !constBoolArg(call, "return_prev"))
    return;
  const Expr *ve = call.get("value");
  TValue v = eval(ve);
  if (!v.isValid())
    return;
  mlir::Location l = loc(call.call->getRange());
  if (v.isBuffer() && !v.buffer->isVar) {
    BufferInfo *vb = v.buffer;
    if (dst.sizes && squeeze(*dst.sizes) != squeeze(vb->shape)) {
      diags.emit(DiagID::sema_copy_shape_mismatch, call.call->getRange(), vb->shapeStr(), shapeText(*dst.sizes));
      return;
    }
    // The region form adds the value into dst's trailing dimensions; a value
    // whose dimensions are other ones of the region (tile-lang matches them
    // after dropping unit dimensions) is added element by element.
    if (vb->rank() > dst.buffer->rank() ||
        (dst.sizes && vb->rank() < dst.buffer->rank() &&
         llvm::ArrayRef<int64_t>(*dst.sizes).take_back(vb->rank()) != llvm::ArrayRef<int64_t>(vb->shape))) {
      emitSpreadAtomicAdd(dst, vb, call.call->getRange());
      return;
    }
    if (vb->rank() != dst.buffer->rank() && !dst.sizes) {
      diags.emit(DiagID::sema_copy_rank_mismatch, ve->getRange(), vb->shapeStr(), dst.buffer->rank());
      return;
    }
    // Through a global tensor's T.Layout: element atomic adds at the
    // elements it places the region's indices at.
    // A value of lower rank than the region (tile-lang drops the region's
    // leading unit dimensions) is added element by element as well.
    if (dst.sizes && (dst.buffer->layout || vb->rank() != dst.buffer->rank())) {
      emitSpreadAtomicAdd(dst, vb, call.call->getRange());
      return;
    }
    if (dst.buffer->layout) {
      diags.emit(DiagID::not_supported_yet, call.rangeOf("dst"),
                 "a T.atomic_add of a buffer at an element of a tensor with a T.Layout (name the region: dst[i0:i0 + "
                 "m, j0:j0 + n])");
      return;
    }
    tile::AtomicAddOp::create(b, l, dst.buffer->value, dst.offsets, vb->value);
    return;
  }
  if (dst.sizes && llvm::any_of(*dst.sizes, [](int64_t s) { return s != 1; })) {
    diags.emit(DiagID::sema_wrong_arg_kind, ve->getRange(), "value", "T.atomic_add",
               "a buffer for a region destination", v.describe());
    return;
  }
  v = v.isBuffer() ? TValue::ofScalar(loadElement(v.buffer, {}, ve->getRange()), v.buffer->dtype) : v;
  v = implicitCast(v, dst.buffer->dtype, "buffer '" + dst.buffer->name + "'", ve->getRange());
  if (!v.isValid())
    return;
  guardedForLayout(dst.buffer, dst.offsets, call.rangeOf("dst"),
                   [&] { tile::AtomicAddOp::create(b, l, dst.buffer->value, dst.offsets, v.value); });
}

void KernelGen::genAnnotateLayout(const BoundCall &call) {
  auto *dict = llvm::dyn_cast<DictExpr>(call.get("layout_map"));
  if (!dict) {
    diags.emit(DiagID::sema_annotate_layout, call.rangeOf("layout_map"));
    return;
  }
  for (size_t k = 0; k < dict->getKeys().size() && k < dict->getValues().size(); ++k) {
    TValue key = eval(dict->getKeys()[k]);
    TValue value = eval(dict->getValues()[k]);
    if (!key.isValid() || !value.isValid())
      return;
    if (key.isBuffer() && value.isConst()) {
      if (!annotateWithObject(key.buffer, value.cst, dict->getValues()[k]->getRange()))
        return;
      continue;
    }
    if (!key.isBuffer() || value.kind != TValue::Kind::Layout || value.buffer != key.buffer) {
      diags.emit(DiagID::sema_annotate_layout,
                 llvm::SMRange(dict->getKeys()[k]->getRange().Start, dict->getValues()[k]->getRange().End));
      return;
    }
    BufferInfo *buf = key.buffer;
    if (!checkScope(buf, {tile::Scope::Shared}, "a swizzled layout's buffer", dict->getKeys()[k]->getRange()))
      return;
    // tile-lang's MMA swizzle (or, where rows are too short, the identity):
    // a shared-memory layout hint; tilec keeps its own (docs/differences.md).
    if (value.layoutHint)
      continue;
    int64_t rowBytes = buf->rank() >= 2 ? buf->shape.back() * int64_t(dtypeBits(buf->dtype)) / 8 : 0;
    unsigned bytes = rowBytes % 128 == 0 && rowBytes > 0  ? 128
                     : rowBytes % 64 == 0 && rowBytes > 0 ? 64
                     : rowBytes % 32 == 0 && rowBytes > 0 ? 32
                                                          : 0;
    if (!bytes) {
      diags.emit(DiagID::sema_wrong_arg_kind, dict->getValues()[k]->getRange(), "buffer", "T.make_swizzled_layout",
                 "a shared buffer of rank >= 2 whose rows are a multiple of 32 bytes", buf->shapeStr());
      return;
    }
    tile::AnnotateLayoutOp::create(b, loc(call.call->getRange()), buf->value,
                                   tile::SwizzledAttr::get(b.getContext(), bytes));
  }
}

void KernelGen::genTileStmt(const BoundCall &call) {
  mlir::Location l = loc(call.call->getRange());
  switch (call.info->id) {
  case BuiltinID::Copy:
    return genCopy(call);
  case BuiltinID::Gemm:
    return genGemm(call);
  case BuiltinID::ReduceMax:
  case BuiltinID::ReduceMin:
  case BuiltinID::ReduceSum:
  case BuiltinID::ReduceAbsSum:
  case BuiltinID::ReduceAbsMax:
    return genReduce(call);
  case BuiltinID::CumSum:
    return genCumSum(call);
  case BuiltinID::FinalizeReducer:
    return genFinalizeReducer(call);
  case BuiltinID::AtomicAdd:
    return genAtomicAdd(call);
  case BuiltinID::AtomicMax:
  case BuiltinID::AtomicMin:
    evalAtomicAddPrev(call, /*asValue=*/false);
    return;
  case BuiltinID::AtomicAddX2:
    return genAtomicAddVec(call, 2);
  case BuiltinID::AtomicAddX4:
    return genAtomicAddVec(call, 4);
  case BuiltinID::AnnotateLayout:
    return genAnnotateLayout(call);
  case BuiltinID::BarrierArrive:
  case BuiltinID::BarrierWait:
  case BuiltinID::TmaCopy:
  case BuiltinID::WgmmaGemm:
  case BuiltinID::WaitWgmma:
  case BuiltinID::SetMaxNReg:
  case BuiltinID::IncMaxNReg:
  case BuiltinID::DecMaxNReg:
  case BuiltinID::NoSetMaxNReg:
  case BuiltinID::AnnotateRegAlloc:
  case BuiltinID::AnnotateL2HitRatio:
  case BuiltinID::FenceProxyAsync:
    return genWarpSpecStmt(call);
  case BuiltinID::Fill:
  case BuiltinID::Clear: {
    argFailed = false;
    // `T.clear(v)` of a T.alloc_var names the variable, not its value.
    BufferInfo *buf = nullptr;
    if (auto *n = llvm::dyn_cast<NameExpr>(call.get("buffer")))
      if (LocalVar *var = lookupLocal(n->getName()); var && var->isBound() && var->value.isBuffer())
        buf = var->value.buffer;
    // `T.fill(s[0], v)`: the one-element region at those indices, a store.
    if (auto *sub = llvm::dyn_cast<SubscriptExpr>(call.get("buffer"));
        !buf && sub && llvm::none_of(sub->getIndices(), [](const Expr *i) { return llvm::isa<SliceExpr>(i); })) {
      TValue v = call.info->id == BuiltinID::Clear ? TValue::ofConst(ConstValue::ofInt(0)) : eval(call.get("value"));
      if (v.isValid())
        storeElement(sub, v);
      return;
    }
    llvm::SmallVector<RegionWriteBack, 1> writeBacks;
    if (!buf)
      buf = regionArg(call, "buffer", RegionUse::Write, writeBacks);
    if (!buf)
      return;
    TValue v = call.info->id == BuiltinID::Clear ? TValue::ofConst(ConstValue::ofInt(0)) : eval(call.get("value"));
    if (!v.isValid())
      return;
    if (v.isConst() && v.cst.getKind() == ConstValue::Kind::Float && !isFloatDType(buf->dtype))
      v = TValue::ofConst(ConstValue::ofInt(int64_t(v.cst.getFloat())));
    v = implicitCast(v, buf->dtype, "buffer '" + buf->name + "'", call.rangeOf("value"));
    if (!v.isValid())
      return;
    tile::FillOp::create(b, l, buf->value, v.value);
    flushWriteBacks(writeBacks);
    return;
  }
  case BuiltinID::Print: {
    argFailed = false;
    std::optional<std::string> msg = constStrArg(call, "msg");
    TValue v = eval(call.get("obj"));
    if (!v.isValid() || argFailed || !msg)
      return;
    mlir::Value value;
    if (v.isBuffer())
      value = v.buffer->value;
    else {
      v = toScalar(v, call.rangeOf("obj"));
      if (!v.isValid())
        return;
      value = v.value;
    }
    tile::PrintOp::create(b, l, value, b.getStringAttr(*msg));
    return;
  }
  case BuiltinID::UseSwizzle: {
    argFailed = false;
    std::optional<int64_t> panel = constIntArg(call, "panel_size");
    std::optional<std::string> order = constStrArg(call, "order");
    std::optional<bool> enable = constBoolArg(call, "enable");
    if (argFailed || !panel || !order || !enable)
      return;
    if (*panel <= 0) {
      diags.emit(DiagID::sema_positive_const, call.rangeOf("panel_size"), "panel_size", *panel);
      return;
    }
    if (*order != "row" && *order != "col") {
      diags.emit(DiagID::sema_bad_swizzle_order, call.rangeOf("order"), *order);
      return;
    }
    if (depth() != 2) {
      diags.emit(DiagID::sema_wrong_context, call.call->getCallee()->getRange(), call.info->name,
                 "inside a loop or branch (put it directly in the T.Kernel body)");
      return;
    }
    if (*enable)
      tile::UseSwizzleOp::create(b, l, uint64_t(*panel), *order);
    return;
  }
  case BuiltinID::Dp4a:
  case BuiltinID::Assume:
    return genMathStmt(call);
  case BuiltinID::SyncThreads:
  case BuiltinID::SyncWarp:
    return genSyncStmt(call);
  case BuiltinID::Im2Col:
    return genIm2Col(call);
  case BuiltinID::GemmSp:
    return genGemmSp(call);
  case BuiltinID::RngInit:
    return genRngInit(call);
  default:
    if (genDevicePrimStmt(call))
      return;
    diags.emit(DiagID::sema_wrong_context, call.call->getCallee()->getRange(), call.info->name, "as a statement");
    return;
  }
}
