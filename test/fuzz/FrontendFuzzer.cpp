//===- FrontendFuzzer.cpp - libFuzzer entry over the whole frontend -------===//
//
// Feeds arbitrary bytes through the whole frontend: tokens, AST, the meta
// interpreter (module code, factories, decorators, -D values, user helper
// modules), Sema and TileGen with verification. Any crash, hang or sanitizer
// report is a bug: user input must only ever produce diagnostics.
//
// The options tilec would get on its command line come from the input
// itself, so that lit tests are seeds as they are: every comment line before
// the first line of code is scanned for `-D NAME=VALUE` (also `-DNAME=VALUE`,
// quoted values) and `--kernel NAME` / `--kernel-name NAME`, as a test's
// `# RUN:` line spells them. The user's helper modules are looked up in
// test/Frontend/meta/Inputs (the file's own directory and the -I path).
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Lexer.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/TileGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#ifndef TILEC_FUZZ_INPUTS
#define TILEC_FUZZ_INPUTS "."
#endif

static mlir::MLIRContext &getContext() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registry.insert<tilec::tile::TileDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect,
                    mlir::math::MathDialect, mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
    auto *ctx = new mlir::MLIRContext(registry, mlir::MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    // Swallow diagnostics: the fuzzer looks for crashes, not messages.
    ctx->getDiagEngine().registerHandler([](mlir::Diagnostic &) { return mlir::success(); });
    return ctx;
  }();
  return *context;
}

/// Splits a comment line into words as a shell would (quotes group, and are
/// removed).
static std::vector<std::string> shellWords(llvm::StringRef line) {
  std::vector<std::string> words;
  std::string cur;
  bool any = false;
  char quote = 0;
  for (char c : line) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      any = true;
    } else if (c == ' ' || c == '\t') {
      if (any || !cur.empty())
        words.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += c;
    }
  }
  if (any || !cur.empty())
    words.push_back(cur);
  return words;
}

/// The command-line options spelled in the leading comment lines of `text`.
static tilec::FrontendOptions optionsFromHeader(llvm::StringRef text) {
  tilec::FrontendOptions opts;
  opts.includeDirs.push_back(TILEC_FUZZ_INPUTS);
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.trim();
    if (line.empty())
      continue;
    if (!line.starts_with("#"))
      break;
    std::vector<std::string> w = shellWords(line.drop_front());
    for (size_t i = 0; i < w.size() && opts.defines.size() < 16; ++i) {
      llvm::StringRef word = w[i];
      std::string def;
      if (word == "-D" && i + 1 < w.size())
        def = w[++i];
      else if (word.starts_with("-D") && word.size() > 2)
        def = word.drop_front(2).str();
      else if (word == "--kernel" && i + 1 < w.size())
        opts.kernel = w[++i];
      else if (word == "--kernel-name" && i + 1 < w.size())
        opts.kernelName = w[++i];
      size_t eq = def.find('=');
      if (eq != std::string::npos && eq > 0)
        opts.defines.push_back({def.substr(0, eq), def.substr(eq + 1)});
    }
  }
  return opts;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &context = getContext();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  const char *bufferName = TILEC_FUZZ_INPUTS "/fuzz.tile";

  {
    llvm::SourceMgr srcMgr;
    unsigned id = srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
    tilec::DiagnosticEmitter diags(context, srcMgr);
    std::string sink;
    llvm::raw_string_ostream os(sink);
    tilec::dumpTokens(srcMgr, id, diags, os);
  }

  llvm::SourceMgr srcMgr;
  unsigned id = srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  tilec::DiagnosticEmitter diags(context, srcMgr);
  tilec::ast::ASTContext astCtx;
  tilec::ast::Module module = tilec::parseModule(srcMgr, id, astCtx, diags);
  std::string sink;
  llvm::raw_string_ostream os(sink);
  tilec::ast::dump(module, srcMgr, os);
  if (diags.getNumErrors())
    return 0;
  tilec::FrontendOptions opts = optionsFromHeader(text);
  mlir::OwningOpRef<mlir::ModuleOp> tile = tilec::generateTileModule(module, srcMgr, astCtx, diags, context, opts);
  return 0;
}
