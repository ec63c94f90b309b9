//===- ParserDisplay.cpp - Atoms, displays and comprehensions -------------===//
//
// The atoms of grammar/tile.ebnf: names, literals, `...`, parenthesized
// expressions and tuples, list / dict / set displays with `*` and `**`
// unpacking, and list / set / dict / generator comprehensions.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

using namespace tilec;
using namespace tilec::ast;
using tilec::detail::joinRanges;
using tilec::detail::Parser;
using llvm::SMLoc;
using llvm::SMRange;
using llvm::StringRef;
using llvm::isa;

/// atom = NAME | NUMBER | strings | 'True' | 'False' | 'None' | '...'
///      | paren_expr | list_display | brace_display ;
Expr *Parser::parseAtom() {
  const Token &t = tok();
  switch (t.kind) {
  case TokenKind::Identifier:
    consume();
    return ctx.create<NameExpr>(t.range, t.getSpelling().str());
  case TokenKind::IntLit:
    consume();
    return ctx.create<IntLitExpr>(t.range, t.intValue);
  case TokenKind::FloatLit:
    consume();
    return ctx.create<FloatLitExpr>(t.range, t.floatValue);
  case TokenKind::StrLit:
    return parseStrings();
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
    consume();
    return ctx.create<BoolLitExpr>(t.range, t.kind == TokenKind::KwTrue);
  case TokenKind::KwNone:
    consume();
    return ctx.create<NoneLitExpr>(t.range);
  case TokenKind::Ellipsis:
    consume();
    return ctx.create<EllipsisExpr>(t.range);
  case TokenKind::LParen:
    return parseParenthesized();
  case TokenKind::LSquare:
    return parseList();
  case TokenKind::LBrace:
    return parseBraced();
  case TokenKind::KwLambda:
    return parseLambda();
  case TokenKind::KwYield:
    return parseYield();
  case TokenKind::Error:
    poisoned = true;
    return errorExprHere();
  case TokenKind::RParen:
  case TokenKind::RSquare:
  case TokenKind::RBrace:
    if (t.synthetic) { // a bracket the lexer repaired and reported
      poisoned = true;
      return errorExprHere();
    }
    [[fallthrough]];
  default:
    syntaxError(DiagID::parse_expected_expression, foundRange(), describe(t));
    return errorExprHere();
  }
}

/// comp_for = 'for' target_list 'in' disjunction { 'if' disjunction } [ comp_for ] ;
Expr *Parser::parseComprehension(Expr::Kind kind, Expr *elt, Expr *value, SMLoc start) {
  std::vector<Comprehension> generators;
  while (!poisoned && at(TokenKind::KwFor)) {
    Comprehension c;
    c.range = tok().range;
    consume();
    c.target = parseTargetList();
    if (poisoned)
      break;
    checkTarget(c.target, /*allowTuple=*/true, /*allowStarred=*/true);
    if (!expect(TokenKind::KwIn, "'in' after the comprehension target"))
      break;
    c.iter = parseDisjunction();
    c.range.End = c.iter->getRange().End;
    while (!poisoned && consumeIf(TokenKind::KwIf)) {
      c.ifs.push_back(parseDisjunction());
      c.range.End = c.ifs.back()->getRange().End;
    }
    generators.push_back(std::move(c));
  }
  if (poisoned)
    return errorExpr(SMRange(start, toks[pos - 1].range.End));
  return ctx.create<ComprehensionExpr>(kind, SMRange(start, generators.back().range.End), elt, value,
                                       std::move(generators));
}

/// Parses the elements of a tuple, list or set display whose first element
/// may be followed by a comprehension (`kind`). Sets `comp` when it was one.
/// `first`, when given, is the first element, already parsed.
bool Parser::parseDisplayElements(TokenIndex open, StringRef closerText, Expr::Kind kind, std::vector<Expr *> &elts,
                                  Expr *&comp, bool *trailingComma, Expr *first) {
  comp = nullptr;
  TokenIndex closer = toks[open].match;
  if (first) {
    if (at(TokenKind::KwFor) && !isa<StarredExpr>(first)) {
      comp = parseComprehension(kind, first, nullptr, toks[open].range.Start);
      if (!poisoned && pos != closer)
        expected(closerText.str() + " after the comprehension");
      skipGroup(open);
      return !poisoned;
    }
    elts.push_back(first);
    if (pos != closer && !consumeIf(TokenKind::Comma)) {
      expected(("',' or " + closerText).str());
      skipGroup(open);
      return false;
    }
  }
  auto parseElt = [&]() -> bool {
    Expr *e = parseStarOrExpression();
    bool starred = isa<StarredExpr>(e);
    if (!poisoned && at(TokenKind::KwFor) && elts.empty() && !starred) {
      comp = parseComprehension(kind, e, nullptr, toks[open].range.Start);
      if (!poisoned && pos != toks[open].match)
        expected(closerText.str() + " after the comprehension");
      return !poisoned;
    }
    if (!poisoned && comp)
      expected(closerText.str() + " after the comprehension");
    elts.push_back(e);
    return !poisoned;
  };
  return parseGroupList(open, closerText, parseElt, trailingComma);
}

/// paren_expr = '(' ')' | '(' yield_expr ')' | '(' star_expression ')'
///            | '(' star_expression ',' [ star_expression { ',' star_expression } [ ',' ] ] ')'
///            | '(' expression comp_for ')' ;
Expr *Parser::parseParenthesized() {
  TokenIndex open = consume();
  if (at(TokenKind::KwYield)) {
    Expr *y = parseYield();
    if (!poisoned && pos != toks[open].match)
      expected("')' after the 'yield' expression");
    skipGroup(open);
    return y;
  }
  std::vector<Expr *> elts;
  Expr *comp = nullptr;
  bool trailingComma = false;
  bool ok = parseDisplayElements(open, "')'", Expr::Kind::GeneratorExp, elts, comp, &trailingComma);
  SMRange range(toks[open].range.Start, toks[pos - 1].range.End);
  if (!ok)
    return errorExpr(range);
  if (comp)
    return comp;
  if (elts.size() == 1 && !trailingComma) {
    if (isa<StarredExpr>(elts.front()))
      error(DiagID::parse_starred_alone, elts.front()->getRange());
    return elts.front();
  }
  return ctx.create<TupleExpr>(range, std::move(elts));
}

/// list_display = '[' [ star_expression { ',' star_expression } [ ',' ] ] ']' | '[' expression comp_for ']' ;
Expr *Parser::parseList() {
  TokenIndex open = consume();
  std::vector<Expr *> elts;
  Expr *comp = nullptr;
  bool ok = parseDisplayElements(open, "']'", Expr::Kind::ListComp, elts, comp, nullptr);
  SMRange range(toks[open].range.Start, toks[pos - 1].range.End);
  if (!ok)
    return errorExpr(range);
  if (comp)
    return comp;
  return ctx.create<ListExpr>(range, std::move(elts));
}

/// brace_display = '{' '}'
///               | '{' dict_item { ',' dict_item } [ ',' ] '}' | '{' expression ':' expression comp_for '}'
///               | '{' star_expression { ',' star_expression } [ ',' ] '}' | '{' expression comp_for '}' ;
/// dict_item = expression ':' expression | '**' bitor ;
Expr *Parser::parseBraced() {
  TokenIndex open = consume();
  TokenIndex closer = toks[open].match;
  SMLoc start = toks[open].range.Start;
  // A set display: its first element is not followed by ':' (nor is '**').
  Expr *first = nullptr;
  if (pos != closer && !at(TokenKind::DoubleStar)) {
    first = parseStarOrExpression();
    if (poisoned) {
      skipGroup(open);
      return errorExpr(SMRange(start, toks[pos - 1].range.End));
    }
    if (isa<StarredExpr>(first) || !at(TokenKind::Colon)) {
      std::vector<Expr *> elts;
      Expr *comp = nullptr;
      bool ok = parseDisplayElements(open, "'}'", Expr::Kind::SetComp, elts, comp, nullptr, first);
      SMRange range(start, toks[pos - 1].range.End);
      if (!ok)
        return errorExpr(range);
      if (comp)
        return comp;
      return ctx.create<SetExpr>(range, std::move(elts));
    }
  }
  std::vector<Expr *> keys, values;
  Expr *comp = nullptr;
  auto parseItem = [&]() -> bool {
    if (comp) {
      expected("'}' after the comprehension");
      return false;
    }
    if (at(TokenKind::DoubleStar)) {
      consume();
      keys.push_back(nullptr);
      values.push_back(parseBitOr());
      return !poisoned;
    }
    Expr *key = first;
    first = nullptr;
    if (!key)
      key = parseExpression();
    if (poisoned)
      return false;
    if (!expect(TokenKind::Colon, "':' after the dict key"))
      return false;
    Expr *value = parseExpression();
    if (!poisoned && at(TokenKind::KwFor) && keys.empty()) {
      comp = parseComprehension(Expr::Kind::DictComp, key, value, start);
      if (!poisoned && pos != closer)
        expected("'}' after the comprehension");
      return !poisoned;
    }
    keys.push_back(key);
    values.push_back(value);
    return !poisoned;
  };
  bool ok = parseGroupList(open, "'}'", parseItem);
  SMRange range(start, toks[pos - 1].range.End);
  if (!ok)
    return errorExpr(range);
  if (comp)
    return comp;
  return ctx.create<DictExpr>(range, std::move(keys), std::move(values));
}
