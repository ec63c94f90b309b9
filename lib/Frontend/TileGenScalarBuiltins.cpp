//===- TileGenScalarBuiltins.cpp - Expression builtins of scalars ---------===//
//
// evalExprBuiltin, the dispatch of the T.* (and Python) builtins that are
// values: T.abs, the exp/log family, T.min/T.max/T.ceildiv, int()/float(),
// T.infinity, T.cast, T.if_then_else, the thread index; the rest of spec
// §5's are in TileGenMath.cpp.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;
namespace math = mlir::math;

/// Folds a float math function of a constant.
static std::optional<double> foldMath(BuiltinID id, double x) {
  switch (id) {
  case BuiltinID::Exp:
    return std::exp(x);
  case BuiltinID::Exp2:
    return std::exp2(x);
  case BuiltinID::Log:
    return std::log(x);
  case BuiltinID::Log2:
    return std::log2(x);
  case BuiltinID::Sqrt:
    return std::sqrt(x);
  case BuiltinID::Rsqrt:
    return 1.0 / std::sqrt(x);
  case BuiltinID::Tanh:
    return std::tanh(x);
  case BuiltinID::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  default:
    return std::nullopt;
  }
}

/// T.abs and abs(): folded for a constant, math.absf/absi otherwise.
TValue KernelGen::evalAbs(const BoundCall &call) {
  mlir::Location l = loc(call.call->getRange());
  TValue x = eval(call.get("x"));
  if (!x.isValid())
    return x;
  if (x.isConst()) {
    if (!x.cst.isNumber()) {
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("x"), "x", call.info->name, "a number", x.describe());
      return TValue();
    }
    if (x.cst.getKind() == ConstValue::Kind::Float)
      return TValue::ofConst(ConstValue::ofFloat(std::fabs(x.cst.getFloat())));
    if (x.cst.getInt() == INT64_MIN) {
      diags.emit(DiagID::sema_const_error, call.call->getRange(),
                 "integer overflow in " + std::string(call.info->name) + "(): |" + std::to_string(INT64_MIN) +
                     "| does not fit in int64");
      return TValue();
    }
    return TValue::ofConst(ConstValue::ofInt(std::llabs(x.cst.getInt())));
  }
  if (!x.isScalar()) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("x"), "x", call.info->name, "a scalar", x.describe());
    return TValue();
  }
  if (isFloatDType(x.dtype))
    return TValue::ofScalar(math::AbsFOp::create(b, l, x.value), x.dtype);
  if (x.dtype == DType::Index) {
    // math.absi of an index has no lowering on the LLVM-based GPU targets: x < 0 ? 0 - x : x.
    mlir::Value zero = indexConst(0, call.call->getRange());
    mlir::Value neg = arith::SubIOp::create(b, l, zero, x.value);
    mlir::Value lt = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x.value, zero);
    return TValue::ofScalar(arith::SelectOp::create(b, l, lt, neg, x.value), x.dtype);
  }
  return TValue::ofScalar(math::AbsIOp::create(b, l, x.value), x.dtype);
}

/// An explicit cast (T.cast, T.Cast, T.int32(x)): as convert, but a float constant cast to an
/// integer truncates (as C and tile-lang do) and any constant cast to bool is its truth value.
TValue KernelGen::castValue(TValue x, DType t, llvm::SMRange range) {
  if (x.isConst() && t == DType::Bool && x.cst.isNumber())
    return convert(TValue::ofConst(ConstValue::ofBool(x.cst.truthy())), t, range);
  if (x.isConst() && x.cst.getKind() == ConstValue::Kind::Float && isIntegerDType(t)) {
    double f = x.cst.getFloat();
    if (!std::isfinite(f) || std::fabs(f) >= 9.2e18) {
      diags.emit(DiagID::sema_bad_cast, range, "float constant " + x.cst.str(), ("a " + dtypeName(t) + " value").str());
      return TValue();
    }
    return convert(TValue::ofConst(ConstValue::ofInt(int64_t(std::trunc(f)))), t, range);
  }
  return convert(x, t, range);
}

/// T.exp, T.exp2, T.log, T.log2, T.sqrt, T.rsqrt, T.tanh, T.sigmoid of a float.
TValue KernelGen::evalFloatMath(const BoundCall &call) {
  BuiltinID id = call.info->id;
  mlir::Location l = loc(call.call->getRange());
  TValue x = eval(call.get("x"));
  if (!x.isValid())
    return x;
  if (x.isConst() && x.cst.isNumber())
    return TValue::ofConst(ConstValue::ofFloat(*foldMath(id, x.cst.getFloat())));
  if (!x.isScalar() || !isFloatDType(x.dtype)) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("x"), "x", call.info->name, "a float scalar (use T.cast)",
               x.describe());
    return TValue();
  }
  mlir::Value v = x.value, r;
  switch (id) {
  case BuiltinID::Exp:
    r = math::ExpOp::create(b, l, v);
    break;
  case BuiltinID::Exp2:
    r = math::Exp2Op::create(b, l, v);
    break;
  case BuiltinID::Log:
    r = math::LogOp::create(b, l, v);
    break;
  case BuiltinID::Log2:
    r = math::Log2Op::create(b, l, v);
    break;
  case BuiltinID::Sqrt:
    r = math::SqrtOp::create(b, l, v);
    break;
  case BuiltinID::Rsqrt:
    r = math::RsqrtOp::create(b, l, v);
    break;
  case BuiltinID::Tanh:
    r = math::TanhOp::create(b, l, v);
    break;
  default: {
    mlir::Value one = arith::ConstantOp::create(b, l, v.getType(), b.getFloatAttr(v.getType(), 1.0));
    mlir::Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, v));
    r = arith::DivFOp::create(b, l, one, arith::AddFOp::create(b, l, one, e));
    break;
  }
  }
  return TValue::ofScalar(r, x.dtype);
}

/// T.get_thread_binding(dim): the thread index of `dim`.
TValue KernelGen::evalThreadIndex(const BoundCall &call) {
  mlir::Location l = loc(call.call->getRange());
  argFailed = false;
  std::optional<int64_t> dim = constIntArg(call, "dim");
  if (argFailed || !dim)
    return TValue();
  if (*dim < 0 || *dim > 2) {
    diags.emit(DiagID::sema_dim_out_of_range, call.rangeOf("dim"), *dim, 3);
    return TValue();
  }
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return TValue();
  }
  mlir::Value v = tile::ThreadIdOp::create(b, l, b.getIndexType(), uint64_t(*dim));
  return TValue::ofScalar(v, DType::Index);
}

/// T.ceildiv, T.min, T.max and the variadic min()/max(), folded over constants.
TValue KernelGen::evalMinMax(const BoundCall &call) {
  BuiltinID id = call.info->id;
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  llvm::SmallVector<const Expr *, 4> args;
  if (id == BuiltinID::PyMin || id == BuiltinID::PyMax)
    args.append(call.extra.begin(), call.extra.end());
  else
    args = {call.get("a"), call.get("b")};
  bool isMin = id == BuiltinID::Min || id == BuiltinID::PyMin;
  TValue acc = eval(args[0]);
  for (size_t k = 1; k < args.size() && acc.isValid(); ++k) {
    TValue y = eval(args[k]);
    if (!y.isValid())
      return y;
    if (acc.isConst() && y.isConst()) {
      if (!acc.cst.isNumber() || !y.cst.isNumber()) {
        diags.emit(DiagID::sema_wrong_arg_kind, args[k]->getRange(), "b", call.info->name, "a number",
                   (acc.cst.isNumber() ? y : acc).describe());
        return TValue();
      }
      if (id == BuiltinID::CeilDiv) {
        if (!acc.cst.isIntLike() || !y.cst.isIntLike()) {
          diags.emit(DiagID::sema_wrong_arg_kind, range, "a", call.info->name, "integers", "a float");
          return TValue();
        }
        if (y.cst.getInt() == 0) {
          diags.emit(DiagID::sema_division_by_zero, args[k]->getRange());
          return TValue();
        }
        if (acc.cst.getInt() == INT64_MIN && y.cst.getInt() == -1) {
          diags.emit(DiagID::sema_const_error, range, "integer overflow in " + std::string(call.info->name));
          return TValue();
        }
        acc = TValue::ofConst(ConstValue::ofInt(ceilDiv(acc.cst.getInt(), y.cst.getInt())));
        continue;
      }
      bool less = applyCompare(CompareOp::Lt, y.cst, acc.cst).value.getBool();
      bool greater = applyCompare(CompareOp::Gt, y.cst, acc.cst).value.getBool();
      if (isMin ? less : greater)
        acc = y;
      continue;
    }
    TValue x = acc;
    if (!unify(x, y, call.info->name, range))
      return TValue();
    bool f = isFloatDType(x.dtype), u = isUnsignedDType(x.dtype);
    mlir::Value r;
    if (id == BuiltinID::CeilDiv) {
      if (f) {
        diags.emit(DiagID::sema_wrong_arg_kind, range, "a", call.info->name, "integers", x.describe());
        return TValue();
      }
      r = u ? arith::CeilDivUIOp::create(b, l, x.value, y.value).getResult()
            : arith::CeilDivSIOp::create(b, l, x.value, y.value).getResult();
    } else if (isMin) {
      r = f   ? arith::MinimumFOp::create(b, l, x.value, y.value).getResult()
          : u ? arith::MinUIOp::create(b, l, x.value, y.value).getResult()
              : arith::MinSIOp::create(b, l, x.value, y.value).getResult();
    } else {
      r = f   ? arith::MaximumFOp::create(b, l, x.value, y.value).getResult()
          : u ? arith::MaxUIOp::create(b, l, x.value, y.value).getResult()
              : arith::MaxSIOp::create(b, l, x.value, y.value).getResult();
    }
    acc = TValue::ofScalar(r, x.dtype);
  }
  return acc;
}

/// int(x) and float(x): Python's conversion of a constant, T.cast of a scalar.
TValue KernelGen::evalPyNumber(const BoundCall &call) {
  BuiltinID id = call.info->id;
  llvm::SMRange range = call.call->getRange();
  TValue x = eval(call.get("x"));
  if (!x.isValid())
    return x;
  if (x.isConst()) {
    meta::CallArgs args;
    args.args.push_back(x.cst);
    args.argRanges.push_back(call.rangeOf("x"));
    args.range = range;
    args.calleeRange = call.call->getCallee()->getRange();
    ConstValue c = info.interp->call(info.interp->lookupBuiltin(id == BuiltinID::PyInt ? "int" : "float"), args);
    return c.isValid() ? TValue::ofConst(c) : TValue();
  }
  return convert(x, id == BuiltinID::PyInt ? DType::Int32 : DType::Float32, range);
}

TValue KernelGen::evalExprBuiltin(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  switch (call.info->id) {
  case BuiltinID::LayoutCtor:
  case BuiltinID::FragmentCtor:
    return evalLayoutCtor(call);
  case BuiltinID::DTypeCtor: {
    std::optional<DType> t = dtypeArg(call, "name");
    return t ? TValue::ofConst(ConstValue::ofDType(*t)) : TValue();
  }
  case BuiltinID::Abs:
  case BuiltinID::PyAbs:
    return evalAbs(call);
  case BuiltinID::Exp:
  case BuiltinID::Exp2:
  case BuiltinID::Log:
  case BuiltinID::Log2:
  case BuiltinID::Sqrt:
  case BuiltinID::Rsqrt:
  case BuiltinID::Tanh:
  case BuiltinID::Sigmoid:
    return evalFloatMath(call);
  case BuiltinID::IfThenElse:
    return evalSelect(call.get("cond"), call.get("then_expr"), call.get("else_expr"), range);
  case BuiltinID::Infinity: {
    std::optional<DType> t = dtypeArg(call, "dtype");
    if (!t)
      return TValue();
    if (!isFloatDType(*t)) {
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("dtype"), "dtype", call.info->name, "a float dtype",
                 ("T." + dtypeName(*t)).str());
      return TValue();
    }
    return materialize(ConstValue::ofFloat(std::numeric_limits<double>::infinity()), *t, range);
  }
  case BuiltinID::Cast: {
    TValue x = eval(call.get("value"));
    std::optional<DType> t = dtypeArg(call, "dtype");
    if (!x.isValid() || !t)
      return TValue();
    return castValue(x, *t, range);
  }
  case BuiltinID::ThreadBinding:
    return evalThreadIndex(call);
  case BuiltinID::RngRand:
    return evalRngRand(call);
  case BuiltinID::MakeSwizzledLayout:
  case BuiltinID::MakeMmaSwizzleLayout: {
    bool mma = call.info->id == BuiltinID::MakeMmaSwizzleLayout;
    BufferInfo *buf = bufferArg(call, mma ? "shared_buf" : "buffer");
    if (!buf || (mma && !constBoolArg(call, "is_smooth")))
      return TValue();
    TValue v;
    v.kind = TValue::Kind::Layout;
    v.buffer = buf;
    v.layoutHint = mma;
    return v;
  }
  case BuiltinID::CeilDiv:
  case BuiltinID::Min:
  case BuiltinID::Max:
  case BuiltinID::PyMin:
  case BuiltinID::PyMax:
    return evalMinMax(call);
  case BuiltinID::PyInt:
  case BuiltinID::PyFloat:
    return evalPyNumber(call);
  default:
    if (std::optional<TValue> v = evalMathBuiltin(call))
      return *v;
    if (std::optional<TValue> v = evalDevicePrim(call))
      return *v;
    diags.emit(DiagID::sema_wrong_context, call.call->getCallee()->getRange(), call.info->name, "as a value");
    return TValue();
  }
}
