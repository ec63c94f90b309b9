//===- TileGenMeta.cpp - Meta values inside kernel bodies -----------------===//
//
// Where kernel code generation meets the meta interpreter: size expressions
// over runtime dimensions become index arithmetic, helper functions called
// in a kernel run at compile time, and primitives reached through meta
// values (`alloc = T.alloc_shared`, `tilelang.layout.make_swizzled_layout`).
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;

TValue KernelGen::lowerSize(const meta::SizeExpr &e, llvm::SMRange range) {
  using Op = meta::SizeExpr::Op;
  mlir::Location l = loc(range);
  if (e.op == Op::Const)
    return TValue::ofScalar(indexConst(e.constant, range), DType::Index);
  if (e.op == Op::Dim) {
    auto it = dynamicDims.find(e.name);
    if (it == dynamicDims.end()) {
      diags.emit(DiagID::sema_runtime_dim_in_const, range, e.name);
      return TValue();
    }
    return TValue::ofScalar(it->second, DType::Index);
  }
  TValue a = lowerSize(*e.lhs, range), c = lowerSize(*e.rhs, range);
  if (!a.isValid() || !c.isValid())
    return TValue();
  mlir::Value x = a.value, y = c.value, r;
  switch (e.op) {
  case Op::Add: r = arith::AddIOp::create(b, l, x, y); break;
  case Op::Sub: r = arith::SubIOp::create(b, l, x, y); break;
  case Op::Mul: r = arith::MulIOp::create(b, l, x, y); break;
  case Op::FloorDiv: r = arith::FloorDivSIOp::create(b, l, x, y); break;
  case Op::Mod: {
    mlir::Value q = arith::FloorDivSIOp::create(b, l, x, y);
    r = arith::SubIOp::create(b, l, x, arith::MulIOp::create(b, l, q, y));
    break;
  }
  case Op::Min: r = arith::MinSIOp::create(b, l, x, y); break;
  case Op::Max: r = arith::MaxSIOp::create(b, l, x, y); break;
  default: return TValue();
  }
  return TValue::ofScalar(r, DType::Index);
}

/// The meta value a callee names when it is not a kernel-level name: a
/// function, a builtin without a primitive, ...; Invalid otherwise.
meta::Value KernelGen::metaCallee(const Expr *callee) {
  const Expr *root = callee;
  while (auto *a = llvm::dyn_cast<AttributeExpr>(root))
    root = a->getValue();
  auto *n = llvm::dyn_cast<NameExpr>(root);
  if (!n || n->getName() == "T" || lookupLocal(n->getName()) || params.count(n->getName()))
    return meta::Value();
  if (!metaEnv->lookup(n->getName()))
    return meta::Value();
  meta::Value v = info.interp->eval(callee, metaEnv);
  return v;
}

std::optional<TValue> KernelGen::callMetaFunction(const CallExpr *e) {
  using K = meta::Value::Kind;
  meta::Value callee = metaCallee(e->getCallee());
  // `helper(a, b)(x, y)`: the function a helper returns, called here.
  if (!callee.isValid() && llvm::isa<CallExpr>(e->getCallee())) {
    TValue c = eval(e->getCallee());
    if (!c.isValid())
      return TValue();
    if (!c.isConst() || !(c.cst.is(K::Function) || c.cst.is(K::Macro) || c.cst.is(K::Builtin))) {
      diags.emit(DiagID::sema_not_callable, e->getCallee()->getRange(), "the value of this call");
      return TValue();
    }
    callee = c.cst;
  }
  if (!callee.isValid())
    return std::nullopt;
  if (callee.is(K::Builtin) && callee.as<meta::BuiltinObj>()->prim)
    return std::nullopt; // a T.* primitive passed as a value: generated below
  if (callee.is(K::Macro))
    return inlineFunction(*callee.as<meta::FunctionObj>(), e);
  if (!callee.is(K::Function) && !callee.is(K::Builtin))
    return std::nullopt;
  // Arguments are evaluated once, in the caller. A helper function called
  // with a kernel value runs as tile-lang runs it: traced at the call, i.e.
  // inlined like a macro; on compile-time arguments it runs at compile time.
  CallValues cv;
  if (!evalCallArgs(e, cv))
    return TValue();
  bool allConst = llvm::all_of(cv.pos, [](const TValue &v) { return v.isConst(); }) &&
                  llvm::all_of(cv.kwValues, [](const TValue &v) { return v.isConst(); });
  if (callee.is(K::Function) && !allConst)
    return inlineFunction(*callee.as<meta::FunctionObj>(), e, cv);
  meta::CallArgs args;
  args.range = e->getRange();
  args.calleeRange = e->getCallee()->getRange();
  for (size_t k = 0; k < cv.pos.size(); ++k) {
    const Expr *a = e->getArgs()[k];
    if (!cv.pos[k].isConst()) {
      diags.emit(DiagID::meta_error, a->getRange(),
                 "'" + calleeName(e->getCallee()) + "' runs at compile time, but this argument is " +
                     cv.pos[k].describe() + "; make the function a @T.macro to use kernel values in it");
      return TValue();
    }
    args.args.push_back(cv.pos[k].cst);
    args.argRanges.push_back(a->getRange());
  }
  for (size_t k = 0; k < cv.kwValues.size(); ++k) {
    const Keyword &kw = e->getKeywords()[k];
    if (!cv.kwValues[k].isConst()) {
      diags.emit(DiagID::meta_error, kw.value->getRange(),
                 "'" + calleeName(e->getCallee()) + "' runs at compile time; this argument must be a compile-time value");
      return TValue();
    }
    args.kwargs.emplace_back(kw.name, cv.kwValues[k].cst);
    args.kwRanges.push_back(kw.value->getRange());
  }
  ConstValue r = info.interp->call(callee, args);
  if (!r.isValid())
    return TValue();
  if (meta::deferredHarness(r)) { // an unknown `T.X` default, reported at the `T.X`
    info.interp->reportHarnessUse(r, e->getRange());
    return TValue();
  }
  if (const meta::SizeExpr *size = r.getSize())
    return lowerSize(*size, e->getRange());
  return TValue::ofConst(r);
}

bool KernelGen::evalCallArgs(const CallExpr *call, CallValues &cv) {
  for (const Expr *a : call->getArgs()) {
    if (llvm::isa<StarredExpr>(a)) {
      diags.emit(DiagID::not_supported_yet, a->getRange(), "'*' unpacking in a call from kernel code");
      return false;
    }
    cv.pos.push_back(eval(a));
    if (!cv.pos.back().isValid())
      return false;
  }
  for (const Keyword &kw : call->getKeywords()) {
    if (kw.name.empty()) {
      diags.emit(DiagID::not_supported_yet, kw.nameRange, "'**' unpacking in a call from kernel code");
      return false;
    }
    cv.kwNames.push_back(kw.name);
    cv.kwValues.push_back(eval(kw.value));
    if (!cv.kwValues.back().isValid())
      return false;
  }
  return true;
}

TValue KernelGen::inlineFunction(const meta::FunctionObj &fn, const CallExpr *call) {
  CallValues cv;
  if (!evalCallArgs(call, cv))
    return TValue();
  return inlineFunction(fn, call, cv);
}

TValue KernelGen::inlineFunction(const meta::FunctionObj &fn, const CallExpr *call, const CallValues &cv) {
  if (inlineDepth > 32) {
    diags.emit(DiagID::meta_recursion, call->getRange(), 32);
    return TValue();
  }
  const std::vector<TValue> &pos = cv.pos, &kwValues = cv.kwValues;
  const std::vector<std::string> &kwNames = cv.kwNames;
  std::optional<std::vector<meta::ParamSlot>> slots =
      info.interp->matchArgs(fn, pos.size(), kwNames, call->getRange());
  if (!slots)
    return TValue();
  // Bind the parameters in a fresh scope that hides the caller's names.
  meta::Env *savedEnv = metaEnv;
  size_t savedFloor = scopeFloor;
  llvm::StringMap<TValue> savedParams;
  std::swap(savedParams, params);
  pushScope(false);
  scopeFloor = scopes.size() - 1;
  metaEnv = fn.closure;
  ++inlineDepth;
  auto restore = [&] {
    --inlineDepth;
    popScope();
    scopeFloor = savedFloor;
    metaEnv = savedEnv;
    std::swap(savedParams, params);
  };
  for (size_t k = 0; k < fn.params.size(); ++k) {
    const Param &p = fn.params[k];
    const meta::ParamSlot &s = (*slots)[k];
    TValue v;
    if (s.positional >= 0)
      v = pos[s.positional];
    else if (s.keyword >= 0)
      v = kwValues[s.keyword];
    else if (s.useDefault)
      v = TValue::ofConst(fn.defaults[k]);
    else {
      std::vector<ConstValue> rest;
      for (unsigned i : s.rest) {
        const TValue &x = p.kind == ParamKind::VarKeyword ? kwValues[i] : pos[i];
        if (!x.isConst()) {
          diags.emit(DiagID::not_supported_yet, call->getRange(), "kernel values in a macro's *args or **kwargs");
          restore();
          return TValue();
        }
        rest.push_back(x.cst);
      }
      v = TValue::ofConst(ConstValue::ofTuple(std::move(rest)));
    }
    LocalVar var;
    var.value = v;
    var.declRange = p.range;
    var.depth = depth();
    scopes.back().names[p.name] = var;
  }
  // The body; its `return` (at the top level) gives the call's value.
  TValue result = TValue::ofConst(ConstValue::none());
  unsigned errorsBefore = diags.getNumErrors();
  if (fn.lambda) {
    result = eval(llvm::cast<LambdaExpr>(fn.lambda)->getBody());
  } else {
    for (const Stmt *s : fn.def->getBody()) {
      if (auto *r = llvm::dyn_cast<ReturnStmt>(s)) {
        if (r->getValue())
          result = eval(r->getValue());
        break;
      }
      genStmt(s);
    }
  }
  restore();
  if (diags.getNumErrors() != errorsBefore)
    return TValue();
  return result;
}
