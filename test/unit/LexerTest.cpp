//===- LexerTest.cpp - Unit tests of literal lexing and token structure ---===//
//
// Checks the decoded values of integer, float and string literals, the
// indentation tokens and bracket matching of tilec's lexer.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Lexer.h"

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#else
#include <catch2/catch.hpp>
#endif

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

using namespace tilec;

namespace {
/// Lexes `source` and records the messages of the diagnostics it produced.
class Lexed {
public:
  explicit Lexed(llvm::StringRef source) {
    context.getDiagEngine().registerHandler([this](mlir::Diagnostic &d) {
      messages.push_back(d.str());
      return mlir::success();
    });
    unsigned id = srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
    DiagnosticEmitter diags(context, srcMgr);
    buffer = lexBuffer(srcMgr, id, diags);
  }
  const Token &operator[](size_t i) const { return buffer.tokens.at(i); }
  std::vector<TokenKind> kinds() const {
    std::vector<TokenKind> result;
    for (const Token &t : buffer.tokens)
      result.push_back(t.kind);
    return result;
  }

  llvm::SourceMgr srcMgr;
  mlir::MLIRContext context;
  TokenizedBuffer buffer;
  std::vector<std::string> messages;
};

uint64_t intValue(llvm::StringRef src) {
  Lexed l(src);
  REQUIRE(l.messages.empty());
  REQUIRE(l[0].kind == TokenKind::IntLit);
  return l[0].intValue;
}

double floatValue(llvm::StringRef src) {
  Lexed l(src);
  REQUIRE(l.messages.empty());
  REQUIRE(l[0].kind == TokenKind::FloatLit);
  return l[0].floatValue;
}

std::string stringValue(llvm::StringRef src) {
  Lexed l(src);
  REQUIRE(l.messages.empty());
  REQUIRE(l[0].kind == TokenKind::StrLit);
  return l[0].strValue;
}
} // namespace

TEST_CASE("integer literals in every base, with separators", "[lexer]") {
  CHECK(intValue("0") == 0);
  CHECK(intValue("4096") == 4096);
  CHECK(intValue("1_000_000") == 1000000);
  CHECK(intValue("0x2A") == 42);
  CHECK(intValue("0X_ff") == 255);
  CHECK(intValue("0o17") == 15);
  CHECK(intValue("0b1_01") == 5);
  CHECK(intValue("000") == 0);
  CHECK(intValue("18446744073709551615") == UINT64_MAX);
  CHECK(intValue("0xffff_ffff_ffff_ffff") == UINT64_MAX);
  // Past 64 bits: no error, the value saturates (the meta level reads the spelling).
  CHECK(intValue("18446744073709551616") == UINT64_MAX);
  CHECK(intValue("0x1_0000_0000_0000_0000") == UINT64_MAX);
}

TEST_CASE("malformed integer literals get exactly one error", "[lexer]") {
  for (const char *src : {"1__0", "1_", "0x", "0b12", "007", "12abc", "1j", "18446744073709551616_"}) {
    Lexed l(src);
    INFO(src);
    CHECK(l.messages.size() == 1);
  }
}

TEST_CASE("float literals", "[lexer]") {
  CHECK(floatValue("1.0") == 1.0);
  CHECK(floatValue("1e-3") == 1e-3);
  CHECK(floatValue(".5") == 0.5);
  CHECK(floatValue("1_0.5") == 10.5);
  CHECK(floatValue("2.") == 2.0);
  CHECK(floatValue("1E+2") == 100.0);
  CHECK(floatValue("3.25e1_0") == 3.25e10);
  Lexed bad("1e");
  CHECK(bad.messages.size() == 1);
}

TEST_CASE("string literals decode Python escapes", "[lexer]") {
  CHECK(stringValue("'abc'") == "abc");
  CHECK(stringValue(R"("\x41\t\n\\\'\"")") == "A\t\n\\'\"");
  CHECK(stringValue(R"("\101\0")") == std::string("A\0", 2));
  CHECK(stringValue(R"("\u00e9\U0001F600")") == "\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(stringValue(R"(r"\d\n")") == "\\d\\n");
  CHECK(stringValue("\"a\\\nb\"") == "ab");
  CHECK(stringValue("'''two\nlines'''") == "two\nlines");
  CHECK(stringValue("\"h\xC3\xA9\"") == "h\xC3\xA9");
}

TEST_CASE("bad strings are diagnosed once", "[lexer]") {
  for (const char *src : {"'abc", "\"\"\"abc", R"("\x4")", R"("\N{DASH}")", "ub'x'", "f'abc"}) {
    Lexed l(src);
    INFO(src);
    CHECK(l.messages.size() == 1);
  }
  Lexed unknownEscape(R"("\d")");
  REQUIRE(unknownEscape.messages.size() == 1);
  CHECK(unknownEscape[0].strValue == "\\d");
}

TEST_CASE("string prefixes: bytes, f-strings, raw", "[lexer]") {
  Lexed bytes(R"(b"\x80\u00e9")");
  REQUIRE(bytes.messages.empty());
  CHECK(bytes[0].isBytes);
  CHECK(bytes[0].strValue == "\x80\\u00e9");
  Lexed f(R"(rf"a{b['c']}\d" x)");
  REQUIRE(f.messages.empty());
  CHECK(f[0].isFString);
  CHECK(f[0].isRaw);
  CHECK(f[0].fstringBody.Start.getPointer()[0] == 'a');
  CHECK(f.kinds()[1] == TokenKind::Identifier);
}

TEST_CASE("lone CR and CRLF end lines", "[lexer]") {
  using K = TokenKind;
  for (const char *src : {"a\rb\r", "a\r\nb\r\n", "a\r\r# c\rb"}) {
    Lexed l(src);
    INFO(src);
    CHECK(l.messages.empty());
    std::vector<K> expected = {K::Identifier, K::Newline, K::Identifier, K::Newline, K::Eof};
    CHECK(l.kinds() == expected);
  }
}

TEST_CASE("indentation produces INDENT, DEDENT and NEWLINE", "[lexer]") {
  using K = TokenKind;
  Lexed l("if x:\n  y\n\n  # comment\n  z\nw");
  CHECK(l.messages.empty());
  std::vector<K> expected = {K::KwIf,    K::Identifier, K::Colon,   K::Newline, K::Indent,
                             K::Identifier, K::Newline, K::Identifier, K::Newline, K::Dedent,
                             K::Identifier, K::Newline, K::Eof};
  CHECK(l.kinds() == expected);
}

TEST_CASE("brackets join lines and know their partner", "[lexer]") {
  Lexed l("f(a[1],\n  {b: 2})\n");
  REQUIRE(l.messages.empty());
  const auto &toks = l.buffer.tokens;
  for (TokenIndex i = 0; i < toks.size(); ++i) {
    if (toks[i].isOpenBracket()) {
      REQUIRE(toks[i].match < toks.size());
      CHECK(toks[toks[i].match].match == i);
    }
  }
  CHECK(toks[1].kind == TokenKind::LParen);
  CHECK(toks[toks[1].match].kind == TokenKind::RParen);
  for (const Token &t : toks)
    CHECK(t.kind != TokenKind::Indent);
}

TEST_CASE("unbalanced brackets are repaired with synthetic closers", "[lexer]") {
  Lexed l("x = [f(1]\ny = (2");
  CHECK(l.messages.size() == 2); // the mismatch (with its note) and the unclosed '('
  for (TokenIndex i = 0; i < l.buffer.tokens.size(); ++i)
    if (l[i].isOpenBracket())
      CHECK(l[l[i].match].isCloseBracket());
  CHECK(l.buffer.firstUnclosed != NoToken);
}
