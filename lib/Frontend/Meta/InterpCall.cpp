//===- InterpCall.cpp - Calls, functions, decorators, eager kernels -------===//
//
// Binding arguments to parameters (defaults, keyword-only, *args,
// **kwargs), calling functions and builtins, `def` with its decorators, and
// the meta half of eager-style kernels (declarations up to `with T.Kernel`).
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "tilec/Frontend/AST.h"

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

static constexpr unsigned kMaxCallDepth = 120;

std::optional<std::vector<ParamSlot>> Interpreter::matchArgs(const FunctionObj &fn, unsigned numPositional,
                                                             llvm::ArrayRef<std::string> keywords,
                                                             llvm::SMRange callRange) {
  std::vector<ParamSlot> slots(fn.params.size());
  std::vector<bool> filled(fn.params.size(), false);
  int varPos = -1, varKw = -1;
  std::vector<unsigned> positional;
  for (size_t k = 0; k < fn.params.size(); ++k) {
    ParamKind pk = fn.params[k].kind;
    if (pk == ParamKind::VarPositional)
      varPos = int(k);
    else if (pk == ParamKind::VarKeyword)
      varKw = int(k);
    else if (pk == ParamKind::PositionalOnly || pk == ParamKind::Normal)
      positional.push_back(unsigned(k));
  }
  for (unsigned i = 0; i < numPositional; ++i) {
    if (i < positional.size()) {
      slots[positional[i]].positional = int(i);
      filled[positional[i]] = true;
    } else if (varPos >= 0) {
      slots[varPos].rest.push_back(i);
    } else {
      error(DiagID::meta_call_error, callRange, fn.name,
            "takes " + std::to_string(positional.size()) + " positional argument" +
                (positional.size() == 1 ? "" : "s") + " but " + std::to_string(numPositional) +
                (numPositional == 1 ? " was" : " were") + " given");
      return std::nullopt;
    }
  }
  for (size_t j = 0; j < keywords.size(); ++j) {
    int idx = -1;
    for (size_t k = 0; k < fn.params.size(); ++k)
      if (fn.params[k].name == keywords[j] &&
          (fn.params[k].kind == ParamKind::Normal || fn.params[k].kind == ParamKind::KeywordOnly))
        idx = int(k);
    if (idx < 0) {
      if (varKw >= 0) {
        slots[varKw].rest.push_back(unsigned(j));
        continue;
      }
      llvm::SmallVector<llvm::StringRef, 8> names;
      for (const Param &p : fn.params)
        names.push_back(p.name);
      error(DiagID::meta_call_error, callRange, fn.name,
            "got an unexpected keyword argument '" + keywords[j] + "'" + didYouMean(keywords[j], names));
      return std::nullopt;
    }
    if (filled[idx]) {
      error(DiagID::meta_call_error, callRange, fn.name, "got multiple values for argument '" + keywords[j] + "'");
      return std::nullopt;
    }
    slots[idx].keyword = int(j);
    filled[idx] = true;
  }
  for (size_t k = 0; k < fn.params.size(); ++k) {
    if (filled[k] || int(k) == varPos || int(k) == varKw)
      continue;
    if (k < fn.defaults.size() && fn.defaults[k].isValid()) {
      slots[k].useDefault = true;
      continue;
    }
    error(DiagID::meta_call_error, callRange, fn.name, "is missing required argument '" + fn.params[k].name + "'");
    return std::nullopt;
  }
  return slots;
}

/// Binds a call's arguments into `frame`; false after an error.
static bool bindParams(Interpreter &in, const FunctionObj &fn, CallArgs &args, Env *frame) {
  std::vector<std::string> names;
  for (auto &[k, v] : args.kwargs)
    names.push_back(k);
  std::optional<std::vector<ParamSlot>> slots = in.matchArgs(fn, args.args.size(), names, args.range);
  if (!slots)
    return false;
  for (size_t k = 0; k < fn.params.size(); ++k) {
    const Param &p = fn.params[k];
    const ParamSlot &s = (*slots)[k];
    Value v;
    if (p.kind == ParamKind::VarPositional) {
      std::vector<Value> rest;
      for (unsigned i : s.rest)
        rest.push_back(args.args[i]);
      v = Value::ofTuple(std::move(rest));
    } else if (p.kind == ParamKind::VarKeyword) {
      std::vector<std::pair<Value, Value>> rest;
      for (unsigned j : s.rest)
        rest.emplace_back(Value::ofStr(args.kwargs[j].first), args.kwargs[j].second);
      v = Value::ofDict(std::move(rest));
    } else if (s.positional >= 0) {
      v = args.args[s.positional];
    } else if (s.keyword >= 0) {
      v = args.kwargs[s.keyword].second;
    } else {
      v = fn.defaults[k];
    }
    frame->set(p.name, v, p.range);
  }
  return true;
}

static bool decorated(const Value &v) { return v.isValid() && !v.is(K::None); }

bool tilec::meta::isFactoryFunction(const FunctionObj &fn) {
  return fn.def && (definesPrimFunc(fn.def->getBody()) || decorated(fn.jit) || decorated(fn.autotune));
}

bool tilec::meta::isEagerFunction(const FunctionObj &fn) {
  return fn.def && (decorated(fn.jit) || decorated(fn.autotune)) && !definesPrimFunc(fn.def->getBody()) &&
         hasKernelWith(fn.def->getBody());
}

static bool isFactoryLike(const FunctionObj &fn) { return isFactoryFunction(fn); }
static bool isEager(const FunctionObj &fn) { return isEagerFunction(fn); }

std::string detail::calleeText(const Expr *e) {
  if (auto *n = llvm::dyn_cast<NameExpr>(e))
    return n->getName().str();
  if (auto *a = llvm::dyn_cast<AttributeExpr>(e)) {
    std::string base = calleeText(a->getValue());
    return base.empty() ? "" : base + "." + a->getAttr().str();
  }
  return "";
}

bool detail::isPrimFuncExpr(const Expr *d) {
  if (auto *c = llvm::dyn_cast<CallExpr>(d))
    d = c->getCallee();
  std::string n = calleeText(d);
  return n == "T.prim_func" || n == "prim_func" || n == "tilelang.language.prim_func";
}

bool detail::definesPrimFunc(const Body &body) {
  for (const Stmt *s : body) {
    if (auto *f = llvm::dyn_cast<FunctionDefStmt>(s)) {
      if (llvm::any_of(f->getDecorators(), isPrimFuncExpr))
        return true;
      continue;
    }
    if (auto *i = llvm::dyn_cast<IfStmt>(s)) {
      if (definesPrimFunc(i->getThen()) || definesPrimFunc(i->getElse()))
        return true;
    } else if (auto *fo = llvm::dyn_cast<ForStmt>(s)) {
      if (definesPrimFunc(fo->getBody()))
        return true;
    } else if (auto *t = llvm::dyn_cast<TryStmt>(s)) {
      if (definesPrimFunc(t->getBody()))
        return true;
    }
  }
  return false;
}

bool detail::hasKernelWith(const Body &body) {
  return llvm::any_of(body, [](const Stmt *s) { return llvm::isa<WithStmt>(s); });
}

std::vector<std::string> tilec::meta::eagerTensorParams(const FunctionObj &fn) {
  std::vector<std::string> out;
  if (!fn.def)
    return out;
  for (const Stmt *s : fn.def->getBody())
    if (auto *a = llvm::dyn_cast<AnnotationStmt>(s))
      if (auto *n = llvm::dyn_cast<NameExpr>(a->getTarget()))
        if (fn.paramIndex(n->getName()) >= 0)
          out.push_back(n->getName().str());
  return out;
}


/// Marks the kernels a factory call returns that were created during the
/// call (kernels from index `firstKernel` on) as exported under `name`; the
/// outermost factory, claiming last, gives the name.
static void claimKernel(Interpreter &in, const Value &ret, size_t firstKernel, llvm::StringRef name) {
  auto claim = [&](const Value &v) {
    auto *k = v.as<KernelObj>();
    if (!v.is(K::Kernel) || !k)
      return;
    auto &all = in.getKernels();
    for (size_t i = firstKernel; i < all.size(); ++i)
      if (all[i].getObject() == k) {
        k->exportName = name.str();
        return;
      }
  };
  claim(ret);
  if (ret.is(K::Tuple))
    for (const Value &v : ret.getElts())
      claim(v);
}

static Value makeEagerKernel(Interpreter &in, const FunctionObj &fn, CallArgs &args, Env *frame) {
  const FunctionDefStmt *def = fn.def;
  std::vector<std::string> tensors = eagerTensorParams(fn);
  // Non-tensor parameters are constants: arguments, -D (given by the
  // caller as keywords), defaults.
  unsigned pos = 0;
  for (size_t k = 0; k < fn.params.size(); ++k) {
    const Param &p = fn.params[k];
    bool isTensor = std::find(tensors.begin(), tensors.end(), p.name) != tensors.end();
    if (isTensor) {
      if (pos < args.args.size())
        ++pos;
      continue;
    }
    if (const Value *v = args.kw(p.name)) {
      frame->set(p.name, *v, p.range);
    } else if (pos < args.args.size()) {
      frame->set(p.name, args.args[pos++], p.range);
    } else if (k < fn.defaults.size() && fn.defaults[k].isValid()) {
      frame->set(p.name, fn.defaults[k], p.range);
    } else {
      in.error(DiagID::meta_eager_param, p.range, p.name, fn.name);
      return Value();
    }
  }
  FnState st;
  st.inFunction = true;
  st.eager = true;
  const Body &body = def->getBody();
  size_t k = 0;
  for (; k < body.size(); ++k) {
    if (llvm::isa<WithStmt>(body[k]))
      break;
    Flow f = execStmt(in, body[k], frame, st);
    if (f == Flow::Error)
      return Value();
    if (f != Flow::Normal)
      break;
  }
  auto kobj = std::make_shared<KernelObj>();
  kobj->name = fn.name;
  kobj->exportName = fn.name;
  kobj->def = def;
  kobj->closure = frame;
  kobj->jit = fn.jit;
  kobj->autotune = fn.autotune;
  kobj->eager = true;
  kobj->eagerInputs = st.eagerInputs;
  kobj->eagerInputRanges = st.eagerInputRanges;
  const ReturnStmt *ret = nullptr;
  for (; k < body.size(); ++k) {
    if (auto *r = llvm::dyn_cast<ReturnStmt>(body[k])) {
      ret = r;
      break;
    }
    kobj->body.push_back(body[k]);
  }
  // Outputs in `return` order.
  if (ret && ret->getValue()) {
    std::vector<const Expr *> names;
    if (auto *t = llvm::dyn_cast<TupleExpr>(ret->getValue()))
      names.assign(t->getElts().begin(), t->getElts().end());
    else
      names.push_back(ret->getValue());
    for (const Expr *e : names) {
      auto *n = llvm::dyn_cast<NameExpr>(e);
      const Binding *b = n ? frame->lookup(n->getName()) : nullptr;
      NamedObj *t = b ? asObject(b->value, "TensorType") : nullptr;
      if (!t || !t->fields.lookup("output").truthy()) {
        in.error(DiagID::meta_error, e->getRange(),
                 "an eager kernel returns the tensors it creates with T.empty(...), one name each");
        return Value();
      }
      kobj->eagerOutputs.emplace_back(n->getName().str(), b->value);
      kobj->eagerOutputRanges.push_back(b->defRange);
    }
  }
  for (const Interpreter::Frame &f : in.getStack())
    kobj->frames.emplace_back(f.what, f.range);
  Value kv = Value::ofObject(K::Kernel, kobj);
  in.getKernels().push_back(kv);
  return kv;
}

Value Interpreter::callFunction(const Value &fnValue, CallArgs &args) {
  auto *fn = fnValue.as<FunctionObj>();
  if (depth > kMaxCallDepth * 3 || stack.size() > kMaxCallDepth) {
    error(DiagID::meta_recursion, args.range, kMaxCallDepth);
    return Value();
  }
  // A function called with harness values (torch tensors, ...) is harness
  // code itself: its result is a harness value, an error only where used.
  // A deferred unknown `T.X` stays itself, so that its use reports it.
  for (const Value &a : args.args)
    if (a.is(K::Harness))
      return deferredHarness(a) ? a : makeHarness(fn->name + "(...)", a.as<HarnessObj>()->origin);
  for (auto &[k, a] : args.kwargs)
    if (a.is(K::Harness))
      return deferredHarness(a) ? a : makeHarness(fn->name + "(...)", a.as<HarnessObj>()->origin);
  Env *frame = newEnv(fn->closure);
  bool factory = isFactoryLike(*fn);
  if (fn->def && isEager(*fn)) {
    stack.push_back({"eager kernel '" + fn->name + "'", args.range});
    Value k = makeEagerKernel(*this, *fn, args, frame);
    stack.pop_back();
    return k;
  }
  if (!bindParams(*this, *fn, args, frame))
    return Value();
  stack.push_back({describeCall(factory ? "factory" : "function", fn->name, *fn, frame), args.range});
  size_t firstKernel = kernels.size();
  Value result;
  if (fn->lambda) {
    result = eval(llvm::cast<LambdaExpr>(fn->lambda)->getBody(), frame);
  } else {
    FnState st;
    st.inFunction = true;
    Flow f = execBody(*this, fn->def->getBody(), frame, st);
    if (f == Flow::Return)
      result = st.ret;
    else if (f == Flow::Normal)
      result = Value::none();
    else if (f == Flow::Break || f == Flow::Continue)
      result = Value::none();
  }
  stack.pop_back();
  if (result.isValid() && (result.is(K::Kernel) || result.is(K::Tuple)))
    claimKernel(*this, result, firstKernel, fn->name);
  return result;
}

/// A decorator that may be used bare (`@d`) or with arguments (`@d(...)`):
/// `apply` receives the decorated value and the keyword arguments.
static Value decoratorFactory(std::string name,
                              std::function<Value(Interpreter &, const Value &, const Value &kwargs, CallArgs &)> apply) {
  return makeBuiltin(name, [name, apply](Interpreter &in, CallArgs &args) -> Value {
    auto kwDict = [&args]() {
      std::vector<std::pair<Value, Value>> items;
      for (auto &[k, v] : args.kwargs)
        items.emplace_back(Value::ofStr(k), v);
      return Value::ofDict(std::move(items));
    };
    if (args.args.size() == 1 && args.kwargs.empty() &&
        (args.args[0].is(K::Function) || args.args[0].is(K::Kernel) || args.args[0].is(K::Macro)))
      return apply(in, args.args[0], Value::ofDict(), args);
    if (!args.args.empty() && !(args.args.size() == 1 && args.args[0].is(K::None))) {
      if (args.args[0].is(K::Harness))
        return args.args[0];
      in.error(DiagID::meta_error, args.rangeOf(0, ""), name + " takes keyword arguments only, got " +
                                                          args.args[0].describe());
      return Value();
    }
    Value kw = kwDict();
    return makeBuiltin(name + "(...)", [apply, kw](Interpreter &in2, CallArgs &inner) -> Value {
      if (inner.args.size() != 1 || !inner.kwargs.empty()) {
        in2.error(DiagID::meta_error, inner.range, "a decorator takes the decorated function");
        return Value();
      }
      return apply(in2, inner.args[0], kw, inner);
    });
  });
}

/// A copy of a function value with `jit` / `autotune` set.
static Value withDecoratorArgs(const Value &f, const Value *jit, const Value *autotune) {
  if (auto *k = f.as<KernelObj>(); f.is(K::Kernel) && k) {
    auto copy = std::make_shared<KernelObj>(*k);
    if (jit)
      copy->jit = *jit;
    if (autotune)
      copy->autotune = *autotune;
    return Value::ofObject(K::Kernel, copy);
  }
  auto *fn = f.as<FunctionObj>();
  auto copy = std::make_shared<FunctionObj>(*fn);
  if (jit)
    copy->jit = *jit;
  if (autotune)
    copy->autotune = *autotune;
  return Value::ofObject(f.getKind(), copy);
}

Value detail::makeJitDecorator() {
  return decoratorFactory("tilelang.jit", [](Interpreter &, const Value &f, const Value &kw, CallArgs &) {
    return withDecoratorArgs(f, &kw, nullptr);
  });
}

Value detail::makeAutotuneDecorator() {
  return decoratorFactory("tilelang.autotune", [](Interpreter &, const Value &f, const Value &kw, CallArgs &) {
    return withDecoratorArgs(f, nullptr, &kw);
  });
}

Value detail::makePrimFuncDecorator() {
  return decoratorFactory("T.prim_func", [](Interpreter &in, const Value &f, const Value &, CallArgs &args) -> Value {
    auto *fn = f.as<FunctionObj>();
    if (!f.is(K::Function) || !fn || !fn->def) {
      in.error(DiagID::meta_error, args.range, "@T.prim_func applies to a 'def', got " + f.describe());
      return Value();
    }
    auto k = std::make_shared<KernelObj>();
    k->name = fn->name;
    k->exportName = fn->name;
    k->def = fn->def;
    k->closure = fn->closure;
    k->jit = fn->jit;
    k->autotune = fn->autotune;
    k->body.assign(fn->def->getBody().begin(), fn->def->getBody().end());
    for (const Interpreter::Frame &fr : in.getStack())
      k->frames.emplace_back(fr.what, fr.range);
    Value kv = Value::ofObject(K::Kernel, k);
    in.getKernels().push_back(kv);
    return kv;
  });
}

Value detail::makeMacroDecorator() {
  return decoratorFactory("T.macro", [](Interpreter &in, const Value &f, const Value &, CallArgs &args) -> Value {
    if (!f.is(K::Function)) {
      in.error(DiagID::meta_error, args.range, "@T.macro applies to a 'def', got " + f.describe());
      return Value();
    }
    return Value::ofObject(K::Macro, f.getObjectRef());
  });
}

Value Interpreter::define(const FunctionDefStmt *def, Env *env) { return defineFunction(*this, def, env); }

Value detail::defineFunction(Interpreter &in, const FunctionDefStmt *def, Env *env) {
  auto fn = std::make_shared<FunctionObj>();
  fn->name = def->getName().str();
  fn->def = def;
  fn->params = def->getParams();
  fn->closure = env;
  fn->range = def->getNameRange();
  fn->jit = Value::none();
  fn->autotune = Value::none();
  // Defaults and decorators are evaluated now, as in Python; an unknown `T.X`
  // in them is an error only where its value is used (a never-called test's
  // parameters name dtypes tilec lacks).
  auto evalDeferred = [&](const Expr *e) {
    bool outer = in.deferUnknownPrimitives;
    in.deferUnknownPrimitives = true;
    Value r = in.eval(e, env);
    in.deferUnknownPrimitives = outer;
    return r;
  };
  for (const Param &p : def->getParams()) {
    fn->defaults.push_back(p.defaultValue ? evalDeferred(p.defaultValue) : Value());
    if (p.defaultValue && !fn->defaults.back().isValid())
      return Value();
  }
  Value v = Value::ofObject(K::Function, fn);
  llvm::ArrayRef<Expr *> decorators = def->getDecorators();
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    // `@autotune(configs=get_configs())` whose configs need harness code (a
    // config class): the kernel compiles from its parameters (-D, defaults)
    // and its configs are a harness value, an error only where used.
    bool autotune = false;
    if (auto *c = llvm::dyn_cast<CallExpr>(*it)) {
      Value callee = evalDeferred(c->getCallee());
      autotune = callee.is(K::Builtin) && callee.as<BuiltinObj>()->name == "tilelang.autotune";
    }
    Interpreter::HarnessTrap trap;
    Interpreter::HarnessTrap *outer = in.activeHarnessTrap();
    if (autotune)
      in.activeHarnessTrap() = &trap;
    Value d = evalDeferred(*it);
    in.activeHarnessTrap() = outer;
    if (trap.hit) {
      Value configs = makeHarness("autotune configs", (*it)->getRange());
      configs.as<HarnessObj>()->needText = trap.text;
      configs.as<HarnessObj>()->need = trap.use;
      v = withDecoratorArgs(v, nullptr, &configs);
      continue;
    }
    if (!d.isValid())
      return Value();
    // A harness decorator (`@torch.no_grad()`, tilelang's Python-side
    // passes such as `@simplify_prim_func`) changes nothing tilec compiles.
    if (d.is(K::Harness))
      continue;
    CallArgs args;
    args.args.push_back(v);
    args.argRanges.push_back(def->getNameRange());
    args.range = (*it)->getRange();
    args.calleeRange = (*it)->getRange();
    v = in.call(d, args);
    if (!v.isValid())
      return Value();
  }
  return v;
}

Value Interpreter::call(const Value &callee, CallArgs &args) {
  if (!step(args.range))
    return Value();
  switch (callee.getKind()) {
  case K::Builtin: {
    auto *b = callee.as<BuiltinObj>();
    if (!b->fn) {
      error(DiagID::meta_kernel_level_only, args.calleeRange, b->name);
      return Value();
    }
    if (!b->bound.empty()) {
      CallArgs full = args;
      full.args.insert(full.args.begin(), b->bound.begin(), b->bound.end());
      full.argRanges.insert(full.argRanges.begin(), b->bound.size(), args.calleeRange);
      return b->fn(*this, full);
    }
    return b->fn(*this, args);
  }
  case K::Function:
    return callFunction(callee, args);
  case K::Macro:
    error(DiagID::meta_kernel_level_only, args.calleeRange, "macro '" + callee.as<FunctionObj>()->name + "'");
    return Value();
  case K::Harness:
    if (deferredHarness(callee))
      return callee;
    return makeHarness(callee.str() + "(...)", callee.as<HarnessObj>()->origin);
  case K::Kernel:
    for (const Value &a : args.args)
      if (a.is(K::Harness))
        return makeHarness(callee.as<KernelObj>()->name + "(...)", a.as<HarnessObj>()->origin);
    error(DiagID::meta_unsupported, args.range, "calling kernel '" + callee.as<KernelObj>()->name + "'",
          "; kernels run from the host program tilec's output links into");
    return Value();
  case K::DType: {
    // `T.float32(x)` at the meta level converts a number.
    if (args.args.size() == 1 && args.kwargs.empty() && args.args[0].isNumber()) {
      const Value &x = args.args[0];
      if (isFloatDType(callee.getDType()))
        return Value::ofFloat(x.getFloat());
      if (callee.getDType() == DType::Bool)
        return Value::ofBool(x.truthy());
      return x.isIntLike() ? Value::ofInt(x.getInt()) : Value::ofInt(int64_t(x.getFloat()));
    }
    if (args.args.size() == 1 && args.args[0].is(K::Harness))
      return args.args[0];
    error(DiagID::meta_kernel_level_only, args.calleeRange, callee.str() + "(...)");
    return Value();
  }
  default:
    error(DiagID::meta_not_callable, args.calleeRange, callee.describe());
    return Value();
  }
}
