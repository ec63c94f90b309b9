//===- LexerImpl.h - Character helpers shared by the lexer files -*- C++ -*-===//
//
// Small character and UTF-8 helpers used by Lexer.cpp and LexerLiterals.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_FRONTEND_LEXERIMPL_H
#define TILEC_LIB_FRONTEND_LEXERIMPL_H

#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace tilec::lexdetail {
using llvm::SMLoc;
using llvm::SMRange;
using llvm::StringRef;


inline bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
inline bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

inline llvm::SMRange rangeOf(const char *begin, const char *end) {
  return llvm::SMRange(llvm::SMLoc::getFromPointer(begin), llvm::SMLoc::getFromPointer(end));
}

/// Appends code point `cp` to `out` as UTF-8.
inline void appendUTF8(std::string &out, uint32_t cp) {
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
inline unsigned utf8SequenceLength(const char *p, const char *end) {
  auto b0 = static_cast<unsigned char>(*p);
  unsigned len = b0 >= 0xF0 && b0 <= 0xF4 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 && b0 < 0xE0 ? 2 : 0;
  if (len == 0 || end - p < len)
    return 0;
  for (unsigned i = 1; i < len; ++i)
    if ((static_cast<unsigned char>(p[i]) & 0xC0) != 0x80)
      return 0;
  return len;
}



inline TokenKind closerFor(TokenKind open) {
  switch (open) {
  case TokenKind::LParen: return TokenKind::RParen;
  case TokenKind::LSquare: return TokenKind::RSquare;
  default: return TokenKind::RBrace;
  }
}

inline TokenKind keywordKind(StringRef name) {
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
inline unsigned lineEndLength(const char *p, const char *end) {
  if (*p == '\n')
    return 1;
  if (*p == '\r')
    return p + 1 < end && p[1] == '\n' ? 2 : 1;
  return 0;
}

} // namespace tilec::lexdetail

#endif // TILEC_LIB_FRONTEND_LEXERIMPL_H
