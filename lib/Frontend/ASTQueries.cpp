//===- ASTQueries.cpp - Spellings and descriptions of AST nodes -----------===//
//
// The source spelling of operators and parameter kinds, the phrase a
// diagnostic uses for an expression or statement ("a function call"), and
// the `try: import ... except ImportError:` idiom test.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/AST.h"

using namespace tilec;
using namespace tilec::ast;
using llvm::cast;
using llvm::isa;
using llvm::StringRef;

StringRef ast::spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Mod:
    return "%";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  case BinaryOp::MatMul:
    return "@";
  }
  return "?";
}

StringRef ast::spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "-";
  case UnaryOp::Pos:
    return "+";
  case UnaryOp::Not:
    return "not";
  case UnaryOp::Invert:
    return "~";
  }
  return "?";
}

StringRef ast::spelling(CompareOp op) {
  switch (op) {
  case CompareOp::Eq:
    return "==";
  case CompareOp::Ne:
    return "!=";
  case CompareOp::Lt:
    return "<";
  case CompareOp::Le:
    return "<=";
  case CompareOp::Gt:
    return ">";
  case CompareOp::Ge:
    return ">=";
  case CompareOp::Is:
    return "is";
  case CompareOp::IsNot:
    return "is not";
  case CompareOp::In:
    return "in";
  case CompareOp::NotIn:
    return "not in";
  }
  return "?";
}

StringRef ast::spelling(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }

StringRef ast::spelling(ParamKind kind) {
  switch (kind) {
  case ParamKind::PositionalOnly:
    return "positional-only";
  case ParamKind::Normal:
    return "normal";
  case ParamKind::VarPositional:
    return "*args";
  case ParamKind::KeywordOnly:
    return "keyword-only";
  case ParamKind::VarKeyword:
    return "**kwargs";
  }
  return "?";
}

StringRef ast::describe(const Expr *e) {
  switch (e->getKind()) {
  case Expr::Kind::IntLit:
  case Expr::Kind::FloatLit:
  case Expr::Kind::StrLit:
  case Expr::Kind::BoolLit:
  case Expr::Kind::NoneLit:
    return "a literal";
  case Expr::Kind::Name:
    return "a name";
  case Expr::Kind::Attribute:
    return "an attribute";
  case Expr::Kind::Call:
    return "a function call";
  case Expr::Kind::Subscript:
    return "a subscript";
  case Expr::Kind::Slice:
    return "a slice";
  case Expr::Kind::Tuple:
    return "a tuple";
  case Expr::Kind::List:
    return "a list";
  case Expr::Kind::Dict:
    return "a dict display";
  case Expr::Kind::Binary:
    return cast<BinaryExpr>(e)->getOp() == BinaryOp::MatMul ? "the '@' operator" : "an operator expression";
  case Expr::Kind::Unary:
    return "an operator expression";
  case Expr::Kind::Compare:
    return "a comparison";
  case Expr::Kind::BoolOp:
    return "a boolean operator";
  case Expr::Kind::IfExp:
    return "a conditional expression";
  case Expr::Kind::Ellipsis:
    return "'...'";
  case Expr::Kind::Set:
    return "a set display";
  case Expr::Kind::Starred:
    return "a starred expression";
  case Expr::Kind::Lambda:
    return "a lambda";
  case Expr::Kind::FString:
    return "an f-string";
  case Expr::Kind::ListComp:
    return "a list comprehension";
  case Expr::Kind::SetComp:
    return "a set comprehension";
  case Expr::Kind::DictComp:
    return "a dict comprehension";
  case Expr::Kind::GeneratorExp:
    return "a generator expression";
  case Expr::Kind::Unsupported:
    return cast<UnsupportedExpr>(e)->getConstruct();
  case Expr::Kind::Error:
    return "an invalid expression";
  }
  return "an expression";
}

StringRef ast::describe(const Stmt *s) {
  switch (s->getKind()) {
  case Stmt::Kind::Import:
    return "an import";
  case Stmt::Kind::Assign:
    return "an assignment";
  case Stmt::Kind::AugAssign:
    return "an augmented assignment";
  case Stmt::Kind::Expr:
    return "an expression statement";
  case Stmt::Kind::Pass:
    return "'pass'";
  case Stmt::Kind::Return:
    return "'return'";
  case Stmt::Kind::If:
    return "an 'if' statement";
  case Stmt::Kind::For:
    return "a 'for' loop";
  case Stmt::Kind::With:
    return "a 'with' statement";
  case Stmt::Kind::FunctionDef:
    return "a function definition";
  case Stmt::Kind::Annotation:
    return "an annotation without a value";
  case Stmt::Kind::While:
    return "a 'while' loop";
  case Stmt::Kind::Break:
    return "'break'";
  case Stmt::Kind::Continue:
    return "'continue'";
  case Stmt::Kind::Assert:
    return "'assert'";
  case Stmt::Kind::Delete:
    return "'del'";
  case Stmt::Kind::Raise:
    return "'raise'";
  case Stmt::Kind::Try:
    return "a 'try' statement";
  case Stmt::Kind::Unsupported:
    return cast<UnsupportedStmt>(s)->getConstruct();
  }
  return "a statement";
}

/// A handler type that names ImportError / ModuleNotFoundError (or a tuple of them).
static bool catchesOnlyImportErrors(const Expr *type) {
  if (!type)
    return false;
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(type))
    return !tuple->getElts().empty() && llvm::all_of(tuple->getElts(), catchesOnlyImportErrors);
  auto *name = llvm::dyn_cast<NameExpr>(type);
  return name && (name->getName() == "ImportError" || name->getName() == "ModuleNotFoundError");
}

bool TryStmt::isImportIdiom() const {
  if (body.empty() || !isa<ImportStmt>(body.front()) || handlers.empty() || !finallyBody.empty())
    return false;
  return llvm::all_of(handlers, [](const ExceptHandler &h) { return catchesOnlyImportErrors(h.type); });
}
