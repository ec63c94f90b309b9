//===- Parser.h - Recursive-descent parser of .tile source ------*- C++ -*-===//
//
// Builds the AST of spec §2–5 from the lexer's tokens following
// grammar/tile.ebnf, recovering from errors so that every independent mistake
// in a file is reported exactly once.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_PARSER_H
#define TILEC_FRONTEND_PARSER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"

#include "llvm/Support/SourceMgr.h"

namespace tilec {

/// Parses a whole file; always returns a module (error recovery). diags.getNumErrors() tells success.
ast::Module parseModule(llvm::SourceMgr &srcMgr, unsigned bufferId, ast::ASTContext &ctx, DiagnosticEmitter &diags);

/// Parses one expression filling the whole buffer (used for `-D NAME=VALUE`); nullptr after diagnosing.
ast::Expr *parseExpression(llvm::SourceMgr &srcMgr, unsigned bufferId, ast::ASTContext &ctx,
                           DiagnosticEmitter &diags);

} // namespace tilec

#endif // TILEC_FRONTEND_PARSER_H
