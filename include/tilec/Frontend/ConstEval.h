//===- ConstEval.h - Compile-time values of a .tile module ------*- C++ -*-===//
//
// The expression core shared by the meta interpreter and kernel code
// generation: Python's operators on compile-time values, Python-exact integer
// arithmetic, and linear forms (used to prove that slice extents such as
// `(i+1)*b - i*b` are constant).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_CONSTEVAL_H
#define TILEC_FRONTEND_CONSTEVAL_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Meta/DType.h"
#include "tilec/Frontend/Meta/Value.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

class DiagnosticEmitter;

//===----------------------------------------------------------------------===//
// Python-exact integer helpers
//===----------------------------------------------------------------------===//

/// Python's `a // b` (rounds toward negative infinity); b must be non-zero.
int64_t floorDiv(int64_t a, int64_t b);
/// Python's `a % b` (sign of b); b must be non-zero.
int64_t floorMod(int64_t a, int64_t b);
/// `T.ceildiv(a, b)` = -((-a) // b); b must be non-zero.
int64_t ceilDiv(int64_t a, int64_t b);

//===----------------------------------------------------------------------===//
// Linear forms
//===----------------------------------------------------------------------===//

/// `constant + sum(coef * symbol)` over opaque symbol ids; terms are sorted
/// by symbol and never hold a zero coefficient, so equal forms compare equal.
/// Every operation returns nullopt on 64-bit overflow.
struct LinearForm {
  int64_t constant = 0;
  llvm::SmallVector<std::pair<unsigned, int64_t>, 2> terms;

  static LinearForm ofConstant(int64_t c);
  static LinearForm ofSymbol(unsigned id);
  bool isConstant() const { return terms.empty(); }
  std::optional<LinearForm> add(const LinearForm &o) const;
  std::optional<LinearForm> sub(const LinearForm &o) const;
  std::optional<LinearForm> scale(int64_t k) const;
  /// Product; defined only when one side is constant.
  std::optional<LinearForm> mul(const LinearForm &o) const;
  bool operator==(const LinearForm &o) const { return constant == o.constant && terms == o.terms; }
};

//===----------------------------------------------------------------------===//
// Constant values: the meta level's values (Meta/Value.h)
//===----------------------------------------------------------------------===//

/// A value known at compile time; one type with the meta interpreter's.
using ConstValue = meta::Value;

/// Applies a binary operator with Python semantics: numbers (ints stay exact
/// and overflow is an error; `/` on two integers is rejected as spec §5
/// requires), strings, tuples and lists (`+`, `*`, `%` formatting), sets,
/// dicts (`|`), size expressions over runtime dimensions, harness values
/// (which stay harness values). Returns the result, or a message describing
/// the error (division by zero, overflow...).
struct ConstResult {
  ConstValue value;
  std::string error; // non-empty on failure
  bool isIntTrueDiv = false; // the error is `/` on two integers

  static ConstResult of(ConstValue v) {
    ConstResult r;
    r.value = std::move(v);
    return r;
  }
  static ConstResult failure(std::string message) {
    ConstResult r;
    r.error = std::move(message);
    return r;
  }
};
ConstResult applyBinary(ast::BinaryOp op, const ConstValue &lhs, const ConstValue &rhs);
/// Reports a failed binary result (`/` on integers at `opRange`, division by
/// zero or another error at `range`); true when `r` holds a value.
bool checkBinaryResult(const ConstResult &r, DiagnosticEmitter &diags, llvm::SMRange opRange, llvm::SMRange range);
ConstResult applyUnary(ast::UnaryOp op, const ConstValue &v);
/// One comparison `lhs op rhs` (`==`, ordering, `in`, `is`); error for
/// unsupported operand kinds.
ConstResult applyCompare(ast::CompareOp op, const ConstValue &lhs, const ConstValue &rhs);

/// The closest of `candidates` to `name` (small edit distance), or "".
llvm::StringRef closestName(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates);
/// "; did you mean 'x'?" or "" — the suffix of unknown-name messages.
std::string didYouMean(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates);

} // namespace tilec

#endif // TILEC_FRONTEND_CONSTEVAL_H
