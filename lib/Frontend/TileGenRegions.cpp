//===- TileGenRegions.cpp - Buffer regions as tile-operation operands ----===//
//
// `T.gemm(A_s[k % 2, :, :], ...)`, `T.fill(buf[i, :], 0)`,
// `T.reduce_max(S[i, :], m, dim=0)`, `T.cumsum(x[i, :])`: a subscript with a
// slice names a region of the buffer, as in tile-lang. A scalar index drops
// its dimension (rank-reducing), a slice `a:b` keeps it with the extent
// b - a (a compile-time constant). The tile operations take whole buffers,
// so the region goes through a buffer of its own (allocated once at the top
// of the launch, in the base buffer's scope): a T.copy of the region into it
// before the operation when the operation reads it, and back after it when
// the operation writes it.
//
// Also the region T.atomic_add whose value buffer has fewer dimensions than
// the destination region does not map onto its trailing dimensions
// (`T.atomic_add(dV[b, i*bm:(i+1)*bm, h, :], dv_shared)`): a T.Parallel of
// element atomic adds over the value's non-unit dimensions.
//
// And T.atomic_addx2 / T.atomic_addx4 (`T.atomic_addx4(dKV[b, i, h, d * 4],
// acc[j, d * 4])`): 2 / 4 consecutive elements along the last dimension of
// both operands, from the element (or the region of that extent) each names.
// They lower as that many element atomic adds, each atomic on its own; the
// target may fuse them, and no target needs a vector atomic.
//
// And T.atomic_add(dst[i], v, return_prev=True) as a value: a fetch-and-add.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

/// True when `e` is a subscript with at least one slice index.
static bool isSliceSubscript(const Expr *e) {
  auto *sub = llvm::dyn_cast_or_null<SubscriptExpr>(e);
  return sub && llvm::any_of(sub->getIndices(), [](const Expr *i) { return llvm::isa<SliceExpr>(i); });
}

// Between two fragments the copy goes through a shared buffer: the GPU's
// tile.copy moves parts of fragments only to and from memory, and a
// T.Parallel of element moves would need both fragments in one layout.
// `whole` is the side that is the region's own buffer.
void KernelGen::copyRegion(Region &src, Region &dst, Region &whole) {
  if (src.buffer->scope != tile::Scope::Fragment || dst.buffer->scope != tile::Scope::Fragment)
    return emitCopy(src, dst, dst.range);
  llvm::SmallVector<int64_t, 4> shape(whole.buffer->shape.begin(), whole.buffer->shape.end());
  Region bounce;
  bounce.buffer = newBuffer();
  bounce.buffer->name = whole.buffer->name;
  bounce.buffer->value = createAlloc(loc(dst.range), shape, whole.buffer->dtype, tile::Scope::Shared);
  bounce.buffer->dtype = whole.buffer->dtype;
  bounce.buffer->scope = tile::Scope::Shared;
  bounce.buffer->shape = shape;
  bounce.buffer->dimNames.assign(shape.size(), "");
  bounce.buffer->declRange = dst.range;
  bounce.range = dst.range;
  bounce.sizes = shape;
  for (size_t d = 0; d < shape.size(); ++d)
    bounce.offsets.push_back(indexConst(0, dst.range));
  emitCopy(src, bounce, dst.range);
  emitCopy(bounce, dst, dst.range);
}

BufferInfo *KernelGen::regionArg(const BoundCall &call, llvm::StringRef name, RegionUse use,
                                 llvm::SmallVectorImpl<RegionWriteBack> &writeBacks) {
  const Expr *e = call.get(name);
  if (!isSliceSubscript(e))
    return bufferArg(call, name);
  Region region;
  if (!evalRegion(e, region))
    return nullptr;
  BufferInfo *base = region.buffer;
  if (base->isVar || base->isBarrier) {
    diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), name, call.info->name, "a buffer", "a region of '" +
                                                                                                 base->name + "'");
    return nullptr;
  }
  if (base->scope == tile::Scope::Global) {
    diags.emit(DiagID::not_supported_yet, e->getRange(),
               ("a region of global tensor '" + base->name + "' as the '" + name + "' operand of " +
                call.info->name + " (T.copy the region into a shared or fragment buffer first)")
                   .str());
    return nullptr;
  }
  // The region's shape: the slices' extents; scalar indices drop their dimension.
  llvm::ArrayRef<Expr *> indices = llvm::cast<SubscriptExpr>(e)->getIndices();
  llvm::SmallVector<int64_t, 4> shape;
  for (size_t d = 0; d < indices.size(); ++d)
    if (llvm::isa<SliceExpr>(indices[d]))
      shape.push_back((*region.sizes)[d]);
  mlir::Location l = loc(e->getRange());
  BufferInfo *tmp = newBuffer();
  tmp->name = "region of '" + base->name + "'";
  tmp->value = createAlloc(l, shape, base->dtype, base->scope);
  tmp->dtype = base->dtype;
  tmp->scope = base->scope;
  tmp->shape = shape;
  tmp->dimNames.assign(shape.size(), "");
  tmp->declRange = e->getRange();
  Region whole;
  whole.buffer = tmp;
  whole.range = e->getRange();
  whole.sizes = shape;
  for (size_t d = 0; d < shape.size(); ++d)
    whole.offsets.push_back(indexConst(0, e->getRange()));
  if (use != RegionUse::Write)
    copyRegion(region, whole, whole);
  if (use != RegionUse::Read)
    writeBacks.push_back({whole, region});
  return tmp;
}

void KernelGen::flushWriteBacks(llvm::SmallVectorImpl<RegionWriteBack> &writeBacks) {
  for (RegionWriteBack &w : writeBacks)
    copyRegion(w.from, w.to, w.from);
  writeBacks.clear();
}

bool KernelGen::emitSpreadAtomicAdd(Region &dst, BufferInfo *value, llvm::SMRange range) {
  mlir::Location l = loc(range);
  llvm::SmallVector<int64_t> extents;
  llvm::SmallVector<unsigned> valueDims; // the value dimension of each loop index
  for (size_t d = 0; d < value->rank(); ++d)
    if (value->shape[d] != 1) {
      extents.push_back(value->shape[d]);
      valueDims.push_back(d);
    }
  if (extents.empty())
    extents.push_back(1);
  auto par = tile::ParallelOp::create(b, l, extents);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(par.getBodyBlock()->getTerminator());
  auto ivs = par.getInductionVars();
  // The value at the loop's indices (0 in its unit dimensions) ...
  llvm::SmallVector<mlir::Value, 4> vi(value->rank(), indexConst(0, range));
  for (size_t k = 0; k < valueDims.size(); ++k)
    vi[valueDims[k]] = ivs[k];
  // ... goes to the destination's non-unit region dimensions, in order.
  llvm::SmallVector<mlir::Value, 4> di;
  unsigned next = 0;
  for (size_t d = 0; d < dst.buffer->rank(); ++d) {
    if ((*dst.sizes)[d] == 1 || next >= valueDims.size()) {
      di.push_back(dst.offsets[d]);
      continue;
    }
    di.push_back(mlir::arith::AddIOp::create(b, l, dst.offsets[d], ivs[next++]).getResult());
  }
  TValue v = TValue::ofScalar(mlir::memref::LoadOp::create(b, l, value->value, vi), value->dtype);
  v = convert(v, dst.buffer->dtype, range);
  if (!v.isValid())
    return false;
  if (dst.buffer->layout) { // remapped through the tensor's T.Layout, inside it only
    guardedForLayout(dst.buffer, di, range, [&] { tile::AtomicAddOp::create(b, l, dst.buffer->value, di, v.value); });
    return true;
  }
  auto ifOp = mlir::scf::IfOp::create(b, l, inBounds(dst.buffer, di, range), /*withElseRegion=*/false);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  tile::AtomicAddOp::create(b, l, dst.buffer->value, di, v.value);
  return true;
}

void KernelGen::genAtomicAddVec(const BoundCall &call, unsigned lanes) {
  std::string name = "T.atomic_addx" + std::to_string(lanes);
  std::optional<bool> prev = constBoolArg(call, "return_prev");
  if (!prev)
    return;
  if (*prev) {
    diags.emit(DiagID::meta_error, call.rangeOf("return_prev"),
               name + " with return_prev=True is not supported: the adds return nothing (read the destination "
                      "before them, or drop return_prev)");
    return;
  }
  Region dst, val;
  if (!evalRegion(call.get("dst"), dst) || !evalRegion(call.get("value"), val))
    return;
  using S = tile::Scope;
  if (!checkScope(dst.buffer, {S::Global, S::Shared}, name + " destination", call.rangeOf("dst")))
    return;
  // Each operand names its first element, or a region of `lanes` elements
  // along its last dimension.
  for (Region *r : {&dst, &val}) {
    if (!r->sizes)
      continue;
    llvm::ArrayRef<int64_t> sz(*r->sizes);
    if (sz.back() != int64_t(lanes) || llvm::any_of(sz.drop_back(), [](int64_t s) { return s != 1; })) {
      diags.emit(DiagID::meta_error, r->range,
                 name + " adds " + std::to_string(lanes) + " consecutive elements of the last dimension: name the " +
                     "first one (buf[..., i]) or a region buf[..., i:i + " + std::to_string(lanes) + "]");
      return;
    }
  }
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  for (unsigned k = 0; k < lanes; ++k) {
    llvm::SmallVector<mlir::Value, 4> di(dst.offsets), vi(val.offsets);
    if (k) {
      di.back() = mlir::arith::AddIOp::create(b, l, di.back(), indexConst(k, range)).getResult();
      vi.back() = mlir::arith::AddIOp::create(b, l, vi.back(), indexConst(k, range)).getResult();
    }
    TValue v = TValue::ofScalar(loadElement(val.buffer, vi, val.range), val.buffer->dtype);
    v = convert(v, dst.buffer->dtype, range);
    if (!v.isValid())
      return;
    guardedForLayout(dst.buffer, di, call.rangeOf("dst"),
                     [&] { tile::AtomicAddOp::create(b, l, dst.buffer->value, di, v.value); });
  }
}

/// `pos = T.atomic_add(dst[i], value, return_prev=True)`: one element's
/// fetch-and-add (memref.atomic_rmw on every target), giving the element's
/// value before the add; `T.atomic_max` / `T.atomic_min` likewise with a
/// maximum / minimum (as statements too, `asValue` false: the value is
/// dropped). Integers and float32/float64 elements only.
TValue KernelGen::evalAtomicAddPrev(const BoundCall &call, bool asValue) {
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return TValue();
  }
  BuiltinID id = call.info->id;
  llvm::StringRef name = call.info->name;
  std::optional<bool> prev = constBoolArg(call, "return_prev");
  if (!prev)
    return TValue();
  if (asValue && !*prev) {
    diags.emit(DiagID::sema_wrong_context, call.call->getCallee()->getRange(), name,
               "as a value without return_prev=True (it is a statement)");
    return TValue();
  }
  Region dst;
  if (!evalRegion(call.get("dst"), dst))
    return TValue();
  using S = tile::Scope;
  if (!checkScope(dst.buffer, {S::Global, S::Shared}, (name + " destination").str(), call.rangeOf("dst")))
    return TValue();
  if (!atomicOrderArg(call))
    return TValue();
  BufferInfo *buf = dst.buffer;
  if ((dst.sizes && llvm::any_of(*dst.sizes, [](int64_t s) { return s != 1; })) || buf->layout) {
    diags.emit(DiagID::meta_error, call.rangeOf("dst"),
               id == BuiltinID::AtomicAdd
                   ? "T.atomic_add with return_prev=True adds into one element of a tensor without a T.Layout: name it "
                     "as dst[i, j]"
                   : (name + " updates one element of a tensor without a T.Layout here: name it as dst[i, j] (the "
                             "region form is not supported yet; reduce the tile first, e.g. T.reduce_max)")
                         .str());
    return TValue();
  }
  mlir::Type et = elementType(buf->dtype);
  bool isInt = et.isInteger() && et.getIntOrFloatBitWidth() >= 32, isFloat = et.isF32() || et.isF64();
  if (!isInt && !isFloat) {
    diags.emit(DiagID::meta_error, call.rangeOf("dst"),
               (id == BuiltinID::AtomicAdd ? "T.atomic_add with return_prev=True" : name) +
                   " needs a 32- or 64-bit integer or float element, but '" + buf->name + "' holds " +
                   dtypeName(buf->dtype).str());
    return TValue();
  }
  const Expr *ve = call.get("value");
  TValue v = eval(ve);
  if (!v.isValid())
    return TValue();
  if (v.isBuffer()) {
    diags.emit(DiagID::sema_not_scalar, ve->getRange(), v.describe());
    return TValue();
  }
  v = implicitCast(v, buf->dtype, "buffer '" + buf->name + "'", ve->getRange());
  if (!v.isValid())
    return TValue();
  using K = mlir::arith::AtomicRMWKind;
  bool u = isUnsignedDType(buf->dtype);
  K kind = id == BuiltinID::AtomicMax   ? (isFloat ? K::maximumf
                                           : u     ? K::maxu
                                                   : K::maxs)
           : id == BuiltinID::AtomicMin ? (isFloat ? K::minimumf
                                           : u     ? K::minu
                                                   : K::mins)
                                        : (isFloat ? K::addf : K::addi);
  mlir::Value old =
      mlir::memref::AtomicRMWOp::create(b, loc(call.call->getRange()), kind, v.value, buf->value, dst.offsets);
  return TValue::ofScalar(old, buf->dtype);
}
