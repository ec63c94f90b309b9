//===- Lexer.cpp - Tokenizer of .tile source ------------------------------===//
//
// Python's lexical structure (spec §2) for one buffer: indentation tokens,
// literals with decoded values, operators, and bracket matching in the style
// of Carbon's lexer so that the parser can skip a whole group when recovering.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tilec;
using llvm::SMLoc;
using llvm::SMRange;
using llvm::StringRef;

namespace {

bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

SMRange rangeOf(const char *begin, const char *end) {
  return SMRange(SMLoc::getFromPointer(begin), SMLoc::getFromPointer(end));
}

/// Appends code point `cp` to `out` as UTF-8.
void appendUTF8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

/// The length of the well-formed UTF-8 sequence at `p`, or 0 if it is not one.
unsigned utf8SequenceLength(const char *p, const char *end) {
  auto b0 = static_cast<unsigned char>(*p);
  unsigned len = b0 >= 0xF0 && b0 <= 0xF4 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 && b0 < 0xE0 ? 2 : 0;
  if (len == 0 || end - p < len)
    return 0;
  for (unsigned i = 1; i < len; ++i)
    if ((static_cast<unsigned char>(p[i]) & 0xC0) != 0x80)
      return 0;
  return len;
}

TokenKind closerFor(TokenKind open) {
  switch (open) {
  case TokenKind::LParen: return TokenKind::RParen;
  case TokenKind::LSquare: return TokenKind::RSquare;
  default: return TokenKind::RBrace;
  }
}

TokenKind keywordKind(StringRef name) {
  return llvm::StringSwitch<TokenKind>(name)
      .Case("False", TokenKind::KwFalse)
      .Case("None", TokenKind::KwNone)
      .Case("True", TokenKind::KwTrue)
      .Case("and", TokenKind::KwAnd)
      .Case("as", TokenKind::KwAs)
      .Case("def", TokenKind::KwDef)
      .Case("elif", TokenKind::KwElif)
      .Case("else", TokenKind::KwElse)
      .Case("for", TokenKind::KwFor)
      .Case("from", TokenKind::KwFrom)
      .Case("if", TokenKind::KwIf)
      .Case("import", TokenKind::KwImport)
      .Case("in", TokenKind::KwIn)
      .Case("is", TokenKind::KwIs)
      .Case("not", TokenKind::KwNot)
      .Case("or", TokenKind::KwOr)
      .Case("pass", TokenKind::KwPass)
      .Case("return", TokenKind::KwReturn)
      .Case("with", TokenKind::KwWith)
      .Case("lambda", TokenKind::KwLambda)
      .Case("while", TokenKind::KwWhile)
      .Case("break", TokenKind::KwBreak)
      .Case("continue", TokenKind::KwContinue)
      .Case("assert", TokenKind::KwAssert)
      .Case("del", TokenKind::KwDel)
      .Case("raise", TokenKind::KwRaise)
      .Case("try", TokenKind::KwTry)
      .Case("except", TokenKind::KwExcept)
      .Case("finally", TokenKind::KwFinally)
      .Case("class", TokenKind::KwClass)
      .Case("global", TokenKind::KwGlobal)
      .Case("nonlocal", TokenKind::KwNonlocal)
      .Case("async", TokenKind::KwAsync)
      .Case("await", TokenKind::KwAwait)
      .Case("yield", TokenKind::KwYield)
      .Default(TokenKind::Identifier);
}

/// What a string literal's prefix asks for.
struct StringPrefix {
  bool raw = false, bytes = false, fstring = false;
};

class Lexer {
public:
  Lexer(llvm::SourceMgr &srcMgr, unsigned bufferId, DiagnosticEmitter &diags) : diags(diags) {
    const llvm::MemoryBuffer *buf = srcMgr.getMemoryBuffer(bufferId);
    cur = buf->getBufferStart();
    end = buf->getBufferEnd();
  }
  /// Lexes [begin, end) of an already loaded buffer as the inside of a
  /// bracket: no NEWLINE, INDENT or DEDENT (an f-string's replacement field).
  Lexer(const char *begin, const char *end, DiagnosticEmitter &diags)
      : diags(diags), cur(begin), end(end), fragment(true) {}

  TokenizedBuffer run();
  /// Decodes the escapes of [cur, end) as string-literal text.
  std::string decode(bool bytes);

private:
  /// Measures the indentation of the physical line at `cur` and emits
  /// INDENT/DEDENT tokens. Returns false (after skipping it) for a line that
  /// holds only whitespace and a comment.
  bool lexIndentation();
  /// Lexes tokens up to and including the NEWLINE that ends the logical line.
  void lexLogicalLine();
  void lexIdentifierOrString();
  void lexNumber();
  void lexString(const char *tokStart, StringPrefix prefix);
  /// Moves `cur` past the end of the f-string whose text starts at `cur`
  /// (replacement fields may hold strings and brackets); false if it is not
  /// terminated on its line (or, for triple quotes, in the file).
  bool skipFStringBody(char quote, bool triple, const char *&bodyEnd);
  /// Decodes the escape at `cur` (just past the backslash) into `value`.
  void lexEscape(std::string &value, bool bytes);
  void lexOperator();
  void lexBadCharacter();
  void closeBracket(Token tok);
  void finish();

  Token &push(TokenKind kind, const char *begin, const char *stop) {
    Token tok;
    tok.kind = kind;
    tok.range = rangeOf(begin, stop);
    tokens.push_back(std::move(tok));
    return tokens.back();
  }

  DiagnosticEmitter &diags;
  const char *cur;
  const char *end;
  std::vector<Token> tokens;
  std::vector<unsigned> indents{0};
  std::vector<TokenIndex> openBrackets;
  bool reportedTab = false;
  TokenIndex firstUnclosed = NoToken;
  bool fragment = false;
};

/// A lone CR or an LF or a CRLF at `p`: the length of the line end, else 0.
unsigned lineEndLength(const char *p, const char *end) {
  if (*p == '\n')
    return 1;
  if (*p == '\r')
    return p + 1 < end && p[1] == '\n' ? 2 : 1;
  return 0;
}

} // namespace

TokenizedBuffer Lexer::run() {
  if (end - cur >= 3 && StringRef(cur, 3) == "\xEF\xBB\xBF")
    cur += 3;
  while (cur < end && fragment)
    lexLogicalLine();
  while (cur < end) {
    if (lexIndentation())
      lexLogicalLine();
  }
  finish();
  TokenizedBuffer result;
  result.tokens = std::move(tokens);
  result.firstUnclosed = firstUnclosed;
  return result;
}

bool Lexer::lexIndentation() {
  const char *lineStart = cur;
  unsigned col = 0;
  const char *firstTab = nullptr;
  for (; cur < end; ++cur) {
    if (*cur == ' ') {
      ++col;
    } else if (*cur == '\t') {
      if (!firstTab)
        firstTab = cur;
      col = (col / 8 + 1) * 8;
    } else if (*cur == '\f') {
      col = 0;
    } else {
      break;
    }
  }
  // Blank and comment-only lines do not take part in indentation.
  if (cur == end || *cur == '#' || *cur == '\n' || *cur == '\r') {
    while (cur < end && *cur != '\n' && *cur != '\r')
      ++cur;
    if (cur < end)
      cur += lineEndLength(cur, end);
    return false;
  }
  if (firstTab && !reportedTab) {
    reportedTab = true;
    diags.emit(DiagID::lex_tab_indent, rangeOf(firstTab, firstTab + 1));
  }
  if (col > indents.back()) {
    indents.push_back(col);
    push(TokenKind::Indent, lineStart, cur);
    return true;
  }
  while (col < indents.back()) {
    indents.pop_back();
    push(TokenKind::Dedent, cur, cur);
  }
  if (col != indents.back()) {
    // Recover by treating the line as if it were at the enclosing level.
    diags.emit(DiagID::lex_inconsistent_dedent, rangeOf(lineStart, cur), col + 1);
  }
  return true;
}

void Lexer::lexLogicalLine() {
  while (cur < end) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\f') {
      ++cur;
    } else if (c == '#') {
      while (cur < end && *cur != '\n' && *cur != '\r')
        ++cur;
    } else if (c == '\n' || c == '\r') {
      const char *nlStart = cur;
      cur += (c == '\r' && cur + 1 < end && cur[1] == '\n') ? 2 : 1;
      if (openBrackets.empty() && !fragment) {
        push(TokenKind::Newline, nlStart, cur);
        return;
      }
    } else if (c == '\\') {
      const char *next = cur + 1;
      if (next < end && (*next == '\n' || *next == '\r')) {
        cur = next + ((*next == '\r' && next + 1 < end && next[1] == '\n') ? 2 : 1);
      } else {
        diags.emit(DiagID::lex_stray_backslash, rangeOf(cur, cur + 1));
        push(TokenKind::Error, cur, cur + 1);
        ++cur;
      }
    } else if (isIdentStart(c)) {
      lexIdentifierOrString();
    } else if (llvm::isDigit(c) || (c == '.' && cur + 1 < end && llvm::isDigit(cur[1]))) {
      lexNumber();
    } else if (c == '"' || c == '\'') {
      lexString(cur, StringPrefix());
    } else {
      lexOperator();
    }
  }
}

void Lexer::lexIdentifierOrString() {
  const char *start = cur;
  while (cur < end && isIdentChar(*cur))
    ++cur;
  StringRef name(start, cur - start);
  if (cur < end && (*cur == '"' || *cur == '\'') && name.size() <= 2) {
    std::string lower = name.lower();
    bool isPrefix = llvm::is_contained({"r", "u", "b", "f", "rb", "br", "fr", "rf"}, lower);
    if (isPrefix) {
      StringPrefix prefix;
      prefix.raw = lower.find('r') != std::string::npos;
      prefix.bytes = lower.find('b') != std::string::npos;
      prefix.fstring = lower.find('f') != std::string::npos;
      lexString(start, prefix);
      return;
    }
    if (lower.size() == 2 && llvm::all_of(lower, [](char ch) { return StringRef("rbfu").contains(ch); })) {
      // `ub"..."`, `bf"..."`, `ff"..."`: Python rejects these too.
      diags.emit(DiagID::lex_unsupported_string_prefix, rangeOf(start, cur), name);
      lexString(start, StringPrefix());
      return;
    }
  }
  push(keywordKind(name), start, cur);
}

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
  uint64_t value = 0;
  for (char ch : clean) {
    unsigned v = llvm::hexDigitValue(ch);
    if (value > (UINT64_MAX - v) / base) {
      diags.emit(DiagID::lex_int_too_large, range, text);
      return;
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

void Lexer::lexOperator() {
  struct Op {
    const char *text;
    TokenKind kind;
  };
  // Longest spellings first.
  static const Op ops[] = {
      {"**=", TokenKind::DoubleStarEqual}, {"//=", TokenKind::DoubleSlashEqual},
      {"<<=", TokenKind::LessLessEqual},   {">>=", TokenKind::GreaterGreaterEqual},
      {"...", TokenKind::Ellipsis},        {"->", TokenKind::Arrow},
      {":=", TokenKind::ColonEqual},       {"**", TokenKind::DoubleStar},
      {"//", TokenKind::DoubleSlash},      {"<<", TokenKind::LessLess},
      {">>", TokenKind::GreaterGreater},   {"<=", TokenKind::LessEqual},
      {">=", TokenKind::GreaterEqual},     {"==", TokenKind::EqualEqual},
      {"!=", TokenKind::NotEqual},         {"+=", TokenKind::PlusEqual},
      {"-=", TokenKind::MinusEqual},       {"*=", TokenKind::StarEqual},
      {"/=", TokenKind::SlashEqual},       {"%=", TokenKind::PercentEqual},
      {"@=", TokenKind::AtEqual},          {"&=", TokenKind::AmpEqual},
      {"|=", TokenKind::PipeEqual},        {"^=", TokenKind::CaretEqual},
      {"(", TokenKind::LParen},            {")", TokenKind::RParen},
      {"[", TokenKind::LSquare},           {"]", TokenKind::RSquare},
      {"{", TokenKind::LBrace},            {"}", TokenKind::RBrace},
      {",", TokenKind::Comma},             {":", TokenKind::Colon},
      {";", TokenKind::Semi},              {".", TokenKind::Dot},
      {"@", TokenKind::At},                {"=", TokenKind::Equal},
      {"+", TokenKind::Plus},              {"-", TokenKind::Minus},
      {"*", TokenKind::Star},              {"/", TokenKind::Slash},
      {"%", TokenKind::Percent},           {"&", TokenKind::Amp},
      {"|", TokenKind::Pipe},              {"^", TokenKind::Caret},
      {"~", TokenKind::Tilde},             {"<", TokenKind::Less},
      {">", TokenKind::Greater},
  };
  StringRef rest(cur, end - cur);
  for (const Op &op : ops) {
    if (!rest.starts_with(op.text))
      continue;
    const char *start = cur;
    cur += strlen(op.text);
    Token tok;
    tok.kind = op.kind;
    tok.range = rangeOf(start, cur);
    if (tok.isOpenBracket()) {
      openBrackets.push_back(tokens.size());
      tokens.push_back(std::move(tok));
    } else if (tok.isCloseBracket()) {
      closeBracket(std::move(tok));
    } else {
      tokens.push_back(std::move(tok));
    }
    return;
  }
  lexBadCharacter();
}

void Lexer::lexBadCharacter() {
  const char *start = cur;
  auto b = static_cast<unsigned char>(*cur);
  if (b < 0x80) {
    ++cur;
    std::string shown = llvm::isPrint(b) ? std::string(1, char(b)) : "\\x" + llvm::utohexstr(b, false, 2);
    diags.emit(DiagID::lex_unknown_char, rangeOf(start, cur), shown);
  } else if (unsigned len = utf8SequenceLength(cur, end)) {
    cur += len;
    diags.emit(DiagID::lex_unknown_char, rangeOf(start, cur), StringRef(start, len));
  } else {
    ++cur;
    diags.emit(DiagID::lex_invalid_utf8, rangeOf(start, cur), llvm::utohexstr(b, false, 2));
  }
  push(TokenKind::Error, start, cur);
}

void Lexer::closeBracket(Token tok) {
  TokenIndex self = tokens.size();
  if (openBrackets.empty()) {
    diags.emit(DiagID::lex_unmatched_close, tok.range, tok.getSpelling());
    tok.kind = TokenKind::Error;
    tokens.push_back(std::move(tok));
    return;
  }
  TokenIndex top = openBrackets.back();
  if (closerFor(tokens[top].kind) != tok.kind) {
    {
      auto diag = diags.emit(DiagID::lex_mismatched_close, tok.range, tok.getSpelling(), tokens[top].getSpelling());
      diags.note(diag, DiagID::lex_note_opening_bracket, tokens[top].range, tokens[top].getSpelling());
    }
    // If an outer group is closed by this bracket, close the inner ones
    // implicitly; otherwise let it close the innermost group.
    auto outer = std::find_if(openBrackets.rbegin(), openBrackets.rend(),
                              [&](TokenIndex i) { return closerFor(tokens[i].kind) == tok.kind; });
    if (outer == openBrackets.rend()) {
      tok.kind = closerFor(tokens[top].kind);
    } else {
      while (openBrackets.back() != *outer) {
        TokenIndex open = openBrackets.back();
        openBrackets.pop_back();
        Token &synth = push(closerFor(tokens[open].kind), tok.range.Start.getPointer(), tok.range.Start.getPointer());
        synth.synthetic = true;
        synth.match = open;
        tokens[open].match = tokens.size() - 1;
      }
      self = tokens.size();
      top = openBrackets.back();
    }
  }
  openBrackets.pop_back();
  tok.match = top;
  tokens[top].match = self;
  tokens.push_back(std::move(tok));
}

void Lexer::finish() {
  // The outermost bracket still open swallowed the rest of the file: report
  // it (brackets opened inside it are unreliable), then close them all so
  // the parser sees balanced groups.
  if (!openBrackets.empty()) {
    firstUnclosed = openBrackets.front();
    diags.emit(DiagID::lex_unclosed_bracket, tokens[firstUnclosed].range, tokens[firstUnclosed].getSpelling());
  }
  while (!openBrackets.empty()) {
    TokenIndex open = openBrackets.back();
    openBrackets.pop_back();
    Token &synth = push(closerFor(tokens[open].kind), end, end);
    synth.synthetic = true;
    synth.match = open;
    tokens[open].match = tokens.size() - 1;
  }
  if (!fragment && !tokens.empty() && !tokens.back().is(TokenKind::Newline) && !tokens.back().is(TokenKind::Dedent))
    push(TokenKind::Newline, end, end);
  while (indents.size() > 1) {
    indents.pop_back();
    push(TokenKind::Dedent, end, end);
  }
  push(TokenKind::Eof, end, end);
}

TokenizedBuffer tilec::lexBuffer(llvm::SourceMgr &srcMgr, unsigned bufferId, DiagnosticEmitter &diags) {
  return Lexer(srcMgr, bufferId, diags).run();
}

std::unique_ptr<llvm::MemoryBuffer> tilec::normalizeLineEnds(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  StringRef text = buffer->getBuffer();
  bool loneCR = false;
  for (size_t i = 0; i < text.size() && !loneCR; ++i)
    loneCR = text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n');
  if (!loneCR)
    return buffer;
  std::string copy = text.str();
  for (size_t i = 0; i < copy.size(); ++i)
    if (copy[i] == '\r' && (i + 1 == copy.size() || copy[i + 1] != '\n'))
      copy[i] = '\n';
  return llvm::MemoryBuffer::getMemBufferCopy(copy, buffer->getBufferIdentifier());
}

TokenizedBuffer tilec::lexFragment(const char *begin, const char *end, DiagnosticEmitter &diags) {
  return Lexer(begin, end, diags).run();
}

std::string tilec::decodeStringText(const char *begin, const char *end, bool bytes, DiagnosticEmitter &diags) {
  return Lexer(begin, end, diags).decode(bytes);
}

/// Writes `text` with newlines, tabs, quotes and non-printing bytes escaped.
static void printEscaped(llvm::raw_ostream &os, StringRef text) {
  for (char c : text) {
    switch (c) {
    case '\n': os << "\\n"; break;
    case '\r': os << "\\r"; break;
    case '\t': os << "\\t"; break;
    case '\\': os << "\\\\"; break;
    case '\'': os << "\\'"; break;
    default:
      if (llvm::isPrint(c) || static_cast<unsigned char>(c) >= 0x80)
        os << c;
      else
        os << "\\x" << llvm::format_hex_no_prefix(static_cast<unsigned char>(c), 2);
    }
  }
}

void tilec::dumpTokens(llvm::SourceMgr &srcMgr, unsigned bufferId, DiagnosticEmitter &diags,
                       llvm::raw_ostream &os) {
  TokenizedBuffer buf = lexBuffer(srcMgr, bufferId, diags);
  for (const Token &tok : buf.tokens) {
    auto [line, col] = srcMgr.getLineAndColumn(tok.getLoc(), bufferId);
    os << line << ':' << col << ' ' << getTokenKindName(tok.kind) << " '";
    printEscaped(os, tok.getSpelling());
    os << "'\n";
  }
}
