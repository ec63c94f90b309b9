//===- Lexer.cpp - Tokenizer of .tile source ------------------------------===//
//
// Python's lexical structure (spec §2) for one buffer: indentation tokens,
// literals with decoded values, operators, and bracket matching in the style
// of Carbon's lexer so that the parser can skip a whole group when recovering.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Lexer.h"
#include "LexerImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tilec;
using llvm::SMLoc;
using llvm::SMRange;
using llvm::StringRef;
using namespace tilec::lexdetail;


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
