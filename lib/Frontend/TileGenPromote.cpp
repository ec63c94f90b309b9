//===- TileGenPromote.cpp - Dtype promotion of mixed operands ------------===//
//
// Spec §5: operands of different dtypes promote as tile-lang's do
// (promoteDTypes); an integer literal takes the other operand's dtype when
// its value fits there, a float literal is tile-lang's float32 (float64 next
// to a float64); a promotion or implicit store conversion that can change a
// value silently in tile-lang is a warning here.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

using namespace tilec;
using namespace tilec::detail;

/// Whether the integer `v` is a value of the integer dtype `t`.
static bool fitsInteger(int64_t v, DType t) {
  switch (t) {
  case DType::Bool:
    return v == 0 || v == 1;
  case DType::Int4:
    return v >= -8 && v <= 7;
  case DType::UInt4:
    return v >= 0 && v <= 15;
  case DType::Int8:
    return v >= INT8_MIN && v <= INT8_MAX;
  case DType::UInt8:
    return v >= 0 && v <= UINT8_MAX;
  case DType::Int16:
    return v >= INT16_MIN && v <= INT16_MAX;
  case DType::Int32:
    return v >= INT32_MIN && v <= INT32_MAX;
  case DType::UInt16:
    return v >= 0 && v <= UINT16_MAX;
  case DType::UInt32:
    return v >= 0 && v <= int64_t(UINT32_MAX);
  case DType::UInt64:
    return v >= 0;
  default:
    return true; // Int64, Index
  }
}

DType KernelGen::literalDType(const ConstValue &c, DType other) {
  // tile-lang makes every Python float a float32 FloatImm (TVM's FFI), and
  // BinaryOpMatchTypes then takes the wider float: with a float16, bfloat16
  // or float8 operand, or an integer, the operation is float32 (also for a
  // value exact in the narrow dtype, `x_f16 + 1.0`); float32 and float64
  // operands keep theirs (float64 takes the literal's full double value).
  if (c.getKind() == ConstValue::Kind::Float)
    return other == DType::Float64 ? DType::Float64 : DType::Float32;
  if (isFloatDType(other))
    return other;
  // An integer literal takes the integer's dtype when it fits there, else it
  // is an int32 (int64 when that is too small) that promotes with it.
  int64_t v = c.getInt();
  if (fitsInteger(v, other))
    return other;
  return fitsInteger(v, DType::Int32) ? DType::Int32 : DType::Int64;
}

DType KernelGen::literalPairDType(const ConstValue &a, const ConstValue &b) {
  auto kind = [](const ConstValue &c) { return c.getKind(); };
  if (kind(a) == ConstValue::Kind::Float || kind(b) == ConstValue::Kind::Float)
    return DType::Float32;
  if (kind(a) == ConstValue::Kind::Bool && kind(b) == ConstValue::Kind::Bool)
    return DType::Bool;
  return DType::Int32;
}

TValue KernelGen::promoteTo(TValue v, DType to, llvm::StringRef opName, llvm::SMRange range) {
  if (!v.isScalar() || v.dtype == to)
    return v;
  std::string loss = conversionLoss(v.dtype, to);
  if (!loss.empty())
    diags.emit(DiagID::sema_lossy_promotion, range, opName, dtypeName(v.dtype), dtypeName(to), loss);
  return convert(v, to, range);
}

TValue KernelGen::implicitCast(TValue v, DType to, llvm::StringRef what, llvm::SMRange range) {
  if (v.isConst())
    return materialize(v.cst, to, range);
  if (!v.isScalar()) {
    diags.emit(DiagID::sema_not_scalar, range, v.describe());
    return TValue();
  }
  // As tile-lang's buffer stores: every conversion is implicit, and the one
  // that drops a fraction is reported.
  if (isFloatDType(v.dtype) && isIntegerDType(to))
    diags.emit(DiagID::sema_lossy_store, range, dtypeName(v.dtype), what, dtypeName(to));
  return convert(v, to, range);
}

std::optional<DType> KernelGen::commonDType(const TValue &lhs, const TValue &rhs, llvm::StringRef opName,
                                            llvm::SMRange range) {
  if (lhs.dtype == rhs.dtype)
    return lhs.dtype;
  std::optional<DType> t = promoteDTypes(lhs.dtype, rhs.dtype);
  if (!t)
    diags.emit(DiagID::sema_dtype_mismatch, range, opName, dtypeName(lhs.dtype), dtypeName(rhs.dtype));
  return t;
}

bool KernelGen::unify(TValue &lhs, TValue &rhs, llvm::StringRef opName, llvm::SMRange range) {
  for (TValue *v : {&lhs, &rhs})
    if (v->isBuffer() || v->kind == TValue::Kind::Layout) {
      diags.emit(DiagID::sema_bad_operand, range, opName, v->describe());
      return false;
    }
  if (lhs.isConst() && rhs.isConst()) {
    DType t = literalPairDType(lhs.cst, rhs.cst);
    lhs = materialize(lhs.cst, t, range);
    rhs = materialize(rhs.cst, t, range);
    if (!lhs.isValid() || !rhs.isValid())
      return false;
  }
  for (auto [self, other] : {std::pair{&lhs, &rhs}, std::pair{&rhs, &lhs}})
    if (self->isConst()) {
      if (!self->cst.isNumber()) {
        diags.emit(DiagID::sema_bad_operand, range, opName, self->describe());
        return false;
      }
      *self = materialize(self->cst, literalDType(self->cst, other->dtype), range);
    }
  if (!lhs.isValid() || !rhs.isValid())
    return false;
  std::optional<DType> t = commonDType(lhs, rhs, opName, range);
  if (!t)
    return false;
  lhs = promoteTo(lhs, *t, opName, range);
  rhs = promoteTo(rhs, *t, opName, range);
  return lhs.isValid() && rhs.isValid();
}
