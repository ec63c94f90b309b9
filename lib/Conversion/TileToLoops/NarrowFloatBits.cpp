//===- NarrowFloatBits.cpp - Software f16/bf16/fp8 conversions ------------===//
//
// Decoding to f32 and encoding from f32/f64 with integer arithmetic, on
// scalars or vectors (every constant is splat to the operand's shape).
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/NarrowFloatBits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <optional>

using namespace mlir;

namespace {

/// A narrow binary float format.
struct Format {
  unsigned width, expBits, manBits;
  int bias;
  bool ieeeSpecials; ///< all-ones exponent is inf/NaN (false: E4M3FN, NaN only at all ones)
  bool saturate;     ///< overflow gives the largest finite value instead of inf
  bool noSpecials = false; ///< no inf and no NaN (E2M1FN): every code is finite; NaN encodes as +max

  int64_t maxFinite() const {
    int64_t allOnesExp = (int64_t(1) << expBits) - 1;
    if (noSpecials)
      return (allOnesExp << manBits) | ((int64_t(1) << manBits) - 1);
    if (ieeeSpecials)
      return ((allOnesExp - 1) << manBits) | ((int64_t(1) << manBits) - 1);
    return (allOnesExp << manBits) | ((int64_t(1) << manBits) - 2);
  }
  int64_t infinity() const { return ((int64_t(1) << expBits) - 1) << manBits; }
  int64_t nan() const {
    if (noSpecials)
      return maxFinite(); // CUDA's satfinite conversion to e2m1 gives +6 for NaN
    return ieeeSpecials ? infinity() | (int64_t(1) << (manBits - 1)) : (int64_t(1) << (width - 1)) - 1;
  }
};

std::optional<Format> narrowFormat(Type type) {
  if (type.isF16())
    return Format{16, 5, 10, 15, true, false};
  if (type.isBF16())
    return Format{16, 8, 7, 127, true, false};
  if (llvm::isa<Float8E5M2Type>(type))
    return Format{8, 5, 2, 15, true, true};
  if (llvm::isa<Float8E4M3FNType>(type))
    return Format{8, 4, 3, 7, false, true};
  if (llvm::isa<Float4E2M1FNType>(type))
    return Format{4, 2, 1, 1, false, true, true};
  return std::nullopt;
}

/// `elem` in the shape of `like` (a vector of it when `like` is a vector).
Type shapedLike(Type like, Type elem) {
  if (auto v = llvm::dyn_cast<VectorType>(like))
    return VectorType::get(v.getShape(), elem);
  return elem;
}

/// A constant of `type` (scalar or vector) holding `scalar` everywhere.
Value splatConstant(OpBuilder &b, Location loc, Type type, TypedAttr scalar) {
  if (auto v = llvm::dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(v, llvm::ArrayRef<Attribute>{scalar}));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// Small builder helpers over one integer type (scalar or vector).
struct IntOps {
  OpBuilder &b;
  Location loc;
  Type type;
  Value c(int64_t v) { return splatConstant(b, loc, type, b.getIntegerAttr(getElementTypeOrSelf(type), v)); }
  Value shl(Value x, int64_t s) { return s ? arith::ShLIOp::create(b, loc, x, c(s)).getResult() : x; }
  Value shr(Value x, int64_t s) { return s ? arith::ShRUIOp::create(b, loc, x, c(s)).getResult() : x; }
  Value band(Value x, int64_t m) { return arith::AndIOp::create(b, loc, x, c(m)); }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) { return arith::CmpIOp::create(b, loc, p, x, y); }
  Value sel(Value cond, Value x, Value y) { return arith::SelectOp::create(b, loc, cond, x, y); }
};

} // namespace

bool tilec::isSoftwareNarrowFloat(Type type) { return narrowFormat(type).has_value(); }

Value tilec::emitDecodeToF32(OpBuilder &b, Location loc, Value bits, FloatType narrow) {
  const Format f = *narrowFormat(narrow);
  Type like = bits.getType();
  Type i32 = shapedLike(like, b.getI32Type()), f32 = shapedLike(like, b.getF32Type());
  IntOps o{b, loc, i32};
  Value w = arith::ExtUIOp::create(b, loc, i32, bits);
  if (f.expBits == 8) // bf16: the upper half of an f32
    return arith::BitcastOp::create(b, loc, f32, o.shl(w, 16));
  Value sign = o.shl(o.shr(w, f.width - 1), 31);
  Value exp = o.band(o.shr(w, f.manBits), (1 << f.expBits) - 1);
  Value man = o.band(w, (1 << f.manBits) - 1);
  Value manAligned = o.shl(man, 23 - f.manBits);
  Value normal = o.bor(sign, o.bor(o.shl(o.add(exp, o.c(127 - f.bias)), 23), manAligned));
  // Subnormal: man * 2^(1 - bias - manBits), exact in f32.
  Value manF = arith::UIToFPOp::create(b, loc, f32, man);
  Value scale =
      splatConstant(b, loc, f32, b.getF32FloatAttr(std::ldexp(1.0f, 1 - f.bias - int(f.manBits))));
  Value subF = arith::MulFOp::create(b, loc, manF, scale);
  Value sub = o.bor(sign, arith::BitcastOp::create(b, loc, i32, subF));
  Value allOnes = o.c((1 << f.expBits) - 1);
  Value special, isSpecial;
  if (f.noSpecials) {
    Value isSub = o.cmp(arith::CmpIPredicate::eq, exp, o.c(0));
    return arith::BitcastOp::create(b, loc, f32, o.sel(isSub, sub, normal));
  }
  if (f.ieeeSpecials) {
    // inf (man == 0) or a quiet NaN keeping the payload.
    Value nanBit = o.sel(o.cmp(arith::CmpIPredicate::ne, man, o.c(0)), o.c(0x400000), o.c(0));
    special = o.bor(sign, o.bor(o.c(0x7F800000), o.bor(manAligned, nanBit)));
    isSpecial = o.cmp(arith::CmpIPredicate::eq, exp, allOnes);
  } else {
    special = o.bor(sign, o.c(0x7FC00000));
    isSpecial = o.cmp(arith::CmpIPredicate::eq, o.band(w, (1 << (f.width - 1)) - 1), o.c((1 << (f.width - 1)) - 1));
  }
  Value isSub = o.cmp(arith::CmpIPredicate::eq, exp, o.c(0));
  Value result = o.sel(isSub, sub, o.sel(isSpecial, special, normal));
  return arith::BitcastOp::create(b, loc, f32, result);
}

Value tilec::emitEncodeFromF32(OpBuilder &b, Location loc, Value value, FloatType narrow) {
  const Format f = *narrowFormat(narrow);
  Type like = value.getType();
  auto srcType = llvm::cast<FloatType>(getElementTypeOrSelf(like));
  unsigned W = srcType.getWidth();
  int64_t M = srcType.getFPMantissaWidth() - 1, B = W == 64 ? 1023 : 127, E = W == 64 ? 11 : 8;
  Type iW = shapedLike(like, b.getIntegerType(W));
  IntOps o{b, loc, iW};
  Value x = arith::BitcastOp::create(b, loc, iW, value);
  Value signBit = o.shr(x, W - 1);
  Value abs = arith::AndIOp::create(b, loc, x, o.c(~(int64_t(1) << (W - 1)) & (W == 64 ? -1 : 0xFFFFFFFFLL)));
  int64_t expMask = ((int64_t(1) << E) - 1) << M;
  Value isNaN = o.cmp(arith::CmpIPredicate::ugt, abs, o.c(expMask));
  Value isInf = o.cmp(arith::CmpIPredicate::eq, abs, o.c(expMask));

  // Normal results: rebias the exponent in place, then round off the extra
  // mantissa bits (a carry moves into the exponent, as it should).
  int64_t shift = M - f.manBits;
  Value rebased = arith::SubIOp::create(b, loc, abs, o.c((B - f.bias) << M));
  Value lsb = o.band(o.shr(rebased, shift), 1);
  Value rounded = o.shr(o.add(o.add(rebased, o.c((int64_t(1) << (shift - 1)) - 1)), lsb), shift);

  Value magnitude = rounded;
  if (!(E == f.expBits && B == f.bias)) {
    // Subnormal results: |x| * 2^(bias + manBits - 1) rounded to an integer
    // (adding and subtracting 2^M rounds to nearest even).
    Value isNormal = o.cmp(arith::CmpIPredicate::uge, abs, o.c((B - f.bias + 1) << M));
    Value absF = arith::BitcastOp::create(b, loc, like, o.sel(isNormal, o.c(0), abs));
    Value scale = splatConstant(b, loc, like, b.getFloatAttr(srcType, std::ldexp(1.0, f.bias + f.manBits - 1)));
    Value magic = splatConstant(b, loc, like, b.getFloatAttr(srcType, std::ldexp(1.0, M)));
    Value scaled = arith::MulFOp::create(b, loc, absF, scale);
    Value integral = arith::SubFOp::create(b, loc, arith::AddFOp::create(b, loc, scaled, magic), magic);
    Value sub = arith::FPToUIOp::create(b, loc, iW, integral);
    magnitude = o.sel(isNormal, rounded, sub);
  }
  Value overflow = o.bor(o.cmp(arith::CmpIPredicate::ugt, magnitude, o.c(f.maxFinite())), isInf);
  magnitude = o.sel(overflow, o.c(f.saturate ? f.maxFinite() : f.infinity()), magnitude);
  magnitude = o.sel(isNaN, o.c(f.nan()), magnitude);
  Value sign = o.shl(signBit, f.width - 1);
  if (f.noSpecials) // NaN: +max, whatever its sign bit
    sign = o.sel(isNaN, o.c(0), sign);
  Value bits = o.bor(sign, magnitude);
  return arith::TruncIOp::create(b, loc, shapedLike(like, b.getIntegerType(f.width)), bits);
}
