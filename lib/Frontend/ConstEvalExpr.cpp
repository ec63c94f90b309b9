//===- ConstEvalExpr.cpp - Evaluation of module-level constant expressions ===//
//
// Folds the expressions that spec §3 allows at module level: literals, names
// of earlier constants, tuples, arithmetic, comparisons, `T.<dtype>`,
// `T.dtype(...)`, `T.ceildiv`, `min`/`max`, `T.dynamic`.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/ConstEval.h"
#include "tilec/Frontend/Diagnostics.h"

using namespace tilec;
using namespace tilec::ast;

ConstValue ConstEvaluator::eval(const Expr *e) {
  if (!e)
    return ConstValue();
  switch (e->getKind()) {
  case Expr::Kind::IntLit: {
    uint64_t v = llvm::cast<IntLitExpr>(e)->getValue();
    if (v > uint64_t(INT64_MAX)) {
      diags.emit(DiagID::sema_const_error, e->getRange(), "integer literal does not fit in 64 bits");
      return ConstValue();
    }
    return ConstValue::ofInt(int64_t(v));
  }
  case Expr::Kind::FloatLit:
    return ConstValue::ofFloat(llvm::cast<FloatLitExpr>(e)->getValue());
  case Expr::Kind::StrLit:
    return ConstValue::ofStr(llvm::cast<StrLitExpr>(e)->getValue().str());
  case Expr::Kind::BoolLit:
    return ConstValue::ofBool(llvm::cast<BoolLitExpr>(e)->getValue());
  case Expr::Kind::NoneLit:
    return ConstValue::none();
  case Expr::Kind::Name:
    return evalName(llvm::cast<NameExpr>(e));
  case Expr::Kind::Attribute:
    return evalAttribute(llvm::cast<AttributeExpr>(e));
  case Expr::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(e));
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    llvm::ArrayRef<Expr *> elts = e->getKind() == Expr::Kind::Tuple ? llvm::cast<TupleExpr>(e)->getElts()
                                                                      : llvm::cast<ListExpr>(e)->getElts();
    std::vector<ConstValue> values;
    for (const Expr *elt : elts) {
      ConstValue v = eval(elt);
      if (!v.isValid())
        return ConstValue();
      values.push_back(std::move(v));
    }
    return ConstValue::ofTuple(std::move(values));
  }
  case Expr::Kind::Binary:
    return evalBinary(llvm::cast<BinaryExpr>(e));
  case Expr::Kind::Unary: {
    auto *u = llvm::cast<UnaryExpr>(e);
    ConstValue v = eval(u->getOperand());
    if (!v.isValid())
      return v;
    if (v.getKind() == ConstValue::Kind::Dynamic) {
      diags.emit(DiagID::sema_runtime_dim_in_const, u->getOperand()->getRange(), v.getStr());
      return ConstValue();
    }
    ConstResult r = applyUnary(u->getOp(), v);
    if (!r.error.empty()) {
      diags.emit(DiagID::sema_const_error, e->getRange(), r.error);
      return ConstValue();
    }
    return r.value;
  }
  case Expr::Kind::Compare:
    return evalCompare(llvm::cast<CompareExpr>(e));
  case Expr::Kind::BoolOp: {
    auto *b = llvm::cast<BoolOpExpr>(e);
    ConstValue v;
    for (const Expr *operand : b->getOperands()) {
      v = eval(operand);
      if (!v.isValid())
        return v;
      // Python returns the operand that decides.
      if (b->getOp() == BoolOpKind::And ? !v.truthy() : v.truthy())
        return v;
    }
    return v;
  }
  case Expr::Kind::IfExp: {
    auto *i = llvm::cast<IfExpExpr>(e);
    ConstValue c = eval(i->getCond());
    if (!c.isValid())
      return c;
    return eval(c.truthy() ? i->getThen() : i->getElse());
  }
  case Expr::Kind::Subscript: {
    auto *s = llvm::cast<SubscriptExpr>(e);
    ConstValue base = eval(s->getValue());
    if (!base.isValid())
      return base;
    if (base.getKind() != ConstValue::Kind::Tuple || s->getIndices().size() != 1) {
      diags.emit(DiagID::sema_const_error, e->getRange(), "only a tuple constant can be indexed here, with one index");
      return ConstValue();
    }
    ConstValue idx = eval(s->getIndices()[0]);
    if (!idx.isValid())
      return idx;
    int64_t n = int64_t(base.getElts().size());
    if (!idx.isIntLike() || idx.getInt() < -n || idx.getInt() >= n) {
      diags.emit(DiagID::sema_const_error, s->getIndices()[0]->getRange(),
                 "tuple index " + idx.str() + " is out of range for a tuple of " + std::to_string(n));
      return ConstValue();
    }
    int64_t k = idx.getInt() < 0 ? idx.getInt() + n : idx.getInt();
    return base.getElts()[k];
  }
  case Expr::Kind::Slice:
  case Expr::Kind::Dict:
    diags.emit(DiagID::sema_not_a_constant_expr, e->getRange(), e->getKind() == Expr::Kind::Slice ? "a slice" : "a dict");
    return ConstValue();
  case Expr::Kind::Error:
    return ConstValue();
  default: // constructs of spec v1 this evaluator does not know
    diags.emit(DiagID::not_supported_yet, e->getRange(), describe(e));
    return ConstValue();
  }
  return ConstValue();
}

ConstValue ConstEvaluator::evalName(const NameExpr *e) {
  if (const ConstEntry *entry = scope.lookup(e->getName()))
    return entry->value;
  if (e->getName() == "T" || e->getName() == "tilelang") {
    diags.emit(DiagID::sema_not_a_constant_expr, e->getRange(), e->getName());
    return ConstValue();
  }
  llvm::SmallVector<llvm::StringRef, 16> names;
  scope.collectNames(names);
  diags.emit(DiagID::sema_unknown_name, e->getRange(), e->getName(), didYouMean(e->getName(), names));
  return ConstValue();
}

/// True if `e` is the name `T` (the tilelang.language namespace), also when
/// spelled `tilelang.language`.
static bool isTNamespace(const Expr *e) {
  if (auto *n = llvm::dyn_cast<NameExpr>(e))
    return n->getName() == "T";
  if (auto *a = llvm::dyn_cast<AttributeExpr>(e))
    if (auto *n = llvm::dyn_cast<NameExpr>(a->getValue()))
      return n->getName() == "tilelang" && a->getAttr() == "language";
  return false;
}

ConstValue ConstEvaluator::evalAttribute(const AttributeExpr *e) {
  if (isTNamespace(e->getValue())) {
    if (auto t = parseDType(e->getAttr()))
      return ConstValue::ofDType(*t);
    llvm::SmallVector<llvm::StringRef, 64> names;
    getTBuiltinNames(names);
    if (lookupTBuiltin(e->getAttr()) || e->getAttr() == "GemmWarpPolicy") {
      diags.emit(DiagID::sema_not_a_constant_expr, e->getRange(), ("T." + e->getAttr()).str());
      return ConstValue();
    }
    for (llvm::StringRef d : allDTypeNames())
      names.push_back(d);
    names.push_back("GemmWarpPolicy");
    diags.emit(DiagID::sema_unknown_primitive, e->getAttrRange(), e->getAttr(), didYouMean(e->getAttr(), names));
    return ConstValue();
  }
  // T.GemmWarpPolicy.X
  if (auto *inner = llvm::dyn_cast<AttributeExpr>(e->getValue()))
    if (isTNamespace(inner->getValue()) && inner->getAttr() == "GemmWarpPolicy") {
      static const llvm::StringRef policies[] = {"Square", "FullRow", "FullCol"};
      for (llvm::StringRef p : policies)
        if (e->getAttr() == p)
          return ConstValue::ofPolicy(p.str());
      diags.emit(DiagID::sema_bad_policy, e->getAttrRange(), e->getAttr(), didYouMean(e->getAttr(), policies));
      return ConstValue();
    }
  ConstValue base = eval(e->getValue());
  if (!base.isValid())
    return base;
  diags.emit(DiagID::sema_unknown_attribute, e->getAttrRange(), base.str(), e->getAttr(), "");
  return ConstValue();
}

ConstValue ConstEvaluator::expectNumber(const Expr *e) {
  ConstValue v = eval(e);
  if (!v.isValid())
    return v;
  if (v.getKind() == ConstValue::Kind::Dynamic) {
    diags.emit(DiagID::sema_runtime_dim_in_const, e->getRange(), v.getStr());
    return ConstValue();
  }
  if (!v.isNumber()) {
    diags.emit(DiagID::sema_const_error, e->getRange(), ("expected a number, got " + v.describe()).str());
    return ConstValue();
  }
  return v;
}

ConstValue ConstEvaluator::evalCall(const CallExpr *e) {
  const BuiltinInfo *info = nullptr;
  const Expr *callee = e->getCallee();
  if (auto *a = llvm::dyn_cast<AttributeExpr>(callee); a && isTNamespace(a->getValue())) {
    info = lookupTBuiltin(a->getAttr());
    if (!info) {
      llvm::SmallVector<llvm::StringRef, 64> names;
      getTBuiltinNames(names);
      diags.emit(DiagID::sema_unknown_primitive, a->getAttrRange(), a->getAttr(), didYouMean(a->getAttr(), names));
      return ConstValue();
    }
  } else if (auto *n = llvm::dyn_cast<NameExpr>(callee); n && !scope.lookup(n->getName())) {
    info = lookupPyBuiltin(n->getName());
    if (!info) {
      llvm::SmallVector<llvm::StringRef, 16> names;
      scope.collectNames(names);
      for (llvm::StringRef b : {"min", "max", "int", "float"})
        names.push_back(b);
      diags.emit(DiagID::sema_unknown_name, n->getRange(), n->getName(), didYouMean(n->getName(), names));
      return ConstValue();
    }
  }
  if (!info) {
    std::string name = calleeName(callee);
    diags.emit(DiagID::sema_not_callable, callee->getRange(), name.empty() ? "expression" : name);
    return ConstValue();
  }
  BoundCall bound;
  if (!bindCall(*info, e, diags, bound))
    return ConstValue();
  switch (info->id) {
  case BuiltinID::Dynamic:
  case BuiltinID::Symbolic: {
    ConstValue name = eval(bound.get("name"));
    if (!name.isValid())
      return name;
    if (name.getKind() != ConstValue::Kind::Str || name.getStr().empty()) {
      diags.emit(DiagID::sema_wrong_arg_kind, bound.rangeOf("name"), "name", info->name, "a non-empty string",
                 name.describe());
      return ConstValue();
    }
    return ConstValue::ofDynamic(name.getStr().str());
  }
  case BuiltinID::DTypeCtor: {
    ConstValue v = eval(bound.get("name"));
    if (!v.isValid())
      return v;
    if (auto t = v.asDType())
      return ConstValue::ofDType(*t);
    if (v.getKind() == ConstValue::Kind::Str)
      diags.emit(DiagID::sema_unknown_dtype, bound.rangeOf("name"), v.getStr(), didYouMean(v.getStr(), allDTypeNames()));
    else
      diags.emit(DiagID::sema_wrong_arg_kind, bound.rangeOf("name"), "name", info->name, "a dtype name",
                 v.describe());
    return ConstValue();
  }
  case BuiltinID::CeilDiv:
  case BuiltinID::Min:
  case BuiltinID::Max: {
    ConstValue a = expectNumber(bound.get("a"));
    ConstValue b = expectNumber(bound.get("b"));
    if (!a.isValid() || !b.isValid())
      return ConstValue();
    if (info->id == BuiltinID::CeilDiv) {
      if (!a.isIntLike() || !b.isIntLike()) {
        diags.emit(DiagID::sema_const_error, e->getRange(), "T.ceildiv needs integer operands");
        return ConstValue();
      }
      if (b.getInt() == 0) {
        diags.emit(DiagID::sema_division_by_zero, bound.rangeOf("b"));
        return ConstValue();
      }
      return ConstValue::ofInt(ceilDiv(a.getInt(), b.getInt()));
    }
    ConstResult lt = applyCompare(CompareOp::Lt, a, b);
    bool aLess = lt.value.getBool();
    return (info->id == BuiltinID::Min) == aLess ? a : b;
  }
  case BuiltinID::PyMin:
  case BuiltinID::PyMax: {
    ConstValue best;
    for (const Expr *arg : bound.extra) {
      ConstValue v = expectNumber(arg);
      if (!v.isValid())
        return v;
      if (!best.isValid()) {
        best = v;
        continue;
      }
      bool less = applyCompare(CompareOp::Lt, v, best).value.getBool();
      bool greater = applyCompare(CompareOp::Gt, v, best).value.getBool();
      if (info->id == BuiltinID::PyMin ? less : greater)
        best = v;
    }
    return best;
  }
  case BuiltinID::PyInt: {
    ConstValue v = expectNumber(bound.get("x"));
    if (!v.isValid())
      return v;
    if (v.getKind() == ConstValue::Kind::Float) {
      double f = v.getFloat();
      if (!(f > -9.2e18 && f < 9.2e18)) {
        diags.emit(DiagID::sema_const_error, e->getRange(), "float value does not fit in an integer");
        return ConstValue();
      }
      return ConstValue::ofInt(int64_t(f));
    }
    return ConstValue::ofInt(v.getInt());
  }
  case BuiltinID::PyFloat: {
    ConstValue v = expectNumber(bound.get("x"));
    return v.isValid() ? ConstValue::ofFloat(v.getFloat()) : v;
  }
  default:
    diags.emit(DiagID::sema_not_a_constant_expr, callee->getRange(), info->name);
    return ConstValue();
  }
}

ConstValue ConstEvaluator::evalBinary(const BinaryExpr *e) {
  if (e->getOp() == BinaryOp::MatMul) {
    diags.emit(DiagID::not_supported_yet, e->getOpRange(), describe(e));
    return ConstValue();
  }
  ConstValue lhs = eval(e->getLHS());
  ConstValue rhs = eval(e->getRHS());
  if (!lhs.isValid() || !rhs.isValid())
    return ConstValue();
  for (auto [v, sub] : {std::pair{&lhs, e->getLHS()}, std::pair{&rhs, e->getRHS()}})
    if (v->getKind() == ConstValue::Kind::Dynamic) {
      diags.emit(DiagID::sema_runtime_dim_in_const, sub->getRange(), v->getStr());
      return ConstValue();
    }
  ConstResult r = applyBinary(e->getOp(), lhs, rhs);
  return checkBinaryResult(r, diags, e->getOpRange(), e->getRange()) ? r.value : ConstValue();
}

ConstValue ConstEvaluator::evalCompare(const CompareExpr *e) {
  llvm::ArrayRef<Expr *> operands = e->getOperands();
  if (operands.size() != e->getOps().size() + 1 || operands.empty())
    return ConstValue();
  ConstValue lhs = eval(operands[0]);
  if (!lhs.isValid())
    return lhs;
  for (size_t k = 0; k < e->getOps().size(); ++k) {
    ConstValue rhs = eval(operands[k + 1]);
    if (!rhs.isValid())
      return rhs;
    ConstResult r = applyCompare(e->getOps()[k], lhs, rhs);
    if (!r.error.empty()) {
      diags.emit(DiagID::sema_const_error, e->getRange(), r.error);
      return ConstValue();
    }
    if (!r.value.getBool())
      return ConstValue::ofBool(false);
    lhs = std::move(rhs);
  }
  return ConstValue::ofBool(true);
}
