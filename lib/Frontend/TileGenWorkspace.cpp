//===- TileGenWorkspace.cpp - Global intermediates and reducers ----------===//
//
// `T.alloc_global` / `T.alloc_buffer` (a global buffer of the kernel
// function, outside every T.Kernel: spec §5 and §8's workspace), and
// `T.alloc_reducer` / `T.finalize_reducer` (a fragment whose copies hold
// per-thread partial results until the finalize combines them).
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

/// One dimension of a global buffer's shape: a positive constant or a
/// runtime dimension of the kernel (by name).
bool KernelGen::globalShapeDim(const TValue &v, llvm::SMRange range, GlobalShape &out) {
  auto dynamicNamed = [&](llvm::StringRef name) {
    auto it = dynamicDims.find(name);
    if (it == dynamicDims.end()) {
      diags.emit(DiagID::sema_global_dim, range, name, "a runtime dimension no kernel parameter's shape names");
      return false;
    }
    out.shape.push_back(mlir::ShapedType::kDynamic);
    out.dimNames.push_back(name.str());
    out.sizes.push_back(it->second);
    return true;
  };
  if (v.isConst()) {
    const ConstValue &c = v.cst;
    if (c.is(meta::Value::Kind::Dynamic) && c.isPlainDim())
      return dynamicNamed(c.getStr());
    if (c.isInt() && c.getInt() > 0 && c.getInt() <= (int64_t(1) << 40)) {
      out.shape.push_back(c.getInt());
      out.dimNames.push_back("");
      return true;
    }
    diags.emit(DiagID::sema_global_dim, range, c.str(), "not a positive integer");
    return false;
  }
  if (v.isScalar())
    for (const auto &entry : dynamicDims)
      if (entry.getValue() == v.value)
        return dynamicNamed(entry.getKey());
  llvm::StringRef text(range.Start.getPointer(), range.End.getPointer() - range.Start.getPointer());
  diags.emit(DiagID::sema_global_dim, range, text,
             v.isScalar() ? "computed at run time (a size expression over runtime dimensions is not supported yet)"
                          : ("not a dimension but " + v.describe()).c_str());
  return false;
}

/// A dimension written as the name of a runtime dimension, taken by name
/// (evaluating it would lower it to the kernel's argument, or report one
/// the kernel does not have as a constant's misuse).
std::optional<TValue> KernelGen::globalDimByName(const Expr *e) {
  auto *n = llvm::dyn_cast<NameExpr>(e);
  if (!n || lookupLocal(n->getName()) || params.count(n->getName()))
    return std::nullopt;
  const meta::Binding *c = metaEnv->lookup(n->getName());
  if (!c || !c->value.is(meta::Value::Kind::Dynamic) || !c->value.isPlainDim())
    return std::nullopt;
  return TValue::ofConst(c->value);
}

/// The shape argument of a global allocation: a tuple or list written in
/// place (each element evaluated), a tuple value, or one dimension.
bool KernelGen::globalShapeArg(const BoundCall &call, GlobalShape &out) {
  const Expr *e = call.get("shape");
  llvm::ArrayRef<Expr *> elts;
  if (auto *t = llvm::dyn_cast<TupleExpr>(e))
    elts = t->getElts();
  else if (auto *l = llvm::dyn_cast<ListExpr>(e))
    elts = l->getElts();
  if (llvm::isa<TupleExpr, ListExpr>(e)) {
    for (const Expr *elt : elts) {
      std::optional<TValue> named = globalDimByName(elt);
      TValue v = named ? *named : eval(elt);
      if (!v.isValid() || !globalShapeDim(v, elt->getRange(), out))
        return false;
    }
  } else {
    std::optional<TValue> named = globalDimByName(e);
    TValue v = named ? *named : eval(e);
    if (!v.isValid())
      return false;
    if (v.isConst() && v.cst.isSequence()) {
      for (const ConstValue &c : v.cst.getElts())
        if (!globalShapeDim(TValue::ofConst(c), e->getRange(), out))
          return false;
    } else if (!globalShapeDim(v, e->getRange(), out)) {
      return false;
    }
  }
  if (out.shape.empty()) {
    diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), "shape", call.info->name, "a non-empty shape",
               "an empty tuple");
    return false;
  }
  return true;
}

void KernelGen::genGlobalAlloc(const BoundCall &call, const NameExpr *target) {
  argFailed = false;
  std::optional<std::string> scope = constStrArg(call, "scope");
  if (!scope)
    return;
  if (*scope != "global") {
    if (call.info->id == BuiltinID::AllocGlobal) {
      diags.emit(DiagID::sema_unknown_alloc_scope, call.rangeOf("scope"), *scope, call.info->name, "'global'");
      return;
    }
    // T.alloc_buffer in another scope: the launch's allocators.
    if (!launch) {
      diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(),
                 (call.info->name + llvm::Twine(" with scope '") + *scope + "'").str());
      return;
    }
    return genAlloc(call, target);
  }
  if (launch) {
    diags.emit(DiagID::sema_global_alloc_in_launch, call.call->getCallee()->getRange(), call.info->name);
    return;
  }
  llvm::StringRef name = target->getName();
  if (LocalVar *var = lookupLocal(name); var && var->isBound()) {
    auto diag = diags.emit(DiagID::sema_redefinition, target->getRange(), name, var->value.describe());
    diags.note(diag, DiagID::sema_note_previous_definition, var->declRange, name);
    return;
  }
  if (params.count(name)) {
    diags.emit(DiagID::sema_redefinition, target->getRange(), name, "a kernel parameter");
    return;
  }
  std::optional<DType> t = dtypeArg(call, "dtype");
  GlobalShape shape;
  if (argFailed || !t || !globalShapeArg(call, shape))
    return;
  mlir::Location l = loc(call.call->getRange());
  auto type = tile::getBufferType(shape.shape, elementType(*t), tile::Scope::Global);
  auto alloc = tile::AllocGlobalOp::create(b, l, type, shape.sizes, b.getStringAttr(name));
  if (isUnsignedDType(*t))
    tile::setDtype(alloc, b.getStringAttr(dtypeName(*t)));
  BufferInfo *buf = newBuffer();
  buf->name = name.str();
  buf->value = alloc.getResult();
  buf->dtype = *t;
  buf->scope = tile::Scope::Global;
  buf->shape = shape.shape;
  buf->dimNames.assign(shape.dimNames.begin(), shape.dimNames.end());
  buf->declRange = target->getRange();
  scopes.back().names[name] = LocalVar{TValue::ofBuffer(buf), target->getRange(), depth()};
}

std::optional<tile::ReduceKind> KernelGen::reducerKindArg(const BoundCall &call) {
  std::optional<std::string> op = constStrArg(call, "op");
  if (!op)
    return std::nullopt;
  std::optional<tile::ReduceKind> kind = llvm::StringSwitch<std::optional<tile::ReduceKind>>(*op)
                                             .Case("sum", tile::ReduceKind::Sum)
                                             .Case("max", tile::ReduceKind::Max)
                                             .Case("min", tile::ReduceKind::Min)
                                             .Default(std::nullopt);
  if (!kind) {
    diags.emit(DiagID::sema_reducer_op, call.rangeOf("op"), *op);
    argFailed = true;
    return std::nullopt;
  }
  // tile-lang's replication: "all" (every thread holds every element) or
  // "none"; the layout inference decides which threads hold copies either
  // way, and the result is the same.
  if (const Expr *rep = call.get("replication")) {
    TValue v = eval(rep);
    if (!v.isValid()) {
      argFailed = true;
      return std::nullopt;
    }
    bool ok = v.isConst() &&
              (v.cst.is(meta::Value::Kind::None) ||
               (v.cst.getKind() == ConstValue::Kind::Str && (v.cst.getStr() == "all" || v.cst.getStr() == "none")));
    if (!ok) {
      diags.emit(DiagID::sema_wrong_arg_kind, rep->getRange(), "replication", call.info->name,
                 "\"all\", \"none\" or None", v.describe());
      argFailed = true;
      return std::nullopt;
    }
  }
  return kind;
}

void KernelGen::genFinalizeReducer(const BoundCall &call) {
  argFailed = false;
  BufferInfo *buf = bufferArg(call, "reducer");
  if (!buf)
    return;
  if (!buf->reducer) {
    diags.emit(DiagID::sema_not_reducer, call.rangeOf("reducer"), buf->name, TValue::ofBuffer(buf).describe());
    return;
  }
  if (call.get("dst")) {
    diags.emit(DiagID::not_supported_yet, call.rangeOf("dst"),
               "T.finalize_reducer with a destination (tile-lang's reducer_init/reducer_update form; "
               "finalize in place with T.finalize_reducer(reducer) and read the reducer)");
    return;
  }
  std::optional<int64_t> batch = constIntArg(call, "batch");
  if (!batch)
    return;
  if (*batch < 1) {
    diags.emit(DiagID::sema_positive_const, call.rangeOf("batch"), "batch", *batch);
    return;
  }
  tile::FinalizeReducerOp::create(b, loc(call.call->getRange()), buf->value);
}
