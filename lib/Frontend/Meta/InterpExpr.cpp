//===- InterpExpr.cpp - Expressions at the meta level ---------------------===//
//
// Literals, names, displays with `*` unpacking, operators through the shared
// core (ConstEval.h), calls with `*args`/`**kwargs`, lambdas, f-strings and
// comprehensions.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"
#include "tilec/Frontend/Meta/BigInt.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

namespace tilec::meta {
/// Expression evaluation; a friend of Interpreter.
class ExprEval {
public:
  ExprEval(Interpreter &in, Env *env) : in(in), env(env) {}
  Value eval(const Expr *e);

private:
  Value evalName(const NameExpr *e);
  bool evalElts(llvm::ArrayRef<Expr *> elts, std::vector<Value> &out);
  Value evalDict(const DictExpr *e);
  Value evalCall(const CallExpr *e);
  Value evalCompare(const CompareExpr *e);
  Value evalBoolOp(const BoolOpExpr *e);
  Value evalLambda(const LambdaExpr *e);
  Value evalFString(const FStringExpr *e);
  Value evalComprehension(const ComprehensionExpr *e);
  bool runGenerators(const ComprehensionExpr *e, size_t k, Env *scope, const std::function<bool(Env *)> &emit);
  bool truth(const Value &v, llvm::SMRange range, bool &out);

  Interpreter &in;
  Env *env;
};
} // namespace tilec::meta

Value Interpreter::eval(const Expr *e, Env *env) {
  if (!e)
    return Value();
  if (++depth > 400) {
    --depth;
    error(DiagID::meta_recursion, e->getRange(), 400);
    return Value();
  }
  Value v = ExprEval(*this, env).eval(e);
  --depth;
  return v;
}

bool ExprEval::truth(const Value &v, llvm::SMRange range, bool &out) {
  if (!in.requireConcrete(v, range))
    return false;
  if (v.is(K::Dynamic)) {
    in.error(DiagID::meta_truth_unknown, range, "runtime dimension '" + v.getStr().str() + "'");
    return false;
  }
  out = v.truthy();
  return true;
}

/// An integer literal that may not fit in int64 (the lexer checked its
/// digits): its value from the spelling.
static Value bigLiteral(Interpreter &in, llvm::StringRef text, llvm::SMRange range) {
  unsigned radix = 10;
  if (text.size() > 2 && text[0] == '0' && llvm::StringRef("xXoObB").contains(text[1])) {
    char p = llvm::toLower(text[1]);
    radix = p == 'x' ? 16 : p == 'o' ? 8 : 2;
    text = text.drop_front(2);
  }
  std::string digits, err;
  for (char c : text)
    if (c != '_')
      digits += c;
  std::optional<Value> v = parseInt(digits, radix, err);
  if (!v) {
    llvm::StringRef e(err);
    in.error(DiagID::sema_const_error, range,
             e.consume_front("integer result") ? ("integer literal" + e).str() : "invalid integer literal");
    return Value();
  }
  return *v;
}

Value ExprEval::eval(const Expr *e) {
  switch (e->getKind()) {
  case Expr::Kind::IntLit: {
    uint64_t v = llvm::cast<IntLitExpr>(e)->getValue();
    llvm::SMRange r = e->getRange();
    llvm::StringRef text(r.Start.getPointer(), r.End.getPointer() - r.Start.getPointer());
    if (v > uint64_t(INT64_MAX) || text.size() > 18) // maybe past int64: the lexer leaves those to us
      return bigLiteral(in, text, r);
    return Value::ofInt(int64_t(v));
  }
  case Expr::Kind::FloatLit:
    return Value::ofFloat(llvm::cast<FloatLitExpr>(e)->getValue());
  case Expr::Kind::StrLit:
    return Value::ofStr(llvm::cast<StrLitExpr>(e)->getValue().str());
  case Expr::Kind::BoolLit:
    return Value::ofBool(llvm::cast<BoolLitExpr>(e)->getValue());
  case Expr::Kind::NoneLit:
    return Value::none();
  case Expr::Kind::Ellipsis:
    return Value::ellipsis();
  case Expr::Kind::Name:
    return evalName(llvm::cast<NameExpr>(e));
  case Expr::Kind::Attribute: {
    auto *a = llvm::cast<AttributeExpr>(e);
    Value base = eval(a->getValue());
    if (!base.isValid())
      return base;
    return getAttribute(in, base, a->getAttr(), a->getAttrRange(), e->getRange());
  }
  case Expr::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(e));
  case Expr::Kind::Subscript: {
    auto *s = llvm::cast<SubscriptExpr>(e);
    Value base = eval(s->getValue());
    if (!base.isValid())
      return base;
    std::vector<Value> idx;
    for (const Expr *i : s->getIndices()) {
      idx.push_back(eval(i));
      if (!idx.back().isValid())
        return Value();
    }
    Value index = idx.size() == 1 ? idx[0] : Value::ofTuple(std::move(idx));
    return subscript(in, base, index, e->getRange());
  }
  case Expr::Kind::Slice: {
    auto *s = llvm::cast<SliceExpr>(e);
    Value parts[3];
    const Expr *exprs[3] = {s->getLower(), s->getUpper(), s->getStep()};
    for (int k = 0; k < 3; ++k) {
      parts[k] = exprs[k] ? eval(exprs[k]) : Value::none();
      if (!parts[k].isValid())
        return Value();
    }
    return Value::ofSlice(parts[0], parts[1], parts[2]);
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List:
  case Expr::Kind::Set: {
    llvm::ArrayRef<Expr *> elts = e->getKind() == Expr::Kind::Tuple ? llvm::cast<TupleExpr>(e)->getElts()
                                  : e->getKind() == Expr::Kind::List ? llvm::cast<ListExpr>(e)->getElts()
                                                                     : llvm::cast<SetExpr>(e)->getElts();
    std::vector<Value> values;
    if (!evalElts(elts, values))
      return Value();
    if (e->getKind() == Expr::Kind::Set) {
      for (const Value &v : values)
        if (!isHashable(v)) {
          in.error(DiagID::meta_error, e->getRange(), "unhashable set element: " + v.describe());
          return Value();
        }
      return Value::ofSet(std::move(values));
    }
    return e->getKind() == Expr::Kind::Tuple ? Value::ofTuple(std::move(values)) : Value::ofList(std::move(values));
  }
  case Expr::Kind::Dict:
    return evalDict(llvm::cast<DictExpr>(e));
  case Expr::Kind::Binary: {
    auto *b = llvm::cast<BinaryExpr>(e);
    Value lhs = eval(b->getLHS());
    if (!lhs.isValid())
      return lhs;
    Value rhs = eval(b->getRHS());
    if (!rhs.isValid())
      return rhs;
    // At the meta level `/` is Python's true division (spec §5's rule
    // against `/` on two integers is about kernel expressions).
    if (b->getOp() == BinaryOp::Div && lhs.isIntLike() && rhs.isIntLike()) {
      if (rhs.getInt() == 0) {
        in.error(DiagID::sema_division_by_zero, e->getRange());
        return Value();
      }
      return Value::ofFloat(double(lhs.getInt()) / double(rhs.getInt()));
    }
    ConstResult r = applyBinary(b->getOp(), lhs, rhs);
    return checkBinaryResult(r, in.getDiags(), b->getOpRange(), e->getRange()) ? r.value : Value();
  }
  case Expr::Kind::Unary: {
    auto *u = llvm::cast<UnaryExpr>(e);
    Value v = eval(u->getOperand());
    if (!v.isValid())
      return v;
    if (u->getOp() == UnaryOp::Not && !in.requireConcrete(v, u->getOperand()->getRange()))
      return Value();
    ConstResult r = applyUnary(u->getOp(), v);
    if (!r.error.empty()) {
      in.error(DiagID::sema_const_error, e->getRange(), r.error);
      return Value();
    }
    return r.value;
  }
  case Expr::Kind::Compare:
    return evalCompare(llvm::cast<CompareExpr>(e));
  case Expr::Kind::BoolOp:
    return evalBoolOp(llvm::cast<BoolOpExpr>(e));
  case Expr::Kind::IfExp: {
    auto *i = llvm::cast<IfExpExpr>(e);
    bool c = false;
    if (!truth(eval(i->getCond()), i->getCond()->getRange(), c))
      return Value();
    return eval(c ? i->getThen() : i->getElse());
  }
  case Expr::Kind::Starred:
    in.error(DiagID::meta_error, e->getRange(), "a starred expression is allowed only in a call, a display or a target");
    return Value();
  case Expr::Kind::Lambda:
    return evalLambda(llvm::cast<LambdaExpr>(e));
  case Expr::Kind::FString:
    return evalFString(llvm::cast<FStringExpr>(e));
  case Expr::Kind::ListComp:
  case Expr::Kind::SetComp:
  case Expr::Kind::DictComp:
  case Expr::Kind::GeneratorExp:
    return evalComprehension(llvm::cast<ComprehensionExpr>(e));
  case Expr::Kind::Unsupported: {
    auto *u = llvm::cast<UnsupportedExpr>(e);
    in.error(DiagID::unsupported_construct, u->getKeywordRange(), u->getConstruct(), "");
    return Value();
  }
  case Expr::Kind::Error:
    return Value();
  }
  return Value();
}

Value ExprEval::evalName(const NameExpr *e) {
  if (const Binding *b = env->lookup(e->getName()))
    return b->value;
  Value v = in.lookupBuiltin(e->getName());
  if (v.isValid())
    return v;
  Value dv;
  if (in.defineForUnboundName(e->getName(), dv))
    return dv;
  if (std::string hint = in.unboundNameHint(e->getName()); !hint.empty()) {
    in.error(DiagID::sema_unknown_name, e->getRange(), e->getName(), hint);
    return Value();
  }
  llvm::SmallVector<llvm::StringRef, 32> names;
  env->collectNames(names);
  for (const auto &entry : in.getBuiltinTable())
    names.push_back(entry.getKey());
  in.error(DiagID::sema_unknown_name, e->getRange(), e->getName(), didYouMean(e->getName(), names));
  return Value();
}

bool ExprEval::evalElts(llvm::ArrayRef<Expr *> elts, std::vector<Value> &out) {
  for (const Expr *elt : elts) {
    if (auto *st = llvm::dyn_cast<StarredExpr>(elt)) {
      Value v = eval(st->getValue());
      if (!v.isValid())
        return false;
      std::optional<std::vector<Value>> items = in.toList(v, st->getValue()->getRange());
      if (!items)
        return false;
      out.insert(out.end(), items->begin(), items->end());
      continue;
    }
    Value v = eval(elt);
    if (!v.isValid())
      return false;
    out.push_back(std::move(v));
  }
  return true;
}

Value ExprEval::evalDict(const DictExpr *e) {
  Value d = Value::ofDict();
  auto *obj = d.as<DictObj>();
  for (size_t k = 0; k < e->getValues().size(); ++k) {
    const Expr *keyExpr = k < e->getKeys().size() ? e->getKeys()[k] : nullptr;
    Value v = eval(e->getValues()[k]);
    if (!v.isValid())
      return Value();
    if (!keyExpr) { // `**other`
      if (!v.is(K::Dict)) {
        in.error(DiagID::meta_error, e->getValues()[k]->getRange(), "'**' needs a dict, got " + v.describe());
        return Value();
      }
      for (auto &[kk, vv] : *v.dictItems()) {
        if (Value *slot = obj->find(kk))
          *slot = vv;
        else
          obj->items.emplace_back(kk, vv);
      }
      continue;
    }
    Value key = eval(keyExpr);
    if (!key.isValid())
      return Value();
    if (!isHashable(key)) {
      in.error(DiagID::meta_error, keyExpr->getRange(), "unhashable dict key: " + key.describe());
      return Value();
    }
    if (Value *slot = obj->find(key))
      *slot = v;
    else
      obj->items.emplace_back(key, v);
  }
  return d;
}

Value ExprEval::evalCall(const CallExpr *e) {
  Value callee = eval(e->getCallee());
  if (!callee.isValid())
    return callee;
  CallArgs args;
  args.range = e->getRange();
  args.calleeRange = e->getCallee()->getRange();
  for (const Expr *a : e->getArgs()) {
    if (auto *st = llvm::dyn_cast<StarredExpr>(a)) {
      Value v = eval(st->getValue());
      if (!v.isValid())
        return Value();
      std::optional<std::vector<Value>> items = in.toList(v, st->getValue()->getRange());
      if (!items)
        return Value();
      for (Value &x : *items) {
        args.args.push_back(std::move(x));
        args.argRanges.push_back(a->getRange());
      }
      continue;
    }
    Value v = eval(a);
    if (!v.isValid())
      return Value();
    args.args.push_back(std::move(v));
    args.argRanges.push_back(a->getRange());
  }
  for (const Keyword &kw : e->getKeywords()) {
    Value v = eval(kw.value);
    if (!v.isValid())
      return Value();
    if (kw.name.empty()) { // `**kwargs`
      if (!v.is(K::Dict)) {
        if (v.is(K::Harness))
          continue;
        in.error(DiagID::meta_error, kw.value->getRange(), "'**' needs a dict, got " + v.describe());
        return Value();
      }
      for (auto &[k, x] : *v.dictItems()) {
        if (!k.is(K::Str)) {
          in.error(DiagID::meta_error, kw.value->getRange(), "keywords must be strings, got " + k.describe());
          return Value();
        }
        args.kwargs.emplace_back(k.getStr().str(), x);
        args.kwRanges.push_back(kw.value->getRange());
      }
      continue;
    }
    args.kwargs.emplace_back(kw.name, std::move(v));
    args.kwRanges.push_back(kw.value->getRange());
  }
  return in.call(callee, args);
}

Value ExprEval::evalCompare(const CompareExpr *e) {
  llvm::ArrayRef<Expr *> operands = e->getOperands();
  if (operands.size() != e->getOps().size() + 1 || operands.empty())
    return Value();
  Value lhs = eval(operands[0]);
  if (!lhs.isValid())
    return lhs;
  Value result = Value::ofBool(true);
  for (size_t k = 0; k < e->getOps().size(); ++k) {
    Value rhs = eval(operands[k + 1]);
    if (!rhs.isValid())
      return rhs;
    ConstResult r = applyCompare(e->getOps()[k], lhs, rhs);
    if (!r.error.empty()) {
      in.error(DiagID::sema_const_error, e->getRange(), r.error);
      return Value();
    }
    if (r.value.is(K::Harness))
      return r.value;
    if (!r.value.truthy())
      return Value::ofBool(false);
    lhs = std::move(rhs);
  }
  return result;
}

Value ExprEval::evalBoolOp(const BoolOpExpr *e) {
  Value v;
  for (const Expr *operand : e->getOperands()) {
    v = eval(operand);
    if (!v.isValid())
      return v;
    bool t = false;
    if (!truth(v, operand->getRange(), t))
      return Value();
    // Python returns the operand that decides.
    if (e->getOp() == BoolOpKind::And ? !t : t)
      return v;
  }
  return v;
}

Value ExprEval::evalLambda(const LambdaExpr *e) {
  auto fn = std::make_shared<FunctionObj>();
  fn->name = "<lambda>";
  fn->lambda = e;
  fn->params = e->getParams();
  fn->closure = env;
  fn->range = e->getRange();
  fn->jit = Value::none();
  fn->autotune = Value::none();
  for (const Param &p : e->getParams()) {
    fn->defaults.push_back(p.defaultValue ? eval(p.defaultValue) : Value());
    if (p.defaultValue && !fn->defaults.back().isValid())
      return Value();
  }
  return Value::ofObject(K::Function, fn);
}

Value ExprEval::evalFString(const FStringExpr *e) {
  std::string out;
  for (const FStringPart &part : e->getParts()) {
    if (!part.isField()) {
      out += part.literal;
      continue;
    }
    Value v = eval(part.expr);
    if (!v.isValid())
      return Value();
    if (part.conversion == 'r' || part.conversion == 'a')
      v = Value::ofStr(v.str());
    else if (part.conversion == 's')
      v = Value::ofStr(v.toDisplay());
    std::string spec;
    if (part.formatSpec) {
      Value s = evalFString(part.formatSpec);
      if (!s.isValid())
        return Value();
      spec = s.getStr().str();
    }
    std::string err;
    std::string text = formatWithSpec(v, spec, err);
    if (!err.empty()) {
      in.error(DiagID::meta_error, part.range, err);
      return Value();
    }
    out += text;
  }
  return Value::ofStr(out);
}

bool ExprEval::runGenerators(const ComprehensionExpr *e, size_t k, Env *scope,
                             const std::function<bool(Env *)> &emit) {
  if (k == e->getGenerators().size())
    return emit(scope);
  const Comprehension &g = e->getGenerators()[k];
  // The first iterable is evaluated in the enclosing scope, as in Python.
  Value it = in.eval(g.iter, k == 0 ? env : scope);
  if (!it.isValid())
    return false;
  bool ok = true;
  bool iterOk = in.iterate(it, g.iter->getRange(), [&](const Value &x) {
    if (!assignTarget(in, g.target, x, scope, g.iter->getRange())) {
      ok = false;
      return false;
    }
    for (const Expr *cond : g.ifs) {
      bool t = false;
      ExprEval inner(in, scope);
      if (!inner.truth(inner.eval(cond), cond->getRange(), t)) {
        ok = false;
        return false;
      }
      if (!t)
        return true;
    }
    if (!runGenerators(e, k + 1, scope, emit)) {
      ok = false;
      return false;
    }
    return true;
  });
  return ok && iterOk;
}

Value ExprEval::evalComprehension(const ComprehensionExpr *e) {
  Env *scope = in.newEnv(env);
  std::vector<Value> items;
  std::vector<std::pair<Value, Value>> pairs;
  bool ok = runGenerators(e, 0, scope, [&](Env *s) {
    ExprEval inner(in, s);
    Value v = inner.eval(e->getElt());
    if (!v.isValid())
      return false;
    if (e->getKind() == Expr::Kind::DictComp) {
      Value x = inner.eval(e->getValue());
      if (!x.isValid())
        return false;
      if (!isHashable(v)) {
        in.error(DiagID::meta_error, e->getElt()->getRange(), "unhashable dict key: " + v.describe());
        return false;
      }
      pairs.emplace_back(std::move(v), std::move(x));
      return true;
    }
    items.push_back(std::move(v));
    return true;
  });
  if (!ok)
    return Value();
  switch (e->getKind()) {
  case Expr::Kind::DictComp: return Value::ofDict(std::move(pairs));
  case Expr::Kind::SetComp: return Value::ofSet(std::move(items));
  case Expr::Kind::GeneratorExp: return Value::ofTuple(std::move(items)); // consumed eagerly
  default: return Value::ofList(std::move(items));
  }
}
