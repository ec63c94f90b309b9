//===- TileGenCalls.cpp - Calls, subscripts and builtin arguments --------===//
//
// Resolves callees against the builtin table, checks argument kinds
// (constant, dtype, buffer, shape...), and builds element loads; the scalar
// T.* functions are in TileGenScalarBuiltins.cpp.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

static bool isTName(const Expr *e) {
  auto *n = llvm::dyn_cast<NameExpr>(e);
  return n && n->getName() == "T";
}

const BuiltinInfo *KernelGen::resolveCallee(const CallExpr *call, bool report) {
  const Expr *callee = call->getCallee();
  if (auto *a = llvm::dyn_cast<AttributeExpr>(callee); a && isTName(a->getValue())) {
    if (const BuiltinInfo *info = lookupTBuiltin(a->getAttr()))
      return info;
    if (report && !unsupportedTPrimitive(a->getAttr()).empty()) {
      diags.emit(DiagID::sema_unsupported_primitive, a->getAttrRange(), a->getAttr(),
                 unsupportedTPrimitive(a->getAttr()));
      return nullptr;
    }
    if (report) {
      llvm::SmallVector<llvm::StringRef, 64> names;
      getTBuiltinNames(names);
      diags.emit(DiagID::sema_unknown_primitive, a->getAttrRange(), a->getAttr(), didYouMean(a->getAttr(), names));
    }
    return nullptr;
  }
  if (auto *n = llvm::dyn_cast<NameExpr>(callee)) {
    llvm::StringRef name = n->getName();
    bool local = lookupLocal(name) || params.count(name);
    const meta::Binding *global = local ? nullptr : metaEnv->lookup(name);
    // A T.* primitive passed around as a meta value (`alloc = T.alloc_shared`).
    if (global && global->value.is(meta::Value::Kind::Builtin))
      if (const BuiltinInfo *prim = global->value.as<meta::BuiltinObj>()->prim)
        return prim;
    bool shadowed = local || global;
    if (!shadowed)
      if (const BuiltinInfo *info = lookupPyBuiltin(name))
        return info;
    if (report) {
      if (shadowed) {
        diags.emit(DiagID::sema_not_callable, n->getRange(), name);
      } else {
        static const llvm::StringRef py[] = {"range", "min", "max", "abs", "int", "float"};
        diags.emit(DiagID::sema_unknown_name, n->getRange(), name, didYouMean(name, py));
      }
    }
    return nullptr;
  }
  // `tilelang.layout.make_swizzled_layout(...)`: a primitive reached through a module.
  if (meta::Value v = metaCallee(callee); v.is(meta::Value::Kind::Builtin))
    if (const BuiltinInfo *prim = v.as<meta::BuiltinObj>()->prim)
      return prim;
  if (report) {
    std::string name = calleeName(callee);
    diags.emit(DiagID::sema_not_callable, callee->getRange(), name.empty() ? "this expression" : name);
  }
  return nullptr;
}

TValue KernelGen::evalCall(const CallExpr *e) {
  // `x.astype(dtype)`.
  if (auto *a = llvm::dyn_cast<AttributeExpr>(e->getCallee());
      a && a->getAttr() == "astype" && !isTName(a->getValue())) {
    TValue v = eval(a->getValue());
    if (!v.isValid())
      return v;
    if (e->getArgs().size() != 1 || !e->getKeywords().empty()) {
      if (e->getArgs().empty())
        diags.emit(DiagID::sema_missing_arg, e->getRange(), "astype", "dtype");
      else
        diags.emit(DiagID::sema_too_many_args, e->getRange(), "astype", 1, "", e->getArgs().size());
      return TValue();
    }
    // Evaluated in kernel scope: a macro's or helper's dtype parameter is a local.
    TValue dv = eval(e->getArgs()[0]);
    if (!dv.isValid())
      return TValue();
    std::optional<DType> t = dv.isConst() ? dv.cst.asDType() : std::nullopt;
    if (!t) {
      diags.emit(DiagID::sema_wrong_arg_kind, e->getArgs()[0]->getRange(), "dtype", "astype", "a dtype", dv.describe());
      return TValue();
    }
    return convert(v, *t, e->getRange());
  }
  if (std::optional<TValue> v = evalDTypeCall(e))
    return *v;
  if (std::optional<TValue> v = callMetaFunction(e))
    return *v;
  const BuiltinInfo *bi = resolveCallee(e, true);
  if (!bi)
    return TValue();
  if ((bi->id == BuiltinID::Tensor || bi->id == BuiltinID::Buffer) && isTensorView(e))
    return genTensorView(e);
  if (bi->id == BuiltinID::View || bi->id == BuiltinID::Reshape) {
    BoundCall bound;
    return bindCall(*bi, e, diags, bound) ? genViewBuiltin(bound) : TValue();
  }
  if (bi->id == BuiltinID::CallExtern) { // a value too: `x = T.call_extern(T.int32, "f", ...)`
    BoundCall bound;
    return bindCall(*bi, e, diags, bound) ? genExternSource(bound, true) : TValue();
  }
  if (bi->id == BuiltinID::AtomicAdd || bi->id == BuiltinID::AtomicMax ||
      bi->id == BuiltinID::AtomicMin) { // `pos = T.atomic_add(dst[i], 1, return_prev=True)`
    BoundCall bound;
    return bindCall(*bi, e, diags, bound) ? evalAtomicAddPrev(bound) : TValue();
  }
  if (bi->id == BuiltinID::ThreadBindingLoop) { // `tx = T.thread_binding(0, 128, thread="threadIdx.x")`
    BoundCall bound;
    return bindCall(*bi, e, diags, bound) ? threadBindingValue(bound) : TValue();
  }
  switch (bi->context) {
  case BuiltinContext::Module:
    diags.emit(DiagID::sema_wrong_context, e->getCallee()->getRange(), bi->name, "inside a kernel body");
    return TValue();
  case BuiltinContext::Stmt:
    diags.emit(DiagID::sema_wrong_context, e->getCallee()->getRange(), bi->name, "as a value (it is a statement)");
    return TValue();
  case BuiltinContext::Iter:
    diags.emit(DiagID::sema_wrong_context, e->getCallee()->getRange(), bi->name, "outside a 'for' loop header");
    return TValue();
  case BuiltinContext::With:
    diags.emit(DiagID::sema_wrong_context, e->getCallee()->getRange(), bi->name, "outside a 'with' statement");
    return TValue();
  case BuiltinContext::Alloc:
    diags.emit(DiagID::sema_wrong_context, e->getCallee()->getRange(), bi->name,
               "inside an expression (assign it to a name)");
    return TValue();
  case BuiltinContext::Const:
  case BuiltinContext::Expr:
    break;
  }
  BoundCall bound;
  if (!bindCall(*bi, e, diags, bound))
    return TValue();
  return evalExprBuiltin(bound);
}

//===----------------------------------------------------------------------===//
// Subscripts and element access
//===----------------------------------------------------------------------===//

bool KernelGen::elementIndices(BufferInfo *buf, llvm::ArrayRef<Expr *> indices, llvm::SMRange range,
                               llvm::SmallVectorImpl<mlir::Value> &out) {
  if (indices.size() != buf->rank()) {
    diags.emit(DiagID::sema_index_count, range, buf->name, buf->rank(), indices.size(), indices.size() == 1 ? "" : "s");
    return false;
  }
  // A fragment indexed outside T.Parallel (per-thread code) is replicated by
  // tile-infer-layouts: every thread reads and writes its own whole copy.
  for (size_t d = 0; d < indices.size(); ++d) {
    const Expr *ie = indices[d];
    if (llvm::isa<SliceExpr>(ie)) {
      diags.emit(DiagID::sema_wrong_context, ie->getRange(), "a slice",
                 "as an element index (slices name T.copy regions)");
      return false;
    }
    TValue v = eval(ie);
    if (!v.isValid())
      return false;
    if (v.isConst() && v.cst.isIntLike()) {
      int64_t c = v.cst.getInt();
      int64_t size = buf->shape[d];
      if (c < 0 || (!mlir::ShapedType::isDynamic(size) && c >= size)) {
        diags.emit(DiagID::sema_index_out_of_bounds, ie->getRange(), c, d, buf->name,
                   mlir::ShapedType::isDynamic(size) ? buf->dimNames[d] : std::to_string(size));
        return false;
      }
    }
    if (buf->scope == tile::Scope::Fragment && v.isScalar() && !checkParallelIndex(buf, d, v, ie->getRange()))
      return false;
    mlir::Value idx = toIndex(v, ie->getRange());
    if (!idx)
      return false;
    out.push_back(idx);
  }
  return true;
}

// A T.Parallel maps its iterations onto the layout of the fragments it
// indexes, so a fragment index must stay inside the fragment on every
// iteration (an `if` in the body does not make an outside index valid);
// covering part of a fragment is fine. Indices that are not linear in the
// loop variables (or involve other values) are not checked here.
bool KernelGen::checkParallelIndex(BufferInfo *buf, unsigned d, const TValue &index, llvm::SMRange range) {
  std::optional<LinearForm> lin = linOf(index);
  int64_t size = buf->shape[d];
  if (!lin || lin->isConstant() || mlir::ShapedType::isDynamic(size))
    return true;
  int64_t lo = lin->constant, hi = lin->constant;
  for (auto [id, coef] : lin->terms) {
    auto it = parallelVars.find(id);
    if (it == parallelVars.end())
      return true;
    // coef * [0, extent - 1] widens the low end when negative, else the high one.
    int64_t span = 0;
    int64_t &end = coef < 0 ? lo : hi;
    if (llvm::MulOverflow(coef, it->second.extent - 1, span) || llvm::AddOverflow(end, span, end))
      return true;
  }
  if (lo >= 0 && hi < size)
    return true;
  llvm::StringRef text;
  if (range.Start.isValid() && range.End.isValid() && range.End.getPointer() >= range.Start.getPointer())
    text = llvm::StringRef(range.Start.getPointer(), range.End.getPointer() - range.Start.getPointer());
  auto diag = diags.emit(DiagID::sema_parallel_index_out_of_bounds, range, text, lo, hi, d, buf->name, size);
  for (auto [id, coef] : lin->terms) {
    const ParallelVar &pv = parallelVars.find(id)->second;
    diags.note(diag, DiagID::sema_note_parallel_extent, pv.extentRange, pv.name, pv.extent);
  }
  return false;
}

mlir::Value KernelGen::loadElement(BufferInfo *buf, llvm::ArrayRef<mlir::Value> idx, llvm::SMRange range) {
  if (buf->layout)
    return loadRemapped(buf, idx, range);
  return mlir::memref::LoadOp::create(b, loc(range), buf->value, idx);
}

TValue KernelGen::evalSubscript(const SubscriptExpr *e) {
  TValue base = eval(e->getValue());
  if (!base.isValid())
    return base;
  if (base.isConst() && base.cst.getKind() == ConstValue::Kind::Tuple && e->getIndices().size() == 1) {
    TValue idx = eval(e->getIndices()[0]);
    if (!idx.isValid())
      return idx;
    int64_t n = base.cst.getElts().size();
    if (!idx.isConst() || !idx.cst.isIntLike() || idx.cst.getInt() < -n || idx.cst.getInt() >= n) {
      diags.emit(DiagID::sema_const_error, e->getIndices()[0]->getRange(),
                 "tuple index must be a constant in [" + std::to_string(-n) + ", " + std::to_string(n) + ")");
      return TValue();
    }
    int64_t k = idx.cst.getInt() < 0 ? idx.cst.getInt() + n : idx.cst.getInt();
    return TValue::ofConst(base.cst.getElts()[k]);
  }
  if (!base.isBuffer()) {
    diags.emit(DiagID::sema_not_buffer, e->getValue()->getRange(), base.describe());
    return TValue();
  }
  llvm::SmallVector<mlir::Value, 4> idx;
  if (!elementIndices(base.buffer, e->getIndices(), e->getRange(), idx))
    return TValue();
  return TValue::ofScalar(loadElement(base.buffer, idx, e->getRange()), base.buffer->dtype);
}

//===----------------------------------------------------------------------===//
// Argument kinds
//===----------------------------------------------------------------------===//

/// Evaluates argument `name` expecting a constant; nullopt when absent.
static std::optional<ConstValue> constArg(KernelGen &g, const BoundCall &call, llvm::StringRef name) {
  const Expr *e = call.get(name);
  if (!e)
    return std::nullopt;
  TValue v = g.eval(e);
  if (!v.isValid()) {
    g.argFailed = true;
    return std::nullopt;
  }
  if (!v.isConst()) {
    g.diags.emit(DiagID::sema_not_constant, e->getRange(), name, call.info->name);
    g.argFailed = true;
    return std::nullopt;
  }
  return v.cst;
}

std::optional<int64_t> KernelGen::constIntArg(const BoundCall &call, llvm::StringRef name) {
  std::optional<ConstValue> c = constArg(*this, call, name);
  if (!c) {
    const ArgDefault &d = call.getDefault(name);
    if (argFailed || d.kind != ArgDefault::Int)
      return std::nullopt;
    return d.intValue;
  }
  if (!c->isIntLike()) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf(name), name, call.info->name, "an integer", c->describe());
    argFailed = true;
    return std::nullopt;
  }
  return c->getInt();
}

std::optional<tile::GemmPolicy> KernelGen::gemmPolicyArg(const BoundCall &call) {
  const Expr *pe = call.get("policy");
  if (!pe)
    return tile::GemmPolicy::Square;
  TValue p = eval(pe);
  if (!p.isValid())
    return std::nullopt;
  if (!p.isConst() || p.cst.getKind() != ConstValue::Kind::Policy) {
    diags.emit(DiagID::sema_wrong_arg_kind, pe->getRange(), "policy", call.info->name, "a T.GemmWarpPolicy",
               p.describe());
    return std::nullopt;
  }
  llvm::StringRef name = p.cst.getStr();
  return name == "FullRow"   ? tile::GemmPolicy::FullRow
         : name == "FullCol" ? tile::GemmPolicy::FullCol
                             : tile::GemmPolicy::Square;
}

std::optional<bool> KernelGen::constBoolArg(const BoundCall &call, llvm::StringRef name) {
  std::optional<ConstValue> c = constArg(*this, call, name);
  if (!c) {
    const ArgDefault &d = call.getDefault(name);
    if (argFailed || d.kind != ArgDefault::Bool)
      return std::nullopt;
    return d.intValue != 0;
  }
  if (!c->isIntLike()) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf(name), name, call.info->name, "a bool", c->describe());
    argFailed = true;
    return std::nullopt;
  }
  return c->getBool();
}

std::optional<std::string> KernelGen::constStrArg(const BoundCall &call, llvm::StringRef name) {
  std::optional<ConstValue> c = constArg(*this, call, name);
  if (!c) {
    const ArgDefault &d = call.getDefault(name);
    if (argFailed || d.kind != ArgDefault::Str)
      return std::nullopt;
    return std::string(d.strValue);
  }
  if (c->getKind() != ConstValue::Kind::Str) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf(name), name, call.info->name, "a string", c->describe());
    argFailed = true;
    return std::nullopt;
  }
  return c->getStr().str();
}

std::optional<DType> KernelGen::dtypeArg(const BoundCall &call, llvm::StringRef name) {
  const Expr *e = call.get(name);
  if (!e) {
    const ArgDefault &d = call.getDefault(name);
    if (d.kind == ArgDefault::Str)
      return parseDType(d.strValue);
    return std::nullopt;
  }
  TValue v = eval(e);
  if (!v.isValid()) {
    argFailed = true;
    return std::nullopt;
  }
  if (v.isConst()) {
    if (std::optional<DType> t = v.cst.asDType())
      return t;
    if (v.cst.getKind() == ConstValue::Kind::Str) {
      diags.emit(DiagID::sema_unknown_dtype, e->getRange(), v.cst.getStr(),
                 didYouMean(v.cst.getStr(), allDTypeNames()));
      argFailed = true;
      return std::nullopt;
    }
  }
  diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), name, call.info->name, "a dtype", v.describe());
  argFailed = true;
  return std::nullopt;
}

BufferInfo *KernelGen::bufferArg(const BoundCall &call, llvm::StringRef name) {
  const Expr *e = call.get(name);
  if (!e)
    return nullptr;
  TValue v = eval(e);
  if (!v.isValid()) {
    argFailed = true;
    return nullptr;
  }
  if (!v.isBuffer()) {
    diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), name, call.info->name, "a buffer", v.describe());
    argFailed = true;
    return nullptr;
  }
  return v.buffer;
}

std::optional<llvm::SmallVector<int64_t, 4>> KernelGen::shapeArg(const BoundCall &call, llvm::StringRef name) {
  std::optional<ConstValue> c = constArg(*this, call, name);
  if (!c)
    return std::nullopt;
  std::vector<ConstValue> dims;
  // A tuple, or a list bound at the meta level (`shape = [a, b] if t else [b, a]`).
  if (c->isSequence())
    dims.assign(c->getElts().begin(), c->getElts().end());
  else
    dims.push_back(*c);
  llvm::SmallVector<int64_t, 4> shape;
  for (const ConstValue &d : dims) {
    if (d.getKind() != ConstValue::Kind::Int || d.getInt() <= 0 || d.getInt() > (int64_t(1) << 32)) {
      diags.emit(DiagID::sema_bad_shape_dim, call.rangeOf(name), d.str());
      argFailed = true;
      return std::nullopt;
    }
    shape.push_back(d.getInt());
  }
  return shape;
}

std::optional<llvm::SmallVector<int64_t, 3>> KernelGen::extentsArg(const BoundCall &call, llvm::StringRef name) {
  std::optional<ConstValue> c = constArg(*this, call, name);
  if (!c) {
    const ArgDefault &d = call.getDefault(name);
    if (argFailed || d.kind != ArgDefault::Int)
      return std::nullopt;
    return llvm::SmallVector<int64_t, 3>{d.intValue, 1, 1};
  }
  std::vector<ConstValue> dims;
  if (c->getKind() == ConstValue::Kind::Tuple)
    dims.assign(c->getElts().begin(), c->getElts().end());
  else
    dims.push_back(*c);
  if (dims.empty() || dims.size() > 3) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf(name), name, call.info->name,
               "an integer or a tuple of 1 to 3 integers", c->str());
    argFailed = true;
    return std::nullopt;
  }
  llvm::SmallVector<int64_t, 3> out;
  for (const ConstValue &d : dims) {
    if (d.getKind() != ConstValue::Kind::Int || d.getInt() <= 0 || d.getInt() > 65536) {
      diags.emit(DiagID::sema_positive_const, call.rangeOf(name), name, d.str());
      argFailed = true;
      return std::nullopt;
    }
    out.push_back(d.getInt());
  }
  while (out.size() < 3)
    out.push_back(1);
  return out;
}
