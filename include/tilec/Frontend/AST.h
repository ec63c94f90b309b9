//===- AST.h - Abstract syntax tree of a .tile module -----------*- C++ -*-===//
//
// The syntax tree the parser builds for the Python subset of spec §2–5. Nodes
// are owned by an ASTContext arena and carry LLVM-style kind tags for isa/cast.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_AST_H
#define TILEC_FRONTEND_AST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

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
    Error, // placeholder produced by error recovery
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

/// `"abc"` / `'abc'` with escapes already decoded; adjacent literals are
/// concatenated by the parser.
class StrLitExpr : public Expr {
public:
  StrLitExpr(SourceRange r, std::string value) : Expr(Kind::StrLit, r), value(std::move(value)) {}
  llvm::StringRef getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::StrLit; }

private:
  std::string value;
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

/// `name=value` inside a call.
struct Keyword {
  std::string name;
  SourceRange nameRange;
  Expr *value;
};

/// `callee(arg, ..., kw=value, ...)`.
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

/// `value[i, j:k]`: the indices, each an expression or a SliceExpr.
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

/// `{k: v, ...}` (used by `T.annotate_layout`).
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

/// Stands where the parser could not build an expression; it already
/// reported an error there, so later phases stay silent about it.
class ErrorExpr : public Expr {
public:
  explicit ErrorExpr(SourceRange r) : Expr(Kind::Error, r) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Error; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt {
public:
  enum class Kind { Import, Assign, AugAssign, Expr, Pass, Return, If, For, With, FunctionDef };
  Kind getKind() const { return kind; }
  SourceRange getRange() const { return range; }
  llvm::SMLoc getLoc() const { return range.Start; }
  virtual ~Stmt() = default;

protected:
  Stmt(Kind kind, SourceRange range) : kind(kind), range(range) {}

private:
  Kind kind;
  SourceRange range;
};

using Body = std::vector<Stmt *>;

/// One `a.b.c [as x]` of an import statement.
struct ImportName {
  std::string dottedName;
  std::string asName; // empty when absent
  SourceRange range;
};

/// `import a.b as c, d` or `from a.b import c as d`.
class ImportStmt : public Stmt {
public:
  ImportStmt(SourceRange r, std::string fromModule, std::vector<ImportName> names)
      : Stmt(Kind::Import, r), fromModule(std::move(fromModule)), names(std::move(names)) {}
  /// Empty for `import ...`; the module for `from M import ...`.
  llvm::StringRef getFromModule() const { return fromModule; }
  llvm::ArrayRef<ImportName> getNames() const { return names; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Import; }

private:
  std::string fromModule;
  std::vector<ImportName> names;
};

/// `t1 = t2 = value`: each target a Name, Tuple of targets, Subscript or
/// Attribute. `x: ann = value` sets the annotation.
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceRange r, std::vector<Expr *> targets, Expr *value, Expr *annotation = nullptr)
      : Stmt(Kind::Assign, r), targets(std::move(targets)), value(value), annotation(annotation) {}
  llvm::ArrayRef<Expr *> getTargets() const { return targets; }
  Expr *getValue() const { return value; }
  Expr *getAnnotation() const { return annotation; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

private:
  std::vector<Expr *> targets;
  Expr *value;
  Expr *annotation;
};

/// `target op= value`.
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SourceRange r, Expr *target, BinaryOp op, SourceRange opRange, Expr *value)
      : Stmt(Kind::AugAssign, r), target(target), op(op), opRange(opRange), value(value) {}
  Expr *getTarget() const { return target; }
  BinaryOp getOp() const { return op; }
  SourceRange getOpRange() const { return opRange; }
  Expr *getValue() const { return value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }

private:
  Expr *target;
  BinaryOp op;
  SourceRange opRange;
  Expr *value;
};

/// An expression evaluated for its effect, e.g. `T.copy(A, B)`.
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceRange r, Expr *expr) : Stmt(Kind::Expr, r), expr(expr) {}
  Expr *getExpr() const { return expr; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }

private:
  Expr *expr;
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(SourceRange r) : Stmt(Kind::Pass, r) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Pass; }
};

class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceRange r, Expr *value) : Stmt(Kind::Return, r), value(value) {}
  Expr *getValue() const { return value; } // may be null
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

private:
  Expr *value;
};

/// `if c: ... elif d: ... else: ...`; an `elif` is an IfStmt alone in the
/// else body, flagged with isElif() for dumps.
class IfStmt : public Stmt {
public:
  IfStmt(SourceRange r, Expr *cond, Body thenBody, Body elseBody, bool isElif = false)
      : Stmt(Kind::If, r), cond(cond), thenBody(std::move(thenBody)), elseBody(std::move(elseBody)),
        elif(isElif) {}
  Expr *getCond() const { return cond; }
  const Body &getThen() const { return thenBody; }
  const Body &getElse() const { return elseBody; }
  bool isElif() const { return elif; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

private:
  Expr *cond;
  Body thenBody, elseBody;
  bool elif;
};

/// `for target in iter: body` (target a Name or a Tuple of Names).
class ForStmt : public Stmt {
public:
  ForStmt(SourceRange r, Expr *target, Expr *iter, Body body)
      : Stmt(Kind::For, r), target(target), iter(iter), body(std::move(body)) {}
  Expr *getTarget() const { return target; }
  Expr *getIter() const { return iter; }
  const Body &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  Expr *target, *iter;
  Body body;
};

/// `with ctx [as target]: body`.
class WithStmt : public Stmt {
public:
  WithStmt(SourceRange r, Expr *context, Expr *target, Body body)
      : Stmt(Kind::With, r), context(context), target(target), body(std::move(body)) {}
  Expr *getContext() const { return context; }
  Expr *getTarget() const { return target; } // may be null
  const Body &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::With; }

private:
  Expr *context, *target;
  Body body;
};

/// One parameter `name[: annotation][= default]`.
struct Param {
  std::string name;
  SourceRange range; // the name
  Expr *annotation = nullptr;
  Expr *defaultValue = nullptr;
};

/// `@dec ... def name(params) [-> ret]: body`.
class FunctionDefStmt : public Stmt {
public:
  FunctionDefStmt(SourceRange r, std::string name, SourceRange nameRange, std::vector<Expr *> decorators,
                  std::vector<Param> params, Expr *returns, Body body)
      : Stmt(Kind::FunctionDef, r), name(std::move(name)), nameRange(nameRange),
        decorators(std::move(decorators)), params(std::move(params)), returns(returns), body(std::move(body)) {}
  llvm::StringRef getName() const { return name; }
  SourceRange getNameRange() const { return nameRange; }
  llvm::ArrayRef<Expr *> getDecorators() const { return decorators; }
  llvm::ArrayRef<Param> getParams() const { return params; }
  Expr *getReturns() const { return returns; } // may be null
  const Body &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::FunctionDef; }

private:
  std::string name;
  SourceRange nameRange;
  std::vector<Expr *> decorators;
  std::vector<Param> params;
  Expr *returns;
  Body body;
};

//===----------------------------------------------------------------------===//
// Module and ownership
//===----------------------------------------------------------------------===//

/// Owns every node of one parsed file.
class ASTContext {
public:
  template <typename T, typename... Args> T *create(Args &&...args) {
    auto node = std::make_unique<T>(std::forward<Args>(args)...);
    T *raw = node.get();
    if constexpr (std::is_base_of_v<Expr, T>)
      exprs.push_back(std::move(node));
    else
      stmts.push_back(std::move(node));
    return raw;
  }

private:
  std::vector<std::unique_ptr<Expr>> exprs;
  std::vector<std::unique_ptr<Stmt>> stmts;
};

/// A parsed `.tile` file.
struct Module {
  unsigned bufferId = 0; // in the llvm::SourceMgr
  Body body;
};

/// Prints `--emit=ast`: an indented tree, one node per line, each with its
/// `line:col` location.
void dump(const Module &module, const llvm::SourceMgr &srcMgr, llvm::raw_ostream &os);

} // namespace tilec::ast

#endif // TILEC_FRONTEND_AST_H
