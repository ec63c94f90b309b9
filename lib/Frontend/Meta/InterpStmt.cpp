//===- InterpStmt.cpp - Statements at the meta level ----------------------===//
//
// Assignments (tuple, starred, subscript and augmented targets; -D
// overrides of module constants), control flow, `def`, imports, `assert`,
// `del`, `raise`, the import idiom of `try`, and eager-style declarations.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "tilec/Frontend/AST.h"

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

/// The -D that overrides `name` where `env` binds it (module level only).
static MetaOptions::Define *defineFor(Interpreter &in, Env *env, llvm::StringRef name) {
  if (env != in.mainEnv)
    return nullptr;
  in.getOptions().addKnown(name);
  return in.getOptions().findDefine(name);
}

/// The value of a -D (evaluated in `env`); marks it used.
static Value defineValue(Interpreter &in, MetaOptions::Define &d, Env *env) {
  d.used = true;
  if (!d.value)
    return Value();
  return in.eval(d.value, env);
}

static bool assignStarred(Interpreter &in, llvm::ArrayRef<Expr *> elts, const Value &v, Env *env,
                          llvm::SMRange valueRange) {
  std::optional<std::vector<Value>> items = in.toList(v, valueRange);
  if (!items)
    return false;
  int star = -1;
  for (size_t k = 0; k < elts.size(); ++k)
    if (llvm::isa<StarredExpr>(elts[k]))
      star = int(k);
  size_t n = items->size(), m = elts.size();
  if (star < 0 ? n != m : n < m - 1) {
    size_t want = star < 0 ? m : m - 1;
    if (star < 0)
      in.error(DiagID::sema_tuple_unpack_count, valueRange, n, n == 1 ? "" : "s", want, want == 1 ? "" : "s");
    else
      in.error(DiagID::meta_unpack_count, valueRange, n, n == 1 ? "" : "s", "at least " + std::to_string(want),
               want == 1 ? "" : "s");
    return false;
  }
  bool ok = true;
  size_t tail = star < 0 ? 0 : m - 1 - size_t(star);
  for (size_t k = 0; k < m; ++k) {
    if (int(k) == star) {
      std::vector<Value> rest(items->begin() + star, items->end() - tail);
      ok &= assignTarget(in, llvm::cast<StarredExpr>(elts[k])->getValue(), Value::ofList(std::move(rest)), env,
                         valueRange);
      continue;
    }
    size_t idx = star >= 0 && int(k) > star ? n - (m - k) : k;
    ok &= assignTarget(in, elts[k], (*items)[idx], env, valueRange);
  }
  return ok;
}

/// Normalizes a list index (negative from the end); nullopt after reporting.
static std::optional<size_t> listIndex(Interpreter &in, const Value &idx, size_t n, llvm::SMRange range,
                                       llvm::StringRef what) {
  std::optional<int64_t> i = expectInt(in, idx, range, "a list index");
  if (!i)
    return std::nullopt;
  int64_t k = *i < 0 ? *i + int64_t(n) : *i;
  if (k < 0 || k >= int64_t(n)) {
    in.error(DiagID::meta_index_error, range, what, *i, n);
    return std::nullopt;
  }
  return size_t(k);
}

bool detail::assignTarget(Interpreter &in, const Expr *target, const Value &v, Env *env, llvm::SMRange valueRange) {
  if (auto *n = llvm::dyn_cast<NameExpr>(target)) {
    env->set(n->getName(), v, n->getRange());
    return true;
  }
  if (llvm::isa<TupleExpr>(target) || llvm::isa<ListExpr>(target)) {
    llvm::ArrayRef<Expr *> elts = llvm::isa<TupleExpr>(target) ? llvm::cast<TupleExpr>(target)->getElts()
                                                               : llvm::cast<ListExpr>(target)->getElts();
    if (!v.isValid()) {
      for (const Expr *e : elts)
        assignTarget(in, llvm::isa<StarredExpr>(e) ? llvm::cast<StarredExpr>(e)->getValue() : e, Value(), env,
                     valueRange);
      return false;
    }
    // `M, K = A.shape` on a torch tensor: each name is a harness value of its
    // own, an error only where it is used (spec §3).
    if (v.is(K::Harness)) {
      auto *h = v.as<HarnessObj>();
      for (size_t k = 0; k < elts.size(); ++k) {
        bool star = llvm::isa<StarredExpr>(elts[k]);
        assignTarget(in, star ? llvm::cast<StarredExpr>(elts[k])->getValue() : elts[k],
                     makeHarness(h->text + (star ? "[...]" : "[" + std::to_string(k) + "]"), h->origin), env,
                     valueRange);
      }
      return true;
    }
    if (!assignStarred(in, elts, v, env, valueRange)) {
      for (const Expr *e : elts) // no cascades: the names are bound, invalid
        assignTarget(in, llvm::isa<StarredExpr>(e) ? llvm::cast<StarredExpr>(e)->getValue() : e, Value(), env,
                     valueRange);
      return false;
    }
    return true;
  }
  if (auto *s = llvm::dyn_cast<SubscriptExpr>(target)) {
    Value base = in.eval(s->getValue(), env);
    if (!base.isValid() || !v.isValid())
      return false;
    std::vector<Value> idx;
    for (const Expr *e : s->getIndices()) {
      idx.push_back(in.eval(e, env));
      if (!idx.back().isValid())
        return false;
    }
    Value key = idx.size() == 1 ? idx[0] : Value::ofTuple(idx);
    if (base.is(K::Dict)) {
      if (!isHashable(key)) {
        in.error(DiagID::meta_error, s->getRange(), "unhashable dict key: " + key.describe());
        return false;
      }
      if (Value *slot = base.as<DictObj>()->find(key))
        *slot = v;
      else
        base.dictItems()->emplace_back(key, v);
      return true;
    }
    if (base.is(K::List)) {
      std::vector<Value> &items = *base.listItems();
      std::optional<size_t> k = listIndex(in, key, items.size(), s->getRange(), "list assignment");
      if (!k)
        return false;
      items[*k] = v;
      return true;
    }
    if (base.is(K::Harness))
      return true; // harness code mutating harness values
    in.error(DiagID::meta_error, s->getRange(), base.describe() + " does not support item assignment");
    return false;
  }
  if (auto *a = llvm::dyn_cast<AttributeExpr>(target)) {
    Value base = in.eval(a->getValue(), env);
    if (!base.isValid() || base.is(K::Harness))
      return base.isValid();
    if (base.is(K::Module) || base.is(K::Function)) {
      // Setting attributes on modules and functions (config flags).
      if (auto *m = base.as<ModuleObj>()) {
        m->attrs[a->getAttr()] = v;
        return true;
      }
    }
    in.error(DiagID::meta_unsupported, a->getRange(), "assigning to an attribute of " + base.describe(), "");
    return false;
  }
  if (auto *st = llvm::dyn_cast<StarredExpr>(target)) {
    in.error(DiagID::meta_error, st->getRange(), "a starred target must be inside a tuple or list target");
    return false;
  }
  in.error(DiagID::meta_error, target->getRange(), "cannot assign to " + describe(target).str());
  return false;
}

static Flow execAssign(Interpreter &in, const AssignStmt *s, Env *env) {
  llvm::ArrayRef<Expr *> targets = s->getTargets();
  MetaOptions::Define *def = nullptr;
  if (targets.size() == 1)
    if (auto *n = llvm::dyn_cast<NameExpr>(targets[0]))
      def = defineFor(in, env, n->getName());
  // Only the first assignment of a name takes the -D.
  if (def && def->used)
    def = nullptr;
  Value v = def ? defineValue(in, *def, env) : in.eval(s->getValue(), env);
  bool ok = v.isValid();
  for (const Expr *t : targets) {
    // A -D names one element of a tuple target (`M, N = 128, 256`).
    if (!def && (llvm::isa<TupleExpr>(t)) && v.isValid()) {
      bool any = false;
      for (const Expr *e : llvm::cast<TupleExpr>(t)->getElts())
        if (auto *n = llvm::dyn_cast<NameExpr>(e))
          any |= defineFor(in, env, n->getName()) != nullptr;
      if (any) {
        ok &= assignTarget(in, t, v, env, s->getValue()->getRange());
        for (const Expr *e : llvm::cast<TupleExpr>(t)->getElts())
          if (auto *n = llvm::dyn_cast<NameExpr>(e))
            if (MetaOptions::Define *d = defineFor(in, env, n->getName()))
              env->set(n->getName(), defineValue(in, *d, env), n->getRange());
        continue;
      }
    }
    ok &= assignTarget(in, t, v, env, s->getValue() ? s->getValue()->getRange() : s->getRange());
  }
  return ok ? Flow::Normal : Flow::Error;
}

static Flow execAugAssign(Interpreter &in, const AugAssignStmt *s, Env *env) {
  Value cur = in.eval(s->getTarget(), env);
  Value rhs = in.eval(s->getValue(), env);
  if (!cur.isValid() || !rhs.isValid())
    return Flow::Error;
  // `xs += ys` extends a list in place.
  if (cur.is(K::List) && s->getOp() == BinaryOp::Add) {
    std::optional<std::vector<Value>> items = in.toList(rhs, s->getValue()->getRange());
    if (!items)
      return Flow::Error;
    cur.listItems()->insert(cur.listItems()->end(), items->begin(), items->end());
    return Flow::Normal;
  }
  ConstResult r = applyBinary(s->getOp(), cur, rhs);
  if (!checkBinaryResult(r, in.getDiags(), s->getOpRange(), s->getRange()))
    return Flow::Error;
  return assignTarget(in, s->getTarget(), r.value, env, s->getRange()) ? Flow::Normal : Flow::Error;
}

/// Reports a condition that has no compile-time truth value; true if usable.
static bool truthOf(Interpreter &in, const Value &c, llvm::SMRange range, bool &out) {
  if (!in.requireConcrete(c, range))
    return false;
  if (c.is(K::Dynamic)) {
    in.error(DiagID::meta_truth_unknown, range, "runtime dimension '" + c.getStr().str() + "'");
    return false;
  }
  out = c.truthy();
  return true;
}

static Flow execLoopBody(Interpreter &in, const Body &body, Env *env, FnState &st, bool &broke) {
  Flow f = execBody(in, body, env, st);
  if (f == Flow::Break) {
    broke = true;
    return Flow::Normal;
  }
  if (f == Flow::Continue)
    return Flow::Normal;
  return f;
}

static Flow execFor(Interpreter &in, const ForStmt *s, Env *env, FnState &st) {
  Value it = in.eval(s->getIter(), env);
  if (!it.isValid())
    return Flow::Error;
  bool broke = false;
  Flow result = Flow::Normal;
  bool ok = in.iterate(it, s->getIter()->getRange(), [&](const Value &x) {
    if (!assignTarget(in, s->getTarget(), x, env, s->getIter()->getRange())) {
      result = Flow::Error;
      return false;
    }
    Flow f = execLoopBody(in, s->getBody(), env, st, broke);
    if (f != Flow::Normal) {
      result = f;
      return false;
    }
    return !broke;
  });
  if (!ok)
    return Flow::Error;
  if (result != Flow::Normal)
    return result;
  if (!broke)
    return execBody(in, s->getElse(), env, st);
  return Flow::Normal;
}

static Flow execWhile(Interpreter &in, const WhileStmt *s, Env *env, FnState &st) {
  bool broke = false;
  while (true) {
    if (!in.step(s->getRange()))
      return Flow::Error;
    bool c = false;
    if (!truthOf(in, in.eval(s->getCond(), env), s->getCond()->getRange(), c))
      return Flow::Error;
    if (!c)
      break;
    Flow f = execLoopBody(in, s->getBody(), env, st, broke);
    if (f != Flow::Normal)
      return f;
    if (broke)
      return Flow::Normal;
  }
  return execBody(in, s->getElse(), env, st);
}

static Flow execAssert(Interpreter &in, const AssertStmt *s, Env *env) {
  Value c = in.eval(s->getTest(), env);
  bool t = false;
  if (!truthOf(in, c, s->getTest()->getRange(), t))
    return Flow::Error;
  if (t)
    return Flow::Normal;
  std::string msg;
  if (s->getMsg()) {
    Value m = in.eval(s->getMsg(), env);
    if (m.isValid())
      msg = ": " + m.toDisplay();
  }
  in.error(DiagID::meta_assert_failed, s->getRange(), msg);
  return Flow::Error;
}

static Flow execDelete(Interpreter &in, const DeleteStmt *s, Env *env) {
  for (const Expr *t : s->getTargets()) {
    if (auto *n = llvm::dyn_cast<NameExpr>(t)) {
      if (!env->erase(n->getName())) {
        in.error(DiagID::sema_unknown_name, n->getRange(), n->getName(), "");
        return Flow::Error;
      }
      continue;
    }
    if (auto *tu = llvm::dyn_cast<TupleExpr>(t)) {
      DeleteStmt inner(tu->getRange(), std::vector<Expr *>(tu->getElts().begin(), tu->getElts().end()));
      if (execDelete(in, &inner, env) != Flow::Normal)
        return Flow::Error;
      continue;
    }
    if (auto *sub = llvm::dyn_cast<SubscriptExpr>(t); sub && sub->getIndices().size() == 1) {
      Value base = in.eval(sub->getValue(), env);
      Value key = in.eval(sub->getIndices()[0], env);
      if (!base.isValid() || !key.isValid())
        return Flow::Error;
      if (base.is(K::Dict)) {
        auto &items = *base.dictItems();
        auto it = std::find_if(items.begin(), items.end(), [&](auto &kv) { return equals(kv.first, key); });
        if (it == items.end()) {
          in.error(DiagID::meta_key_error, sub->getIndices()[0]->getRange(), key.str());
          return Flow::Error;
        }
        items.erase(it);
        continue;
      }
      if (base.is(K::List)) {
        std::optional<size_t> k = listIndex(in, key, base.listItems()->size(), sub->getRange(), "list deletion");
        if (!k)
          return Flow::Error;
        base.listItems()->erase(base.listItems()->begin() + *k);
        continue;
      }
    }
    in.error(DiagID::meta_unsupported, t->getRange(), "deleting " + describe(t).str(), "");
    return Flow::Error;
  }
  return Flow::Normal;
}

static Flow execAnnotation(Interpreter &in, const AnnotationStmt *s, Env *env, FnState &st) {
  auto *n = llvm::dyn_cast<NameExpr>(s->getTarget());
  if (!st.eager || !n)
    return Flow::Normal; // a type hint
  Value ann = in.eval(s->getAnnotation(), env);
  if (!ann.isValid())
    return Flow::Error;
  if (!asObject(ann, "TensorType"))
    return Flow::Normal;
  st.eagerInputs.emplace_back(n->getName().str(), ann);
  st.eagerInputRanges.push_back(n->getRange());
  env->set(n->getName(), ann, n->getRange());
  return Flow::Normal;
}

Flow detail::execStmt(Interpreter &in, const Stmt *s, Env *env, FnState &st) {
  if (!in.step(s->getRange()))
    return Flow::Error;
  switch (s->getKind()) {
  case Stmt::Kind::Assign:
    return execAssign(in, llvm::cast<AssignStmt>(s), env);
  case Stmt::Kind::AugAssign:
    return execAugAssign(in, llvm::cast<AugAssignStmt>(s), env);
  case Stmt::Kind::Annotation:
    return execAnnotation(in, llvm::cast<AnnotationStmt>(s), env, st);
  case Stmt::Kind::Expr: {
    const Expr *e = llvm::cast<ExprStmt>(s)->getExpr();
    if (llvm::isa<StrLitExpr>(e))
      return Flow::Normal; // docstring
    return in.eval(e, env).isValid() ? Flow::Normal : Flow::Error;
  }
  case Stmt::Kind::Pass:
    return Flow::Normal;
  case Stmt::Kind::Return: {
    if (!st.inFunction) {
      in.error(DiagID::meta_return_outside, s->getRange());
      return Flow::Error;
    }
    const Expr *v = llvm::cast<ReturnStmt>(s)->getValue();
    st.ret = v ? in.eval(v, env) : Value::none();
    return st.ret.isValid() ? Flow::Return : Flow::Error;
  }
  case Stmt::Kind::If: {
    auto *i = llvm::cast<IfStmt>(s);
    bool c = false;
    if (!truthOf(in, in.eval(i->getCond(), env), i->getCond()->getRange(), c))
      return Flow::Error;
    return execBody(in, c ? i->getThen() : i->getElse(), env, st);
  }
  case Stmt::Kind::For:
    return execFor(in, llvm::cast<ForStmt>(s), env, st);
  case Stmt::Kind::While:
    return execWhile(in, llvm::cast<WhileStmt>(s), env, st);
  case Stmt::Kind::Break:
    return Flow::Break;
  case Stmt::Kind::Continue:
    return Flow::Continue;
  case Stmt::Kind::With:
    in.error(DiagID::meta_unsupported, llvm::cast<WithStmt>(s)->getContext()->getRange(),
             "a 'with' statement outside a kernel body", "; 'with T.Kernel(...)' belongs in a @T.prim_func");
    return Flow::Error;
  case Stmt::Kind::FunctionDef: {
    auto *fn = llvm::cast<FunctionDefStmt>(s);
    Value v = defineFunction(in, fn, env);
    env->set(fn->getName(), v, fn->getNameRange());
    return v.isValid() ? Flow::Normal : Flow::Error;
  }
  case Stmt::Kind::Import:
    return in.importStatement(llvm::cast<ImportStmt>(s), env) ? Flow::Normal : Flow::Error;
  case Stmt::Kind::Assert:
    return execAssert(in, llvm::cast<AssertStmt>(s), env);
  case Stmt::Kind::Delete:
    return execDelete(in, llvm::cast<DeleteStmt>(s), env);
  case Stmt::Kind::Raise: {
    auto *r = llvm::cast<RaiseStmt>(s);
    std::string what = "an exception", msg;
    if (r->getExc()) {
      Value e = in.eval(r->getExc(), env);
      if (!e.isValid())
        return Flow::Error;
      what = e.toDisplay();
    }
    in.error(DiagID::meta_raise, s->getRange(), what, msg);
    return Flow::Error;
  }
  case Stmt::Kind::Try: {
    auto *t = llvm::cast<TryStmt>(s);
    if (t->isImportIdiom())
      return execBody(in, t->getBody(), env, st);
    // Under a module-level statement (harness set-up such as probing the
    // device in a helper), the names that statement binds become harness
    // values, an error only where a kernel needs one.
    if (in.trapHarness("a 'try' statement", t->getKeywordRange()))
      return Flow::Error;
    in.error(DiagID::unsupported_construct, t->getKeywordRange(), "try",
             " outside 'try: import ... except ImportError:'");
    return Flow::Error;
  }
  case Stmt::Kind::Unsupported: {
    auto *u = llvm::cast<UnsupportedStmt>(s);
    if (u->getConstruct() == "class") {
      // A class is harness code (torch modules, configs): not evaluated; its
      // name is a harness value, an error only where a kernel needs it.
      for (const std::string &n : u->getNames())
        env->set(n, makeHarness(n, u->getKeywordRange()), u->getKeywordRange());
      return Flow::Normal;
    }
    in.error(DiagID::unsupported_construct, u->getKeywordRange(), u->getConstruct(), "");
    for (const std::string &n : u->getNames())
      env->set(n, Value(), u->getKeywordRange());
    return Flow::Error;
  }
  }
  return Flow::Normal;
}

Flow detail::execBody(Interpreter &in, const Body &body, Env *env, FnState &st) {
  for (const Stmt *s : body) {
    Flow f = execStmt(in, s, env, st);
    if (f != Flow::Normal)
      return f;
  }
  return Flow::Normal;
}
