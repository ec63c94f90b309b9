//===- TileGenExpr.cpp - Scalar expressions of a kernel body -------------===//
//
// Names, constants, arithmetic with the dtype rules of spec §5 (promotion
// in TileGenPromote.cpp),
// Python floor division/modulo, comparisons, element loads and the scalar
// T.* functions. Integer values carry linear forms so slice extents fold.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;
namespace math = mlir::math;

/// "float32 operands", for operator errors.
static std::string describeDType(DType t) { return (dtypeName(t) + " operands").str(); }

//===----------------------------------------------------------------------===//
// Constants and conversions
//===----------------------------------------------------------------------===//

mlir::Value KernelGen::indexConst(int64_t v, llvm::SMRange range) {
  return arith::ConstantIndexOp::create(b, loc(range), v);
}

TValue KernelGen::materialize(const ConstValue &c, DType t, llvm::SMRange range) {
  mlir::Type type = elementType(t);
  if (!c.isNumber()) {
    diags.emit(DiagID::sema_not_scalar, range, c.describe());
    return TValue();
  }
  if (isFloatDType(t)) {
    auto ft = llvm::cast<mlir::FloatType>(type);
    return TValue::ofScalar(arith::ConstantOp::create(b, loc(range), type, b.getFloatAttr(ft, c.getFloat())), t);
  }
  if (c.getKind() == ConstValue::Kind::Float) {
    diags.emit(DiagID::sema_bad_cast, range, "float literal " + c.str(), ("a " + dtypeName(t) + " value").str());
    return TValue();
  }
  int64_t v = c.getInt();
  if (t == DType::Bool)
    v = v != 0;
  if (t == DType::Index)
    return TValue::ofScalar(indexConst(v, range), t, LinearForm::ofConstant(v));
  return TValue::ofScalar(arith::ConstantOp::create(b, loc(range), type, b.getIntegerAttr(type, v)), t,
                          LinearForm::ofConstant(v));
}

TValue KernelGen::toScalar(TValue v, llvm::SMRange range) {
  if (!v.isConst())
    return v;
  switch (v.cst.getKind()) {
  case ConstValue::Kind::Int: return materialize(v.cst, DType::Int32, range);
  case ConstValue::Kind::Float: return materialize(v.cst, DType::Float32, range);
  case ConstValue::Kind::Bool: return materialize(v.cst, DType::Bool, range);
  default:
    diags.emit(DiagID::sema_not_scalar, range, v.describe());
    return TValue();
  }
}

TValue KernelGen::convert(TValue v, DType to, llvm::SMRange range) {
  if (v.isConst())
    return materialize(v.cst, to, range);
  if (!v.isScalar()) {
    diags.emit(DiagID::sema_not_scalar, range, v.describe());
    return TValue();
  }
  DType from = v.dtype;
  if (from == to)
    return v;
  mlir::Location l = loc(range);
  mlir::Type toType = elementType(to);
  mlir::Value x = v.value;
  bool fromFloat = isFloatDType(from), toFloat = isFloatDType(to);
  // Index goes through i64 unless the target is an integer.
  if (from == DType::Index) {
    if (!toFloat && to != DType::Bool)
      return TValue::ofScalar(arith::IndexCastOp::create(b, l, toType, x), to, v.lin);
    x = arith::IndexCastOp::create(b, l, b.getI64Type(), x);
    from = DType::Int64;
  }
  if (to == DType::Index) {
    if (fromFloat) {
      x = arith::FPToSIOp::create(b, l, b.getI64Type(), x);
      from = DType::Int64;
    }
    if (isUnsignedDType(from))
      return TValue::ofScalar(arith::IndexCastUIOp::create(b, l, toType, x), to, v.lin);
    return TValue::ofScalar(arith::IndexCastOp::create(b, l, toType, x), to, v.lin);
  }
  if (to == DType::Bool) {
    mlir::Value zero;
    if (fromFloat) {
      zero = arith::ConstantOp::create(b, l, x.getType(), b.getFloatAttr(x.getType(), 0.0));
      return TValue::ofScalar(arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x, zero), to);
    }
    zero = arith::ConstantOp::create(b, l, x.getType(), b.getIntegerAttr(x.getType(), 0));
    return TValue::ofScalar(arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, x, zero), to);
  }
  mlir::Value r;
  if (fromFloat && toFloat) {
    unsigned fw = llvm::cast<mlir::FloatType>(x.getType()).getWidth();
    unsigned tw = llvm::cast<mlir::FloatType>(toType).getWidth();
    if (fw < tw)
      r = arith::ExtFOp::create(b, l, toType, x);
    else if (fw > tw)
      r = arith::TruncFOp::create(b, l, toType, x);
    else // f16 <-> bf16 and the two fp8 kinds
      r = arith::TruncFOp::create(b, l, toType, arith::ExtFOp::create(b, l, b.getF32Type(), x));
  } else if (fromFloat) {
    r = isUnsignedDType(to) ? arith::FPToUIOp::create(b, l, toType, x).getResult()
                            : arith::FPToSIOp::create(b, l, toType, x).getResult();
  } else if (toFloat) {
    r = isUnsignedDType(from) ? arith::UIToFPOp::create(b, l, toType, x).getResult()
                              : arith::SIToFPOp::create(b, l, toType, x).getResult();
  } else {
    unsigned fw = x.getType().getIntOrFloatBitWidth(), tw = toType.getIntOrFloatBitWidth();
    if (fw < tw)
      r = isUnsignedDType(from) ? arith::ExtUIOp::create(b, l, toType, x).getResult()
                                : arith::ExtSIOp::create(b, l, toType, x).getResult();
    else if (fw > tw)
      r = arith::TruncIOp::create(b, l, toType, x);
    else
      r = x; // same width, signedness differs: same bits
  }
  return TValue::ofScalar(r, to);
}

TValue KernelGen::toBool(TValue v, llvm::SMRange range) {
  if (v.isConst())
    return materialize(ConstValue::ofBool(v.cst.truthy()), DType::Bool, range);
  if (!v.isScalar()) {
    diags.emit(DiagID::sema_not_scalar, range, v.describe());
    return TValue();
  }
  return convert(v, DType::Bool, range);
}

mlir::Value KernelGen::toIndex(TValue v, llvm::SMRange range) {
  if (v.isConst()) {
    if (!v.cst.isIntLike()) {
      diags.emit(DiagID::sema_wrong_arg_kind, range, "index", "subscript", "an integer", v.describe());
      return {};
    }
    return indexConst(v.cst.getInt(), range);
  }
  if (!v.isScalar() || !isIntegerDType(v.dtype) || v.dtype == DType::Bool) {
    diags.emit(DiagID::sema_wrong_arg_kind, range, "index", "subscript", "an integer", v.describe());
    return {};
  }
  TValue r = convert(v, DType::Index, range);
  if (r.isValid() && r.value != v.value && v.lin)
    symbols[r.value] = symbolFor(v.value);
  return r.value;
}

std::optional<LinearForm> KernelGen::linOf(const TValue &v) {
  if (v.isConst())
    return v.cst.isIntLike() ? std::optional<LinearForm>(LinearForm::ofConstant(v.cst.getInt())) : std::nullopt;
  if (!v.isScalar() || !isIntegerDType(v.dtype))
    return std::nullopt;
  if (v.lin)
    return v.lin;
  return LinearForm::ofSymbol(symbolFor(v.value));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

TValue KernelGen::eval(const Expr *e) {
  if (!e)
    return TValue();
  switch (e->getKind()) {
  case Expr::Kind::IntLit:
  case Expr::Kind::FloatLit:
  case Expr::Kind::StrLit:
  case Expr::Kind::BoolLit:
  case Expr::Kind::NoneLit: {
    ConstValue c = info.interp->eval(e, metaEnv);
    return c.isValid() ? TValue::ofConst(c) : TValue();
  }
  case Expr::Kind::Name:
    return evalName(llvm::cast<NameExpr>(e));
  case Expr::Kind::Attribute:
    return evalAttribute(llvm::cast<AttributeExpr>(e));
  case Expr::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(e));
  case Expr::Kind::Subscript:
    return evalSubscript(llvm::cast<SubscriptExpr>(e));
  case Expr::Kind::Binary:
    return evalBinary(llvm::cast<BinaryExpr>(e));
  case Expr::Kind::Unary:
    return evalUnary(llvm::cast<UnaryExpr>(e));
  case Expr::Kind::Compare:
    return evalCompare(llvm::cast<CompareExpr>(e));
  case Expr::Kind::BoolOp:
    return evalBoolOp(llvm::cast<BoolOpExpr>(e));
  case Expr::Kind::IfExp: {
    auto *i = llvm::cast<IfExpExpr>(e);
    return evalSelect(i->getCond(), i->getThen(), i->getElse(), e->getRange());
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    llvm::ArrayRef<Expr *> elts = e->getKind() == Expr::Kind::Tuple ? llvm::cast<TupleExpr>(e)->getElts()
                                                                      : llvm::cast<ListExpr>(e)->getElts();
    std::vector<ConstValue> values;
    for (const Expr *elt : elts) {
      TValue v = eval(elt);
      if (!v.isValid())
        return v;
      if (!v.isConst()) {
        diags.emit(DiagID::sema_not_a_constant_expr, elt->getRange(), "a runtime value inside a tuple");
        return TValue();
      }
      values.push_back(v.cst);
    }
    return TValue::ofConst(ConstValue::ofTuple(std::move(values)));
  }
  case Expr::Kind::Slice:
    diags.emit(DiagID::sema_wrong_context, e->getRange(), "a slice", "outside a T.copy region");
    return TValue();
  case Expr::Kind::Dict:
    diags.emit(DiagID::sema_wrong_context, e->getRange(), "a dict", "outside T.annotate_layout");
    return TValue();
  case Expr::Kind::Lambda:
    return evalLambda(e);
  case Expr::Kind::Error:
    return TValue();
  default: // constructs of spec v1 kernel code generation does not know
    diags.emit(DiagID::not_supported_yet, e->getRange(), describe(e));
    return TValue();
  }
  return TValue();
}

TValue KernelGen::evalName(const NameExpr *e) {
  llvm::StringRef name = e->getName();
  if (LocalVar *var = lookupLocal(name)) {
    if (!var->isBound()) {
      reportUnusable(*var, name, e->getRange());
      return TValue();
    }
    if (var->value.isBuffer() && var->value.buffer->isVar)
      return TValue::ofScalar(loadElement(var->value.buffer, {}, e->getRange()), var->value.buffer->dtype);
    return var->value;
  }
  if (auto it = params.find(name); it != params.end()) {
    if (it->second.isConst() && meta::deferredHarness(it->second.cst)) { // a macro's unknown `T.X` default
      info.interp->reportHarnessUse(it->second.cst, e->getRange());
      return TValue();
    }
    return it->second;
  }
  if (const meta::Binding *c = metaEnv->lookup(name)) {
    if (!c->value.isValid())
      return TValue();
    if (c->value.is(meta::Value::Kind::Harness)) {
      info.interp->reportHarnessUse(c->value, e->getRange());
      return TValue();
    }
    if (const meta::SizeExpr *size = c->value.getSize())
      return lowerSize(*size, e->getRange());
    return TValue::ofConst(c->value);
  }
  meta::Value dv;
  if (info.interp->defineForUnboundName(name, dv))
    return dv.isValid() ? TValue::ofConst(dv) : TValue();
  if (std::string hint = info.interp->unboundNameHint(name); !hint.empty()) {
    diags.emit(DiagID::sema_unknown_name, e->getRange(), name, hint);
    return TValue();
  }
  llvm::SmallVector<llvm::StringRef, 32> names;
  for (const LocalScope &s : scopes)
    for (const auto &entry : s.names)
      names.push_back(entry.getKey());
  for (const auto &entry : params)
    names.push_back(entry.getKey());
  metaEnv->collectNames(names);
  diags.emit(DiagID::sema_unknown_name, e->getRange(), name, didYouMean(name, names));
  return TValue();
}

TValue KernelGen::evalAttribute(const AttributeExpr *e) {
  // `T.float16`, `T.GemmWarpPolicy.Square`: module-level constants.
  std::string full = calleeName(e);
  if (llvm::StringRef(full).starts_with("T.")) {
    ConstValue c = info.interp->eval(e, metaEnv);
    return c.isValid() ? TValue::ofConst(c) : TValue();
  }
  TValue base = eval(e->getValue());
  if (!base.isValid())
    return base;
  if (base.isConst()) {
    ConstValue c = info.interp->getAttr(base.cst, e->getAttr(), e->getAttrRange(), e->getRange());
    if (const meta::SizeExpr *size = c.getSize())
      return lowerSize(*size, e->getRange());
    return c.isValid() ? TValue::ofConst(c) : TValue();
  }
  if (base.isBuffer()) {
    BufferInfo *buf = base.buffer;
    if (e->getAttr() == "shape") {
      std::vector<ConstValue> dims;
      for (int64_t d : buf->shape) {
        if (mlir::ShapedType::isDynamic(d)) {
          diags.emit(DiagID::sema_not_a_constant_expr, e->getRange(), "the shape of a tensor with runtime dimensions");
          return TValue();
        }
        dims.push_back(ConstValue::ofInt(d));
      }
      return TValue::ofConst(ConstValue::ofTuple(std::move(dims)));
    }
    if (e->getAttr() == "dtype")
      return TValue::ofConst(ConstValue::ofDType(buf->dtype));
  }
  if (base.isScalar() && e->getAttr() == "dtype") // a kernel scalar's dtype is a compile-time value
    return TValue::ofConst(ConstValue::ofDType(base.dtype == DType::Index ? DType::Int32 : base.dtype));
  static const llvm::StringRef known[] = {"shape", "dtype", "astype"};
  diags.emit(DiagID::sema_unknown_attribute, e->getAttrRange(), base.describe(), e->getAttr(),
             didYouMean(e->getAttr(), known));
  return TValue();
}

TValue KernelGen::evalBinary(const BinaryExpr *e) {
  if (e->getOp() == BinaryOp::MatMul) {
    diags.emit(DiagID::not_supported_yet, e->getOpRange(), describe(e));
    return TValue();
  }
  TValue lhs = eval(e->getLHS());
  TValue rhs = eval(e->getRHS());
  if (!lhs.isValid() || !rhs.isValid())
    return TValue();
  // `x // 0`, `x % 0` on integers: Python raises ZeroDivisionError, and the
  // targets disagree (LLVM: undefined; WGSL: x and 0), so a constant zero
  // divisor is an error. Both constant: ConstEval reports it.
  if ((e->getOp() == BinaryOp::FloorDiv || e->getOp() == BinaryOp::Mod) && !lhs.isConst() && rhs.isConst() &&
      rhs.cst.isIntLike() && rhs.cst.getInt() == 0 && isIntegerDType(lhs.dtype)) {
    diags.emit(DiagID::sema_int_division_by_zero, e->getRHS()->getRange(),
               e->getOp() == BinaryOp::FloorDiv ? "division" : "modulo");
    return TValue();
  }
  return binaryOp(e->getOp(), lhs, rhs, e->getOpRange(), e->getRange());
}

TValue KernelGen::binaryOp(BinaryOp op, TValue lhs, TValue rhs, llvm::SMRange opRange, llvm::SMRange range) {
  llvm::StringRef opName = spelling(op);
  if (lhs.isConst() && rhs.isConst()) {
    // Two compile-time integers are Python values, as in tile-lang, where
    // Python computes `max_seqlen / block_N` before any IR exists: `/` is
    // true division (spec §5's error is for runtime integers).
    if (op == BinaryOp::Div && lhs.cst.isIntLike() && rhs.cst.isIntLike()) {
      if (rhs.cst.getInt() == 0) {
        diags.emit(DiagID::sema_division_by_zero, range);
        return TValue();
      }
      return TValue::ofConst(meta::Value::ofFloat(double(lhs.cst.getInt()) / double(rhs.cst.getInt())));
    }
    ConstResult r = applyBinary(op, lhs.cst, rhs.cst);
    return checkBinaryResult(r, diags, opRange, range) ? TValue::ofConst(r.value) : TValue();
  }
  std::optional<LinearForm> ll = linOf(lhs), rl = linOf(rhs);
  // Integer `**` with a constant exponent expands to multiplications.
  if (op == BinaryOp::Pow && rhs.isConst() && rhs.cst.isIntLike() && lhs.isScalar() && isIntegerDType(lhs.dtype)) {
    int64_t n = rhs.cst.getInt();
    if (n < 0 || n > 64) {
      diags.emit(DiagID::sema_bad_operand, opRange, "**", "an integer with a negative or huge exponent");
      return TValue();
    }
    TValue acc = materialize(ConstValue::ofInt(1), lhs.dtype, range);
    for (int64_t k = 0; k < n; ++k)
      acc = TValue::ofScalar(arith::MulIOp::create(b, loc(range), acc.value, lhs.value), lhs.dtype);
    return acc;
  }
  if (!unify(lhs, rhs, opName, opRange))
    return TValue();
  DType t = lhs.dtype;
  mlir::Value x = lhs.value, y = rhs.value;
  mlir::Location l = loc(range);
  bool isFloat = isFloatDType(t), isUnsigned = isUnsignedDType(t);
  if (t == DType::Bool && op != BinaryOp::BitAnd && op != BinaryOp::BitOr && op != BinaryOp::BitXor) {
    diags.emit(DiagID::sema_bad_operand, opRange, opName, "bool operands");
    return TValue();
  }
  if (isFloat) {
    switch (op) {
    case BinaryOp::Add: return TValue::ofScalar(arith::AddFOp::create(b, l, x, y), t);
    case BinaryOp::Sub: return TValue::ofScalar(arith::SubFOp::create(b, l, x, y), t);
    case BinaryOp::Mul: return TValue::ofScalar(arith::MulFOp::create(b, l, x, y), t);
    case BinaryOp::Div: return TValue::ofScalar(arith::DivFOp::create(b, l, x, y), t);
    case BinaryOp::FloorDiv:
      return TValue::ofScalar(math::FloorOp::create(b, l, arith::DivFOp::create(b, l, x, y)), t);
    case BinaryOp::Mod: {
      // Python: the result takes the divisor's sign.
      mlir::Value r = arith::RemFOp::create(b, l, x, y);
      mlir::Value zero = arith::ConstantOp::create(b, l, x.getType(), b.getFloatAttr(x.getType(), 0.0));
      mlir::Value rNonZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, r, zero);
      mlir::Value rNeg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, r, zero);
      mlir::Value yNeg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, y, zero);
      mlir::Value fix = arith::AndIOp::create(b, l, rNonZero, arith::XOrIOp::create(b, l, rNeg, yNeg));
      mlir::Value adj = arith::AddFOp::create(b, l, r, y);
      return TValue::ofScalar(arith::SelectOp::create(b, l, fix, adj, r), t);
    }
    case BinaryOp::Pow: return TValue::ofScalar(math::PowFOp::create(b, l, x, y), t);
    default:
      diags.emit(DiagID::sema_float_bitwise, opRange, opName, describeDType(t));
      return TValue();
    }
  }
  std::optional<LinearForm> lin;
  switch (op) {
  case BinaryOp::Add:
    if (ll && rl) lin = ll->add(*rl);
    return TValue::ofScalar(arith::AddIOp::create(b, l, x, y), t, lin);
  case BinaryOp::Sub:
    if (ll && rl) lin = ll->sub(*rl);
    return TValue::ofScalar(arith::SubIOp::create(b, l, x, y), t, lin);
  case BinaryOp::Mul:
    if (ll && rl) lin = ll->mul(*rl);
    return TValue::ofScalar(arith::MulIOp::create(b, l, x, y), t, lin);
  case BinaryOp::Div:
    diags.emit(DiagID::sema_int_true_div, opRange);
    return TValue();
  case BinaryOp::FloorDiv:
    if (isUnsigned)
      return TValue::ofScalar(arith::DivUIOp::create(b, l, x, y), t);
    return TValue::ofScalar(arith::FloorDivSIOp::create(b, l, x, y), t);
  case BinaryOp::Mod: {
    if (isUnsigned)
      return TValue::ofScalar(arith::RemUIOp::create(b, l, x, y), t);
    // Python: r = x rem y; if r != 0 and sign(r) != sign(y): r += y.
    mlir::Value r = arith::RemSIOp::create(b, l, x, y);
    mlir::Value zero = arith::ConstantOp::create(b, l, x.getType(), b.getZeroAttr(x.getType()));
    mlir::Value rNonZero = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, r, zero);
    mlir::Value rNeg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, r, zero);
    mlir::Value yNeg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, y, zero);
    mlir::Value fix = arith::AndIOp::create(b, l, rNonZero, arith::XOrIOp::create(b, l, rNeg, yNeg));
    mlir::Value adj = arith::AddIOp::create(b, l, r, y);
    return TValue::ofScalar(arith::SelectOp::create(b, l, fix, adj, r), t);
  }
  case BinaryOp::Pow:
    diags.emit(DiagID::sema_bad_operand, opRange, "**", "integers without a constant exponent");
    return TValue();
  case BinaryOp::BitAnd: return TValue::ofScalar(arith::AndIOp::create(b, l, x, y), t);
  case BinaryOp::BitOr: return TValue::ofScalar(arith::OrIOp::create(b, l, x, y), t);
  case BinaryOp::BitXor: return TValue::ofScalar(arith::XOrIOp::create(b, l, x, y), t);
  case BinaryOp::Shl: return TValue::ofScalar(arith::ShLIOp::create(b, l, x, y), t);
  case BinaryOp::Shr:
    if (isUnsigned)
      return TValue::ofScalar(arith::ShRUIOp::create(b, l, x, y), t);
    return TValue::ofScalar(arith::ShRSIOp::create(b, l, x, y), t);
  case BinaryOp::MatMul: // rejected in evalBinary
    break;
  }
  return TValue();
}

TValue KernelGen::evalUnary(const UnaryExpr *e) {
  TValue v = eval(e->getOperand());
  if (!v.isValid())
    return v;
  if (v.isConst()) {
    ConstResult r = applyUnary(e->getOp(), v.cst);
    if (!r.error.empty()) {
      diags.emit(DiagID::sema_const_error, e->getRange(), r.error);
      return TValue();
    }
    return TValue::ofConst(r.value);
  }
  if (!v.isScalar()) {
    diags.emit(DiagID::sema_bad_operand, e->getRange(), spelling(e->getOp()), v.describe());
    return TValue();
  }
  mlir::Location l = loc(e->getRange());
  switch (e->getOp()) {
  case UnaryOp::Pos:
    return v;
  case UnaryOp::Not: {
    TValue c = toBool(v, e->getRange());
    if (!c.isValid())
      return c;
    mlir::Value one = arith::ConstantOp::create(b, l, b.getI1Type(), b.getBoolAttr(true));
    return TValue::ofScalar(arith::XOrIOp::create(b, l, c.value, one), DType::Bool);
  }
  case UnaryOp::Neg: {
    if (isFloatDType(v.dtype))
      return TValue::ofScalar(arith::NegFOp::create(b, l, v.value), v.dtype);
    std::optional<LinearForm> lin;
    if (auto f = linOf(v))
      lin = f->scale(-1);
    mlir::Value zero = arith::ConstantOp::create(b, l, v.value.getType(), b.getZeroAttr(v.value.getType()));
    return TValue::ofScalar(arith::SubIOp::create(b, l, zero, v.value), v.dtype, lin);
  }
  case UnaryOp::Invert: {
    if (isFloatDType(v.dtype)) {
      diags.emit(DiagID::sema_float_bitwise, e->getRange(), "~", describeDType(v.dtype));
      return TValue();
    }
    mlir::Value ones = arith::ConstantOp::create(b, l, v.value.getType(), b.getIntegerAttr(v.value.getType(), -1));
    return TValue::ofScalar(arith::XOrIOp::create(b, l, v.value, ones), v.dtype);
  }
  }
  return TValue();
}

TValue KernelGen::evalCompare(const CompareExpr *e) {
  llvm::ArrayRef<Expr *> operands = e->getOperands();
  if (operands.size() != e->getOps().size() + 1)
    return TValue();
  TValue result;
  TValue lhs = eval(operands[0]);
  for (size_t k = 0; k < e->getOps().size(); ++k) {
    TValue rhs = eval(operands[k + 1]);
    if (!lhs.isValid() || !rhs.isValid())
      return TValue();
    CompareOp op = e->getOps()[k];
    TValue cur;
    if (lhs.isConst() && rhs.isConst()) {
      ConstResult r = applyCompare(op, lhs.cst, rhs.cst);
      if (!r.error.empty()) {
        diags.emit(DiagID::sema_const_error, e->getRange(), r.error);
        return TValue();
      }
      cur = TValue::ofConst(r.value);
    } else {
      if (op == CompareOp::Is || op == CompareOp::IsNot || op == CompareOp::In || op == CompareOp::NotIn) {
        diags.emit(DiagID::sema_bad_operand, e->getRange(), spelling(op), "runtime values");
        return TValue();
      }
      TValue x = lhs, y = rhs;
      if (!unify(x, y, spelling(op), e->getRange()))
        return TValue();
      mlir::Location l = loc(e->getRange());
      if (isFloatDType(x.dtype)) {
        arith::CmpFPredicate p = op == CompareOp::Eq ? arith::CmpFPredicate::OEQ
                               : op == CompareOp::Ne ? arith::CmpFPredicate::UNE
                               : op == CompareOp::Lt ? arith::CmpFPredicate::OLT
                               : op == CompareOp::Le ? arith::CmpFPredicate::OLE
                               : op == CompareOp::Gt ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OGE;
        cur = TValue::ofScalar(arith::CmpFOp::create(b, l, p, x.value, y.value), DType::Bool);
      } else {
        bool u = isUnsignedDType(x.dtype);
        arith::CmpIPredicate p = op == CompareOp::Eq ? arith::CmpIPredicate::eq
                               : op == CompareOp::Ne ? arith::CmpIPredicate::ne
                               : op == CompareOp::Lt ? (u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt)
                               : op == CompareOp::Le ? (u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle)
                               : op == CompareOp::Gt ? (u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                                                     : (u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge);
        cur = TValue::ofScalar(arith::CmpIOp::create(b, l, p, x.value, y.value), DType::Bool);
      }
    }
    if (!result.isValid()) {
      result = cur;
    } else if (result.isConst() && cur.isConst()) {
      result = TValue::ofConst(ConstValue::ofBool(result.cst.truthy() && cur.cst.truthy()));
    } else {
      TValue a = toBool(result, e->getRange()), c = toBool(cur, e->getRange());
      if (!a.isValid() || !c.isValid())
        return TValue();
      result = TValue::ofScalar(arith::AndIOp::create(b, loc(e->getRange()), a.value, c.value), DType::Bool);
    }
    lhs = rhs;
  }
  return result;
}

TValue KernelGen::evalBoolOp(const BoolOpExpr *e) {
  bool isAnd = e->getOp() == BoolOpKind::And;
  TValue acc;
  for (const Expr *operand : e->getOperands()) {
    TValue v = eval(operand);
    if (!v.isValid())
      return v;
    if (v.isConst()) {
      // A constant decides the whole expression, or drops out of it.
      if (isAnd != v.cst.truthy())
        return TValue::ofConst(ConstValue::ofBool(!isAnd));
      continue;
    }
    TValue c = toBool(v, operand->getRange());
    if (!c.isValid())
      return c;
    if (!acc.isValid()) {
      acc = c;
      continue;
    }
    mlir::Location l = loc(e->getRange());
    acc = TValue::ofScalar(isAnd ? arith::AndIOp::create(b, l, acc.value, c.value).getResult()
                                 : arith::OrIOp::create(b, l, acc.value, c.value).getResult(),
                           DType::Bool);
  }
  return acc.isValid() ? acc : TValue::ofConst(ConstValue::ofBool(isAnd));
}

TValue KernelGen::evalSelect(const Expr *condE, const Expr *thenE, const Expr *elseE, llvm::SMRange range) {
  TValue cond = eval(condE);
  if (!cond.isValid())
    return cond;
  if (cond.isConst())
    return eval(cond.cst.truthy() ? thenE : elseE);
  TValue c = toBool(cond, condE->getRange());
  if (!c.isValid())
    return c;
  // Each side is evaluated only when selected (a guard such as
  // `A[i] if i < n else 0` must not load out of bounds): build both sides in
  // a result-less scf.if, then move them into one that yields the value.
  mlir::Location l = loc(range);
  auto probe = mlir::scf::IfOp::create(b, l, c.value, /*withElseRegion=*/true);
  TValue sides[2];
  const Expr *exprs[2] = {thenE, elseE};
  mlir::Block *blocks[2] = {probe.thenBlock(), probe.elseBlock()};
  {
    mlir::OpBuilder::InsertionGuard guard(b);
    for (int k = 0; k < 2; ++k) {
      b.setInsertionPoint(blocks[k]->getTerminator());
      sides[k] = eval(exprs[k]);
    }
  }
  bool ok = sides[0].isValid() && sides[1].isValid();
  if (ok) {
    mlir::OpBuilder::InsertionGuard guard(b);
    // Constants take the other side's dtype (literalDType), then the two
    // sides promote; each is materialized or converted in its own block.
    bool bothConst = sides[0].isConst() && sides[1].isConst() && sides[0].cst.isNumber() && sides[1].cst.isNumber();
    DType pair = bothConst ? literalPairDType(sides[0].cst, sides[1].cst) : DType::Int32;
    for (int k = 0; k < 2; ++k) {
      b.setInsertionPoint(blocks[k]->getTerminator());
      TValue &self = sides[k], &other = sides[1 - k];
      if (bothConst)
        self = materialize(self.cst, pair, exprs[k]->getRange());
      else if (self.isConst())
        self = other.isScalar() ? materialize(self.cst, literalDType(self.cst, other.dtype), exprs[k]->getRange())
                                : toScalar(self, exprs[k]->getRange());
    }
    ok = sides[0].isValid() && sides[1].isValid();
    for (int k = 0; ok && k < 2; ++k)
      if (!sides[k].isScalar()) {
        diags.emit(DiagID::sema_not_scalar, exprs[k]->getRange(), sides[k].describe());
        ok = false;
      }
    std::optional<DType> t = ok ? commonDType(sides[0], sides[1], "if-else", range) : std::nullopt;
    ok = t.has_value();
    for (int k = 0; ok && k < 2; ++k) {
      b.setInsertionPoint(blocks[k]->getTerminator());
      sides[k] = promoteTo(sides[k], *t, "if-else", exprs[k]->getRange());
      ok = sides[k].isValid();
    }
  }
  if (!ok) {
    probe.erase();
    return TValue();
  }
  auto ifOp = mlir::scf::IfOp::create(b, l, mlir::TypeRange{sides[0].value.getType()}, c.value, true);
  for (int k = 0; k < 2; ++k) {
    mlir::Region &dst = k == 0 ? ifOp.getThenRegion() : ifOp.getElseRegion();
    mlir::Region &src = k == 0 ? probe.getThenRegion() : probe.getElseRegion();
    dst.getBlocks().clear();
    dst.takeBody(src);
    mlir::Block &block = dst.front();
    block.getTerminator()->erase();
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&block);
    mlir::scf::YieldOp::create(b, l, sides[k].value);
  }
  probe.erase();
  return TValue::ofScalar(ifOp.getResult(0), sides[0].dtype);
}
