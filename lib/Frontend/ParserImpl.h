//===- ParserImpl.h - The recursive-descent parser's state ------*- C++ -*-===//
//
// Private to Parser.cpp (statements) and ParserExpr.cpp (expressions): the
// token cursor, error reporting with recovery, and one method per production
// of grammar/tile.ebnf.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_FRONTEND_PARSERIMPL_H
#define TILEC_LIB_FRONTEND_PARSERIMPL_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilec::detail {

/// The deepest nesting of brackets, blocks, unary operators and operator
/// chains the parser accepts; deeper input gets an error instead of
/// exhausting the stack here or in later phases.
constexpr unsigned MaxNesting = 200;

/// Recovery strategy, in three layers:
///  1. A mistake inside a bracketed group reports one error and skips to the
///     group's closing bracket (the lexer matched them), yielding ErrorExpr.
///  2. The first error in a statement "poisons" it: later errors are dropped
///     until the statement ends, then the parser skips to the next NEWLINE at
///     the statement's level (and past a block the line opened).
///  3. Nothing is reported on a token the lexer already diagnosed (ERROR), or
///     after a bracket the lexer found never closed (it swallowed the rest).
class Parser {
public:
  Parser(TokenizedBuffer buffer, ast::ASTContext &ctx, DiagnosticEmitter &diags)
      : toks(std::move(buffer.tokens)), firstUnclosed(buffer.firstUnclosed), ctx(ctx), diags(diags) {}

  ast::Module parseFile(unsigned bufferId);
  /// An expression list filling the buffer; nullptr on error.
  ast::Expr *parseWholeExpression();

  //===--------------------------------------------------------------------===//
  // Token cursor
  //===--------------------------------------------------------------------===//
  const Token &tok() const { return toks[pos]; }
  const Token &peek(unsigned n = 1) const { return toks[std::min<size_t>(pos + n, toks.size() - 1)]; }
  bool at(TokenKind k) const { return tok().kind == k; }
  /// Advances one token (never past EOF) and returns the consumed token's index.
  TokenIndex consume() {
    TokenIndex i = pos;
    if (!at(TokenKind::Eof))
      ++pos;
    return i;
  }
  bool consumeIf(TokenKind k) {
    if (!at(k))
      return false;
    consume();
    return true;
  }
  /// Moves past the closing bracket matching the opener at `open`.
  void skipGroup(TokenIndex open) { pos = toks[open].match == NoToken ? pos : toks[open].match + 1; }
  /// Where a "found <current token>" error points: the token itself, or
  /// just past the previous token for an end of line or file (which may
  /// sit after a comment).
  llvm::SMRange foundRange() const {
    if ((at(TokenKind::Newline) || at(TokenKind::Eof) || tok().synthetic) && pos > 0)
      return llvm::SMRange(toks[pos - 1].range.End, toks[pos - 1].range.End);
    return tok().range;
  }
  /// A description of the current token for "found ..." in messages.
  std::string describe(const Token &t) const;

  //===--------------------------------------------------------------------===//
  // Diagnostics and recovery
  //===--------------------------------------------------------------------===//
  bool silenced() const { return poisoned || (firstUnclosed != NoToken && pos > firstUnclosed); }
  /// Reports an error that leaves the parse well formed (no poisoning).
  template <typename... Args> void error(DiagID id, llvm::SMRange range, Args &&...args) {
    if (!silenced())
      diags.emit(id, range, std::forward<Args>(args)...);
  }
  /// Reports a syntax error and poisons the statement.
  template <typename... Args> void syntaxError(DiagID id, llvm::SMRange range, Args &&...args) {
    error(id, range, std::forward<Args>(args)...);
    poisoned = true;
  }
  /// "expected {what}, found <current token>", silent on lexer error tokens.
  void expected(llvm::StringRef what);
  /// Consumes a `k` or reports `expected {what}`; returns whether it was there.
  bool expect(TokenKind k, llvm::StringRef what);
  /// At an identifier: consumes it into `range` and `name`; otherwise reports
  /// `expected {what}` and returns false.
  bool takeIdentifier(llvm::StringRef what, llvm::SMRange &range, std::string &name);
  /// Skips to the end of the logical line (jumping over bracketed groups),
  /// consumes the NEWLINE, then skips a block the line opened, and clears
  /// the poison.
  void skipStatement();
  /// After skipping a compound statement, also skips its continuation
  /// clauses (`elif`, `else`, `except`, `finally`) so they do not cascade.
  void skipContinuationClauses();
  /// Enters one nesting level at `range`; false (after reporting once) when
  /// too deep. Pair each successful call with leaveNesting().
  bool enterNesting(llvm::SMRange range);
  void leaveNesting(unsigned n = 1) { depth -= n; }
  /// At an INDENT whose nesting level was entered: consumes it, parses the
  /// statements up to the DEDENT into `body`, and leaves the level.
  void parseIndentedStatements(ast::Body &body);

  //===--------------------------------------------------------------------===//
  // Statements (Parser.cpp)
  //===--------------------------------------------------------------------===//
  void parseStatement(ast::Body &body);
  void parseSimpleStatements(ast::Body &body);
  ast::Stmt *parseSimpleStatement();
  ast::Stmt *parseImport();
  ast::Stmt *parseFromImport();
  ast::Stmt *parseReturn();
  ast::Stmt *parseAssert();
  ast::Stmt *parseDel();
  ast::Stmt *parseRaise();
  ast::Stmt *parseGlobal();
  ast::Stmt *parseExprOrAssign();
  void parseBlock(llvm::StringRef introducer, ast::Body &body);
  void parseDecorated(ast::Body &body);
  ast::Stmt *parseFunctionDef(std::vector<ast::Expr *> decorators, llvm::SMLoc start);
  /// Parses a `def` parameter list (at '(') or, with `lambda`, the names up
  /// to ':' (no parentheses, no annotations).
  bool parseParameters(std::vector<ast::Param> &params, bool lambda = false);
  ast::Stmt *parseIf();
  ast::Stmt *parseFor();
  ast::Stmt *parseWhile();
  ast::Stmt *parseWith();
  ast::Stmt *parseTry();
  ast::Stmt *parseClass(llvm::SMLoc start);
  ast::Stmt *parseAsync();
  /// Parses a loop body (`for`/`while`) and its optional `else` clause.
  void parseLoopBody(llvm::StringRef introducer, ast::Body &body, ast::Body &elseBody);
  bool parseDottedName(std::string &name, llvm::SMRange &range);
  /// Reports `e` if it cannot be assigned to; `allowTuple` for tuple
  /// targets, `allowStarred` for one `*name` inside them.
  bool checkTarget(ast::Expr *e, bool allowTuple, bool allowStarred = true);
  /// At NEWLINE, ';' or EOF.
  bool atStatementEnd() const {
    return at(TokenKind::Newline) || at(TokenKind::Semi) || at(TokenKind::Eof);
  }

  //===--------------------------------------------------------------------===//
  // Expressions (ParserExpr.cpp)
  //===--------------------------------------------------------------------===//
  ast::Expr *parseExpressionList();
  /// `*bitor` (a StarredExpr) or an expression.
  ast::Expr *parseStarOrExpression();
  ast::Expr *parseYield();
  ast::Expr *parseLambda();
  ast::Expr *parseTargetList();
  ast::Expr *parseExpression();
  ast::Expr *parseDisjunction();
  ast::Expr *parseConjunction();
  ast::Expr *parseBoolOp(TokenKind keyword, ast::BoolOpKind kind, ast::Expr *(Parser::*operand)());
  ast::Expr *parseInversion();
  ast::Expr *parseComparison();
  ast::Expr *parseBitOr();
  ast::Expr *parseBitXor();
  ast::Expr *parseBitAnd();
  ast::Expr *parseShift();
  ast::Expr *parseSum();
  ast::Expr *parseTerm();
  ast::Expr *parseFactor();
  ast::Expr *parsePower();
  ast::Expr *parsePrimary();
  ast::Expr *parseAtom();
  ast::Expr *parseCall(ast::Expr *callee);
  ast::Expr *parseSubscript(ast::Expr *value);
  ast::Expr *parseSliceItem();
  ast::Expr *parseParenthesized();
  ast::Expr *parseList();
  ast::Expr *parseBraced();
  /// At 'for' after the element `elt` (and `value`, for a dict): the clauses.
  ast::Expr *parseComprehension(ast::Expr::Kind kind, ast::Expr *elt, ast::Expr *value, llvm::SMLoc start);
  bool parseDisplayElements(TokenIndex open, llvm::StringRef closerText, ast::Expr::Kind kind,
                            std::vector<ast::Expr *> &elts, ast::Expr *&comp, bool *trailingComma,
                            ast::Expr *first = nullptr);
  /// Adjacent string literals (plain, bytes, f-strings) as one expression.
  ast::Expr *parseStrings();
  /// Decodes the f-string text [begin, end) into `parts`; `specDepth` counts
  /// enclosing format specs (Python allows two levels).
  void parseFStringText(const char *begin, const char *end, bool raw, unsigned specDepth,
                        std::vector<ast::FStringPart> &parts);
  /// The replacement field starting at `open` ('{'); returns the position
  /// after its '}' (or `end`).
  const char *parseFStringField(const char *open, const char *end, bool raw, unsigned specDepth,
                                std::vector<ast::FStringPart> &parts);
  /// Parses `elt (',' elt)* [',']` up to the closer of the group opened at
  /// `open` (already consumed) and consumes the closer. On a mistake it
  /// reports once, skips to the closer and returns false.
  bool parseGroupList(TokenIndex open, llvm::StringRef closerText, llvm::function_ref<bool()> elt,
                      bool *trailingComma = nullptr);
  ast::Expr *errorExpr(llvm::SMRange range) { return ctx.create<ast::ErrorExpr>(range); }
  ast::Expr *errorExprHere() { return errorExpr(tok().range); }

  std::vector<Token> toks;
  TokenIndex firstUnclosed;
  ast::ASTContext &ctx;
  DiagnosticEmitter &diags;
  TokenIndex pos = 0;
  bool poisoned = false;
  unsigned depth = 0;
  unsigned functionDepth = 0;
  /// Loops enclosing the current statement in the current function.
  unsigned loopDepth = 0;
  /// Parsing the expression of an f-string field: its end is not the file's.
  bool inFStringField = false;
};

/// The range from the start of `a` to the end of `b`.
inline llvm::SMRange joinRanges(llvm::SMRange a, llvm::SMRange b) { return llvm::SMRange(a.Start, b.End); }

} // namespace tilec::detail

#endif // TILEC_LIB_FRONTEND_PARSERIMPL_H
