//===- TileGenMath.cpp - The rest of spec §5's expression builtins --------===//
//
// Conversions (`T.Cast(dtype, x)`, dtypes called as functions: `T.float32(x)`,
// `accum_dtype(x)`, `T.reinterpret`), `T.clamp`, the division family
// (`T.floordiv`, `T.floormod`, `T.truncdiv`, `T.truncmod`), `T.pow`, rounding
// and trigonometric functions, `T.max_value`/`T.min_value`, NaN/infinity
// tests, the bitwise and shift functions, and the `T.dp4a` statement. All
// are built from arith and math ops, so every target lowers them.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;
namespace math = mlir::math;

//===----------------------------------------------------------------------===//
// Dtypes called as conversions
//===----------------------------------------------------------------------===//

std::optional<TValue> KernelGen::evalDTypeCall(const CallExpr *e) {
  const Expr *callee = e->getCallee();
  std::optional<DType> t;
  if (auto *a = llvm::dyn_cast<AttributeExpr>(callee)) {
    auto *base = llvm::dyn_cast<NameExpr>(a->getValue());
    if (base && base->getName() == "T" && !lookupLocal("T"))
      t = parseDType(a->getAttr());
  }
  if (!t)
    if (meta::Value v = metaCallee(callee); v.is(meta::Value::Kind::DType))
      t = v.getDType();
  if (!t)
    return std::nullopt;
  std::string name = calleeName(callee);
  if (name.empty())
    name = dtypeName(*t).str();
  if (e->getArgs().size() != 1 || !e->getKeywords().empty()) {
    if (e->getArgs().empty())
      diags.emit(DiagID::sema_missing_arg, e->getRange(), name, "value");
    else
      diags.emit(DiagID::sema_too_many_args, e->getRange(), name, 1, "", e->getArgs().size());
    return TValue();
  }
  TValue x = eval(e->getArgs()[0]);
  if (!x.isValid())
    return x;
  // A literal becomes a typed scalar (`T.float32(1.0)`); Python's int() of a
  // float literal truncates.
  return castValue(x, *t, e->getRange());
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
/// Folds a unary float function of a constant.
std::optional<double> foldUnary(BuiltinID id, double x) {
  switch (id) {
  case BuiltinID::Ceil:
    return std::ceil(x);
  case BuiltinID::Floor:
    return std::floor(x);
  case BuiltinID::Round:
  case BuiltinID::NearbyInt:
    return std::nearbyint(x);
  case BuiltinID::Trunc:
    return std::trunc(x);
  case BuiltinID::Sin:
    return std::sin(x);
  case BuiltinID::Cos:
    return std::cos(x);
  case BuiltinID::Tan:
    return std::tan(x);
  case BuiltinID::Log10:
    return std::log10(x);
  case BuiltinID::Log1p:
    return std::log1p(x);
  default:
    return std::nullopt;
  }
}

/// Rounding toward zero from floor and ceil (SPIR-V's GLSL set has no trunc).
mlir::Value truncFloat(mlir::OpBuilder &b, mlir::Location l, mlir::Value x) {
  mlir::Value zero = arith::ConstantOp::create(b, l, x.getType(), b.getFloatAttr(x.getType(), 0.0));
  mlir::Value neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, zero);
  return arith::SelectOp::create(b, l, neg, math::CeilOp::create(b, l, x), math::FloorOp::create(b, l, x));
}

bool isRounding(BuiltinID id) {
  return id == BuiltinID::Ceil || id == BuiltinID::Floor || id == BuiltinID::Round || id == BuiltinID::NearbyInt ||
         id == BuiltinID::Trunc;
}

/// The largest (`max`) or smallest finite value of `t`.
ConstValue limitOf(DType t, bool max) {
  double f = 0;
  switch (t) {
  case DType::Float16:
    f = 65504.0;
    break;
  case DType::BFloat16:
    f = 3.38953138925153547590470800371487866880e38;
    break;
  case DType::Float32:
    f = std::numeric_limits<float>::max();
    break;
  case DType::Float64:
    f = std::numeric_limits<double>::max();
    break;
  case DType::Float8E4M3:
    f = 448.0;
    break;
  case DType::Float8E5M2:
    f = 57344.0;
    break;
  case DType::Float4E2M1:
    f = 6.0;
    break;
  default: {
    unsigned bits = dtypeBits(t);
    if (isUnsignedDType(t))
      return ConstValue::ofInt(max ? int64_t((uint64_t(1) << bits) - 1) : 0);
    if (bits == 64)
      return ConstValue::ofInt(max ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min());
    return ConstValue::ofInt(max ? (int64_t(1) << (bits - 1)) - 1 : -(int64_t(1) << (bits - 1)));
  }
  }
  return ConstValue::ofFloat(max ? f : -f);
}
} // namespace

TValue KernelGen::minMaxOp(bool isMin, TValue x, TValue y, llvm::StringRef name, llvm::SMRange range) {
  if (x.isConst() && y.isConst() && x.cst.isNumber() && y.cst.isNumber()) {
    bool less = applyCompare(CompareOp::Lt, y.cst, x.cst).value.getBool();
    bool greater = applyCompare(CompareOp::Gt, y.cst, x.cst).value.getBool();
    return (isMin ? less : greater) ? y : x;
  }
  if (!unify(x, y, name, range))
    return TValue();
  mlir::Location l = loc(range);
  bool f = isFloatDType(x.dtype), u = isUnsignedDType(x.dtype);
  mlir::Value r;
  if (isMin)
    r = f   ? arith::MinimumFOp::create(b, l, x.value, y.value).getResult()
        : u ? arith::MinUIOp::create(b, l, x.value, y.value).getResult()
            : arith::MinSIOp::create(b, l, x.value, y.value).getResult();
  else
    r = f   ? arith::MaximumFOp::create(b, l, x.value, y.value).getResult()
        : u ? arith::MaxUIOp::create(b, l, x.value, y.value).getResult()
            : arith::MaxSIOp::create(b, l, x.value, y.value).getResult();
  return TValue::ofScalar(r, x.dtype);
}

/// `T.truncdiv` / `T.truncmod`: C's division, rounding toward zero.
TValue KernelGen::truncDivMod(bool isMod, TValue x, TValue y, llvm::StringRef name, llvm::SMRange range) {
  if (x.isConst() && y.isConst() && x.cst.isNumber() && y.cst.isNumber()) {
    if (x.cst.isIntLike() && y.cst.isIntLike()) {
      if (y.cst.getInt() == 0) {
        diags.emit(DiagID::sema_division_by_zero, range);
        return TValue();
      }
      int64_t a = x.cst.getInt(), d = y.cst.getInt();
      if (a == INT64_MIN && d == -1) {
        if (isMod)
          return TValue::ofConst(ConstValue::ofInt(0));
        diags.emit(DiagID::sema_const_error, range, "integer overflow in " + name.str());
        return TValue();
      }
      return TValue::ofConst(ConstValue::ofInt(isMod ? a % d : a / d));
    }
    double a = x.cst.getFloat(), d = y.cst.getFloat();
    return TValue::ofConst(ConstValue::ofFloat(isMod ? std::fmod(a, d) : std::trunc(a / d)));
  }
  if (!unify(x, y, name, range))
    return TValue();
  mlir::Location l = loc(range);
  mlir::Value a = x.value, d = y.value, r;
  if (x.dtype == DType::Bool) {
    diags.emit(DiagID::sema_bad_operand, range, name, "bool operands");
    return TValue();
  }
  if (isFloatDType(x.dtype))
    r = isMod ? arith::RemFOp::create(b, l, a, d).getResult() : truncFloat(b, l, arith::DivFOp::create(b, l, a, d));
  else if (isUnsignedDType(x.dtype))
    r = isMod ? arith::RemUIOp::create(b, l, a, d).getResult() : arith::DivUIOp::create(b, l, a, d).getResult();
  else
    r = isMod ? arith::RemSIOp::create(b, l, a, d).getResult() : arith::DivSIOp::create(b, l, a, d).getResult();
  return TValue::ofScalar(r, x.dtype);
}

//===----------------------------------------------------------------------===//
// The builtins
//===----------------------------------------------------------------------===//

/// Evaluates the argument `name` of `call`, reporting a buffer or layout.
static TValue scalarArg(KernelGen &g, const BoundCall &call, llvm::StringRef name) {
  TValue v = g.eval(call.get(name));
  if (v.isValid() && !v.isScalar() && !v.isConst()) {
    g.diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf(name), name, call.info->name, "a scalar", v.describe());
    return TValue();
  }
  return v;
}

/// T.isnan / T.isinf / T.isfinite.
static TValue floatTest(KernelGen &g, const BoundCall &call) {
  BuiltinID id = call.info->id;
  mlir::OpBuilder &b = g.b;
  mlir::Location l = g.loc(call.call->getRange());
  TValue x = scalarArg(g, call, "x");
  if (!x.isValid())
    return x;
  if (x.isConst() && x.cst.isNumber()) {
    double v = x.cst.getFloat();
    bool r = id == BuiltinID::IsNan ? std::isnan(v) : id == BuiltinID::IsInf ? std::isinf(v) : std::isfinite(v);
    return TValue::ofConst(ConstValue::ofBool(r));
  }
  if (!x.isScalar())
    return TValue();
  if (!isFloatDType(x.dtype)) // integers are finite numbers
    return TValue::ofConst(ConstValue::ofBool(id == BuiltinID::IsFinite));
  mlir::Value v = x.value;
  if (id == BuiltinID::IsNan)
    return TValue::ofScalar(arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, v, v), DType::Bool);
  mlir::Value inf = arith::ConstantOp::create(b, l, v.getType(),
                                              b.getFloatAttr(v.getType(), std::numeric_limits<double>::infinity()));
  mlir::Value mag = math::AbsFOp::create(b, l, v);
  auto pred = id == BuiltinID::IsInf ? arith::CmpFPredicate::OEQ : arith::CmpFPredicate::ONE;
  return TValue::ofScalar(arith::CmpFOp::create(b, l, pred, mag, inf), DType::Bool);
}

/// Rounding, trigonometric and logarithm functions of one float.
static TValue unaryFloat(KernelGen &g, const BoundCall &call) {
  BuiltinID id = call.info->id;
  mlir::OpBuilder &b = g.b;
  mlir::Location l = g.loc(call.call->getRange());
  llvm::StringRef name = call.info->name;
  TValue x = scalarArg(g, call, "x");
  if (!x.isValid())
    return x;
  if (x.isConst() && x.cst.isNumber()) {
    if (isRounding(id) && x.cst.isIntLike())
      return x;
    return TValue::ofConst(ConstValue::ofFloat(*foldUnary(id, x.cst.getFloat())));
  }
  if (!x.isScalar())
    return TValue();
  // Rounding an integer gives it back (tile-lang's rule).
  if (isRounding(id) && !isFloatDType(x.dtype))
    return x;
  if (!isFloatDType(x.dtype)) {
    g.diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("x"), "x", name, "a float scalar (use T.cast)",
                 x.describe());
    return TValue();
  }
  mlir::Value v = x.value, r;
  switch (id) {
  case BuiltinID::Ceil:
    r = math::CeilOp::create(b, l, v);
    break;
  case BuiltinID::Floor:
    r = math::FloorOp::create(b, l, v);
    break;
  case BuiltinID::Trunc:
    r = truncFloat(b, l, v);
    break;
  case BuiltinID::Sin:
    r = math::SinOp::create(b, l, v);
    break;
  case BuiltinID::Cos:
    r = math::CosOp::create(b, l, v);
    break;
  case BuiltinID::Tan:
    r = math::TanOp::create(b, l, v);
    break;
  case BuiltinID::Log10:
    r = math::Log10Op::create(b, l, v);
    break;
  case BuiltinID::Log1p:
    r = math::Log1pOp::create(b, l, v);
    break;
  default:
    r = math::RoundEvenOp::create(b, l, v);
    break; // T.round: ties to even
  }
  return TValue::ofScalar(r, x.dtype);
}

/// T.get_lane_idx / T.get_warp_idx(_sync) / T.get_warp_group_idx: the calling
/// thread's lane, warp and warp group from its linear thread index, with
/// tile-lang's logical sizes (32 lanes a warp, 4 warps a group unless given);
/// T.get_block_binding(dim): the block index of `dim`.
static TValue threadHelper(KernelGen &g, const BoundCall &call) {
  BuiltinID id = call.info->id;
  llvm::SMRange range = call.call->getRange();
  if (!g.launch) {
    g.diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return TValue();
  }
  mlir::OpBuilder &b = g.b;
  mlir::Location l = g.loc(range);
  g.argFailed = false;
  if (id == BuiltinID::BlockBinding) {
    std::optional<int64_t> dim = g.constIntArg(call, "dim");
    if (g.argFailed || !dim)
      return TValue();
    int64_t rank = g.launch.getBlockIndices().size();
    if (*dim < 0 || *dim >= rank) {
      g.diags.emit(DiagID::sema_dim_out_of_range, call.rangeOf("dim"), *dim, rank);
      return TValue();
    }
    return TValue::ofScalar(g.launch.getBlockIndices()[*dim], DType::Index);
  }
  if (id == BuiltinID::BlockRankInCluster) {
    // %cluster_ctarank: clusters tile the grid, so the block's place in its
    // cluster is (bx % cx, by % cy, bz % cz), linearized x first (0 without
    // clusters). tile-lang returns int32.
    std::optional<llvm::ArrayRef<int64_t>> cluster = g.launch.getCluster();
    mlir::Value rank = g.indexConst(0, range);
    int64_t stride = 1;
    for (auto [d, idx] : llvm::enumerate(g.launch.getBlockIndices())) {
      int64_t c = cluster && d < cluster->size() ? (*cluster)[d] : 1;
      if (c == 1)
        continue;
      mlir::Value in = arith::RemUIOp::create(b, l, idx, g.indexConst(c, range));
      rank = arith::AddIOp::create(b, l, rank, arith::MulIOp::create(b, l, in, g.indexConst(stride, range)));
      stride *= c;
    }
    return g.convert(TValue::ofScalar(rank, DType::Index), DType::Int32, range);
  }
  std::optional<int64_t> warp = g.constIntArg(call, "warp_size");
  std::optional<int64_t> group =
      id == BuiltinID::WarpGroupIdx ? g.constIntArg(call, "warps_per_group") : std::optional<int64_t>(1);
  if (g.argFailed || !warp || !group)
    return TValue();
  for (auto [v, nm] : {std::pair{*warp, "warp_size"}, std::pair{*group, "warps_per_group"}})
    if (v <= 0) {
      g.diags.emit(DiagID::sema_positive_const, call.rangeOf(nm), nm, v);
      return TValue();
    }
  // The linear thread index: x + y * X + z * X * Y.
  llvm::ArrayRef<int64_t> threads = g.launch.getThreads();
  mlir::Value lin = tile::ThreadIdOp::create(b, l, b.getIndexType(), uint64_t(0));
  int64_t stride = threads[0];
  for (unsigned d = 1; d < threads.size(); ++d) {
    if (threads[d] == 1)
      continue;
    mlir::Value t = tile::ThreadIdOp::create(b, l, b.getIndexType(), uint64_t(d));
    lin = arith::AddIOp::create(b, l, lin, arith::MulIOp::create(b, l, t, g.indexConst(stride, range)));
    stride *= threads[d];
  }
  mlir::Value r;
  if (id == BuiltinID::LaneIdx)
    r = arith::RemUIOp::create(b, l, lin, g.indexConst(*warp, range));
  else
    r = arith::DivUIOp::create(b, l, lin, g.indexConst(*warp * *group, range));
  // tile-lang's helpers return int32.
  return g.convert(TValue::ofScalar(r, DType::Index), DType::Int32, range);
}

/// T.reinterpret(value, dtype) (or TVM's order): the bits of `value` as `dtype`.
TValue KernelGen::evalReinterpret(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  // tile-lang also takes TVM's order, T.reinterpret(dtype, value).
  TValue x = eval(call.get("value"));
  std::optional<DType> t;
  if (x.isConst() && x.cst.asDType()) {
    t = x.cst.asDType();
    x = scalarArg(*this, call, "dtype");
  } else if (x.isValid()) {
    x = x.isScalar() || x.isConst() ? x : scalarArg(*this, call, "value");
    t = x.isValid() ? dtypeArg(call, "dtype") : std::nullopt;
  }
  if (!t || !x.isValid())
    return TValue();
  if (x.isConst() || x.dtype == DType::Index)
    x = convert(x, x.isConst() && x.cst.getKind() == ConstValue::Kind::Float ? DType::Float32 : DType::Int32, range);
  if (!x.isValid())
    return TValue();
  if (dtypeBits(x.dtype) != dtypeBits(*t) || x.dtype == DType::Bool || *t == DType::Bool || *t == DType::Index) {
    diags.emit(DiagID::sema_bad_cast, range, ("a " + dtypeName(x.dtype) + " value").str(),
               (dtypeName(*t) + " bits (T.reinterpret keeps the width)").str());
    return TValue();
  }
  mlir::Type to = elementType(*t);
  mlir::Value r = x.value.getType() == to ? x.value : arith::BitcastOp::create(b, l, to, x.value).getResult();
  return TValue::ofScalar(r, *t);
}

/// T.align_up(a, b): `a` rounded up to a multiple of `b`.
TValue KernelGen::evalAlignUp(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  llvm::StringRef name = call.info->name;
  TValue x = scalarArg(*this, call, "a"), y = scalarArg(*this, call, "b");
  if (!x.isValid() || !y.isValid())
    return TValue();
  if (x.isConst() && y.isConst() && x.cst.isIntLike() && y.cst.isIntLike()) {
    if (y.cst.getInt() == 0) {
      diags.emit(DiagID::sema_division_by_zero, call.rangeOf("b"));
      return TValue();
    }
    int64_t a = x.cst.getInt(), d = y.cst.getInt(), r;
    if ((a == INT64_MIN && d == -1) || __builtin_mul_overflow(ceilDiv(a, d), d, &r)) {
      diags.emit(DiagID::sema_const_error, range, "integer overflow in " + name.str());
      return TValue();
    }
    return TValue::ofConst(ConstValue::ofInt(r));
  }
  if (!unify(x, y, name, range))
    return TValue();
  if (isFloatDType(x.dtype) || x.dtype == DType::Bool) {
    diags.emit(DiagID::sema_wrong_arg_kind, range, "a", name, "integers", x.describe());
    return TValue();
  }
  mlir::Value q = isUnsignedDType(x.dtype) ? arith::CeilDivUIOp::create(b, l, x.value, y.value).getResult()
                                           : arith::CeilDivSIOp::create(b, l, x.value, y.value).getResult();
  return TValue::ofScalar(arith::MulIOp::create(b, l, q, y.value), x.dtype);
}

/// The division family, T.pow, the shifts and the bitwise functions of two operands.
TValue KernelGen::evalBinaryBuiltin(const BoundCall &call) {
  BuiltinID id = call.info->id;
  llvm::SMRange range = call.call->getRange();
  llvm::StringRef name = call.info->name;
  llvm::StringRef an = call.info->params[0].name, bn = call.info->params[1].name;
  TValue x = scalarArg(*this, call, an), y = scalarArg(*this, call, bn);
  if (!x.isValid() || !y.isValid())
    return TValue();
  if (id == BuiltinID::TruncDiv || id == BuiltinID::TruncMod)
    return truncDivMod(id == BuiltinID::TruncMod, x, y, name, range);
  BinaryOp op = id == BuiltinID::FloorDiv     ? BinaryOp::FloorDiv
                : id == BuiltinID::FloorMod   ? BinaryOp::Mod
                : id == BuiltinID::Pow        ? BinaryOp::Pow
                : id == BuiltinID::ShiftLeft  ? BinaryOp::Shl
                : id == BuiltinID::ShiftRight ? BinaryOp::Shr
                : id == BuiltinID::BitwiseAnd ? BinaryOp::BitAnd
                : id == BuiltinID::BitwiseOr  ? BinaryOp::BitOr
                                              : BinaryOp::BitXor;
  // An integer divisor of constant zero is an error, as for `//` and `%`.
  if ((op == BinaryOp::FloorDiv || op == BinaryOp::Mod) && !x.isConst() && y.isConst() && y.cst.isIntLike() &&
      y.cst.getInt() == 0 && isIntegerDType(x.dtype)) {
    diags.emit(DiagID::sema_int_division_by_zero, call.rangeOf(bn), op == BinaryOp::FloorDiv ? "division" : "modulo");
    return TValue();
  }
  return binaryOp(op, x, y, call.call->getCallee()->getRange(), range);
}

/// T.bitwise_not(x).
TValue KernelGen::evalBitwiseNot(const BoundCall &call) {
  mlir::Location l = loc(call.call->getRange());
  llvm::StringRef name = call.info->name;
  TValue x = scalarArg(*this, call, "x");
  if (!x.isValid())
    return x;
  if (x.isConst()) {
    if (!x.cst.isIntLike()) {
      diags.emit(DiagID::sema_float_bitwise, call.rangeOf("x"), name, x.describe());
      return TValue();
    }
    return TValue::ofConst(ConstValue::ofInt(~x.cst.getInt()));
  }
  if (isFloatDType(x.dtype)) {
    diags.emit(DiagID::sema_float_bitwise, call.rangeOf("x"), name, ("a " + dtypeName(x.dtype) + " value").str());
    return TValue();
  }
  mlir::Type type = x.value.getType();
  mlir::Value ones = arith::ConstantOp::create(b, l, type, b.getIntegerAttr(type, -1));
  return TValue::ofScalar(arith::XOrIOp::create(b, l, x.value, ones), x.dtype);
}

std::optional<TValue> KernelGen::evalMathBuiltin(const BoundCall &call) {
  BuiltinID id = call.info->id;
  llvm::SMRange range = call.call->getRange();
  llvm::StringRef name = call.info->name;
  switch (id) {
  case BuiltinID::CastDT: {
    std::optional<DType> t = dtypeArg(call, "dtype");
    TValue x = t ? eval(call.get("value")) : TValue();
    if (!x.isValid())
      return TValue();
    return castValue(x, *t, range);
  }
  case BuiltinID::Reinterpret:
    return evalReinterpret(call);
  case BuiltinID::LaneIdx:
  case BuiltinID::WarpIdx:
  case BuiltinID::WarpGroupIdx:
  case BuiltinID::BlockBinding:
  case BuiltinID::BlockRankInCluster:
    return threadHelper(*this, call);
  case BuiltinID::AlignUp:
    return evalAlignUp(call);
  case BuiltinID::Clamp: {
    TValue x = scalarArg(*this, call, "dst"), lo = scalarArg(*this, call, "min_val"),
           hi = scalarArg(*this, call, "max_val");
    if (!x.isValid() || !lo.isValid() || !hi.isValid())
      return TValue();
    TValue r = minMaxOp(/*isMin=*/false, x, lo, name, range);
    return r.isValid() ? minMaxOp(/*isMin=*/true, r, hi, name, range) : r;
  }
  case BuiltinID::FloorDiv:
  case BuiltinID::FloorMod:
  case BuiltinID::TruncDiv:
  case BuiltinID::TruncMod:
  case BuiltinID::Pow:
  case BuiltinID::ShiftLeft:
  case BuiltinID::ShiftRight:
  case BuiltinID::BitwiseAnd:
  case BuiltinID::BitwiseOr:
  case BuiltinID::BitwiseXor:
    return evalBinaryBuiltin(call);
  case BuiltinID::BitwiseNot:
    return evalBitwiseNot(call);
  case BuiltinID::MaxValue:
  case BuiltinID::MinValue: {
    std::optional<DType> t = dtypeArg(call, "dtype");
    if (!t)
      return TValue();
    if (*t == DType::Index) // not spellable; keeps the switch below total
      return TValue();
    return materialize(limitOf(*t, id == BuiltinID::MaxValue), *t, range);
  }
  case BuiltinID::IsNan:
  case BuiltinID::IsInf:
  case BuiltinID::IsFinite:
    return floatTest(*this, call);
  case BuiltinID::Ceil:
  case BuiltinID::Floor:
  case BuiltinID::Round:
  case BuiltinID::NearbyInt:
  case BuiltinID::Trunc:
  case BuiltinID::Sin:
  case BuiltinID::Cos:
  case BuiltinID::Tan:
  case BuiltinID::Log10:
  case BuiltinID::Log1p:
    return unaryFloat(*this, call);
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// T.dp4a
//===----------------------------------------------------------------------===//

/// An element argument of T.dp4a (`A_local[k * 4]`, or a whole buffer for its
/// first element) of dtype `want`: its buffer and indices; nullptr after an error.
static BufferInfo *dp4aOperand(KernelGen &g, const BoundCall &call, llvm::StringRef name, DType want,
                               llvm::SmallVectorImpl<mlir::Value> &idx) {
  const Expr *e = call.get(name);
  BufferInfo *buf = nullptr;
  if (auto *sub = llvm::dyn_cast<SubscriptExpr>(e)) {
    TValue base = g.eval(sub->getValue());
    if (!base.isValid())
      return nullptr;
    if (base.isBuffer()) {
      buf = base.buffer;
      if (!g.elementIndices(buf, sub->getIndices(), sub->getRange(), idx))
        return nullptr;
    }
  } else {
    TValue v = g.eval(e);
    if (!v.isValid())
      return nullptr;
    if (v.isBuffer()) {
      buf = v.buffer;
      for (unsigned d = 0; d < buf->rank(); ++d)
        idx.push_back(g.indexConst(0, e->getRange()));
    }
  }
  std::string kind = ("an element of a " + dtypeName(want) + " buffer").str();
  if (!buf) {
    g.diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), name, "T.dp4a", kind, "something else");
    return nullptr;
  }
  if (buf->dtype != want || buf->isVar) {
    g.diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), name, "T.dp4a", kind,
                 ("an element of " + dtypeName(buf->dtype) + " buffer '" + buf->name + "'").str());
    return nullptr;
  }
  return buf;
}

void KernelGen::genDp4a(const BoundCall &call) {
  // C += A[0]*B[0] + ... + A[3]*B[3], the four int8 elements from each of A
  // and B's elements onward along the last dimension, accumulated in int32.
  llvm::SmallVector<mlir::Value, 4> ia, ib, ic;
  BufferInfo *a = dp4aOperand(*this, call, "A", DType::Int8, ia);
  BufferInfo *bb = a ? dp4aOperand(*this, call, "B", DType::Int8, ib) : nullptr;
  BufferInfo *c = bb ? dp4aOperand(*this, call, "C", DType::Int32, ic) : nullptr;
  if (!c)
    return;
  for (auto [buf, idx, nm] : {std::tuple{a, &ia, "A"}, std::tuple{bb, &ib, "B"}}) {
    if (buf->rank() == 0)
      continue;
    int64_t size = buf->shape.back();
    auto cst = mlir::getConstantIntValue(idx->back());
    if (!mlir::ShapedType::isDynamic(size) && cst && *cst + 4 > size) {
      diags.emit(DiagID::sema_index_out_of_bounds, call.rangeOf(nm), *cst + 3, buf->rank() - 1, buf->name, size);
      return;
    }
  }
  mlir::Location l = loc(call.call->getRange());
  mlir::Value acc = mlir::memref::LoadOp::create(b, l, c->value, ic);
  for (int64_t k = 0; k < 4; ++k) {
    mlir::Value prods[2];
    for (auto [buf, idx, slot] : {std::tuple{a, &ia, 0}, std::tuple{bb, &ib, 1}}) {
      llvm::SmallVector<mlir::Value, 4> at(idx->begin(), idx->end());
      if (!at.empty() && k > 0)
        at.back() = arith::AddIOp::create(b, l, at.back(), indexConst(k, call.call->getRange()));
      mlir::Value e = mlir::memref::LoadOp::create(b, l, buf->value, at);
      prods[slot] = arith::ExtSIOp::create(b, l, b.getI32Type(), e);
    }
    acc = arith::AddIOp::create(b, l, acc, arith::MulIOp::create(b, l, prods[0], prods[1]));
  }
  mlir::memref::StoreOp::create(b, l, acc, c->value, ic);
}

//===----------------------------------------------------------------------===//
// T.assume
//===----------------------------------------------------------------------===//

void KernelGen::genMathStmt(const BoundCall &call) {
  if (call.info->id == BuiltinID::Dp4a)
    return genDp4a(call);
  // T.assume(cond): a hint to tile-lang's simplifier; checked, then dropped.
  TValue c = eval(call.get("cond"));
  if (c.isValid() && !c.isScalar() && !c.isConst())
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("cond"), "cond", call.info->name, "a condition", c.describe());
}
