//===- Token.h - Tokens of the .tile lexer ----------------------*- C++ -*-===//
//
// The token kinds of the Python subset (spec §2) and the Token record the
// lexer produces: kind, source range, decoded literal value and, for brackets,
// the index of the matching bracket.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_TOKEN_H
#define TILEC_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace tilec {

// X(Name, "DUMPNAME", "spelling") for punctuation; the spelling is empty for
// kinds whose text varies.
#define TILEC_TOKEN_KINDS(X)                                                                       \
  X(Eof, "EOF", "")                                                                                \
  X(Newline, "NEWLINE", "")                                                                        \
  X(Indent, "INDENT", "")                                                                          \
  X(Dedent, "DEDENT", "")                                                                          \
  X(Error, "ERROR", "")                                                                            \
  X(Identifier, "NAME", "")                                                                        \
  X(IntLit, "INT", "")                                                                             \
  X(FloatLit, "FLOAT", "")                                                                         \
  X(StrLit, "STRING", "")                                                                          \
  X(LParen, "LPAREN", "(")                                                                         \
  X(RParen, "RPAREN", ")")                                                                         \
  X(LSquare, "LSQUARE", "[")                                                                       \
  X(RSquare, "RSQUARE", "]")                                                                       \
  X(LBrace, "LBRACE", "{")                                                                         \
  X(RBrace, "RBRACE", "}")                                                                         \
  X(Comma, "COMMA", ",")                                                                           \
  X(Colon, "COLON", ":")                                                                           \
  X(Semi, "SEMI", ";")                                                                             \
  X(Dot, "DOT", ".")                                                                               \
  X(Ellipsis, "ELLIPSIS", "...")                                                                   \
  X(Arrow, "ARROW", "->")                                                                          \
  X(At, "AT", "@")                                                                                 \
  X(Equal, "EQUAL", "=")                                                                           \
  X(ColonEqual, "COLONEQUAL", ":=")                                                                \
  X(Plus, "PLUS", "+")                                                                             \
  X(Minus, "MINUS", "-")                                                                           \
  X(Star, "STAR", "*")                                                                             \
  X(Slash, "SLASH", "/")                                                                           \
  X(DoubleSlash, "DOUBLESLASH", "//")                                                              \
  X(Percent, "PERCENT", "%")                                                                       \
  X(DoubleStar, "DOUBLESTAR", "**")                                                                \
  X(Amp, "AMPER", "&")                                                                             \
  X(Pipe, "VBAR", "|")                                                                             \
  X(Caret, "CIRCUMFLEX", "^")                                                                      \
  X(Tilde, "TILDE", "~")                                                                           \
  X(LessLess, "LEFTSHIFT", "<<")                                                                   \
  X(GreaterGreater, "RIGHTSHIFT", ">>")                                                            \
  X(Less, "LESS", "<")                                                                             \
  X(Greater, "GREATER", ">")                                                                       \
  X(LessEqual, "LESSEQUAL", "<=")                                                                  \
  X(GreaterEqual, "GREATEREQUAL", ">=")                                                            \
  X(EqualEqual, "EQEQUAL", "==")                                                                   \
  X(NotEqual, "NOTEQUAL", "!=")                                                                    \
  X(PlusEqual, "PLUSEQUAL", "+=")                                                                  \
  X(MinusEqual, "MINEQUAL", "-=")                                                                  \
  X(StarEqual, "STAREQUAL", "*=")                                                                  \
  X(SlashEqual, "SLASHEQUAL", "/=")                                                                \
  X(DoubleSlashEqual, "DOUBLESLASHEQUAL", "//=")                                                   \
  X(PercentEqual, "PERCENTEQUAL", "%=")                                                            \
  X(DoubleStarEqual, "DOUBLESTAREQUAL", "**=")                                                     \
  X(AtEqual, "ATEQUAL", "@=")                                                                      \
  X(AmpEqual, "AMPEREQUAL", "&=")                                                                  \
  X(PipeEqual, "VBAREQUAL", "|=")                                                                  \
  X(CaretEqual, "CIRCUMFLEXEQUAL", "^=")                                                           \
  X(LessLessEqual, "LEFTSHIFTEQUAL", "<<=")                                                        \
  X(GreaterGreaterEqual, "RIGHTSHIFTEQUAL", ">>=")                                                 \
  /* Keywords (every Python keyword; soft keywords are names). */                                  \
  X(KwFalse, "KW_FALSE", "False")                                                                  \
  X(KwNone, "KW_NONE", "None")                                                                     \
  X(KwTrue, "KW_TRUE", "True")                                                                     \
  X(KwAnd, "KW_AND", "and")                                                                        \
  X(KwAs, "KW_AS", "as")                                                                           \
  X(KwDef, "KW_DEF", "def")                                                                        \
  X(KwElif, "KW_ELIF", "elif")                                                                     \
  X(KwElse, "KW_ELSE", "else")                                                                     \
  X(KwFor, "KW_FOR", "for")                                                                        \
  X(KwFrom, "KW_FROM", "from")                                                                     \
  X(KwIf, "KW_IF", "if")                                                                           \
  X(KwImport, "KW_IMPORT", "import")                                                               \
  X(KwIn, "KW_IN", "in")                                                                           \
  X(KwIs, "KW_IS", "is")                                                                           \
  X(KwNot, "KW_NOT", "not")                                                                        \
  X(KwOr, "KW_OR", "or")                                                                           \
  X(KwPass, "KW_PASS", "pass")                                                                     \
  X(KwReturn, "KW_RETURN", "return")                                                               \
  X(KwWith, "KW_WITH", "with")                                                                     \
  X(KwLambda, "KW_LAMBDA", "lambda")                                                               \
  X(KwWhile, "KW_WHILE", "while")                                                                  \
  X(KwBreak, "KW_BREAK", "break")                                                                  \
  X(KwContinue, "KW_CONTINUE", "continue")                                                         \
  X(KwAssert, "KW_ASSERT", "assert")                                                               \
  X(KwDel, "KW_DEL", "del")                                                                        \
  X(KwRaise, "KW_RAISE", "raise")                                                                  \
  X(KwTry, "KW_TRY", "try")                                                                        \
  X(KwExcept, "KW_EXCEPT", "except")                                                               \
  X(KwFinally, "KW_FINALLY", "finally")                                                            \
  X(KwClass, "KW_CLASS", "class")                                                                  \
  X(KwGlobal, "KW_GLOBAL", "global")                                                               \
  X(KwNonlocal, "KW_NONLOCAL", "nonlocal")                                                         \
  X(KwAsync, "KW_ASYNC", "async")                                                                  \
  X(KwAwait, "KW_AWAIT", "await")                                                                  \
  X(KwYield, "KW_YIELD", "yield")

enum class TokenKind : uint8_t {
#define TILEC_TOKEN_ENUM(Name, DumpName, Spelling) Name,
  TILEC_TOKEN_KINDS(TILEC_TOKEN_ENUM)
#undef TILEC_TOKEN_ENUM
};

/// The upper-case name `--emit=tokens` prints, e.g. "LPAREN".
llvm::StringRef getTokenKindName(TokenKind kind);
/// The fixed spelling of a punctuation or keyword kind, or "" for kinds whose
/// text varies (names, literals, layout tokens).
llvm::StringRef getTokenKindSpelling(TokenKind kind);

/// Index of a token in the lexed buffer; NoToken when absent.
using TokenIndex = uint32_t;
constexpr TokenIndex NoToken = ~TokenIndex(0);

/// One token. Literal tokens carry their decoded value; brackets carry the
/// index of their partner, so the parser can skip a whole group.
struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::SMRange range;
  /// For an opening bracket, the index of its closing bracket and vice versa.
  TokenIndex match = NoToken;
  /// A closing bracket inserted by the lexer to recover from a missing one.
  bool synthetic = false;
  /// Decoded value of an IntLit.
  uint64_t intValue = 0;
  /// Decoded value of a FloatLit.
  double floatValue = 0;
  /// Decoded value of a StrLit (escapes applied); empty for an f-string.
  std::string strValue;
  /// A StrLit with a `b` prefix (strValue holds the bytes).
  bool isBytes = false;
  /// A StrLit with an `f` prefix: the parser decodes fstringBody (the text
  /// between the quotes) into literal parts and replacement fields.
  bool isFString = false;
  /// A StrLit with an `r` prefix (for f-strings: escapes are not decoded).
  bool isRaw = false;
  llvm::SMRange fstringBody;

  llvm::SMLoc getLoc() const { return range.Start; }
  llvm::StringRef getSpelling() const {
    return llvm::StringRef(range.Start.getPointer(), range.End.getPointer() - range.Start.getPointer());
  }
  bool is(TokenKind k) const { return kind == k; }
  bool isOpenBracket() const {
    return kind == TokenKind::LParen || kind == TokenKind::LSquare || kind == TokenKind::LBrace;
  }
  bool isCloseBracket() const {
    return kind == TokenKind::RParen || kind == TokenKind::RSquare || kind == TokenKind::RBrace;
  }
};

} // namespace tilec

#endif // TILEC_FRONTEND_TOKEN_H
