//===- TileGenAsyncCopy.cpp - T.ptx_cp_async and its barrier --------------===//
//
// tile-lang's hand-written asynchronous copies:
//   T.ptx_cp_async(T.access_ptr(dst[i, j], "w", n), T.access_ptr(src[k, l], "r", n), n[, predicate])
// copies n consecutive elements, dst[i, j + e] = src[k, l + e] for e < n, on the calling
// thread (a per-thread statement, spec §6). tilec's copies complete before the next statement,
// so on every target this is a plain copy (loads and stores) and T.ptx_commit_group /
// T.ptx_wait_group have nothing to wait for; T.cp_async_barrier_noinc(bar), the arrival on an
// mbarrier once the thread's copies have landed, is an arrival (T.barrier_arrive). A false
// predicate fills the n destination elements with zeros and reads nothing, as cp.async's
// zero-fill does. T.access_ptr is accepted only as an argument of T.ptx_cp_async.
//
// T.import_source(src) brings in device source code (a compile-time string, or None), kept
// for every T.call_extern of the kernel function; T.call_extern(dtype, name, *args) becomes a
// tile.call_extern of scalars and pointers to buffer elements (T.address_of, T.access_ptr),
// with the C++ types tile-lang's CUDA code gives them. The CUDA targets compile the sources
// (lib/Target/CUDA/ExternCode.cpp); the others report each call.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

namespace {
/// One side of a T.ptx_cp_async: the element the pointer names and the
/// pointer's extra element offset (T.access_ptr's `offset=`).
struct PointerArg {
  Region region;
  mlir::Value offset;
};
} // namespace

/// `T.access_ptr(base, access_type, *extents, ...)` as argument `param` of
/// `call`; false after an error.
static bool accessPtrArg(KernelGen &g, const BoundCall &call, llvm::StringRef param, PointerArg &out) {
  const Expr *e = call.get(param);
  auto *ce = llvm::dyn_cast<CallExpr>(e);
  const BuiltinInfo *bi = ce ? g.resolveCallee(ce, false) : nullptr;
  if (!bi || bi->id != BuiltinID::AccessPtr) {
    std::string got = ce && !calleeName(ce->getCallee()).empty() ? "a call of '" + calleeName(ce->getCallee()) + "'"
                                                                  : std::string("another expression");
    if (!ce)
      if (TValue v = g.eval(e); v.isValid())
        got = v.describe();
    g.diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), param, call.info->name,
                 "a pointer T.access_ptr(buf[indices], mode, extent)", got);
    return false;
  }
  BoundCall ptr;
  if (!bindCall(*bi, ce, g.diags, ptr))
    return false;
  llvm::ArrayRef<const Expr *> pos = ptr.extra;
  const Expr *base = !pos.empty() ? pos[0] : ptr.get("base");
  const Expr *mode = pos.size() > 1 ? pos[1] : ptr.get("access_type");
  if (!base) {
    g.diags.emit(DiagID::sema_missing_arg, ce->getRange(), bi->name, "base");
    return false;
  }
  if (mode) {
    TValue m = g.eval(mode);
    if (!m.isValid())
      return false;
    auto isMode = [](llvm::StringRef s) { return s == "r" || s == "w" || s == "rw"; };
    bool ok = m.isConst() && ((m.cst.getKind() == ConstValue::Kind::Str && isMode(m.cst.getStr())) ||
                              (m.cst.isInt() && m.cst.getInt() >= 1 && m.cst.getInt() <= 3));
    if (!ok) {
      g.diags.emit(DiagID::sema_wrong_arg_kind, mode->getRange(), "access_type", bi->name,
                   "\"r\", \"w\", \"rw\" or 1..3", m.describe());
      return false;
    }
  }
  // The extents describe the access for tile-lang's analyses; T.ptx_cp_async's
  // count says how many elements move. They are checked to be integers.
  llvm::SmallVector<const Expr *, 4> extents(pos.begin() + std::min<size_t>(pos.size(), 2), pos.end());
  if (const Expr *x = ptr.get("extent"))
    extents.push_back(x);
  for (const Expr *x : extents) {
    TValue v = g.eval(x);
    if (!v.isValid() || !g.toIndex(v, x->getRange()))
      return false;
  }
  g.argFailed = false;
  std::optional<int64_t> ignore = g.constIntArg(ptr, "ignore_last_ndim");
  if (!ignore || g.argFailed)
    return false;
  if (*ignore != 0) {
    g.diags.emit(DiagID::not_supported_yet, ptr.rangeOf("ignore_last_ndim"), "T.access_ptr's 'ignore_last_ndim'");
    return false;
  }
  if (!g.evalRegion(base, out.region))
    return false;
  if (out.region.buffer->rank() == 0 || out.region.buffer->isBarrier) {
    g.diags.emit(DiagID::sema_wrong_arg_kind, base->getRange(), "base", bi->name,
                 "an element or region of a data buffer",
                 TValue::ofBuffer(out.region.buffer).describe());
    return false;
  }
  if (const Expr *off = ptr.get("offset")) {
    TValue v = g.eval(off);
    if (!v.isValid())
      return false;
    out.offset = g.toIndex(v, off->getRange());
    return bool(out.offset);
  }
  return true;
}

/// The indices of element `e` of the copy from `p` (last index + offset + e).
static llvm::SmallVector<mlir::Value, 4> elementAt(KernelGen &g, const PointerArg &p, mlir::Value e,
                                                   mlir::Location l) {
  llvm::SmallVector<mlir::Value, 4> idx(p.region.offsets);
  mlir::Value last = mlir::arith::AddIOp::create(g.b, l, idx.back(), e);
  if (p.offset)
    last = mlir::arith::AddIOp::create(g.b, l, last, p.offset);
  idx.back() = last;
  return idx;
}

void KernelGen::genCpAsync(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return;
  }
  if (call.info->id == BuiltinID::CpAsyncBarrier) {
    BufferInfo *bar = nullptr;
    mlir::Value index;
    // The copies before it have completed: the arrival is an ordinary one.
    if (barrierArg(call, "barrier", bar, index))
      tile::BarrierArriveOp::create(b, l, bar->value, index);
    return;
  }
  PointerArg dst, src;
  if (!accessPtrArg(*this, call, "dst_access_ptr", dst) || !accessPtrArg(*this, call, "src_access_ptr", src))
    return;
  argFailed = false;
  std::optional<int64_t> n = constIntArg(call, "num_elems");
  if (!n || argFailed)
    return;
  if (*n <= 0) {
    diags.emit(DiagID::sema_positive_const, call.rangeOf("num_elems"), "num_elems", *n);
    return;
  }
  BufferInfo *to = dst.region.buffer, *from = src.region.buffer;
  if (to->dtype != from->dtype) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("src_access_ptr"), "src_access_ptr", call.info->name,
               ("a pointer to " + dtypeName(to->dtype) + " elements, the destination's dtype").str(),
               ("a pointer to " + dtypeName(from->dtype) + " elements").str());
    return;
  }
  mlir::Value pred;
  if (const Expr *p = call.get("predicate")) {
    TValue c = eval(p);
    if (!c.isValid())
      return;
    if (c.isBuffer()) {
      diags.emit(DiagID::sema_not_scalar, p->getRange(), c.describe());
      return;
    }
    if (c.isConst() && c.cst.truthy())
      c = TValue(); // always copies
    else if (!(c = toBool(c, p->getRange())).isValid())
      return;
    pred = c.value;
  }
  auto copyAll = [&](bool zero) {
    mlir::Value zeroValue = zero ? materialize(ConstValue::ofInt(0), to->dtype, range).value : mlir::Value();
    for (int64_t e = 0; e < *n; ++e) {
      mlir::Value ei = indexConst(e, range);
      mlir::Value v = zero ? zeroValue : loadElement(from, elementAt(*this, src, ei, l), range);
      llvm::SmallVector<mlir::Value, 4> di = elementAt(*this, dst, ei, l);
      guardedForLayout(to, di, range, [&] { mlir::memref::StoreOp::create(b, l, v, to->value, di); });
    }
  };
  if (!pred)
    return copyAll(false);
  auto ifOp = mlir::scf::IfOp::create(b, l, pred, /*withElseRegion=*/true);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  copyAll(false);
  b.setInsertionPointToStart(ifOp.elseBlock());
  copyAll(true);
}

/// The C++ type tile-lang's CUDA code gives elements of `t` (tl's
/// half_t / bfloat16_t / fp8 types, `int`, `uint`), or "" for the packed
/// 4-bit types.
static llvm::StringRef externCType(DType t) {
  switch (t) {
  case DType::Float16:
    return "half_t";
  case DType::BFloat16:
    return "bfloat16_t";
  case DType::Float32:
    return "float";
  case DType::Float64:
    return "double";
  case DType::Float8E4M3:
    return "fp8_e4_t";
  case DType::Float8E5M2:
    return "fp8_e5_t";
  case DType::Int8:
    return "int8_t";
  case DType::UInt8:
    return "uint8_t";
  case DType::Int16:
    return "int16_t";
  case DType::UInt16:
    return "uint16_t";
  case DType::Int32:
    return "int";
  case DType::UInt32:
    return "uint";
  case DType::Int64:
  case DType::Index:
    return "int64_t";
  case DType::UInt64:
    return "uint64_t";
  case DType::Bool:
    return "bool";
  case DType::Int4:
  case DType::UInt4:
  case DType::Float4E2M1:
    return "";
  }
  return "";
}

/// One pointer argument of a T.call_extern: `T.address_of(buf[i, ...])` (or of
/// a T.alloc_var), or
/// `T.access_ptr(buf[i, ...], mode[, extents][, offset=])`; appends the buffer
/// and its element's indices to `operands`. False after a diagnostic.
static bool externPointerArg(KernelGen &g, const CallExpr *ce, bool isAccessPtr, llvm::StringRef callee,
                             llvm::SmallVectorImpl<mlir::Value> &operands, std::string &ctype) {
  PointerArg p;
  if (isAccessPtr) {
    BoundCall wrap; // accessPtrArg reads the pointer from a bound call's parameter
    static const BuiltinParam one[] = {{"ptr", ArgKind::Any, {}}};
    static const BuiltinInfo info{BuiltinID::CallExtern, "T.call_extern", BuiltinContext::Stmt, one};
    wrap.info = &info;
    wrap.call = ce;
    wrap.args.push_back(ce);
    if (!accessPtrArg(g, wrap, "ptr", p))
      return false;
  } else {
    if (ce->getArgs().size() != 1) {
      g.diags.emit(DiagID::sema_wrong_arg_kind, ce->getRange(), "buffer", "T.address_of", "one element buf[i, ...]",
                   std::to_string(ce->getArgs().size()) + " arguments");
      return false;
    }
    const Expr *arg = ce->getArgs()[0];
    auto *name = llvm::dyn_cast<NameExpr>(arg);
    LocalVar *var = name ? g.lookupLocal(name->getName()) : nullptr;
    if (var && var->isBound() && var->value.isBuffer() && var->value.buffer->isVar)
      p.region.buffer = var->value.buffer; // T.address_of(v) of a T.alloc_var: its one element
    else if (!g.evalRegion(arg, p.region))
      return false;
  }
  BufferInfo *buf = p.region.buffer;
  llvm::StringRef why;
  if (buf->scope == tile::Scope::Fragment)
    why = "a fragment's elements are spread over the block's threads (layout inference decides which thread holds "
          "which); copy the elements into a T.alloc_local buffer first";
  else if (buf->isBarrier)
    why = "it holds mbarriers";
  else if (buf->layout)
    why = "its elements are placed by a T.Layout";
  else if (externCType(buf->dtype).empty())
    why = "its packed 4-bit elements have no address of their own; view the buffer as int8";
  if (!why.empty()) {
    g.diags.emit(DiagID::sema_extern_pointer, ce->getRange(), callee, buf->name, why);
    return false;
  }
  operands.push_back(buf->value);
  llvm::SmallVector<mlir::Value, 4> idx(p.region.offsets);
  if (p.offset && !idx.empty())
    idx.back() = mlir::arith::AddIOp::create(g.b, g.loc(ce->getRange()), idx.back(), p.offset);
  llvm::append_range(operands, idx);
  ctype = (externCType(buf->dtype) + "*").str();
  return true;
}

TValue KernelGen::genExternSource(const BoundCall &call, bool asValue) {
  if (call.info->id == BuiltinID::ImportSource) {
    TValue src = eval(call.get("source"));
    bool ok = src.isConst() && (src.cst.getKind() == ConstValue::Kind::Str || src.cst.getKind() == ConstValue::Kind::None);
    if (src.isValid() && !ok)
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("source"), "source", call.info->name,
                 "a compile-time string of device source code (or None)", src.describe());
    if (ok && src.cst.getKind() == ConstValue::Kind::Str) {
      std::string text = src.cst.getStr().str();
      if (llvm::none_of(externSources, [&](const auto &e) { return e.first == text; }))
        externSources.emplace_back(std::move(text), loc(call.call->getRange()));
    }
    return TValue();
  }
  // T.call_extern(dtype, name, *args) or T.call_extern(name, *args, dtype=...).
  llvm::SMRange range = call.call->getRange();
  const Expr *dtypeExpr = call.get("dtype");
  size_t at = dtypeExpr ? 0 : 1;
  if (!dtypeExpr && !call.extra.empty())
    dtypeExpr = call.extra[0];
  if (at >= call.extra.size() || !dtypeExpr) {
    diags.emit(DiagID::sema_extern_name, range, "no name");
    return TValue();
  }
  TValue n = eval(call.extra[at]);
  if (!n.isValid())
    return TValue();
  if (!n.isConst() || n.cst.getKind() != ConstValue::Kind::Str) {
    diags.emit(DiagID::sema_extern_name, call.extra[at]->getRange(), n.describe());
    return TValue();
  }
  std::string name = n.cst.getStr().str();
  TValue dv = eval(dtypeExpr);
  if (!dv.isValid())
    return TValue();
  std::optional<DType> resultDType;
  bool isHandle = dv.isConst() && dv.cst.getKind() == ConstValue::Kind::Str && dv.cst.getStr() == "handle";
  if (!isHandle) {
    resultDType = dv.isConst() ? dv.cst.asDType() : std::nullopt;
    if (!resultDType || externCType(*resultDType).empty()) {
      bool isStr = dv.isConst() && dv.cst.getKind() == ConstValue::Kind::Str;
      diags.emit(DiagID::sema_extern_dtype, dtypeExpr->getRange(), name,
                 isStr ? "\"" + dv.cst.getStr().str() + "\"" : dv.describe());
      return TValue();
    }
  }
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return TValue();
  }
  llvm::SmallVector<mlir::Value, 8> operands;
  llvm::SmallVector<std::string, 4> ctypes;
  bool ok = true;
  for (size_t i = at + 1; i < call.extra.size(); ++i) {
    const Expr *e = call.extra[i];
    unsigned argNo = i - at - 1;
    if (auto *ce = llvm::dyn_cast<CallExpr>(e)) {
      std::string callee = calleeName(ce->getCallee());
      const BuiltinInfo *bi = resolveCallee(ce, false);
      bool isAccessPtr = bi && bi->id == BuiltinID::AccessPtr;
      if (isAccessPtr || callee == "address_of" || llvm::StringRef(callee).ends_with(".address_of")) {
        std::string ctype;
        if (externPointerArg(*this, ce, isAccessPtr, name, operands, ctype))
          ctypes.push_back(std::move(ctype));
        else
          ok = false;
        continue;
      }
    }
    TValue v = eval(e);
    if (!v.isValid()) {
      ok = false;
      continue;
    }
    if (v.isConst() &&
        (v.cst.isInt() || v.cst.getKind() == ConstValue::Kind::Float || v.cst.getKind() == ConstValue::Kind::Bool)) {
      // A Python literal: int32, float32 or bool, as tile-lang's IntImm / FloatImm.
      DType t = v.cst.getKind() == ConstValue::Kind::Bool ? DType::Bool : v.cst.isInt() ? DType::Int32 : DType::Float32;
      v = materialize(v.cst, t, e->getRange());
      if (!v.isValid()) {
        ok = false;
        continue;
      }
    }
    if (!v.isScalar() || externCType(v.dtype).empty()) {
      diags.emit(DiagID::sema_extern_arg, e->getRange(), argNo, name, v.describe());
      ok = false;
      continue;
    }
    operands.push_back(v.value);
    ctypes.push_back(externCType(v.dtype).str());
  }
  if (!ok)
    return TValue();
  if (asValue && !resultDType) {
    diags.emit(DiagID::sema_extern_no_value, range, name);
    return TValue();
  }
  // As a statement the result is unused, whatever the dtype says (tile-lang's
  // `T.call_extern(f, ..., dtype=T.float16)` of a void decoder): a void call.
  if (!asValue)
    resultDType.reset();
  mlir::Location l = loc(range);
  llvm::SmallVector<mlir::Type, 1> results;
  if (resultDType)
    results.push_back(elementType(*resultDType));
  llvm::SmallVector<mlir::NamedAttribute, 4> attrs{
      b.getNamedAttr("callee", b.getStringAttr(name)),
      b.getNamedAttr("arg_ctypes", b.getStrArrayAttr(llvm::to_vector_of<llvm::StringRef>(ctypes))),
      b.getNamedAttr("result_ctype", b.getStringAttr(resultDType ? externCType(*resultDType) : "void"))};
  auto op = tile::CallExternOp::create(b, l, results, operands, attrs);
  externCalls.push_back(op);
  if (!resultDType)
    return TValue();
  return TValue::ofScalar(op.getResult(), *resultDType);
}

void KernelGen::attachExternSources() {
  llvm::SmallVector<llvm::StringRef, 2> texts;
  llvm::SmallVector<mlir::Attribute, 2> locs;
  for (const auto &[text, l] : externSources) {
    texts.push_back(text);
    locs.push_back(mlir::LocationAttr(l));
  }
  for (tile::CallExternOp call : externCalls) {
    call.setSourcesAttr(b.getStrArrayAttr(texts));
    call.setSourceLocsAttr(b.getArrayAttr(locs));
  }
  externCalls.clear();
}
