//===- AST.h - Abstract syntax tree of a .tile module -----------*- C++ -*-===//
//
// The syntax tree the parser builds for the Python subset of spec §2–5. Nodes
// are owned by an ASTContext arena and carry LLVM-style kind tags for isa/cast.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_AST_H
#define TILEC_FRONTEND_AST_H

#include "tilec/Frontend/ASTExpr.h"

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

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt {
public:
  enum class Kind {
    Import, Assign, AugAssign, Expr, Pass, Return, If, For, With, FunctionDef,
    Annotation, While, Break, Continue, Assert, Delete, Raise, Try,
    Unsupported, // class / global / nonlocal / async: parsed, rejected where evaluated
  };
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

/// `import a.b as c, d`, `from a.b import c as d`, `from ..m import x`,
/// `from . import x`, `from m import *` (one ImportName "*").
class ImportStmt : public Stmt {
public:
  ImportStmt(SourceRange r, std::string fromModule, std::vector<ImportName> names, bool isFrom = false,
             unsigned level = 0)
      : Stmt(Kind::Import, r), fromModule(std::move(fromModule)), names(std::move(names)),
        from(isFrom || !this->fromModule.empty() || level > 0), level(level) {}
  /// Empty for `import ...` and for `from . import ...`; the module (without
  /// the leading dots) for `from M import ...`.
  llvm::StringRef getFromModule() const { return fromModule; }
  /// True for every `from ... import ...` (use this, not an empty module).
  bool isFrom() const { return from; }
  /// The number of leading dots of a relative import (0: absolute).
  unsigned getLevel() const { return level; }
  /// `from M import *`.
  bool isStar() const { return names.size() == 1 && names.front().dottedName == "*"; }
  llvm::ArrayRef<ImportName> getNames() const { return names; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Import; }

private:
  std::string fromModule;
  std::vector<ImportName> names;
  bool from;
  unsigned level;
};

/// `t1 = t2 = value`: each target a Name, Subscript, Attribute, or a Tuple /
/// List of targets of which one may be a StarredExpr. `x: ann = value` sets
/// the annotation (then there is one target, not a tuple). A bare `x: ann`
/// is an AnnotationStmt.
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

/// `target op= value` (target a Name, Attribute or Subscript).
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

/// `for target in iter: body [else: orelse]` (target as for assignments).
class ForStmt : public Stmt {
public:
  ForStmt(SourceRange r, Expr *target, Expr *iter, Body body, Body elseBody = {})
      : Stmt(Kind::For, r), target(target), iter(iter), body(std::move(body)), elseBody(std::move(elseBody)) {}
  Expr *getTarget() const { return target; }
  Expr *getIter() const { return iter; }
  const Body &getBody() const { return body; }
  /// Runs when the loop ends without `break`; usually empty.
  const Body &getElse() const { return elseBody; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  Expr *target, *iter;
  Body body, elseBody;
};

/// `while cond: body [else: orelse]`.
class WhileStmt : public Stmt {
public:
  WhileStmt(SourceRange r, Expr *cond, Body body, Body elseBody)
      : Stmt(Kind::While, r), cond(cond), body(std::move(body)), elseBody(std::move(elseBody)) {}
  Expr *getCond() const { return cond; }
  const Body &getBody() const { return body; }
  const Body &getElse() const { return elseBody; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }

private:
  Expr *cond;
  Body body, elseBody;
};

/// `break` (only inside a loop; the parser checks).
class BreakStmt : public Stmt {
public:
  explicit BreakStmt(SourceRange r) : Stmt(Kind::Break, r) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Break; }
};

/// `continue` (only inside a loop; the parser checks).
class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(SourceRange r) : Stmt(Kind::Continue, r) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Continue; }
};

/// `target: annotation` with no value (eager-style tensor declarations
/// `X: T.Tensor(...)`, or a plain type hint).
class AnnotationStmt : public Stmt {
public:
  AnnotationStmt(SourceRange r, Expr *target, Expr *annotation)
      : Stmt(Kind::Annotation, r), target(target), annotation(annotation) {}
  Expr *getTarget() const { return target; }
  Expr *getAnnotation() const { return annotation; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Annotation; }

private:
  Expr *target, *annotation;
};

/// `assert test[, msg]`.
class AssertStmt : public Stmt {
public:
  AssertStmt(SourceRange r, Expr *test, Expr *msg) : Stmt(Kind::Assert, r), test(test), msg(msg) {}
  Expr *getTest() const { return test; }
  Expr *getMsg() const { return msg; } // may be null
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assert; }

private:
  Expr *test, *msg;
};

/// `del t1, t2` (targets as for assignment, without starred ones).
class DeleteStmt : public Stmt {
public:
  DeleteStmt(SourceRange r, std::vector<Expr *> targets) : Stmt(Kind::Delete, r), targets(std::move(targets)) {}
  llvm::ArrayRef<Expr *> getTargets() const { return targets; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Delete; }

private:
  std::vector<Expr *> targets;
};

/// `raise [exc [from cause]]`: at the meta level, a compile error showing
/// the exception.
class RaiseStmt : public Stmt {
public:
  RaiseStmt(SourceRange r, Expr *exc, Expr *cause) : Stmt(Kind::Raise, r), exc(exc), cause(cause) {}
  Expr *getExc() const { return exc; }     // may be null (a bare `raise`)
  Expr *getCause() const { return cause; } // may be null
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Raise; }

private:
  Expr *exc, *cause;
};

/// One `except [type [as name]]: body` clause.
struct ExceptHandler {
  Expr *type = nullptr; // null for a bare `except:`
  std::string name;     // empty when absent
  SourceRange range;    // the `except` keyword
  SourceRange nameRange;
  Body body;
};

/// `try: body except ...: ... [else: ...] [finally: ...]`. The parser
/// accepts every form so that harness code parses; spec §3 gives meaning
/// only to the import idiom (isImportIdiom()): any other `try` that is
/// evaluated is an `unsupported_construct` error at getKeywordRange().
class TryStmt : public Stmt {
public:
  TryStmt(SourceRange r, Body body, std::vector<ExceptHandler> handlers, Body elseBody, Body finallyBody)
      : Stmt(Kind::Try, r), body(std::move(body)), handlers(std::move(handlers)), elseBody(std::move(elseBody)),
        finallyBody(std::move(finallyBody)) {}
  const Body &getBody() const { return body; }
  llvm::ArrayRef<ExceptHandler> getHandlers() const { return handlers; }
  const Body &getElse() const { return elseBody; }
  const Body &getFinally() const { return finallyBody; }
  /// The `try` keyword.
  SourceRange getKeywordRange() const { return SourceRange(getLoc(), llvm::SMLoc::getFromPointer(getLoc().getPointer() + 3)); }
  /// `try: <imports and other statements> except ImportError: ...`: the body
  /// starts with an import, every handler catches only ImportError or
  /// ModuleNotFoundError (a name or a tuple of them), and there is no
  /// `finally`. Evaluating it runs the body (the import branch).
  bool isImportIdiom() const;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Try; }

private:
  Body body;
  std::vector<ExceptHandler> handlers;
  Body elseBody, finallyBody;
};

/// A statement that parses but that .tile does not support: `class`,
/// `global`, `nonlocal`, `async def/for/with`. Whatever evaluates it reports
/// `unsupported_construct` at getKeywordRange(); the parser does not, so that
/// harness code that is never evaluated does not stop a compile. getNames()
/// are the names it would bind or declare (the class or function name, the
/// global/nonlocal names), so an evaluator can bind them to an error value.
class UnsupportedStmt : public Stmt {
public:
  UnsupportedStmt(SourceRange r, std::string construct, SourceRange keywordRange, std::vector<std::string> names)
      : Stmt(Kind::Unsupported, r), construct(std::move(construct)), keywordRange(keywordRange),
        names(std::move(names)) {}
  /// "class", "global", "nonlocal", "async def", "async for" or "async with".
  llvm::StringRef getConstruct() const { return construct; }
  SourceRange getKeywordRange() const { return keywordRange; }
  llvm::ArrayRef<std::string> getNames() const { return names; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Unsupported; }

private:
  std::string construct;
  SourceRange keywordRange;
  std::vector<std::string> names;
};

/// `with ctx [as target]: body`. `with a as x, b as y:` (and the
/// parenthesized form) is parsed as nested WithStmts, as Python defines it;
/// the inner one's range starts at its item.
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

/// `@dec ... def name(params) [-> ret]: body`. Decorators are arbitrary
/// expressions; parameters carry their ParamKind.
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

/// A phrase naming what `e` / `s` is ("a lambda", "a 'while' loop"), for
/// diagnostics such as `not_supported_yet`.
llvm::StringRef describe(const Expr *e);
llvm::StringRef describe(const Stmt *s);

/// Prints `--emit=ast`: an indented tree, one node per line, each with its
/// `line:col` location.
void dump(const Module &module, const llvm::SourceMgr &srcMgr, llvm::raw_ostream &os);

} // namespace tilec::ast

#endif // TILEC_FRONTEND_AST_H
