//===- Parser.cpp - Simple statements of the .tile parser -----------------===//
//
// The module and statement dispatch, simple statements (imports, return,
// assignments, expression statements) of grammar/tile.ebnf, error recovery
// helpers, and the public entry points of Parser.h. Compound statements are
// in ParserCompound.cpp, expressions in ParserExpr.cpp.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Parser.h"
#include "ParserImpl.h"


using namespace tilec;
using namespace tilec::ast;
using tilec::detail::joinRanges;
using tilec::detail::Parser;
using llvm::SMLoc;
using llvm::SMRange;
using llvm::cast;
using llvm::isa;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Diagnostics and recovery
//===----------------------------------------------------------------------===//

std::string Parser::describe(const Token &t) const {
  switch (t.kind) {
  case TokenKind::Eof: return inFStringField ? "the end of the f-string field" : "end of file";
  case TokenKind::Newline: return "end of line";
  case TokenKind::Indent: return "indentation";
  case TokenKind::Dedent: return "end of the indented block";
  case TokenKind::Identifier: return ("name '" + t.getSpelling() + "'").str();
  case TokenKind::IntLit:
  case TokenKind::FloatLit: return ("number '" + t.getSpelling() + "'").str();
  case TokenKind::StrLit: return "string literal";
  default: break;
  }
  if (t.synthetic)
    return "end of file";
  if (t.kind >= TokenKind::KwFalse)
    return ("keyword '" + t.getSpelling() + "'").str();
  return ("'" + t.getSpelling() + "'").str();
}

void Parser::expected(StringRef what) {
  // The lexer already reported the bad token or the bracket it repaired.
  if (at(TokenKind::Error) || tok().synthetic) {
    poisoned = true;
    return;
  }
  syntaxError(DiagID::parse_expected, foundRange(), what, describe(tok()));
}

bool Parser::expect(TokenKind k, StringRef what) {
  if (consumeIf(k))
    return true;
  expected(what);
  return false;
}

void Parser::skipStatement() {
  while (!at(TokenKind::Newline) && !at(TokenKind::Eof)) {
    if (tok().isOpenBracket())
      skipGroup(pos);
    else
      consume();
  }
  consumeIf(TokenKind::Newline);
  if (at(TokenKind::Indent)) {
    unsigned level = 0;
    do {
      if (at(TokenKind::Indent))
        ++level;
      else if (at(TokenKind::Dedent))
        --level;
      consume();
    } while (level > 0 && !at(TokenKind::Eof));
  }
  poisoned = false;
}

void Parser::skipContinuationClauses() {
  while (at(TokenKind::KwElif) || at(TokenKind::KwElse) || at(TokenKind::KwExcept) || at(TokenKind::KwFinally))
    skipStatement();
}

void Parser::parseIndentedStatements(ast::Body &body) {
  consume();
  while (!at(TokenKind::Dedent) && !at(TokenKind::Eof))
    parseStatement(body);
  consumeIf(TokenKind::Dedent);
  leaveNesting();
}

bool Parser::takeIdentifier(StringRef what, SMRange &range, std::string &name) {
  if (!at(TokenKind::Identifier)) {
    expected(what);
    return false;
  }
  range = tok().range;
  name = toks[consume()].getSpelling().str();
  return true;
}

bool Parser::enterNesting(SMRange range) {
  if (depth >= detail::MaxNesting) {
    syntaxError(DiagID::parse_nesting_too_deep, range, detail::MaxNesting);
    return false;
  }
  ++depth;
  return true;
}

//===----------------------------------------------------------------------===//
// Module and statements
//===----------------------------------------------------------------------===//

/// file = { NEWLINE | statement } EOF ;
Module Parser::parseFile(unsigned bufferId) {
  Module module;
  module.bufferId = bufferId;
  while (!at(TokenKind::Eof)) {
    if (consumeIf(TokenKind::Newline))
      continue;
    if (at(TokenKind::Dedent)) {
      // Only after an inconsistent dedent, which the lexer reported.
      consume();
      continue;
    }
    parseStatement(module.body);
  }
  return module;
}

/// statement = compound_stmt | simple_stmts ;
/// compound_stmt = decorated | funcdef | if_stmt | for_stmt | while_stmt | with_stmt
///               | try_stmt | classdef | async_stmt ;
void Parser::parseStatement(Body &body) {
  TokenIndex start = pos;
  switch (tok().kind) {
  case TokenKind::Indent: {
    syntaxError(DiagID::parse_unexpected_indent, tok().range);
    poisoned = false;
    if (!enterNesting(tok().range)) {
      skipStatement();
      break;
    }
    // Parse the over-indented lines as if they were not indented, so that
    // mistakes inside them are still found.
    parseIndentedStatements(body);
    break;
  }
  case TokenKind::At:
    parseDecorated(body);
    break;
  case TokenKind::KwDef:
    if (Stmt *s = parseFunctionDef({}, tok().getLoc()))
      body.push_back(s);
    break;
  case TokenKind::KwIf:
    if (Stmt *s = parseIf())
      body.push_back(s);
    break;
  case TokenKind::KwFor:
    if (Stmt *s = parseFor())
      body.push_back(s);
    break;
  case TokenKind::KwWith:
    if (Stmt *s = parseWith())
      body.push_back(s);
    break;
  case TokenKind::KwWhile:
    if (Stmt *s = parseWhile())
      body.push_back(s);
    break;
  case TokenKind::KwTry:
    if (Stmt *s = parseTry())
      body.push_back(s);
    break;
  case TokenKind::KwClass:
    if (Stmt *s = parseClass(tok().getLoc()))
      body.push_back(s);
    break;
  case TokenKind::KwAsync:
    if (Stmt *s = parseAsync())
      body.push_back(s);
    break;
  case TokenKind::KwElif:
  case TokenKind::KwElse:
    syntaxError(DiagID::parse_stray_else, tok().range, tok().getSpelling());
    skipStatement();
    skipContinuationClauses();
    break;
  case TokenKind::KwExcept:
  case TokenKind::KwFinally:
    syntaxError(DiagID::parse_stray_clause, tok().range, tok().getSpelling(), "try");
    skipStatement();
    skipContinuationClauses();
    break;
  default:
    parseSimpleStatements(body);
    break;
  }
  // Every statement consumes at least one token, so the callers' loops end.
  if (pos == start)
    consume();
}

/// simple_stmts = simple_stmt { ';' simple_stmt } [ ';' ] NEWLINE ;
void Parser::parseSimpleStatements(Body &body) {
  // A line that does not parse to its end contributes no statements.
  size_t firstOfLine = body.size();
  while (true) {
    if (Stmt *s = parseSimpleStatement())
      body.push_back(s);
    if (poisoned) {
      body.resize(firstOfLine);
      skipStatement();
      return;
    }
    if (!consumeIf(TokenKind::Semi))
      break;
    if (at(TokenKind::Newline) || at(TokenKind::Eof))
      break;
  }
  if (!at(TokenKind::Eof) && !consumeIf(TokenKind::Newline)) {
    body.resize(firstOfLine);
    expected("end of line");
    skipStatement();
  }
}

/// simple_stmt = 'pass' | 'break' | 'continue' | return_stmt | import_stmt | from_import
///             | assert_stmt | del_stmt | raise_stmt | global_stmt | assignment | star_expressions ;
Stmt *Parser::parseSimpleStatement() {
  switch (tok().kind) {
  case TokenKind::KwPass:
    return ctx.create<PassStmt>(toks[consume()].range);
  case TokenKind::KwBreak:
  case TokenKind::KwContinue: {
    const Token &kw = toks[consume()];
    if (loopDepth == 0)
      error(DiagID::parse_outside_loop, kw.range, kw.getSpelling());
    if (kw.is(TokenKind::KwBreak))
      return ctx.create<BreakStmt>(kw.range);
    return ctx.create<ContinueStmt>(kw.range);
  }
  case TokenKind::KwReturn:
    return parseReturn();
  case TokenKind::KwImport:
    return parseImport();
  case TokenKind::KwFrom:
    return parseFromImport();
  case TokenKind::KwAssert:
    return parseAssert();
  case TokenKind::KwDel:
    return parseDel();
  case TokenKind::KwRaise:
    return parseRaise();
  case TokenKind::KwGlobal:
  case TokenKind::KwNonlocal:
    return parseGlobal();
  case TokenKind::KwDef:
  case TokenKind::KwIf:
  case TokenKind::KwFor:
  case TokenKind::KwWhile:
  case TokenKind::KwWith:
  case TokenKind::KwTry:
  case TokenKind::KwClass:
  case TokenKind::KwAsync:
  case TokenKind::KwElif:
  case TokenKind::KwElse:
  case TokenKind::KwExcept:
  case TokenKind::KwFinally:
  case TokenKind::At:
    // A compound statement after ';' or in a one-line block.
    expected("a simple statement");
    return nullptr;
  default:
    return parseExprOrAssign();
  }
}

/// dotted_name = NAME { '.' NAME } ;
bool Parser::parseDottedName(std::string &name, SMRange &range) {
  range = tok().range;
  if (!at(TokenKind::Identifier)) {
    expected("a module name");
    return false;
  }
  name = toks[consume()].getSpelling().str();
  while (at(TokenKind::Dot)) {
    consume();
    if (!at(TokenKind::Identifier)) {
      expected("a name after '.'");
      return false;
    }
    name += ".";
    name += toks[pos].getSpelling();
    range.End = toks[consume()].range.End;
  }
  return true;
}

/// import_stmt = 'import' dotted_as_name { ',' dotted_as_name } ;
/// dotted_as_name = dotted_name [ 'as' NAME ] ;
Stmt *Parser::parseImport() {
  SMRange kw = toks[consume()].range;
  std::vector<ImportName> names;
  SMLoc endLoc = kw.End;
  do {
    ImportName in;
    if (!parseDottedName(in.dottedName, in.range))
      return nullptr;
    if (consumeIf(TokenKind::KwAs)) {
      if (!at(TokenKind::Identifier)) {
        expected("a name after 'as'");
        return nullptr;
      }
      in.asName = tok().getSpelling().str();
      in.range.End = toks[consume()].range.End;
    }
    endLoc = in.range.End;
    names.push_back(std::move(in));
  } while (consumeIf(TokenKind::Comma));
  return ctx.create<ImportStmt>(SMRange(kw.Start, endLoc), "", std::move(names));
}

/// from_import = 'from' ( { '.' | '...' } dotted_name | ( '.' | '...' ) { '.' | '...' } ) 'import'
///               ( '*' | '(' import_as_names [ ',' ] ')' | import_as_names ) ;
/// import_as_names = NAME [ 'as' NAME ] { ',' NAME [ 'as' NAME ] } ;
Stmt *Parser::parseFromImport() {
  SMRange kw = toks[consume()].range;
  unsigned level = 0;
  for (; at(TokenKind::Dot) || at(TokenKind::Ellipsis); consume())
    level += at(TokenKind::Dot) ? 1 : 3;
  std::string module;
  SMRange moduleRange;
  if ((level == 0 || !at(TokenKind::KwImport)) && !parseDottedName(module, moduleRange))
    return nullptr;
  if (!expect(TokenKind::KwImport, "'import'"))
    return nullptr;
  if (at(TokenKind::Star)) {
    SMRange star = toks[consume()].range;
    return ctx.create<ImportStmt>(joinRanges(kw, star), module, std::vector<ImportName>{{"*", "", star}},
                                  /*isFrom=*/true, level);
  }
  std::vector<ImportName> names;
  auto parseName = [&]() -> bool {
    ImportName in;
    if (!takeIdentifier("a name to import", in.range, in.dottedName))
      return false;
    if (consumeIf(TokenKind::KwAs)) {
      if (!at(TokenKind::Identifier)) {
        expected("a name after 'as'");
        return false;
      }
      in.asName = tok().getSpelling().str();
      in.range.End = toks[consume()].range.End;
    }
    names.push_back(std::move(in));
    return true;
  };
  SMLoc endLoc;
  if (at(TokenKind::LParen)) {
    TokenIndex open = consume();
    if (!parseGroupList(open, "')'", parseName))
      return nullptr;
    endLoc = toks[pos - 1].range.End;
  } else {
    do {
      if (!parseName())
        return nullptr;
    } while (consumeIf(TokenKind::Comma));
    endLoc = names.back().range.End;
  }
  return ctx.create<ImportStmt>(SMRange(kw.Start, endLoc), module, std::move(names), /*isFrom=*/true, level);
}

/// return_stmt = 'return' [ expression_list ] ;
Stmt *Parser::parseReturn() {
  SMRange kw = toks[consume()].range;
  if (functionDepth == 0)
    error(DiagID::parse_return_outside_function, kw);
  Expr *value = nullptr;
  if (!atStatementEnd())
    value = parseExpressionList();
  return ctx.create<ReturnStmt>(value ? joinRanges(kw, value->getRange()) : kw, value);
}

/// assert_stmt = 'assert' expression [ ',' expression ] ;
Stmt *Parser::parseAssert() {
  SMRange kw = toks[consume()].range;
  Expr *test = parseExpression();
  Expr *msg = nullptr;
  if (!poisoned && consumeIf(TokenKind::Comma))
    msg = parseExpression();
  if (poisoned)
    return nullptr;
  return ctx.create<AssertStmt>(joinRanges(kw, (msg ? msg : test)->getRange()), test, msg);
}

/// del_stmt = 'del' target { ',' target } [ ',' ] ;
Stmt *Parser::parseDel() {
  SMRange kw = toks[consume()].range;
  std::vector<Expr *> targets;
  SMLoc endLoc = kw.End;
  do {
    if (atStatementEnd())
      break;
    Expr *t = parseBitOr();
    if (poisoned)
      return nullptr;
    checkTarget(t, /*allowTuple=*/true, /*allowStarred=*/false);
    targets.push_back(t);
    endLoc = t->getRange().End;
  } while (consumeIf(TokenKind::Comma));
  if (targets.empty()) {
    expected("a name to delete");
    return nullptr;
  }
  return ctx.create<DeleteStmt>(SMRange(kw.Start, endLoc), std::move(targets));
}

/// raise_stmt = 'raise' [ expression [ 'from' expression ] ] ;
Stmt *Parser::parseRaise() {
  SMRange kw = toks[consume()].range;
  Expr *exc = nullptr, *cause = nullptr;
  if (!atStatementEnd()) {
    exc = parseExpression();
    if (!poisoned && consumeIf(TokenKind::KwFrom))
      cause = parseExpression();
  }
  if (poisoned)
    return nullptr;
  Expr *last = cause ? cause : exc;
  return ctx.create<RaiseStmt>(last ? joinRanges(kw, last->getRange()) : kw, exc, cause);
}

/// global_stmt = ( 'global' | 'nonlocal' ) NAME { ',' NAME } ;   (parsed, rejected where evaluated)
Stmt *Parser::parseGlobal() {
  const Token &kw = toks[consume()];
  std::vector<std::string> names;
  SMLoc endLoc = kw.range.End;
  do {
    SMRange r;
    std::string name;
    if (!takeIdentifier("a name", r, name))
      return nullptr;
    names.push_back(std::move(name));
    endLoc = r.End;
  } while (consumeIf(TokenKind::Comma));
  return ctx.create<UnsupportedStmt>(SMRange(kw.range.Start, endLoc), kw.getSpelling().str(), kw.range,
                                     std::move(names));
}

/// Maps an augmented-assignment token to its operator.
static std::optional<BinaryOp> augmentedOp(TokenKind k) {
  switch (k) {
  case TokenKind::PlusEqual: return BinaryOp::Add;
  case TokenKind::MinusEqual: return BinaryOp::Sub;
  case TokenKind::StarEqual: return BinaryOp::Mul;
  case TokenKind::SlashEqual: return BinaryOp::Div;
  case TokenKind::DoubleSlashEqual: return BinaryOp::FloorDiv;
  case TokenKind::PercentEqual: return BinaryOp::Mod;
  case TokenKind::DoubleStarEqual: return BinaryOp::Pow;
  case TokenKind::AmpEqual: return BinaryOp::BitAnd;
  case TokenKind::PipeEqual: return BinaryOp::BitOr;
  case TokenKind::CaretEqual: return BinaryOp::BitXor;
  case TokenKind::LessLessEqual: return BinaryOp::Shl;
  case TokenKind::GreaterGreaterEqual: return BinaryOp::Shr;
  case TokenKind::AtEqual: return BinaryOp::MatMul;
  default: return std::nullopt;
  }
}

bool Parser::checkTarget(Expr *e, bool allowTuple, bool allowStarred) {
  switch (e->getKind()) {
  case Expr::Kind::Name:
  case Expr::Kind::Subscript:
  case Expr::Kind::Attribute: return true;
  case Expr::Kind::Error: return false;
  case Expr::Kind::Tuple:
  case Expr::Kind::List:
    if (allowTuple) {
      llvm::ArrayRef<Expr *> elts =
          isa<TupleExpr>(e) ? cast<TupleExpr>(e)->getElts() : cast<ListExpr>(e)->getElts();
      bool ok = true;
      const Expr *firstStar = nullptr;
      for (Expr *elt : elts) {
        if (auto *star = llvm::dyn_cast<StarredExpr>(elt); star && allowStarred) {
          if (firstStar) {
            error(DiagID::parse_multiple_starred, star->getRange());
            ok = false;
          }
          firstStar = star;
          ok &= checkTarget(star->getValue(), /*allowTuple=*/true, allowStarred);
          continue;
        }
        ok &= checkTarget(elt, true, allowStarred);
      }
      return ok;
    }
    [[fallthrough]];
  default:
    error(DiagID::parse_invalid_target, e->getRange(), ast::describe(e));
    return false;
  }
}

/// assignment = star_expressions '=' { star_expressions '=' } assigned_value
///            | single_target ':' expression [ '=' assigned_value ]
///            | single_target augassign assigned_value ;
/// assigned_value = star_expressions | yield_expr ;
/// single_target = expression ;
/// augassign = '+=' | '-=' | '*=' | '@=' | '/=' | '//=' | '%=' | '**=' | '&=' | '|=' | '^=' | '<<=' | '>>=' ;
Stmt *Parser::parseExprOrAssign() {
  Expr *first = parseExpressionList();
  if (poisoned)
    return nullptr;
  SMLoc start = first->getLoc();
  if (at(TokenKind::Equal)) {
    std::vector<Expr *> exprs{first};
    while (consumeIf(TokenKind::Equal)) {
      exprs.push_back(parseExpressionList());
      if (poisoned)
        return nullptr;
    }
    Expr *value = exprs.back();
    exprs.pop_back();
    for (Expr *target : exprs)
      checkTarget(target, /*allowTuple=*/true, /*allowStarred=*/true);
    return ctx.create<AssignStmt>(SMRange(start, value->getRange().End), std::move(exprs), value);
  }
  if (at(TokenKind::Colon)) {
    consume();
    checkTarget(first, /*allowTuple=*/false);
    Expr *annotation = parseExpression();
    if (poisoned)
      return nullptr;
    if (!consumeIf(TokenKind::Equal))
      return ctx.create<AnnotationStmt>(joinRanges(first->getRange(), annotation->getRange()), first, annotation);
    Expr *value = parseExpressionList();
    if (poisoned)
      return nullptr;
    return ctx.create<AssignStmt>(SMRange(start, value->getRange().End), std::vector<Expr *>{first}, value,
                                  annotation);
  }
  if (at(TokenKind::ColonEqual)) {
    syntaxError(DiagID::parse_walrus_unsupported, tok().range);
    return nullptr;
  }
  if (std::optional<BinaryOp> op = augmentedOp(tok().kind)) {
    SMRange opRange = toks[consume()].range;
    checkTarget(first, /*allowTuple=*/false);
    Expr *value = parseExpressionList();
    if (poisoned)
      return nullptr;
    return ctx.create<AugAssignStmt>(SMRange(start, value->getRange().End), first, *op, opRange, value);
  }
  return ctx.create<ExprStmt>(first->getRange(), first);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// define_value = [ INDENT ] expression_list [ NEWLINE ] { DEDENT } EOF ;
Expr *Parser::parseWholeExpression() {
  unsigned errorsBefore = diags.getNumErrors();
  consumeIf(TokenKind::Indent);
  Expr *e = parseExpressionList();
  if (!poisoned) {
    consumeIf(TokenKind::Newline);
    while (consumeIf(TokenKind::Dedent)) {
    }
    if (!at(TokenKind::Eof))
      syntaxError(DiagID::parse_trailing_tokens, tok().range, describe(tok()));
  }
  if (poisoned || diags.getNumErrors() != errorsBefore)
    return nullptr;
  return e;
}

Module tilec::parseModule(llvm::SourceMgr &srcMgr, unsigned bufferId, ASTContext &ctx, DiagnosticEmitter &diags) {
  Parser parser(lexBuffer(srcMgr, bufferId, diags), ctx, diags);
  return parser.parseFile(bufferId);
}

Expr *tilec::parseExpression(llvm::SourceMgr &srcMgr, unsigned bufferId, ASTContext &ctx, DiagnosticEmitter &diags) {
  unsigned errorsBefore = diags.getNumErrors();
  Parser parser(lexBuffer(srcMgr, bufferId, diags), ctx, diags);
  Expr *e = parser.parseWholeExpression();
  return diags.getNumErrors() == errorsBefore ? e : nullptr;
}
