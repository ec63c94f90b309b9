//===- ParserExpr.cpp - Expressions of the .tile parser -------------------===//
//
// Python's expression grammar, one method per precedence level of
// grammar/tile.ebnf: lambdas, conditional expressions, operators, calls with
// every argument form, subscripts and slices. Displays and comprehensions are
// in ParserDisplay.cpp, strings and f-strings in ParserFString.cpp.
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

bool Parser::parseGroupList(TokenIndex open, StringRef closerText, llvm::function_ref<bool()> elt,
                            bool *trailingComma) {
  TokenIndex closer = toks[open].match;
  if (trailingComma)
    *trailingComma = false;
  auto bail = [&]() {
    skipGroup(open);
    return false;
  };
  while (pos != closer) {
    if (!elt() || poisoned)
      return bail();
    if (pos == closer)
      break;
    if (!at(TokenKind::Comma)) {
      if (at(TokenKind::ColonEqual))
        syntaxError(DiagID::parse_walrus_unsupported, tok().range);
      else
        expected(("',' or " + closerText).str());
      return bail();
    }
    consume();
    if (trailingComma)
      *trailingComma = true;
    if (pos != closer && trailingComma)
      *trailingComma = false;
  }
  skipGroup(open);
  return true;
}

/// star_expressions = star_expression { ',' star_expression } [ ',' ] | yield_expr ;
/// star_expression = '*' bitor | expression ;
Expr *Parser::parseExpressionList() {
  if (at(TokenKind::KwYield))
    return parseYield();
  if (at(TokenKind::DoubleStar)) {
    syntaxError(DiagID::parse_unpack_unsupported, tok().range, tok().getSpelling());
    return errorExprHere();
  }
  Expr *first = parseStarOrExpression();
  if (!at(TokenKind::Comma) || poisoned)
    return first;
  std::vector<Expr *> elts{first};
  SMLoc end = first->getRange().End;
  while (consumeIf(TokenKind::Comma)) {
    end = toks[pos - 1].range.End;
    // A trailing comma ends the list: `x = 1,`.
    switch (tok().kind) {
    case TokenKind::Newline:
    case TokenKind::Eof:
    case TokenKind::Equal:
    case TokenKind::Semi:
    case TokenKind::Colon:
    case TokenKind::RParen:
    case TokenKind::RSquare:
    case TokenKind::RBrace:
      return ctx.create<TupleExpr>(SMRange(first->getLoc(), end), std::move(elts));
    default:
      break;
    }
    if (at(TokenKind::DoubleStar)) {
      syntaxError(DiagID::parse_unpack_unsupported, tok().range, tok().getSpelling());
      return errorExprHere();
    }
    Expr *e = parseStarOrExpression();
    if (poisoned)
      return e;
    elts.push_back(e);
    end = e->getRange().End;
  }
  return ctx.create<TupleExpr>(SMRange(first->getLoc(), end), std::move(elts));
}

Expr *Parser::parseStarOrExpression() {
  if (!at(TokenKind::Star))
    return parseExpression();
  SMRange star = toks[consume()].range;
  Expr *value = parseBitOr();
  return ctx.create<StarredExpr>(joinRanges(star, value->getRange()), value);
}

/// yield_expr = 'yield' 'from' expression | 'yield' [ star_expressions ] ;   (rejected where evaluated)
Expr *Parser::parseYield() {
  SMRange kw = toks[consume()].range;
  std::string construct = "yield";
  Expr *operand = nullptr;
  if (consumeIf(TokenKind::KwFrom)) {
    construct = "yield from";
    operand = parseExpression();
  } else if (!atStatementEnd() && !at(TokenKind::RParen) && !at(TokenKind::Equal)) {
    operand = parseExpressionList();
  }
  SMRange range = operand ? joinRanges(kw, operand->getRange()) : kw;
  return ctx.create<UnsupportedExpr>(range, construct, kw, operand);
}

/// target_list = target { ',' target } [ ',' ] ;
/// target = '*' bitor | bitor ;   (then checked to be a name, subscript, attribute or tuple of targets)
Expr *Parser::parseTargetList() {
  auto parseTarget = [&]() -> Expr * {
    if (!at(TokenKind::Star))
      return parseBitOr();
    SMRange star = toks[consume()].range;
    Expr *value = parseBitOr();
    return ctx.create<StarredExpr>(joinRanges(star, value->getRange()), value);
  };
  Expr *first = parseTarget();
  if (!at(TokenKind::Comma) || poisoned)
    return first;
  std::vector<Expr *> elts{first};
  SMLoc end = first->getRange().End;
  while (consumeIf(TokenKind::Comma)) {
    end = toks[pos - 1].range.End;
    if (at(TokenKind::KwIn) || at(TokenKind::Colon) || at(TokenKind::Newline))
      break;
    Expr *e = parseTarget();
    if (poisoned)
      return e;
    elts.push_back(e);
    end = e->getRange().End;
  }
  return ctx.create<TupleExpr>(SMRange(first->getLoc(), end), std::move(elts));
}

/// lambda = 'lambda' [ lambda_params ] ':' expression ;
Expr *Parser::parseLambda() {
  SMRange kw = toks[consume()].range;
  std::vector<Param> params;
  if (!parseParameters(params, /*lambda=*/true) || poisoned)
    return errorExpr(kw);
  consume(); // ':'
  unsigned outerLoops = loopDepth;
  loopDepth = 0;
  Expr *body = parseExpression();
  loopDepth = outerLoops;
  return ctx.create<LambdaExpr>(joinRanges(kw, body->getRange()), std::move(params), body);
}

/// expression = disjunction [ 'if' disjunction 'else' expression ] | lambda ;
Expr *Parser::parseExpression() {
  if (!enterNesting(tok().range))
    return errorExprHere();
  if (at(TokenKind::KwLambda)) {
    Expr *l = parseLambda();
    leaveNesting();
    return l;
  }
  Expr *result = parseDisjunction();
  if (!poisoned && at(TokenKind::KwIf)) {
    consume();
    Expr *cond = parseDisjunction();
    if (!poisoned && expect(TokenKind::KwElse, "'else' in the conditional expression")) {
      Expr *otherwise = parseExpression();
      result = ctx.create<IfExpExpr>(joinRanges(result->getRange(), otherwise->getRange()), cond, result,
                                     otherwise);
    }
  }
  leaveNesting();
  return result;
}

/// disjunction = conjunction { 'or' conjunction } ;
Expr *Parser::parseDisjunction() {
  return parseBoolOp(TokenKind::KwOr, BoolOpKind::Or, &Parser::parseConjunction);
}

/// conjunction = inversion { 'and' inversion } ;
Expr *Parser::parseConjunction() {
  return parseBoolOp(TokenKind::KwAnd, BoolOpKind::And, &Parser::parseInversion);
}

/// One level of `or` / `and`: operand { keyword operand } as one BoolOpExpr.
Expr *Parser::parseBoolOp(TokenKind keyword, BoolOpKind kind, Expr *(Parser::*operand)()) {
  Expr *first = (this->*operand)();
  if (!at(keyword))
    return first;
  std::vector<Expr *> operands{first};
  while (!poisoned && consumeIf(keyword))
    operands.push_back((this->*operand)());
  return ctx.create<BoolOpExpr>(joinRanges(first->getRange(), operands.back()->getRange()), kind,
                                std::move(operands));
}

/// inversion = 'not' inversion | comparison ;
Expr *Parser::parseInversion() {
  if (!at(TokenKind::KwNot))
    return parseComparison();
  SMRange kw = tok().range;
  if (!enterNesting(kw))
    return errorExprHere();
  consume();
  Expr *operand = parseInversion();
  leaveNesting();
  return ctx.create<UnaryExpr>(joinRanges(kw, operand->getRange()), UnaryOp::Not, operand);
}

/// comparison = bitor { comp_op bitor } ;
/// comp_op = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not' 'in' | 'is' | 'is' 'not' ;
Expr *Parser::parseComparison() {
  Expr *first = parseBitOr();
  std::vector<CompareOp> ops;
  std::vector<Expr *> operands{first};
  while (!poisoned) {
    std::optional<CompareOp> op;
    switch (tok().kind) {
    case TokenKind::EqualEqual: op = CompareOp::Eq; break;
    case TokenKind::NotEqual: op = CompareOp::Ne; break;
    case TokenKind::Less: op = CompareOp::Lt; break;
    case TokenKind::LessEqual: op = CompareOp::Le; break;
    case TokenKind::Greater: op = CompareOp::Gt; break;
    case TokenKind::GreaterEqual: op = CompareOp::Ge; break;
    case TokenKind::KwIn: op = CompareOp::In; break;
    case TokenKind::KwNot:
      if (peek().is(TokenKind::KwIn)) {
        consume();
        op = CompareOp::NotIn;
      }
      break;
    case TokenKind::KwIs:
      if (peek().is(TokenKind::KwNot)) {
        consume();
        op = CompareOp::IsNot;
      } else {
        op = CompareOp::Is;
      }
      break;
    default: break;
    }
    if (!op)
      break;
    consume();
    ops.push_back(*op);
    operands.push_back(parseBitOr());
  }
  if (ops.empty())
    return first;
  return ctx.create<CompareExpr>(joinRanges(first->getRange(), operands.back()->getRange()), std::move(ops),
                                 std::move(operands));
}

namespace {
/// One level of left-associative binary operators.
struct BinaryLevel {
  TokenKind token;
  BinaryOp op;
};
} // namespace

/// Parses `sub { op sub }` for the operators of one level, building a
/// left-deep tree; each operator counts as one nesting level.
template <typename SubFn>
static Expr *parseBinaryLevel(Parser &p, llvm::ArrayRef<BinaryLevel> level, SubFn sub) {
  Expr *lhs = sub();
  unsigned entered = 0;
  while (!p.poisoned) {
    const BinaryLevel *match = nullptr;
    for (const BinaryLevel &l : level)
      if (p.at(l.token))
        match = &l;
    if (!match)
      break;
    SMRange opRange = p.tok().range;
    if (!p.enterNesting(opRange))
      break;
    ++entered;
    p.consume();
    Expr *rhs = sub();
    lhs = p.ctx.create<BinaryExpr>(joinRanges(lhs->getRange(), rhs->getRange()), match->op, opRange, lhs, rhs);
  }
  p.leaveNesting(entered);
  return lhs;
}

/// bitor = bitxor { '|' bitxor } ;
Expr *Parser::parseBitOr() {
  static const BinaryLevel level[] = {{TokenKind::Pipe, BinaryOp::BitOr}};
  return parseBinaryLevel(*this, level, [&] { return parseBitXor(); });
}

/// bitxor = bitand { '^' bitand } ;
Expr *Parser::parseBitXor() {
  static const BinaryLevel level[] = {{TokenKind::Caret, BinaryOp::BitXor}};
  return parseBinaryLevel(*this, level, [&] { return parseBitAnd(); });
}

/// bitand = shift { '&' shift } ;
Expr *Parser::parseBitAnd() {
  static const BinaryLevel level[] = {{TokenKind::Amp, BinaryOp::BitAnd}};
  return parseBinaryLevel(*this, level, [&] { return parseShift(); });
}

/// shift = sum { ( '<<' | '>>' ) sum } ;
Expr *Parser::parseShift() {
  static const BinaryLevel level[] = {{TokenKind::LessLess, BinaryOp::Shl},
                                      {TokenKind::GreaterGreater, BinaryOp::Shr}};
  return parseBinaryLevel(*this, level, [&] { return parseSum(); });
}

/// sum = term { ( '+' | '-' ) term } ;
Expr *Parser::parseSum() {
  static const BinaryLevel level[] = {{TokenKind::Plus, BinaryOp::Add}, {TokenKind::Minus, BinaryOp::Sub}};
  return parseBinaryLevel(*this, level, [&] { return parseTerm(); });
}

/// term = factor { ( '*' | '/' | '//' | '%' | '@' ) factor } ;
Expr *Parser::parseTerm() {
  static const BinaryLevel level[] = {{TokenKind::Star, BinaryOp::Mul},
                                      {TokenKind::Slash, BinaryOp::Div},
                                      {TokenKind::DoubleSlash, BinaryOp::FloorDiv},
                                      {TokenKind::Percent, BinaryOp::Mod},
                                      {TokenKind::At, BinaryOp::MatMul}};
  return parseBinaryLevel(*this, level, [&] { return parseFactor(); });
}

/// factor = ( '+' | '-' | '~' ) factor | power ;
Expr *Parser::parseFactor() {
  std::optional<UnaryOp> op;
  switch (tok().kind) {
  case TokenKind::Plus: op = UnaryOp::Pos; break;
  case TokenKind::Minus: op = UnaryOp::Neg; break;
  case TokenKind::Tilde: op = UnaryOp::Invert; break;
  default: return parsePower();
  }
  SMRange opRange = tok().range;
  if (!enterNesting(opRange))
    return errorExprHere();
  consume();
  Expr *operand = parseFactor();
  leaveNesting();
  return ctx.create<UnaryExpr>(joinRanges(opRange, operand->getRange()), *op, operand);
}

/// power = [ 'await' ] primary [ '**' factor ] ;   ('await' is rejected where evaluated)
Expr *Parser::parsePower() {
  if (at(TokenKind::KwAwait)) {
    SMRange kw = tok().range;
    if (!enterNesting(kw))
      return errorExprHere();
    consume();
    Expr *operand = parsePower();
    leaveNesting();
    return ctx.create<UnsupportedExpr>(joinRanges(kw, operand->getRange()), "await", kw, operand);
  }
  Expr *base = parsePrimary();
  if (poisoned || !at(TokenKind::DoubleStar))
    return base;
  SMRange opRange = tok().range;
  if (!enterNesting(opRange))
    return base;
  consume();
  Expr *exponent = parseFactor();
  leaveNesting();
  return ctx.create<BinaryExpr>(joinRanges(base->getRange(), exponent->getRange()), BinaryOp::Pow, opRange, base,
                                exponent);
}

/// primary = atom { '.' NAME | '(' [ arguments ] ')' | '[' subscripts ']' } ;
Expr *Parser::parsePrimary() {
  Expr *e = parseAtom();
  unsigned entered = 0;
  while (!poisoned) {
    if (at(TokenKind::Dot)) {
      consume();
      if (!at(TokenKind::Identifier)) {
        expected("an attribute name after '.'");
        break;
      }
      SMRange attrRange = tok().range;
      std::string attr = toks[consume()].getSpelling().str();
      e = ctx.create<AttributeExpr>(joinRanges(e->getRange(), attrRange), e, std::move(attr), attrRange);
    } else if (at(TokenKind::LParen) || at(TokenKind::LSquare)) {
      if (!enterNesting(tok().range))
        break;
      ++entered;
      e = at(TokenKind::LParen) ? parseCall(e) : parseSubscript(e);
    } else {
      break;
    }
  }
  leaveNesting(entered);
  return e;
}

/// arguments = argument { ',' argument } [ ',' ] | expression comp_for ;
/// argument = NAME '=' expression | '*' expression | '**' expression | expression ;
///   (no positional argument after a keyword, no '*' after '**')
Expr *Parser::parseCall(Expr *callee) {
  TokenIndex open = consume();
  std::vector<Expr *> args;
  std::vector<Keyword> keywords;
  llvm::StringMap<SMRange> seen;
  bool sawDoubleStar = false;
  auto parseArg = [&]() -> bool {
    if (at(TokenKind::DoubleStar)) {
      Keyword kw;
      kw.nameRange = toks[consume()].range;
      kw.value = parseExpression();
      keywords.push_back(std::move(kw));
      sawDoubleStar = true;
      return !poisoned;
    }
    if (at(TokenKind::Identifier) && peek().is(TokenKind::Equal)) {
      Keyword kw;
      kw.nameRange = tok().range;
      kw.name = toks[consume()].getSpelling().str();
      consume();
      kw.value = parseExpression();
      auto [it, inserted] = seen.try_emplace(kw.name, kw.nameRange);
      if (!inserted && !silenced()) {
        auto diag = diags.emit(DiagID::parse_duplicate_keyword, kw.nameRange, kw.name);
        diags.note(diag, DiagID::parse_note_previous, it->second, kw.name);
      }
      keywords.push_back(std::move(kw));
      return true;
    }
    bool starred = at(TokenKind::Star);
    Expr *arg = starred ? parseStarOrExpression() : parseExpression();
    if (!poisoned && at(TokenKind::KwFor)) {
      // `f(x for x in xs)`: a generator as the only argument.
      bool alone = args.empty() && keywords.empty() && !starred;
      arg = parseComprehension(Expr::Kind::GeneratorExp, arg, nullptr, arg->getLoc());
      if (!poisoned && (!alone || pos != toks[open].match))
        error(DiagID::parse_generator_not_alone, arg->getRange());
    }
    if (!poisoned && ((!starred && !keywords.empty()) || (starred && sawDoubleStar)))
      error(DiagID::parse_positional_after_keyword, arg->getRange());
    args.push_back(arg);
    return !poisoned;
  };
  if (!parseGroupList(open, "')'", parseArg))
    return errorExpr(joinRanges(callee->getRange(), toks[pos - 1].range));
  return ctx.create<CallExpr>(joinRanges(callee->getRange(), toks[pos - 1].range), callee, std::move(args),
                              std::move(keywords));
}

/// subscripts = slice_item { ',' slice_item } [ ',' ] ;
Expr *Parser::parseSubscript(Expr *value) {
  TokenIndex open = consume();
  if (pos == toks[open].match) {
    syntaxError(DiagID::parse_empty_subscript, SMRange(toks[open].range.Start, tok().range.End));
    skipGroup(open);
    return errorExpr(joinRanges(value->getRange(), toks[pos - 1].range));
  }
  std::vector<Expr *> indices;
  auto parseItem = [&]() -> bool {
    indices.push_back(parseSliceItem());
    return !poisoned;
  };
  if (!parseGroupList(open, "']'", parseItem))
    return errorExpr(joinRanges(value->getRange(), toks[pos - 1].range));
  return ctx.create<SubscriptExpr>(joinRanges(value->getRange(), toks[pos - 1].range), value, std::move(indices));
}

/// slice_item = expression | [ expression ] ':' [ expression ] [ ':' [ expression ] ] ;
Expr *Parser::parseSliceItem() {
  auto endsPart = [&]() {
    return at(TokenKind::Colon) || at(TokenKind::Comma) || at(TokenKind::RSquare);
  };
  SMLoc start = tok().getLoc();
  Expr *lower = nullptr;
  if (!at(TokenKind::Colon)) {
    lower = parseExpression();
    if (poisoned || !at(TokenKind::Colon))
      return lower;
  }
  SMLoc end = toks[consume()].range.End; // ':'
  Expr *upper = nullptr, *step = nullptr;
  if (!endsPart()) {
    upper = parseExpression();
    end = upper->getRange().End;
  }
  if (!poisoned && at(TokenKind::Colon)) {
    end = toks[consume()].range.End;
    if (!endsPart()) {
      step = parseExpression();
      end = step->getRange().End;
    }
  }
  return ctx.create<SliceExpr>(SMRange(start, end), lower, upper, step);
}

