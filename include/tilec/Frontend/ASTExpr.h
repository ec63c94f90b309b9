//===- ASTExpr.h - Expression nodes of the .tile AST ------------*- C++ -*-===//
//
// The expression nodes of the syntax tree (spec §2-5), with their operator
// enums, parameters (shared by `def` and `lambda`), f-string parts and
// comprehension clauses. Included by AST.h; include that instead.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_ASTEXPR_H
#define TILEC_FRONTEND_ASTEXPR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec::ast {

/// A half-open range of source text: [begin, end).
using SourceRange = llvm::SMRange;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Binary operators in Python precedence order (lowest first within groups).
enum class BinaryOp {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, // arithmetic
  BitAnd, BitOr, BitXor, Shl, Shr,        // bitwise
  MatMul,                                 // `a @ b` (harness code; no meaning in kernels)
};

enum class UnaryOp { Neg, Pos, Not, Invert };

enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge, Is, IsNot, In, NotIn };

enum class BoolOpKind { And, Or };

llvm::StringRef spelling(BinaryOp op);
llvm::StringRef spelling(UnaryOp op);
llvm::StringRef spelling(CompareOp op);
llvm::StringRef spelling(BoolOpKind op);

class Expr {
public:
  enum class Kind {
    IntLit, FloatLit, StrLit, BoolLit, NoneLit,
    Name, Attribute, Call, Subscript, Slice,
    Tuple, List, Dict,
    Binary, Unary, Compare, BoolOp, IfExp,
    Ellipsis, Set, Starred, Lambda, FString,
    ListComp, SetComp, DictComp, GeneratorExp, // ComprehensionExpr, in this order
    Unsupported, // `yield` / `await`: parsed, rejected where evaluated
    Error,       // placeholder produced by error recovery
  };

  Kind getKind() const { return kind; }
  SourceRange getRange() const { return range; }
  llvm::SMLoc getLoc() const { return range.Start; }
  virtual ~Expr() = default;

protected:
  Expr(Kind kind, SourceRange range) : kind(kind), range(range) {}

private:
  Kind kind;
  SourceRange range;
};

/// `42`, `0x2A`, `1_000`. Values that do not fit in 64 bits are diagnosed by
/// the lexer.
class IntLitExpr : public Expr {
public:
  IntLitExpr(SourceRange r, uint64_t value) : Expr(Kind::IntLit, r), value(value) {}
  uint64_t getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IntLit; }

private:
  uint64_t value;
};

/// `1.0`, `1e-3`, `.5`.
class FloatLitExpr : public Expr {
public:
  FloatLitExpr(SourceRange r, double value) : Expr(Kind::FloatLit, r), value(value) {}
  double getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::FloatLit; }

private:
  double value;
};

/// `"abc"` / `'abc'` / `r"..."` / `b"..."` / triple-quoted, with escapes
/// already decoded; adjacent literals are concatenated by the parser. A
/// bytes literal (`b"..."`) holds its bytes and isBytes().
class StrLitExpr : public Expr {
public:
  StrLitExpr(SourceRange r, std::string value, bool isBytes = false)
      : Expr(Kind::StrLit, r), value(std::move(value)), bytes(isBytes) {}
  llvm::StringRef getValue() const { return value; }
  bool isBytes() const { return bytes; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::StrLit; }

private:
  std::string value;
  bool bytes;
};

class BoolLitExpr : public Expr {
public:
  BoolLitExpr(SourceRange r, bool value) : Expr(Kind::BoolLit, r), value(value) {}
  bool getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolLit; }

private:
  bool value;
};

class NoneLitExpr : public Expr {
public:
  explicit NoneLitExpr(SourceRange r) : Expr(Kind::NoneLit, r) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::NoneLit; }
};

/// An identifier use: `block_M`, `T`.
class NameExpr : public Expr {
public:
  NameExpr(SourceRange r, std::string name) : Expr(Kind::Name, r), name(std::move(name)) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  std::string name;
};

/// `value.attr`, e.g. `T.float16`, `T.GemmWarpPolicy.Square`, `x.astype`.
class AttributeExpr : public Expr {
public:
  AttributeExpr(SourceRange r, Expr *value, std::string attr, SourceRange attrRange)
      : Expr(Kind::Attribute, r), value(value), attr(std::move(attr)), attrRange(attrRange) {}
  Expr *getValue() const { return value; }
  llvm::StringRef getAttr() const { return attr; }
  SourceRange getAttrRange() const { return attrRange; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }

private:
  Expr *value;
  std::string attr;
  SourceRange attrRange;
};

/// `name=value` inside a call, or `**value` (then `name` is empty and
/// `nameRange` covers the `**`).
struct Keyword {
  std::string name;
  SourceRange nameRange;
  Expr *value;
  bool isDoubleStar() const { return name.empty(); }
};

/// `callee(arg, ..., kw=value, ...)`. A positional argument may be a
/// StarredExpr (`*args`); a keyword may be `**kwargs` (Keyword::isDoubleStar).
/// Python's order rules hold: no positional argument after a named keyword.
class CallExpr : public Expr {
public:
  CallExpr(SourceRange r, Expr *callee, std::vector<Expr *> args, std::vector<Keyword> keywords)
      : Expr(Kind::Call, r), callee(callee), args(std::move(args)), keywords(std::move(keywords)) {}
  Expr *getCallee() const { return callee; }
  llvm::ArrayRef<Expr *> getArgs() const { return args; }
  llvm::ArrayRef<Keyword> getKeywords() const { return keywords; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  Expr *callee;
  std::vector<Expr *> args;
  std::vector<Keyword> keywords;
};

/// `lower:upper:step` inside a subscript; each part may be absent.
class SliceExpr : public Expr {
public:
  SliceExpr(SourceRange r, Expr *lower, Expr *upper, Expr *step)
      : Expr(Kind::Slice, r), lower(lower), upper(upper), step(step) {}
  Expr *getLower() const { return lower; }
  Expr *getUpper() const { return upper; }
  Expr *getStep() const { return step; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }

private:
  Expr *lower, *upper, *step;
};

/// `value[i, j:k]`: the indices, each an expression or a SliceExpr. As
/// written: `A[(i, j)]` has one TupleExpr index where Python sees the same
/// key as `A[i, j]`; evaluators should treat a lone tuple index like that.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SourceRange r, Expr *value, std::vector<Expr *> indices)
      : Expr(Kind::Subscript, r), value(value), indices(std::move(indices)) {}
  Expr *getValue() const { return value; }
  llvm::ArrayRef<Expr *> getIndices() const { return indices; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }

private:
  Expr *value;
  std::vector<Expr *> indices;
};

/// `(a, b)` or a bare `a, b`.
class TupleExpr : public Expr {
public:
  TupleExpr(SourceRange r, std::vector<Expr *> elts) : Expr(Kind::Tuple, r), elts(std::move(elts)) {}
  llvm::ArrayRef<Expr *> getElts() const { return elts; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }

private:
  std::vector<Expr *> elts;
};

/// `[a, b]`.
class ListExpr : public Expr {
public:
  ListExpr(SourceRange r, std::vector<Expr *> elts) : Expr(Kind::List, r), elts(std::move(elts)) {}
  llvm::ArrayRef<Expr *> getElts() const { return elts; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }

private:
  std::vector<Expr *> elts;
};

/// `{k: v, **other, ...}`. A null key means `**value` (the value is merged).
class DictExpr : public Expr {
public:
  DictExpr(SourceRange r, std::vector<Expr *> keys, std::vector<Expr *> values)
      : Expr(Kind::Dict, r), keys(std::move(keys)), values(std::move(values)) {}
  llvm::ArrayRef<Expr *> getKeys() const { return keys; }
  llvm::ArrayRef<Expr *> getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Dict; }

private:
  std::vector<Expr *> keys, values;
};

class BinaryExpr : public Expr {
public:
  BinaryExpr(SourceRange r, BinaryOp op, SourceRange opRange, Expr *lhs, Expr *rhs)
      : Expr(Kind::Binary, r), op(op), opRange(opRange), lhs(lhs), rhs(rhs) {}
  BinaryOp getOp() const { return op; }
  SourceRange getOpRange() const { return opRange; }
  Expr *getLHS() const { return lhs; }
  Expr *getRHS() const { return rhs; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }

private:
  BinaryOp op;
  SourceRange opRange;
  Expr *lhs, *rhs;
};

class UnaryExpr : public Expr {
public:
  UnaryExpr(SourceRange r, UnaryOp op, Expr *operand) : Expr(Kind::Unary, r), op(op), operand(operand) {}
  UnaryOp getOp() const { return op; }
  Expr *getOperand() const { return operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }

private:
  UnaryOp op;
  Expr *operand;
};

/// A comparison chain `a < b <= c`: operands.size() == ops.size() + 1.
class CompareExpr : public Expr {
public:
  CompareExpr(SourceRange r, std::vector<CompareOp> ops, std::vector<Expr *> operands)
      : Expr(Kind::Compare, r), ops(std::move(ops)), operands(std::move(operands)) {}
  llvm::ArrayRef<CompareOp> getOps() const { return ops; }
  llvm::ArrayRef<Expr *> getOperands() const { return operands; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Compare; }

private:
  std::vector<CompareOp> ops;
  std::vector<Expr *> operands;
};

/// `a and b and c` / `a or b`: two or more operands.
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(SourceRange r, BoolOpKind op, std::vector<Expr *> operands)
      : Expr(Kind::BoolOp, r), op(op), operands(std::move(operands)) {}
  BoolOpKind getOp() const { return op; }
  llvm::ArrayRef<Expr *> getOperands() const { return operands; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolOp; }

private:
  BoolOpKind op;
  std::vector<Expr *> operands;
};

/// `then if cond else otherwise`.
class IfExpExpr : public Expr {
public:
  IfExpExpr(SourceRange r, Expr *cond, Expr *thenExpr, Expr *elseExpr)
      : Expr(Kind::IfExp, r), cond(cond), thenExpr(thenExpr), elseExpr(elseExpr) {}
  Expr *getCond() const { return cond; }
  Expr *getThen() const { return thenExpr; }
  Expr *getElse() const { return elseExpr; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IfExp; }

private:
  Expr *cond, *thenExpr, *elseExpr;
};

/// `...` (Python's Ellipsis).
class EllipsisExpr : public Expr {
public:
  explicit EllipsisExpr(SourceRange r) : Expr(Kind::Ellipsis, r) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Ellipsis; }
};

/// `{a, b, *c}`: a set display (never empty: `{}` is a dict).
class SetExpr : public Expr {
public:
  SetExpr(SourceRange r, std::vector<Expr *> elts) : Expr(Kind::Set, r), elts(std::move(elts)) {}
  llvm::ArrayRef<Expr *> getElts() const { return elts; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Set; }

private:
  std::vector<Expr *> elts;
};

/// `*value`: in a call's positional arguments, a tuple/list/set display, or
/// an assignment / `for` target (`a, *rest = xs`). The range starts at `*`.
class StarredExpr : public Expr {
public:
  StarredExpr(SourceRange r, Expr *value) : Expr(Kind::Starred, r), value(value) {}
  Expr *getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Starred; }

private:
  Expr *value;
};

/// How a parameter is passed (Python's five parameter kinds).
enum class ParamKind {
  PositionalOnly, // before a `/`
  Normal,         // positional or keyword
  VarPositional,  // `*args`
  KeywordOnly,    // after `*` or `*args`
  VarKeyword,     // `**kwargs`
};
llvm::StringRef spelling(ParamKind kind);

/// One parameter `name[: annotation][= default]` of a `def` or `lambda`
/// (lambda parameters have no annotation). A bare `*` or `/` separator is not
/// a Param: it shows in the kinds of the parameters around it.
struct Param {
  std::string name;
  SourceRange range; // the name (for `*args` / `**kw`, the name without the stars)
  Expr *annotation = nullptr;
  Expr *defaultValue = nullptr;
  ParamKind kind = ParamKind::Normal;
};

/// `lambda params: body`.
class LambdaExpr : public Expr {
public:
  LambdaExpr(SourceRange r, std::vector<Param> params, Expr *body)
      : Expr(Kind::Lambda, r), params(std::move(params)), body(body) {}
  llvm::ArrayRef<Param> getParams() const { return params; }
  Expr *getBody() const { return body; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Lambda; }

private:
  std::vector<Param> params;
  Expr *body;
};

class FStringExpr;

/// One piece of an f-string: literal text (getExpr() == nullptr) or a
/// replacement field `{expr!conv:spec}`. A debug field `{x=}` is stored as a
/// literal part holding the text `x=` followed by the field, whose conversion
/// is 'r' when neither a conversion nor a spec was written (Python's rule).
struct FStringPart {
  std::string literal;             // decoded text of a literal part
  Expr *expr = nullptr;            // the field's expression
  char conversion = 0;             // 'r', 's', 'a', or 0 for none
  FStringExpr *formatSpec = nullptr; // the spec after ':', itself an f-string; may be null
  SourceRange range;               // the literal text, or the field from '{' to '}'
  bool isField() const { return expr != nullptr; }
};

/// `f"..."` (any prefix with f, implicitly concatenated with neighbouring
/// plain strings): literal parts and replacement fields in order. Also the
/// format spec of a field (then the range is the spec's text).
class FStringExpr : public Expr {
public:
  FStringExpr(SourceRange r, std::vector<FStringPart> parts) : Expr(Kind::FString, r), parts(std::move(parts)) {}
  llvm::ArrayRef<FStringPart> getParts() const { return parts; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::FString; }

private:
  std::vector<FStringPart> parts;
};

/// One `for target in iter if cond ...` clause of a comprehension.
struct Comprehension {
  Expr *target;
  Expr *iter;
  std::vector<Expr *> ifs;
  SourceRange range; // from 'for' to the end of the last condition
};

/// `[elt for ...]`, `{elt for ...}`, `(elt for ...)` / a lone generator
/// argument `f(x for x in xs)`, and `{key: value for ...}`: the element (the
/// key for a dict), the value (dict only) and one or more clauses, outermost
/// first.
class ComprehensionExpr : public Expr {
public:
  ComprehensionExpr(Kind kind, SourceRange r, Expr *elt, Expr *value, std::vector<Comprehension> generators)
      : Expr(kind, r), elt(elt), value(value), generators(std::move(generators)) {}
  Expr *getElt() const { return elt; }       // the key of a dict comprehension
  Expr *getValue() const { return value; }   // dict comprehensions only; else null
  llvm::ArrayRef<Comprehension> getGenerators() const { return generators; }
  static bool classof(const Expr *e) {
    return e->getKind() >= Kind::ListComp && e->getKind() <= Kind::GeneratorExp;
  }

private:
  Expr *elt, *value;
  std::vector<Comprehension> generators;
};

/// A construct that parses but that .tile does not support: `yield`,
/// `yield from`, `await`. Whatever evaluates it reports
/// `unsupported_construct` at getKeywordRange() (the parser does not, so
/// that harness code that is never evaluated does not stop a compile).
class UnsupportedExpr : public Expr {
public:
  UnsupportedExpr(SourceRange r, std::string construct, SourceRange keywordRange, Expr *operand)
      : Expr(Kind::Unsupported, r), construct(std::move(construct)), keywordRange(keywordRange), operand(operand) {}
  /// "yield", "yield from" or "await".
  llvm::StringRef getConstruct() const { return construct; }
  SourceRange getKeywordRange() const { return keywordRange; }
  Expr *getOperand() const { return operand; } // may be null
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unsupported; }

private:
  std::string construct;
  SourceRange keywordRange;
  Expr *operand;
};

/// Stands where the parser could not build an expression; it already
/// reported an error there, so later phases stay silent about it.
class ErrorExpr : public Expr {
public:
  explicit ErrorExpr(SourceRange r) : Expr(Kind::Error, r) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Error; }
};

} // namespace tilec::ast

#endif // TILEC_FRONTEND_ASTEXPR_H
