//===- FrontendFuzzer.cpp - libFuzzer entry over lexer, parser, sema ------===//
//
// Feeds arbitrary bytes through the whole frontend (tokens, AST, Sema and
// TileGen with verification). Any crash, hang or sanitizer report is a bug:
// user input must only ever produce diagnostics.
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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &context = getContext();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);

  {
    llvm::SourceMgr srcMgr;
    unsigned id = srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), llvm::SMLoc());
    tilec::DiagnosticEmitter diags(context, srcMgr);
    std::string sink;
    llvm::raw_string_ostream os(sink);
    tilec::dumpTokens(srcMgr, id, diags, os);
  }

  llvm::SourceMgr srcMgr;
  unsigned id = srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), llvm::SMLoc());
  tilec::DiagnosticEmitter diags(context, srcMgr);
  tilec::ast::ASTContext astCtx;
  tilec::ast::Module module = tilec::parseModule(srcMgr, id, astCtx, diags);
  std::string sink;
  llvm::raw_string_ostream os(sink);
  tilec::ast::dump(module, srcMgr, os);
  if (diags.getNumErrors())
    return 0;
  llvm::SmallVector<tilec::Define> defines;
  mlir::OwningOpRef<mlir::ModuleOp> tile =
      tilec::generateTileModule(module, srcMgr, astCtx, diags, context, defines);
  return 0;
}
