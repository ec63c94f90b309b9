//===- BigInt.cpp - Arbitrary-precision meta integers ---------------------===//
//
// Python int semantics over llvm::APInt for values beyond int64: every
// operation widens its operands to a width where the exact result fits,
// then fromAPInt shrinks the result back (to an Int when it fits).
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Meta/BigInt.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace tilec;
using namespace tilec::meta;
using ast::BinaryOp;
using llvm::APInt;

static ConstResult fail(std::string msg) { return ConstResult::failure(std::move(msg)); }
static ConstResult ok(Value v) { return ConstResult::of(std::move(v)); }

APInt tilec::meta::toAPInt(const Value &v) {
  if (v.isBigInt())
    return v.as<BigIntObj>()->value;
  return APInt(64, uint64_t(v.getInt()), /*isSigned=*/true);
}

std::string tilec::meta::tooLargeMessage(uint64_t bits, bool atLeast) {
  return "integer result of " + std::string(atLeast ? "at least " : "") + std::to_string(bits) + " bits exceeds the " +
         std::to_string(kMaxIntBits) + "-bit limit of compile-time integers";
}

/// Python's int.bit_length().
static uint64_t bitLengthOf(const APInt &v) {
  return v.isNegative() ? (-v.sext(v.getBitWidth() + 1)).getActiveBits() : v.getActiveBits();
}

uint64_t tilec::meta::bitLength(const Value &v) { return bitLengthOf(toAPInt(v)); }

ConstResult tilec::meta::fromAPInt(const APInt &v) {
  unsigned bits = v.getSignificantBits();
  if (bits <= 64)
    return ok(Value::ofInt(v.getSExtValue()));
  if (uint64_t n = bitLengthOf(v); n > kMaxIntBits)
    return fail(tooLargeMessage(n, false));
  auto o = std::make_shared<BigIntObj>();
  o->value = v.sextOrTrunc(bits);
  llvm::APFloat f(llvm::APFloat::IEEEdouble());
  (void)f.convertFromAPInt(o->value, /*IsSigned=*/true, llvm::APFloat::rmNearestTiesToEven);
  return ok(Value::ofBigInt(o, f.convertToDouble())); // +-inf when out of range
}

bool tilec::meta::isNegativeInt(const Value &v) {
  return v.isBigInt() ? v.as<BigIntObj>()->value.isNegative() : v.getInt() < 0;
}

/// |v| as an unsigned APInt one bit wider than v's signed width.
static APInt magnitude(const Value &v) {
  APInt a = toAPInt(v);
  a = a.sext(a.getBitWidth() + 1);
  return a.isNegative() ? -a : a;
}

std::string tilec::meta::intDigits(const Value &v, unsigned radix, bool upper) {
  llvm::SmallString<64> s;
  magnitude(v).toString(s, radix, /*Signed=*/false);
  std::string r(s.str());
  return upper ? llvm::StringRef(r).upper() : llvm::StringRef(r).lower();
}

std::optional<Value> tilec::meta::parseInt(llvm::StringRef text, unsigned radix, std::string &error) {
  bool neg = text.consume_front("-");
  if (!neg)
    text.consume_front("+");
  if (text.empty() || radix < 2 || radix > 36)
    return std::nullopt;
  for (char c : text) {
    unsigned d = llvm::isDigit(c) ? unsigned(c - '0') : llvm::isAlpha(c) ? unsigned(llvm::toLower(c) - 'a' + 10) : 99;
    if (d >= radix)
      return std::nullopt;
  }
  text = text.ltrim('0');
  if (text.empty())
    return Value::ofInt(0);
  // Each digit holds log2(radix) bits; the first at least one.
  double perDigit = std::log2(double(radix));
  uint64_t lower = uint64_t(double(text.size() - 1) * perDigit) + 1;
  if (lower > kMaxIntBits) {
    error = tooLargeMessage(lower, true);
    return std::nullopt;
  }
  unsigned width = unsigned(double(text.size()) * perDigit) + 2;
  APInt v(width, 0);
  for (char c : text) {
    unsigned d = llvm::isDigit(c) ? unsigned(c - '0') : unsigned(llvm::toLower(c) - 'a' + 10);
    v *= uint64_t(radix);
    v += uint64_t(d);
  }
  if (neg)
    v = -v;
  ConstResult r = fromAPInt(v);
  if (!r.error.empty()) {
    error = r.error;
    return std::nullopt;
  }
  return r.value;
}

ConstResult tilec::meta::intToFloat(const Value &v) {
  double d = v.getFloat();
  if (std::isinf(d))
    return fail("integer of " + std::to_string(bitLength(v)) + " bits is too large to convert to a float");
  return ok(Value::ofFloat(d));
}

Value tilec::meta::floatToInt(double d) {
  if (d > -9.2e18 && d < 9.2e18)
    return Value::ofInt(int64_t(d));
  int exp = std::ilogb(d); // |d| < 2**(exp+1): fits in exp + 2 signed bits
  llvm::APSInt r(unsigned(exp) + 2, /*isUnsigned=*/false);
  bool exact;
  llvm::APFloat f(d);
  (void)f.convertToInteger(r, llvm::APFloat::rmTowardZero, &exact);
  return fromAPInt(r).value; // at most 1026 bits
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

/// Both operands sign-extended to `width`.
static std::pair<APInt, APInt> widen(const Value &a, const Value &b, unsigned extra) {
  APInt x = toAPInt(a), y = toAPInt(b);
  unsigned w = std::max(x.getBitWidth(), y.getBitWidth()) + extra;
  return {x.sext(w), y.sext(w)};
}

/// Python's floor division and modulo.
static void floorDivMod(const APInt &x, const APInt &y, APInt &q, APInt &r) {
  APInt::sdivrem(x, y, q, r);
  if (!r.isZero() && r.isNegative() != y.isNegative()) {
    q -= 1;
    r += y;
  }
}

static bool isZeroInt(const Value &v) { return !v.isBigInt() && v.getInt() == 0; }

static ConstResult power(const Value &a, const Value &b) {
  if (isNegativeInt(b)) {
    if (isZeroInt(a))
      return fail("0 cannot be raised to a negative power");
    ConstResult x = intToFloat(a);
    if (!x.error.empty())
      return x;
    return ok(Value::ofFloat(std::pow(x.value.getFloat(), b.getFloat())));
  }
  if (!a.isBigInt() && a.getInt() >= -1 && a.getInt() <= 1) {
    int64_t x = a.getInt();
    bool odd = toAPInt(b)[0];
    return ok(Value::ofInt(x == -1 && !odd ? 1 : x == 0 && isZeroInt(b) ? 1 : x));
  }
  if (!b.isBigInt() && b.getInt() <= 1)
    return ok(b.getInt() == 0 ? Value::ofInt(1) : a);
  // |a| >= 2: the result has at least (bits(|a|) - 1) * b + 1 bits.
  uint64_t abits = magnitude(a).getActiveBits();
  unsigned __int128 lower =
      b.isBigInt() ? (unsigned __int128)1 << 63 : (unsigned __int128)(abits - 1) * uint64_t(b.getInt()) + 1;
  if (lower > kMaxIntBits)
    return fail(tooLargeMessage(lower > UINT64_MAX ? UINT64_MAX : uint64_t(lower), true));
  unsigned width = std::max(unsigned(abits * uint64_t(b.getInt()) + 2), toAPInt(a).getBitWidth());
  APInt acc(width, 1), sq = toAPInt(a).sext(width);
  for (uint64_t e = uint64_t(b.getInt()); e; e >>= 1) {
    if (e & 1)
      acc *= sq;
    if (e > 1)
      sq *= sq;
  }
  return fromAPInt(acc);
}

static ConstResult shiftLeft(const Value &a, const Value &b) {
  if (isNegativeInt(b))
    return fail("negative shift count");
  if (isZeroInt(a))
    return ok(Value::ofInt(0));
  APInt x = toAPInt(a);
  uint64_t bits = magnitude(a).getActiveBits() + (b.isBigInt() ? uint64_t(1) << 63 : uint64_t(b.getInt()));
  if (b.isBigInt() || bits > kMaxIntBits)
    return fail(tooLargeMessage(bits, b.isBigInt()));
  return fromAPInt(x.sext(std::max(unsigned(bits) + 1, x.getBitWidth())).shl(unsigned(b.getInt())));
}

static ConstResult shiftRight(const Value &a, const Value &b) {
  if (isNegativeInt(b))
    return fail("negative shift count");
  APInt x = toAPInt(a);
  if (b.isBigInt() || uint64_t(b.getInt()) >= x.getBitWidth())
    return ok(Value::ofInt(x.isNegative() ? -1 : 0));
  return fromAPInt(x.ashr(unsigned(b.getInt())));
}

ConstResult tilec::meta::bigBinary(BinaryOp op, const Value &a, const Value &b) {
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub: {
    auto [x, y] = widen(a, b, 1);
    return fromAPInt(op == BinaryOp::Add ? x + y : x - y);
  }
  case BinaryOp::Mul: {
    APInt x = toAPInt(a), y = toAPInt(b);
    uint64_t bits = magnitude(a).getActiveBits() + magnitude(b).getActiveBits();
    if (!isZeroInt(a) && !isZeroInt(b) && bits - 1 > kMaxIntBits)
      return fail(tooLargeMessage(bits - 1, true));
    unsigned w = x.getBitWidth() + y.getBitWidth();
    return fromAPInt(x.sext(w) * y.sext(w));
  }
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    if (isZeroInt(b))
      return fail(op == BinaryOp::Mod ? "integer modulo by zero" : "integer division by zero");
    auto [x, y] = widen(a, b, 1); // room for INT64_MIN // -1
    APInt q, r;
    floorDivMod(x, y, q, r);
    return fromAPInt(op == BinaryOp::FloorDiv ? q : r);
  }
  case BinaryOp::Pow:
    return power(a, b);
  case BinaryOp::Shl:
    return shiftLeft(a, b);
  case BinaryOp::Shr:
    return shiftRight(a, b);
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor: {
    auto [x, y] = widen(a, b, 0); // two's complement, sign-extended: Python's rules for negatives
    return fromAPInt(op == BinaryOp::BitAnd ? (x & y) : op == BinaryOp::BitOr ? (x | y) : (x ^ y));
  }
  case BinaryOp::Div: {
    ConstResult res = fail("'/' on two integers is not allowed; use '//' for floor division");
    res.isIntTrueDiv = true;
    return res;
  }
  case BinaryOp::MatMul:
    break;
  }
  return fail("operator '@' cannot be applied to two integers");
}

ConstResult tilec::meta::bigNegate(const Value &v) {
  APInt x = toAPInt(v);
  return fromAPInt(-x.sext(x.getBitWidth() + 1));
}

ConstResult tilec::meta::bigInvert(const Value &v) {
  APInt x = toAPInt(v);
  x.flipAllBits();
  return fromAPInt(x);
}

ConstResult tilec::meta::bigAbs(const Value &v) { return isNegativeInt(v) ? bigNegate(v) : ok(v); }

int tilec::meta::compareInts(const Value &a, const Value &b) {
  if (!a.isBigInt() && !b.isBigInt())
    return a.getInt() < b.getInt() ? -1 : a.getInt() > b.getInt();
  auto [x, y] = widen(a, b, 0);
  return x.slt(y) ? -1 : x.sgt(y);
}

std::optional<int> tilec::meta::compareIntFloat(const Value &a, double b) {
  if (std::isnan(b))
    return std::nullopt;
  if (std::isinf(b))
    return b > 0 ? -1 : 1;
  double fl = std::floor(b);
  int c = compareInts(a, floatToInt(fl));
  if (c == 0 && fl != b)
    return -1; // a == floor(b) < b
  return c;
}

ConstResult tilec::meta::powMod(const Value &base, const Value &exp, const Value &mod) {
  if (isZeroInt(mod))
    return fail("pow() 3rd argument cannot be 0");
  if (isNegativeInt(exp))
    return fail("pow() with a negative exponent and a modulus (a modular inverse) is not supported");
  APInt m = toAPInt(mod), e = toAPInt(exp);
  bool negMod = m.isNegative();
  unsigned mw = m.getBitWidth() + 1;
  APInt am = m.sext(mw);
  if (negMod)
    am = -am;
  unsigned w = 2 * mw + 2;
  APInt mw2 = am.zext(w), x = toAPInt(base), q, r;
  unsigned bw = std::max(w, x.getBitWidth());
  floorDivMod(x.sext(bw), am.zext(bw), q, r); // base mod |m|, in [0, |m|)
  APInt b = r.zextOrTrunc(w), acc = APInt(w, 1).urem(mw2);
  for (unsigned k = e.getActiveBits(); k-- > 0;) {
    acc = (acc * acc).urem(mw2);
    if (e[k])
      acc = (acc * b).urem(mw2);
  }
  // Python: the result has the sign of the modulus.
  if (negMod && !acc.isZero())
    acc = acc - mw2;
  return fromAPInt(acc);
}

//===----------------------------------------------------------------------===//
// Builtins over integers
//===----------------------------------------------------------------------===//

ConstResult tilec::meta::gcdInts(const Value &a, const Value &b) {
  ConstResult x = bigAbs(a), y = bigAbs(b);
  if (!x.error.empty() || !y.error.empty())
    return x.error.empty() ? y : x;
  while (!isZeroInt(y.value)) {
    ConstResult r = applyBinary(BinaryOp::Mod, x.value, y.value);
    x = y;
    y = r;
  }
  return x;
}

ConstResult tilec::meta::lcmInts(const Value &a, const Value &b) {
  if (isZeroInt(a) || isZeroInt(b))
    return ok(Value::ofInt(0));
  ConstResult g = gcdInts(a, b), x = bigAbs(a), y = bigAbs(b);
  ConstResult q = applyBinary(BinaryOp::FloorDiv, x.value, g.value);
  return applyBinary(BinaryOp::Mul, q.value, y.value);
}

ConstResult tilec::meta::roundInt(const Value &x, int64_t ndigits) {
  if (ndigits >= 0)
    return ok(x.isBigInt() ? x : Value::ofInt(x.getInt()));
  if (-double(ndigits) * std::log2(10.0) > kMaxIntBits + 1) // 10**k > 2 * |x|
    return ok(Value::ofInt(0));
  // To a multiple of p = 10**k, halves to even, as Python.
  Value p = applyBinary(BinaryOp::Pow, Value::ofInt(10), Value::ofInt(-ndigits)).value;
  Value q = applyBinary(BinaryOp::FloorDiv, x, p).value, r = applyBinary(BinaryOp::Mod, x, p).value;
  int c = compareInts(applyBinary(BinaryOp::Mul, r, Value::ofInt(2)).value, p);
  if (c > 0 || (c == 0 && toAPInt(q)[0]))
    q = applyBinary(BinaryOp::Add, q, Value::ofInt(1)).value;
  return applyBinary(BinaryOp::Mul, q, p);
}

std::optional<Value> tilec::meta::parsePyInt(llvm::StringRef s, int64_t base, std::string &error) {
  s = s.trim();
  bool neg = s.consume_front("-");
  if (!neg)
    s.consume_front("+");
  if (base < 0 || base == 1 || base > 36) {
    error = "int() base must be >= 2 and <= 36, or 0";
    return std::nullopt;
  }
  bool prefixed = false;
  static const std::pair<char, int64_t> prefixes[] = {{'x', 16}, {'o', 8}, {'b', 2}};
  for (const auto &[p, b] : prefixes)
    if ((base == 0 || base == b) && s.size() >= 2 && s[0] == '0' && llvm::toLower(s[1]) == p) {
      s = s.drop_front(2);
      base = b;
      prefixed = true;
      break;
    }
  if (base == 0) { // decimal without leading zeros, as in source
    base = 10;
    if (s.size() > 1 && s[0] == '0' && s.find_first_not_of("0_") != llvm::StringRef::npos)
      return std::nullopt;
  }
  // Single underscores between digits (or right after a prefix).
  std::string digits = neg ? "-" : "";
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '_') {
      digits += s[i];
      continue;
    }
    if (i + 1 == s.size() || s[i + 1] == '_' || (i == 0 && !prefixed))
      return std::nullopt;
  }
  return parseInt(digits, unsigned(base), error);
}

ConstResult tilec::meta::isqrtInt(const Value &x) {
  APInt n = toAPInt(x);
  unsigned w = n.getBitWidth() + 2;
  n = n.zext(w); // non-negative
  // Newton's method from above: r starts at 2**ceil(bits/2) >= sqrt(n).
  APInt r = APInt::getOneBitSet(w, unsigned((bitLength(x) + 1) / 2));
  while (!n.isZero()) {
    APInt y = (r + n.udiv(r)).lshr(1);
    if (y.uge(r))
      break;
    r = y;
  }
  return fromAPInt(n.isZero() ? n : r);
}

double tilec::meta::logOf(const Value &v, int base) {
  double d = v.getFloat();
  auto direct = [&](double x) { return base == 2 ? std::log2(x) : base == 10 ? std::log10(x) : std::log(x); };
  if (!v.isBigInt() || !std::isinf(d) || isNegativeInt(v))
    return direct(d);
  // Past the range of a double, as CPython: v = m * 2**n with m in [0.5, 1)
  // (its 64 leading bits), log(v) = log(m) + n * log(2).
  uint64_t n = bitLength(v);
  double m = std::ldexp(double(toAPInt(v).lshr(unsigned(n - 64)).getZExtValue()), -64);
  return direct(m) + double(n) * direct(2.0);
}
