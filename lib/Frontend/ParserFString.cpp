//===- ParserFString.cpp - String literals and f-strings ------------------===//
//
// Adjacent string literals concatenate into one StrLitExpr, or into an
// FStringExpr when one of them has an `f` prefix. The lexer hands over an
// f-string's text undecoded; here it is split into literal parts and
// replacement fields `{expr[=][!conv][:spec]}`, whose expressions are lexed
// and parsed in place so that their diagnostics point into the string.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

using namespace tilec;
using namespace tilec::ast;
using tilec::detail::Parser;
using llvm::SMLoc;
using llvm::SMRange;
using llvm::StringRef;

static SMRange rangeOf(const char *begin, const char *end) {
  return SMRange(SMLoc::getFromPointer(begin), SMLoc::getFromPointer(end));
}

/// Appends literal text to `parts`, merging it with a literal just before.
static void appendLiteral(std::vector<FStringPart> &parts, std::string text, SMRange range) {
  if (!parts.empty() && !parts.back().isField()) {
    parts.back().literal += text;
    parts.back().range.End = range.End;
    return;
  }
  FStringPart part;
  part.literal = std::move(text);
  part.range = range;
  parts.push_back(std::move(part));
}

/// At a quote inside a replacement field: the position after that string.
static const char *skipNestedString(const char *p, const char *end) {
  char q = *p;
  bool triple = end - p >= 3 && p[1] == q && p[2] == q;
  p += triple ? 3 : 1;
  while (p < end) {
    if (*p == '\\') {
      p += 2;
      continue;
    }
    if (*p == q && (!triple || (end - p >= 3 && p[1] == q && p[2] == q)))
      return p + (triple ? 3 : 1);
    ++p;
  }
  return end;
}

/// strings = STRING { STRING } ;   (plain, bytes and f-strings; bytes mix with neither)
Expr *Parser::parseStrings() {
  SMRange range = tok().range;
  bool anyFString = false, anyBytes = false, anyText = false;
  std::vector<FStringPart> parts;
  std::string value;
  while (at(TokenKind::StrLit)) {
    const Token &t = toks[consume()];
    range.End = t.range.End;
    (t.isBytes ? anyBytes : anyText) = true;
    if (t.isFString) {
      anyFString = true;
      parseFStringText(t.fstringBody.Start.getPointer(), t.fstringBody.End.getPointer(), t.isRaw, 0, parts);
      continue;
    }
    value += t.strValue;
    appendLiteral(parts, t.strValue, t.range);
  }
  if (anyBytes && anyText)
    error(DiagID::parse_bytes_str_mix, range);
  if (!anyFString)
    return ctx.create<StrLitExpr>(range, std::move(value), anyBytes && !anyText);
  return ctx.create<FStringExpr>(range, std::move(parts));
}

void Parser::parseFStringText(const char *begin, const char *end, bool raw, unsigned specDepth,
                              std::vector<FStringPart> &parts) {
  const char *litStart = begin;
  auto flush = [&](const char *stop, const char *resume) {
    if (stop > litStart) {
      std::string text = raw ? std::string(litStart, stop) : decodeStringText(litStart, stop, false, diags);
      appendLiteral(parts, std::move(text), rangeOf(litStart, stop));
    }
    litStart = resume;
  };
  const char *p = begin;
  while (p < end) {
    char c = *p;
    if (c == '\\' && !raw && p + 1 < end) {
      // `\N{NAME}` holds braces that are not a field.
      if (p[1] == 'N' && p + 2 < end && p[2] == '{') {
        while (p < end && *p != '}')
          ++p;
        p += p < end;
        continue;
      }
      p += 2;
      continue;
    }
    if (c != '{' && c != '}') {
      ++p;
      continue;
    }
    if (p + 1 < end && p[1] == c) { // `{{` / `}}`: one brace
      flush(p + 1, p + 2);
      p += 2;
      continue;
    }
    if (c == '}') {
      error(DiagID::parse_fstring, rangeOf(p, p + 1), "single '}' is not allowed");
      flush(p, p + 1);
      ++p;
      continue;
    }
    flush(p, p);
    p = parseFStringField(p, end, raw, specDepth, parts);
    litStart = p;
  }
  flush(end, end);
}

const char *Parser::parseFStringField(const char *open, const char *end, bool raw, unsigned specDepth,
                                      std::vector<FStringPart> &parts) {
  // 1. Find where the expression ends: '}', '!conv', ':spec' or a debug '='
  //    outside brackets and nested strings.
  const char *exprBegin = open + 1;
  const char *p = exprBegin;
  unsigned brackets = 0;
  while (p < end) {
    char c = *p;
    if (c == '\'' || c == '"') {
      p = skipNestedString(p, end);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++brackets;
    } else if ((c == ')' || c == ']' || c == '}') && brackets > 0) {
      --brackets;
    } else if (brackets == 0) {
      if (c == '}' || c == ':' || (c == '!' && p + 1 < end && p[1] != '='))
        break;
      if (c == '=' && p + 1 < end && p[1] != '=' && p > exprBegin && !StringRef("=!<>").contains(p[-1]))
        break;
    }
    ++p;
  }
  if (p == end) {
    error(DiagID::parse_fstring, rangeOf(open, open + 1), "expecting '}'");
    return end;
  }
  const char *exprEnd = p;
  if (StringRef(exprBegin, exprEnd - exprBegin).trim().empty()) {
    error(DiagID::parse_fstring, rangeOf(open, p + 1), "valid expression required before '" + std::string(1, *p) + "'");
    while (p < end && *p != '}')
      ++p;
    return p < end ? p + 1 : end;
  }

  // 2. Parse the expression where it stands.
  Parser sub(lexFragment(exprBegin, exprEnd, diags), ctx, diags);
  sub.depth = depth;
  sub.functionDepth = functionDepth;
  sub.loopDepth = loopDepth;
  sub.inFStringField = true;
  Expr *expr = sub.parseWholeExpression();
  if (!expr)
    expr = errorExpr(rangeOf(exprBegin, exprEnd));

  // 3. `=`, `!conv`, `:spec`, then '}'.
  bool debug = false;
  if (*p == '=') {
    debug = true;
    ++p;
    while (p < end && (*p == ' ' || *p == '\t'))
      ++p;
    appendLiteral(parts, std::string(exprBegin, p), rangeOf(exprBegin, p));
  }
  char conversion = 0;
  if (p < end && *p == '!') {
    const char *bang = p++;
    if (p < end && (*p == 'r' || *p == 's' || *p == 'a')) {
      conversion = *p++;
    } else {
      const char *stop = p < end && *p != '}' && *p != ':' ? p + 1 : p;
      error(DiagID::parse_fstring, rangeOf(bang, stop), "invalid conversion character: expected 's', 'r', or 'a'");
      p = stop;
    }
  }
  FStringExpr *spec = nullptr;
  if (p < end && *p == ':') {
    const char *specBegin = ++p;
    unsigned braces = 0;
    while (p < end && !(*p == '}' && braces == 0)) {
      if (*p == '{')
        ++braces;
      else if (*p == '}')
        --braces;
      ++p;
    }
    std::vector<FStringPart> specParts;
    if (specDepth >= 1 && StringRef(specBegin, p - specBegin).contains('{'))
      error(DiagID::parse_fstring, rangeOf(specBegin, p), "expressions nested too deeply");
    else
      parseFStringText(specBegin, p, raw, specDepth + 1, specParts);
    spec = ctx.create<FStringExpr>(rangeOf(specBegin, p), std::move(specParts));
  }
  if (p == end || *p != '}') {
    error(DiagID::parse_fstring, rangeOf(open, open + 1), "expecting '}'");
    while (p < end && *p != '}')
      ++p;
  }
  const char *after = p < end ? p + 1 : end;
  FStringPart part;
  part.expr = expr;
  part.conversion = debug && !conversion && !spec ? 'r' : conversion;
  part.formatSpec = spec;
  part.range = rangeOf(open, after);
  parts.push_back(std::move(part));
  return after;
}
