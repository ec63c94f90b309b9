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

/// decorated = decorator { decorator } ( funcdef | classdef | 'async' funcdef ) ;
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
  if (at(TokenKind::KwClass)) {
    if (Stmt *s = parseClass(start))
      body.push_back(s);
    return;
  }
  if (at(TokenKind::KwAsync)) {
    if (Stmt *s = parseAsync())
      body.push_back(s);
    return;
  }
  if (!at(TokenKind::Error))
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
  unsigned outerLoops = loopDepth;
  loopDepth = 0;
  parseBlock("def", body);
  loopDepth = outerLoops;
  --functionDepth;
  (void)kw;
  return ctx.create<FunctionDefStmt>(SMRange(start, nameRange.End), std::move(name), nameRange,
                                     std::move(decorators), std::move(params), returns, std::move(body));
}

/// parameters = param_item { ',' param_item } [ ',' ] ;
/// param_item = parameter | '/' | '*' [ NAME [ ':' expression ] ] | '**' NAME [ ':' expression ] ;
/// parameter = NAME [ ':' expression ] [ '=' expression ] ;
/// lambda_params = the same without annotations or parentheses, up to ':' ;
bool Parser::parseParameters(std::vector<Param> &params, bool lambda) {
  llvm::StringMap<SMRange> seen;
  bool sawDefault = false, sawStar = false, sawSlash = false, sawDoubleStar = false;
  auto parseParam = [&]() -> bool {
    if (sawDoubleStar) {
      syntaxError(DiagID::parse_param_after_kwargs, tok().range);
      return false;
    }
    SMRange marker = tok().range;
    if (at(TokenKind::Slash)) {
      consume();
      if (sawSlash || sawStar || params.empty()) {
        syntaxError(DiagID::parse_misplaced_param_marker, marker, "/");
        return false;
      }
      sawSlash = true;
      for (Param &p : params)
        p.kind = ParamKind::PositionalOnly;
      return true;
    }
    ParamKind kind = sawStar ? ParamKind::KeywordOnly : ParamKind::Normal;
    if (at(TokenKind::Star) || at(TokenKind::DoubleStar)) {
      bool doubleStar = at(TokenKind::DoubleStar);
      consume();
      if (!doubleStar && sawStar) {
        syntaxError(DiagID::parse_misplaced_param_marker, marker, "*");
        return false;
      }
      if (!doubleStar && !at(TokenKind::Identifier)) {
        sawStar = true; // a bare `*`: the following parameters are keyword-only
        return true;
      }
      kind = doubleStar ? ParamKind::VarKeyword : ParamKind::VarPositional;
      sawStar |= !doubleStar;
      sawDoubleStar |= doubleStar;
    }
    Param p;
    p.kind = kind;
    if (!takeIdentifier("a parameter name", p.range, p.name))
      return false;
    if (!lambda && consumeIf(TokenKind::Colon)) {
      p.annotation = parseExpression();
      if (poisoned)
        return false;
    }
    bool variadic = kind == ParamKind::VarPositional || kind == ParamKind::VarKeyword;
    if (at(TokenKind::Equal) && variadic) {
      syntaxError(DiagID::parse_variadic_default, tok().range, p.name);
      return false;
    }
    if (consumeIf(TokenKind::Equal)) {
      p.defaultValue = parseExpression();
      if (poisoned)
        return false;
      sawDefault |= kind != ParamKind::KeywordOnly;
    } else if (sawDefault && !variadic && kind != ParamKind::KeywordOnly) {
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
  if (!lambda) {
    TokenIndex open = consume();
    return parseGroupList(open, "')'", parseParam);
  }
  while (!at(TokenKind::Colon)) {
    if (!parseParam() || poisoned)
      return false;
    if (!at(TokenKind::Colon) && !expect(TokenKind::Comma, "',' or ':' in the lambda parameters"))
      return false;
  }
  return true;
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

/// for_stmt = 'for' target_list 'in' star_expressions ':' block [ 'else' ':' block ] ;
Stmt *Parser::parseFor() {
  SMLoc start = toks[consume()].getLoc();
  Expr *target = parseTargetList();
  if (!poisoned && !at(TokenKind::KwIn))
    expected("'in' after the loop target");
  if (!poisoned) {
    checkTarget(target, /*allowTuple=*/true, /*allowStarred=*/true);
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
  Body body, elseBody;
  parseLoopBody("for", body, elseBody);
  return ctx.create<ForStmt>(SMRange(start, iter->getRange().End), target, iter, std::move(body),
                             std::move(elseBody));
}

void Parser::parseLoopBody(StringRef introducer, Body &body, Body &elseBody) {
  ++loopDepth;
  parseBlock(introducer, body);
  --loopDepth;
  if (!at(TokenKind::KwElse))
    return;
  consume();
  if (!expect(TokenKind::Colon, "':' after 'else'")) {
    skipStatement();
    return;
  }
  parseBlock("else", elseBody);
}

/// while_stmt = 'while' expression ':' block [ 'else' ':' block ] ;
Stmt *Parser::parseWhile() {
  SMLoc start = toks[consume()].getLoc();
  Expr *cond = parseExpression();
  if (!poisoned)
    expect(TokenKind::Colon, "':' after the 'while' condition");
  if (poisoned) {
    skipStatement();
    skipContinuationClauses();
    return nullptr;
  }
  Body body, elseBody;
  parseLoopBody("while", body, elseBody);
  return ctx.create<WhileStmt>(SMRange(start, cond->getRange().End), cond, std::move(body), std::move(elseBody));
}

/// with_stmt = 'with' ( with_item { ',' with_item } | '(' with_item { ',' with_item } [ ',' ] ')' ) ':' block ;
/// with_item = expression [ 'as' target ] ;
/// Several items nest: `with a, b:` is `with a: with b:`.
Stmt *Parser::parseWith() {
  SMLoc start = toks[consume()].getLoc();
  struct Item {
    Expr *context, *target;
  };
  std::vector<Item> items;
  auto parseItem = [&]() -> bool {
    Expr *context = parseExpression();
    Expr *target = nullptr;
    if (!poisoned && consumeIf(TokenKind::KwAs)) {
      target = parseBitOr();
      if (!poisoned)
        checkTarget(target, /*allowTuple=*/true, /*allowStarred=*/true);
    }
    items.push_back({context, target});
    return !poisoned;
  };
  // `with (a as x, b):` and `with (a, b):` are item lists (as in Python);
  // `with (a, b) as t:` has one tuple-valued item.
  bool parenthesized = false;
  if (at(TokenKind::LParen) && toks[toks[pos].match + 1].is(TokenKind::Colon)) {
    TokenIndex open = consume();
    parenthesized = true;
    parseGroupList(open, "')'", parseItem);
  }
  if (!parenthesized) {
    do {
      if (!parseItem())
        break;
    } while (consumeIf(TokenKind::Comma));
  }
  if (!poisoned)
    expect(TokenKind::Colon, "':' after the 'with' item");
  if (poisoned || items.empty()) {
    skipStatement();
    return nullptr;
  }
  Body body;
  parseBlock("with", body);
  for (size_t i = items.size(); i-- > 0;) {
    SMLoc itemStart = i == 0 ? start : items[i].context->getLoc();
    SMLoc end = (items[i].target ? items[i].target : items[i].context)->getRange().End;
    Stmt *w = ctx.create<WithStmt>(SMRange(itemStart, end), items[i].context, items[i].target, std::move(body));
    body = Body{w};
  }
  return body.front();
}

/// try_stmt = 'try' ':' block ( except_clause { except_clause } [ 'else' ':' block ] [ 'finally' ':' block ]
///                            | 'finally' ':' block ) ;
/// except_clause = 'except' [ expression [ 'as' NAME ] ] ':' block ;
Stmt *Parser::parseTry() {
  SMRange kw = toks[consume()].range;
  if (!expect(TokenKind::Colon, "':' after 'try'")) {
    skipStatement();
    skipContinuationClauses();
    return nullptr;
  }
  Body body, elseBody, finallyBody;
  std::vector<ExceptHandler> handlers;
  parseBlock("try", body);
  bool sawExcept = false;
  while (at(TokenKind::KwExcept)) {
    sawExcept = true;
    ExceptHandler h;
    h.range = toks[consume()].range;
    if (!at(TokenKind::Colon)) {
      h.type = parseExpression();
      if (!poisoned && consumeIf(TokenKind::KwAs))
        takeIdentifier("a name after 'as'", h.nameRange, h.name);
    }
    if (!poisoned)
      expect(TokenKind::Colon, "':' after the 'except' clause");
    if (poisoned) {
      skipStatement();
      continue;
    }
    parseBlock("except", h.body);
    handlers.push_back(std::move(h));
  }
  if (sawExcept && at(TokenKind::KwElse)) {
    consume();
    if (expect(TokenKind::Colon, "':' after 'else'"))
      parseBlock("else", elseBody);
    else
      skipStatement();
  }
  if (at(TokenKind::KwFinally)) {
    consume();
    if (expect(TokenKind::Colon, "':' after 'finally'"))
      parseBlock("finally", finallyBody);
    else
      skipStatement();
  } else if (!sawExcept) {
    expected("'except' or 'finally' after the 'try' block");
    skipStatement();
    return nullptr;
  }
  return ctx.create<TryStmt>(kw, std::move(body), std::move(handlers), std::move(elseBody), std::move(finallyBody));
}

/// classdef = 'class' NAME [ '(' [ arguments ] ')' ] ':' block ;   (parsed, rejected where evaluated)
Stmt *Parser::parseClass(SMLoc start) {
  SMRange kw = toks[consume()].range;
  SMRange nameRange;
  std::string name;
  if (!takeIdentifier("a class name after 'class'", nameRange, name)) {
    skipStatement();
    return nullptr;
  }
  if (at(TokenKind::LParen)) {
    NameExpr *callee = ctx.create<NameExpr>(nameRange, name);
    parseCall(callee); // the bases and keywords, parsed for their mistakes
  }
  if (!poisoned)
    expect(TokenKind::Colon, "':' after the class name");
  if (poisoned) {
    skipStatement();
    return nullptr;
  }
  Body body;
  unsigned outerLoops = loopDepth;
  loopDepth = 0;
  parseBlock("class", body);
  loopDepth = outerLoops;
  return ctx.create<UnsupportedStmt>(SMRange(start, nameRange.End), "class", kw, std::vector<std::string>{name});
}

/// async_stmt = 'async' ( funcdef | for_stmt | with_stmt ) ;   (parsed, rejected where evaluated)
Stmt *Parser::parseAsync() {
  SMRange kw = toks[consume()].range;
  Stmt *inner = nullptr;
  std::string construct = "async";
  switch (tok().kind) {
  case TokenKind::KwDef:
    construct = "async def";
    inner = parseFunctionDef({}, kw.Start);
    break;
  case TokenKind::KwFor:
    construct = "async for";
    inner = parseFor();
    break;
  case TokenKind::KwWith:
    construct = "async with";
    inner = parseWith();
    break;
  default:
    expected("'def', 'for' or 'with' after 'async'");
    skipStatement();
    return nullptr;
  }
  if (!inner)
    return nullptr;
  std::vector<std::string> names;
  if (auto *fn = llvm::dyn_cast<FunctionDefStmt>(inner))
    names.push_back(fn->getName().str());
  return ctx.create<UnsupportedStmt>(SMRange(kw.Start, inner->getRange().End), construct, kw, std::move(names));
}
