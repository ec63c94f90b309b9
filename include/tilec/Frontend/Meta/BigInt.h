//===- BigInt.h - Arbitrary-precision meta integers -------------*- C++ -*-===//
//
// Python's int at the meta level (spec §3) beyond int64: a Value of kind
// BigInt holds an llvm::APInt of its minimal signed width. Values that fit
// in int64 are always Kind::Int (the fast path); the operators fall back to
// these routines only when an int64 result would overflow. Results are
// bounded by kMaxIntBits so that `2 ** 10**9` is an error, not a hang.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_META_BIGINT_H
#define TILEC_FRONTEND_META_BIGINT_H

#include "tilec/Frontend/ConstEval.h"

#include "llvm/ADT/APInt.h"

#include <optional>
#include <string>

namespace tilec::meta {

/// The largest compile-time integer, in bits (about 4900 decimal digits).
constexpr unsigned kMaxIntBits = 16384;

struct BigIntObj : Object {
  llvm::APInt value; // minimal signed width, more than 64 bits
};

/// The exact value of an Int, Bool or BigInt value (at least 64 bits wide).
llvm::APInt toAPInt(const Value &v);
/// The value of `v` as an Int when it fits in int64, else a BigInt; an
/// error when it needs more than kMaxIntBits.
ConstResult fromAPInt(const llvm::APInt &v);
/// The message for a result of (at least) `bits` bits over the limit.
std::string tooLargeMessage(uint64_t bits, bool atLeast);
/// Decimal (or base 2, 8, 16 with `radix`) digits of an integer value,
/// without a sign or prefix.
std::string intDigits(const Value &v, unsigned radix, bool upper = false);
/// Python's int.bit_length() of an integer value.
uint64_t bitLength(const Value &v);
/// Whether an integer value is negative.
bool isNegativeInt(const Value &v);
/// The integer value of `text` in `radix` (2..36; digits only, an optional
/// sign, no prefix or underscores), or nullopt when it is not a number or
/// is over the limit (`error` says which).
std::optional<Value> parseInt(llvm::StringRef text, unsigned radix, std::string &error);
/// The nearest double to an integer value; an error when it is too large.
ConstResult intToFloat(const Value &v);
/// The integer part of a finite double, exactly (int(1e30) is 10**30).
Value floatToInt(double d);

/// `a op b` for two integer values when the int64 path overflowed or an
/// operand is a BigInt (Python semantics; floor division rounds down).
ConstResult bigBinary(ast::BinaryOp op, const Value &a, const Value &b);
/// -x, ~x, +x, abs(x) of an integer value.
ConstResult bigNegate(const Value &v);
ConstResult bigInvert(const Value &v);
ConstResult bigAbs(const Value &v);
/// -1, 0, 1: the order of two integer values.
int compareInts(const Value &a, const Value &b);
/// The order of an integer value and a double (exact); nullopt for NaN.
std::optional<int> compareIntFloat(const Value &a, double b);
/// `pow(base, exp, mod)` for integers: modular exponentiation.
ConstResult powMod(const Value &base, const Value &exp, const Value &mod);
/// math.gcd and math.lcm of two integer values (non-negative results).
ConstResult gcdInts(const Value &a, const Value &b);
ConstResult lcmInts(const Value &a, const Value &b);
/// round(x, ndigits) of an integer value.
ConstResult roundInt(const Value &x, int64_t ndigits);
/// int(s, base) of Python: whitespace, a sign, a base prefix (base 0 or the
/// matching base), underscores between digits; nullopt when `s` is not a
/// number (`error` is set for a bad base or a value over the limit).
std::optional<Value> parsePyInt(llvm::StringRef s, int64_t base, std::string &error);
/// math.isqrt of a non-negative integer value.
ConstResult isqrtInt(const Value &x);
/// The logarithm of a number in `base` 2, 10 or 0 (natural), also of an
/// integer past the range of a double (math.log2(2**2000) is 2000.0).
double logOf(const Value &v, int base);

} // namespace tilec::meta

#endif // TILEC_FRONTEND_META_BIGINT_H
