//===- ParserCompound.cpp - Compound statements of the .tile parser ------===//
//
// Blocks, decorated function definitions and their parameters, if/elif/else,
// for and with: the compound-statement productions of grammar/tile.ebnf.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/StringMap.h"

using namespace tilec;
using namespace tilec::ast;
using tilec::detail::joinRanges;
using tilec::detail::Parser;
using llvm::SMLoc;
using llvm::SMRange;
using llvm::StringRef;

/// block = NEWLINE INDENT statement { statement } DEDENT | simple_stmts ;
void Parser::parseBlock(StringRef introducer, Body &body) {
  if (!at(TokenKind::Newline)) {
    parseSimpleStatements(body);
    return;
  }
  consume();
  if (!at(TokenKind::Indent)) {
    if (!at(TokenKind::Error))
      error(DiagID::parse_expected_indent, tok().range, introducer);
    return;
  }
  if (!enterNesting(tok().range)) {
    // Skip the whole block; the error is reported.
    pos -= 1;
    skipStatement();
    return;
  }
  parseIndentedStatements(body);
}

/// decorated = decorator { decorator } funcdef ;
/// decorator = '@' expression NEWLINE ;
void Parser::parseDecorated(Body &body) {
  std::vector<Expr *> decorators;
  SMLoc start = tok().getLoc();
  while (at(TokenKind::At)) {
    consume();
    Expr *dec = parseExpression();
    if (poisoned || !consumeIf(TokenKind::Newline)) {
      expected("end of line after the decorator");
      skipStatement();
      continue;
    }
    decorators.push_back(dec);
  }
  if (at(TokenKind::KwDef)) {
    if (Stmt *s = parseFunctionDef(std::move(decorators), start))
      body.push_back(s);
    return;
  }
  // `@dec class ...` gets the unsupported-keyword error of the next statement.
  if (!at(TokenKind::KwUnsupported) && !at(TokenKind::Error))
    error(DiagID::parse_decorator_target, foundRange(), describe(tok()));
}

/// funcdef = 'def' NAME '(' [ parameters ] ')' [ '->' expression ] ':' block ;
Stmt *Parser::parseFunctionDef(std::vector<Expr *> decorators, SMLoc start) {
  SMRange kw = toks[consume()].range;
  if (!at(TokenKind::Identifier)) {
    expected("a function name after 'def'");
    skipStatement();
    return nullptr;
  }
  SMRange nameRange = tok().range;
  std::string name = toks[consume()].getSpelling().str();
  std::vector<Param> params;
  Expr *returns = nullptr;
  if (at(TokenKind::LParen)) {
    parseParameters(params);
  } else {
    expected("'(' after the function name");
  }
  if (!poisoned && consumeIf(TokenKind::Arrow))
    returns = parseExpression();
  if (!poisoned)
    expect(TokenKind::Colon, "':' after the function signature");
  if (poisoned) {
    skipStatement();
    return nullptr;
  }
  Body body;
  ++functionDepth;
  parseBlock("def", body);
  --functionDepth;
  (void)kw;
  return ctx.create<FunctionDefStmt>(SMRange(start, nameRange.End), std::move(name), nameRange,
                                     std::move(decorators), std::move(params), returns, std::move(body));
}

/// parameters = parameter { ',' parameter } [ ',' ] ;
/// parameter = NAME [ ':' expression ] [ '=' expression ] ;
bool Parser::parseParameters(std::vector<Param> &params) {
  TokenIndex open = consume();
  llvm::StringMap<SMRange> seen;
  bool sawDefault = false;
  auto parseParam = [&]() -> bool {
    if (at(TokenKind::Star) || at(TokenKind::DoubleStar) || at(TokenKind::Slash)) {
      SMRange r = tok().range;
      if (peek().is(TokenKind::Identifier))
        r.End = peek().range.End;
      syntaxError(DiagID::parse_variadic_param_unsupported, r,
                  StringRef(r.Start.getPointer(), r.End.getPointer() - r.Start.getPointer()));
      return false;
    }
    Param p;
    if (!takeIdentifier("a parameter name", p.range, p.name))
      return false;
    if (consumeIf(TokenKind::Colon)) {
      p.annotation = parseExpression();
      if (poisoned)
        return false;
    }
    if (consumeIf(TokenKind::Equal)) {
      p.defaultValue = parseExpression();
      if (poisoned)
        return false;
      sawDefault = true;
    } else if (sawDefault) {
      error(DiagID::parse_param_default_order, p.range, p.name);
    }
    auto [it, inserted] = seen.try_emplace(p.name, p.range);
    if (!inserted && !silenced()) {
      auto diag = diags.emit(DiagID::parse_duplicate_param, p.range, p.name);
      diags.note(diag, DiagID::parse_note_previous, it->second, p.name);
    }
    params.push_back(std::move(p));
    return true;
  };
  return parseGroupList(open, "')'", parseParam);
}

/// if_stmt = 'if' expression ':' block { 'elif' expression ':' block } [ 'else' ':' block ] ;
Stmt *Parser::parseIf() {
  struct Clause {
    SMLoc start;
    Expr *cond;
    Body body;
  };
  std::vector<Clause> clauses;
  Body elseBody;
  unsigned entered = 0;
  auto giveUp = [&]() -> Stmt * {
    leaveNesting(entered);
    skipStatement();
    skipContinuationClauses();
    return nullptr;
  };
  while (true) {
    SMLoc start = tok().getLoc();
    // Each clause nests one level deeper in the AST (an elif is an if in
    // the else body), so long chains count towards the nesting limit.
    if (!enterNesting(tok().range))
      return giveUp();
    ++entered;
    StringRef kwText = tok().getSpelling();
    bool isElse = at(TokenKind::KwElse);
    consume();
    Expr *cond = nullptr;
    if (!isElse)
      cond = parseExpression();
    if (!poisoned)
      expect(TokenKind::Colon, isElse ? "':' after 'else'" : ("':' after the '" + kwText + "' condition").str());
    if (poisoned)
      return giveUp();
    Body body;
    parseBlock(kwText, body);
    if (isElse) {
      elseBody = std::move(body);
      break;
    }
    clauses.push_back({start, cond, std::move(body)});
    if (!at(TokenKind::KwElif) && !at(TokenKind::KwElse))
      break;
  }
  leaveNesting(entered);
  // Build the elif chain from the innermost clause outwards.
  Stmt *result = nullptr;
  Body tail = std::move(elseBody);
  for (size_t i = clauses.size(); i-- > 0;) {
    Clause &c = clauses[i];
    SMRange r(c.start, c.cond->getRange().End);
    result = ctx.create<IfStmt>(r, c.cond, std::move(c.body), std::move(tail), /*isElif=*/i > 0);
    tail = Body{result};
  }
  return result;
}

/// for_stmt = 'for' target_list 'in' expression_list ':' block ;
Stmt *Parser::parseFor() {
  SMLoc start = toks[consume()].getLoc();
  Expr *target = parseTargetList();
  if (!poisoned && !at(TokenKind::KwIn))
    expected("'in' after the loop target");
  if (!poisoned) {
    checkTarget(target, /*allowTuple=*/true);
    consume();
  }
  Expr *iter = poisoned ? nullptr : parseExpressionList();
  if (!poisoned)
    expect(TokenKind::Colon, "':' after the 'for' iterable");
  if (poisoned) {
    skipStatement();
    skipContinuationClauses();
    return nullptr;
  }
  Body body;
  parseBlock("for", body);
  if (at(TokenKind::KwElse)) {
    syntaxError(DiagID::parse_for_else_unsupported, tok().range);
    skipStatement();
  }
  return ctx.create<ForStmt>(SMRange(start, iter->getRange().End), target, iter, std::move(body));
}

/// with_stmt = 'with' expression [ 'as' target_list ] ':' block ;
Stmt *Parser::parseWith() {
  SMLoc start = toks[consume()].getLoc();
  Expr *context = parseExpression();
  Expr *target = nullptr;
  if (!poisoned && at(TokenKind::Comma))
    syntaxError(DiagID::parse_with_items_unsupported, tok().range);
  if (!poisoned && consumeIf(TokenKind::KwAs)) {
    target = parseTargetList();
    if (!poisoned)
      checkTarget(target, /*allowTuple=*/true);
  }
  if (!poisoned)
    expect(TokenKind::Colon, "':' after the 'with' item");
  if (poisoned) {
    skipStatement();
    return nullptr;
  }
  Body body;
  parseBlock("with", body);
  SMLoc end = (target ? target : context)->getRange().End;
  return ctx.create<WithStmt>(SMRange(start, end), context, target, std::move(body));
}
