//===- Token.cpp - Names and spellings of token kinds ---------------------===//
//
// Lookup tables generated from TILEC_TOKEN_KINDS in Token.h.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Token.h"

using namespace tilec;

llvm::StringRef tilec::getTokenKindName(TokenKind kind) {
  switch (kind) {
#define TILEC_TOKEN_NAME(Name, DumpName, Spelling)                                                 \
  case TokenKind::Name:                                                                            \
    return DumpName;
    TILEC_TOKEN_KINDS(TILEC_TOKEN_NAME)
#undef TILEC_TOKEN_NAME
  }
  return "UNKNOWN";
}

llvm::StringRef tilec::getTokenKindSpelling(TokenKind kind) {
  switch (kind) {
#define TILEC_TOKEN_SPELLING(Name, DumpName, Spelling)                                             \
  case TokenKind::Name:                                                                            \
    return Spelling;
    TILEC_TOKEN_KINDS(TILEC_TOKEN_SPELLING)
#undef TILEC_TOKEN_SPELLING
  }
  return "";
}
