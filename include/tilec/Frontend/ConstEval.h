//===- ConstEval.h - Compile-time values of a .tile module ------*- C++ -*-===//
//
// Dtypes, compile-time constant values, Python-exact integer arithmetic and
// linear forms (used to prove that slice extents such as `(i+1)*b - i*b` are
// constant), plus the evaluator for module-level constant expressions.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_CONSTEVAL_H
#define TILEC_FRONTEND_CONSTEVAL_H

#include "tilec/Frontend/AST.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

class DiagnosticEmitter;

//===----------------------------------------------------------------------===//
// Dtypes (spec §4)
//===----------------------------------------------------------------------===//

/// Element types of buffers and scalars. `Index` is the type of loop
/// variables, block indices and untyped integer literals inside a kernel; it
/// is never spelled by users and converts freely to any integer dtype.
enum class DType : uint8_t {
  Float16, BFloat16, Float32, Float64, Float8E4M3, Float8E5M2,
  Int8, UInt8, Int16, Int32, Int64, UInt32, Bool, Int4, UInt4, Index,
};

/// Parses a dtype spelling (`float16`, `float8_e4m3fn`, ...); `Index` is not
/// spellable.
std::optional<DType> parseDType(llvm::StringRef name);
/// The canonical spelling, e.g. "float8_e4m3".
llvm::StringRef dtypeName(DType t);
/// Every spellable dtype name, for suggestions.
llvm::ArrayRef<llvm::StringRef> allDTypeNames();
bool isFloatDType(DType t);
bool isIntegerDType(DType t); // includes Bool and Index
bool isUnsignedDType(DType t);
unsigned dtypeBits(DType t); // Index counts as 64

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
// Constant values
//===----------------------------------------------------------------------===//

/// A value known at compile time.
class ConstValue {
public:
  enum class Kind {
    Invalid, // an error was already reported
    None, Int, Float, Bool, Str, DType, Tuple,
    Dynamic, // `T.dynamic("M")`: a runtime dimension named by its string
    Policy,  // `T.GemmWarpPolicy.X`: the string holds X
  };

  ConstValue() = default;
  static ConstValue none() { return ConstValue(Kind::None); }
  static ConstValue ofInt(int64_t v) { ConstValue c(Kind::Int); c.i = v; return c; }
  static ConstValue ofFloat(double v) { ConstValue c(Kind::Float); c.f = v; return c; }
  static ConstValue ofBool(bool v) { ConstValue c(Kind::Bool); c.i = v; return c; }
  static ConstValue ofStr(std::string s) { ConstValue c(Kind::Str); c.s = std::move(s); return c; }
  static ConstValue ofDType(DType t) { ConstValue c(Kind::DType); c.dt = t; return c; }
  static ConstValue ofTuple(std::vector<ConstValue> e) { ConstValue c(Kind::Tuple); c.elts = std::move(e); return c; }
  static ConstValue ofDynamic(std::string name) { ConstValue c(Kind::Dynamic); c.s = std::move(name); return c; }
  static ConstValue ofPolicy(std::string name) { ConstValue c(Kind::Policy); c.s = std::move(name); return c; }

  Kind getKind() const { return kind; }
  bool isValid() const { return kind != Kind::Invalid; }
  bool isInt() const { return kind == Kind::Int; }
  /// Int or Bool (Python's bool is an int).
  bool isIntLike() const { return kind == Kind::Int || kind == Kind::Bool; }
  bool isNumber() const { return isIntLike() || kind == Kind::Float; }
  int64_t getInt() const { return i; }
  bool getBool() const { return i != 0; }
  double getFloat() const { return kind == Kind::Float ? f : double(i); }
  llvm::StringRef getStr() const { return s; }
  DType getDType() const { return dt; }
  llvm::ArrayRef<ConstValue> getElts() const { return elts; }
  /// Python truthiness.
  bool truthy() const;
  /// The value as a dtype: a DType, or a string that names one.
  std::optional<DType> asDType() const;

  /// Python-like source text, e.g. `(128, 64)`, `T.float16`, `'row'`.
  std::string str() const;
  /// What kind of thing this is, for messages: "an integer", "a dtype", ...
  llvm::StringRef describe() const;

private:
  explicit ConstValue(Kind k) : kind(k) {}
  Kind kind = Kind::Invalid;
  int64_t i = 0;
  double f = 0;
  DType dt = DType::Int32;
  std::string s;
  std::vector<ConstValue> elts;
};

/// Applies a binary operator to two numbers with Python semantics (ints stay
/// exact; `/` on two integers is rejected as spec §5 requires). Returns the
/// result, or a message describing the error (division by zero, overflow...).
struct ConstResult {
  ConstValue value;
  std::string error; // non-empty on failure
  bool isIntTrueDiv = false; // the error is `/` on two integers
};
ConstResult applyBinary(ast::BinaryOp op, const ConstValue &lhs, const ConstValue &rhs);
/// Reports a failed binary result (`/` on integers at `opRange`, division by
/// zero or another error at `range`); true when `r` holds a value.
bool checkBinaryResult(const ConstResult &r, DiagnosticEmitter &diags, llvm::SMRange opRange, llvm::SMRange range);
ConstResult applyUnary(ast::UnaryOp op, const ConstValue &v);
/// One comparison `lhs op rhs`; error for unsupported operand kinds.
ConstResult applyCompare(ast::CompareOp op, const ConstValue &lhs, const ConstValue &rhs);

//===----------------------------------------------------------------------===//
// Scopes and the module-level evaluator
//===----------------------------------------------------------------------===//

/// One named compile-time constant and where it was defined.
struct ConstEntry {
  ConstValue value;
  llvm::SMRange defRange;
};

/// Nested scopes of constants (module, then a factory's parameters and
/// locals).
class ConstScope {
public:
  explicit ConstScope(const ConstScope *parent = nullptr) : parent(parent) {}
  const ConstEntry *lookup(llvm::StringRef name) const;
  void set(llvm::StringRef name, ConstValue v, llvm::SMRange range) { table[name] = ConstEntry{std::move(v), range}; }
  const ConstScope *getParent() const { return parent; }
  /// Every visible name (innermost first), for suggestions.
  void collectNames(llvm::SmallVectorImpl<llvm::StringRef> &out) const;

private:
  const ConstScope *parent;
  llvm::StringMap<ConstEntry> table;
};

/// Evaluates constant expressions of module level (constants, -D values,
/// factory defaults, kernel parameter annotations), reporting errors.
class ConstEvaluator {
public:
  ConstEvaluator(DiagnosticEmitter &diags, const ConstScope &scope) : diags(diags), scope(scope) {}
  /// The value of `e`, or Invalid after reporting an error.
  ConstValue eval(const ast::Expr *e);

private:
  ConstValue evalName(const ast::NameExpr *e);
  ConstValue evalAttribute(const ast::AttributeExpr *e);
  ConstValue evalCall(const ast::CallExpr *e);
  ConstValue evalBinary(const ast::BinaryExpr *e);
  ConstValue evalCompare(const ast::CompareExpr *e);
  ConstValue expectNumber(const ast::Expr *e);

  DiagnosticEmitter &diags;
  const ConstScope &scope;
};

/// The closest of `candidates` to `name` (small edit distance), or "".
llvm::StringRef closestName(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates);
/// "; did you mean 'x'?" or "" — the suffix of unknown-name messages.
std::string didYouMean(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates);

} // namespace tilec

#endif // TILEC_FRONTEND_CONSTEVAL_H
