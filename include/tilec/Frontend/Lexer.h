//===- Lexer.h - Tokenizer of .tile source ----------------------*- C++ -*-===//
//
// Turns one source buffer into the token stream of spec §2 (Python's lexical
// structure): NEWLINE/INDENT/DEDENT from indentation, decoded literals and
// matched brackets. Every lexical mistake is diagnosed here, once.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_LEXER_H
#define TILEC_FRONTEND_LEXER_H

#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Token.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

namespace tilec {

/// The tokens of one buffer. Brackets are balanced (the lexer inserts
/// synthetic closers when recovering); the last token is Eof.
struct TokenizedBuffer {
  std::vector<Token> tokens;
  /// Index of the first opening bracket that is never closed in the source,
  /// or NoToken. Everything after it was swallowed by the open group, so the
  /// parser stays silent from there on (the lexer already reported it).
  TokenIndex firstUnclosed = NoToken;
};

/// `buffer` with each lone CR line end turned into LF (a copy, same length,
/// so offsets and columns do not move), so that line numbers in diagnostics
/// count them; `buffer` itself when it has none.
std::unique_ptr<llvm::MemoryBuffer> normalizeLineEnds(std::unique_ptr<llvm::MemoryBuffer> buffer);

/// Lexes buffer `bufferId` of `srcMgr`, reporting mistakes to `diags`.
TokenizedBuffer lexBuffer(llvm::SourceMgr &srcMgr, unsigned bufferId, DiagnosticEmitter &diags);

/// Lexes [begin, end), text inside an already loaded buffer, as if it were
/// inside brackets (no NEWLINE/INDENT/DEDENT): an f-string's replacement
/// field. The last token is Eof.
TokenizedBuffer lexFragment(const char *begin, const char *end, DiagnosticEmitter &diags);

/// Decodes the backslash escapes of string-literal text [begin, end) (a
/// literal part of an f-string), reporting bad escapes there.
std::string decodeStringText(const char *begin, const char *end, bool bytes, DiagnosticEmitter &diags);

/// Lexes the whole buffer and prints one token per line for --emit=tokens:
/// `line:col KIND 'spelling'` (INDENT/DEDENT/NEWLINE/EOF included). Errors go to diags.
void dumpTokens(llvm::SourceMgr &srcMgr, unsigned bufferId, DiagnosticEmitter &diags, llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_FRONTEND_LEXER_H
