//===- LexerLiterals.cpp - Numbers, strings and escapes of .tile source ---===//
//
// The literal half of the lexer (spec §2): integer and float literals, string
// literals with every prefix, f-string bodies and escape sequences.
//
//===----------------------------------------------------------------------===//
#include "LexerImpl.h"
#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

using namespace tilec;
using namespace tilec::lexdetail;
using llvm::SMLoc;
using llvm::SMRange;
using llvm::StringRef;

void Lexer::lexNumber() {
  // 1. Scan the longest run that looks like a number, 2. validate it,
  // 3. compute its value. Each malformed literal gets one error.
  const char *start = cur;
  unsigned base = 10;
  bool isFloat = false;
  if (*cur == '0' && cur + 1 < end && llvm::is_contained(StringRef("xXoObB"), cur[1])) {
    char p = llvm::toLower(cur[1]);
    base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
    cur += 2;
    while (cur < end && isIdentChar(*cur))
      ++cur;
  } else {
    while (cur < end && (llvm::isDigit(*cur) || *cur == '_'))
      ++cur;
    if (cur < end && *cur == '.' && !(cur + 1 < end && cur[1] == '.')) {
      isFloat = true;
      ++cur;
      while (cur < end && (llvm::isDigit(*cur) || *cur == '_'))
        ++cur;
    }
    if (cur < end && (*cur == 'e' || *cur == 'E')) {
      const char *e = cur + 1;
      if (e < end && (*e == '+' || *e == '-'))
        ++e;
      isFloat = true;
      cur = e;
      while (cur < end && (llvm::isDigit(*cur) || *cur == '_'))
        ++cur;
    }
  }
  StringRef text(start, cur - start);
  Token &tok = push(isFloat ? TokenKind::FloatLit : TokenKind::IntLit, start, cur);
  SMRange range = tok.range;

  // A letter right after the literal (`12abc`, `1j`) is a bad suffix.
  if (cur < end && isIdentChar(*cur)) {
    const char *sfx = cur;
    while (cur < end && isIdentChar(*cur))
      ++cur;
    tokens.back().range = rangeOf(start, cur);
    if (base == 10 && cur - sfx == 1 && (*sfx == 'j' || *sfx == 'J'))
      diags.emit(DiagID::lex_imaginary_unsupported, rangeOf(start, cur), StringRef(start, cur - start));
    else
      diags.emit(DiagID::lex_invalid_suffix, rangeOf(sfx, cur), StringRef(sfx, cur - sfx));
    return;
  }

  StringRef digits = base == 10 ? text : text.drop_front(2);
  if (base != 10) {
    if (digits.empty() || digits == "_") {
      diags.emit(DiagID::lex_missing_digits, range, text);
      return;
    }
    StringRef baseName = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    for (size_t i = 0; i < digits.size(); ++i) {
      char d = digits[i];
      if (d == '_')
        continue;
      unsigned v = llvm::isDigit(d) ? d - '0' : llvm::isHexDigit(d) ? llvm::hexDigitValue(d) : 99;
      if (v >= base) {
        const char *at = digits.data() + i;
        diags.emit(DiagID::lex_invalid_digit, rangeOf(at, at + 1), StringRef(at, 1), baseName);
        return;
      }
    }
  }

  // Underscores must sit between two digits (right after a base prefix is fine).
  for (size_t i = 0; i < digits.size(); ++i) {
    if (digits[i] != '_')
      continue;
    bool prevOk = i == 0 ? base != 10 : llvm::isHexDigit(digits[i - 1]) && !(base == 10 && !llvm::isDigit(digits[i - 1]));
    bool nextOk = i + 1 < digits.size() && llvm::isHexDigit(digits[i + 1]) &&
                  !(base == 10 && !llvm::isDigit(digits[i + 1]));
    if (!prevOk || !nextOk) {
      diags.emit(DiagID::lex_bad_underscore, range, text);
      return;
    }
  }

  std::string clean;
  for (char ch : digits)
    if (ch != '_')
      clean += ch;

  if (isFloat) {
    size_t ePos = clean.find_first_of("eE");
    if (ePos != std::string::npos) {
      size_t d = ePos + 1;
      if (d < clean.size() && (clean[d] == '+' || clean[d] == '-'))
        ++d;
      if (d == clean.size()) {
        diags.emit(DiagID::lex_missing_exponent, range, text);
        return;
      }
    }
    double value = 0;
    if (!StringRef(clean).getAsDouble(value, /*AllowInexact=*/true))
      tokens.back().floatValue = value;
    return;
  }

  if (base == 10 && clean.size() > 1 && clean[0] == '0' && clean.find_first_not_of('0') != std::string::npos) {
    diags.emit(DiagID::lex_leading_zero, range, text);
    return;
  }
  // Integers have arbitrary precision (spec §3): a literal past 64 bits
  // saturates here and the meta interpreter reads its spelling instead.
  uint64_t value = 0;
  for (char ch : clean) {
    unsigned v = llvm::hexDigitValue(ch);
    if (value > (UINT64_MAX - v) / base) {
      value = UINT64_MAX;
      break;
    }
    value = value * base + v;
  }
  tokens.back().intValue = value;
}

void Lexer::lexString(const char *tokStart, StringPrefix prefix) {
  char quote = *cur;
  bool triple = end - cur >= 3 && cur[1] == quote && cur[2] == quote;
  const char *quoteStart = cur;
  cur += triple ? 3 : 1;
  if (prefix.fstring) {
    const char *bodyStart = cur, *bodyEnd = nullptr;
    bool terminated = skipFStringBody(quote, triple, bodyEnd);
    Token &tok = push(TokenKind::StrLit, tokStart, cur);
    tok.isFString = true;
    tok.isRaw = prefix.raw;
    tok.fstringBody = rangeOf(bodyStart, bodyEnd);
    if (!terminated)
      diags.emit(DiagID::lex_unterminated_string, rangeOf(tokStart, quoteStart + (triple ? 3 : 1)));
    return;
  }
  std::string value;
  bool terminated = false;
  while (cur < end) {
    char c = *cur;
    if (!triple && (c == '\n' || c == '\r'))
      break;
    if (c == quote && (!triple || (end - cur >= 3 && cur[1] == quote && cur[2] == quote))) {
      cur += triple ? 3 : 1;
      terminated = true;
      break;
    }
    if (c == '\\') {
      ++cur;
      if (cur == end)
        break;
      if (prefix.raw) {
        value += '\\';
        value += *cur++;
      } else {
        lexEscape(value, prefix.bytes);
      }
      continue;
    }
    value += c;
    ++cur;
  }
  Token &tok = push(TokenKind::StrLit, tokStart, cur);
  tok.strValue = std::move(value);
  tok.isBytes = prefix.bytes;
  tok.isRaw = prefix.raw;
  if (!terminated)
    diags.emit(DiagID::lex_unterminated_string, rangeOf(tokStart, quoteStart + (triple ? 3 : 1)));
}

bool Lexer::skipFStringBody(char quote, bool triple, const char *&bodyEnd) {
  auto atQuotes = [&](const char *p, char q, bool tri) {
    return *p == q && (!tri || (end - p >= 3 && p[1] == q && p[2] == q));
  };
  unsigned depth = 0; // of `{` fields and brackets inside them
  while (cur < end) {
    char c = *cur;
    if (!triple && (c == '\n' || c == '\r'))
      break;
    if (depth == 0 && atQuotes(cur, quote, triple)) {
      bodyEnd = cur;
      cur += triple ? 3 : 1;
      return true;
    }
    if (c == '\\') {
      cur += cur + 1 < end ? 2 : 1;
      continue;
    }
    if (depth == 0 && (c == '{' || c == '}') && cur + 1 < end && cur[1] == c) {
      cur += 2; // `{{` / `}}`
      continue;
    }
    if (c == '{' || ((c == '(' || c == '[') && depth > 0)) {
      ++depth;
    } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
      --depth;
    } else if (depth > 0 && (c == '"' || c == '\'')) {
      // A string inside a replacement field (any quote, as Python 3.12);
      // the outer quote with no partner left on the line ends the f-string.
      if (c == quote && !triple) {
        const char *q = cur + 1;
        while (q < end && *q != quote && *q != '\n' && *q != '\r')
          ++q;
        if (q == end || *q != quote) {
          bodyEnd = cur;
          ++cur;
          return true;
        }
      }
      bool innerTriple = end - cur >= 3 && cur[1] == c && cur[2] == c;
      const char *p = cur + (innerTriple ? 3 : 1);
      while (p < end && !atQuotes(p, c, innerTriple) && (innerTriple || (*p != '\n' && *p != '\r')))
        p += *p == '\\' && p + 1 < end ? 2 : 1;
      if (p < end && atQuotes(p, c, innerTriple))
        p += innerTriple ? 3 : 1;
      cur = p;
      continue;
    }
    ++cur;
  }
  bodyEnd = cur;
  return false;
}

std::string Lexer::decode(bool bytes) {
  std::string value;
  while (cur < end) {
    if (*cur == '\\' && cur + 1 < end) {
      ++cur;
      lexEscape(value, bytes);
      continue;
    }
    value += *cur++;
  }
  return value;
}

void Lexer::lexEscape(std::string &value, bool bytes) {
  const char *bs = cur - 1;
  char c = *cur++;
  auto hexEscape = [&](unsigned n) {
    uint32_t cp = 0;
    unsigned i = 0;
    for (; i < n && cur < end && llvm::isHexDigit(*cur); ++i, ++cur)
      cp = cp * 16 + llvm::hexDigitValue(*cur);
    if (i != n || cp > 0x10FFFF) {
      diags.emit(DiagID::lex_bad_escape, rangeOf(bs, cur), StringRef(bs, cur - bs));
      return;
    }
    if (bytes)
      value += char(cp);
    else
      appendUTF8(value, cp);
  };
  switch (c) {
  case '\n': return;
  case '\r':
    if (cur < end && *cur == '\n')
      ++cur;
    return;
  case '\\': value += '\\'; return;
  case '\'': value += '\''; return;
  case '"': value += '"'; return;
  case 'a': value += '\a'; return;
  case 'b': value += '\b'; return;
  case 'f': value += '\f'; return;
  case 'n': value += '\n'; return;
  case 'r': value += '\r'; return;
  case 't': value += '\t'; return;
  case 'v': value += '\v'; return;
  case 'x': hexEscape(2); return;
  case 'u':
  case 'U':
  case 'N':
    if (bytes) { // not escapes in a bytes literal: kept as written
      value += '\\';
      value += c;
      return;
    }
    if (c != 'N') {
      hexEscape(c == 'u' ? 4 : 8);
      return;
    }
    diags.emit(DiagID::lex_bad_escape, rangeOf(bs, cur), StringRef(bs, cur - bs));
    return;
  default:
    break;
  }
  if (c >= '0' && c <= '7') {
    uint32_t cp = c - '0';
    for (unsigned i = 1; i < 3 && cur < end && *cur >= '0' && *cur <= '7'; ++i, ++cur)
      cp = cp * 8 + (*cur - '0');
    if (bytes)
      value += char(cp & 0xFF);
    else
      appendUTF8(value, cp);
    return;
  }
  // Python keeps unknown escapes verbatim (and warns); so do we.
  unsigned len = static_cast<unsigned char>(c) >= 0x80 ? std::max(1u, utf8SequenceLength(cur - 1, end)) : 1;
  cur = cur - 1 + len;
  diags.emit(DiagID::lex_unknown_escape, rangeOf(bs, cur), StringRef(bs, cur - bs));
  value.append(bs, cur);
}
