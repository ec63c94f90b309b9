//===- ParserTest.cpp - Unit tests of the expression and module parser ----===//
//
// Checks precedence and associativity, the -D expression entry point and
// that recovery keeps the statements around a mistake.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Parser.h"

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#else
#include <catch2/catch.hpp>
#endif

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tilec;
using namespace tilec::ast;

namespace {
/// Owns everything a parse needs and counts the diagnostics.
class Harness {
public:
  Harness() {
    context.getDiagEngine().registerHandler([this](mlir::Diagnostic &) {
      ++numDiagnostics;
      return mlir::success();
    });
  }
  unsigned add(llvm::StringRef source) {
    return srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  }
  Expr *expr(llvm::StringRef source) {
    DiagnosticEmitter diags(context, srcMgr);
    return parseExpression(srcMgr, add(source), ast, diags);
  }
  Module module(llvm::StringRef source) {
    DiagnosticEmitter diags(context, srcMgr);
    return parseModule(srcMgr, add(source), ast, diags);
  }

  llvm::SourceMgr srcMgr;
  mlir::MLIRContext context;
  ASTContext ast;
  unsigned numDiagnostics = 0;
};
} // namespace

TEST_CASE("unary minus binds looser than **, which is right-associative", "[parser]") {
  Harness h;
  auto *neg = llvm::dyn_cast_or_null<UnaryExpr>(h.expr("-2**3**2"));
  REQUIRE(neg);
  CHECK(neg->getOp() == UnaryOp::Neg);
  auto *pow = llvm::dyn_cast<BinaryExpr>(neg->getOperand());
  REQUIRE(pow);
  CHECK(pow->getOp() == BinaryOp::Pow);
  CHECK(llvm::isa<IntLitExpr>(pow->getLHS()));
  CHECK(llvm::isa<BinaryExpr>(pow->getRHS()));
}

TEST_CASE("binary operators follow Python precedence", "[parser]") {
  Harness h;
  auto *orOp = llvm::dyn_cast_or_null<BinaryExpr>(h.expr("a | b & c + d * e"));
  REQUIRE(orOp);
  CHECK(orOp->getOp() == BinaryOp::BitOr);
  auto *andOp = llvm::cast<BinaryExpr>(orOp->getRHS());
  CHECK(andOp->getOp() == BinaryOp::BitAnd);
  auto *add = llvm::cast<BinaryExpr>(andOp->getRHS());
  CHECK(add->getOp() == BinaryOp::Add);
  CHECK(llvm::cast<BinaryExpr>(add->getRHS())->getOp() == BinaryOp::Mul);

  auto *sub = llvm::dyn_cast_or_null<BinaryExpr>(h.expr("a - b - c"));
  REQUIRE(sub);
  CHECK(llvm::isa<BinaryExpr>(sub->getLHS())); // left-associative
}

TEST_CASE("conditional expressions and boolean operators", "[parser]") {
  Harness h;
  auto *ifExp = llvm::dyn_cast_or_null<IfExpExpr>(h.expr("a or b if not c else d"));
  REQUIRE(ifExp);
  CHECK(llvm::isa<BoolOpExpr>(ifExp->getThen()));
  CHECK(llvm::isa<UnaryExpr>(ifExp->getCond()));
  auto *cmp = llvm::dyn_cast_or_null<CompareExpr>(h.expr("a < b is not c not in d"));
  REQUIRE(cmp);
  CHECK(cmp->getOps().size() == 3);
  CHECK(cmp->getOps()[1] == CompareOp::IsNot);
  CHECK(cmp->getOps()[2] == CompareOp::NotIn);
}

TEST_CASE("-D values parse as whole expressions", "[parser]") {
  Harness h;
  auto *i = llvm::dyn_cast_or_null<IntLitExpr>(h.expr("4096"));
  REQUIRE(i);
  CHECK(i->getValue() == 4096);
  CHECK(llvm::isa_and_nonnull<TupleExpr>(h.expr("(128, 64)")));
  CHECK(llvm::isa_and_nonnull<TupleExpr>(h.expr("128, 64")));
  CHECK(llvm::isa_and_nonnull<AttributeExpr>(h.expr(" T.float16")));
  CHECK(llvm::isa_and_nonnull<StrLitExpr>(h.expr("'float' \"16\"")));
  CHECK(h.numDiagnostics == 0);
  CHECK(h.expr("1 2") == nullptr);
  CHECK(h.expr("") == nullptr);
  CHECK(h.expr("x = 1") == nullptr);
  CHECK(h.numDiagnostics == 3);
}

TEST_CASE("recovery reports each mistake once and keeps good statements", "[parser]") {
  Harness h;
  Module m = h.module("a = 1\nb = (1 +\nc = 3 3\nd = 4\n");
  // The unclosed '(' swallows the rest of the file: one error, no cascade.
  CHECK(h.numDiagnostics == 1);
  REQUIRE(m.body.size() >= 1);

  Harness h2;
  Module m2 = h2.module("a = 1\nb = 1 +\nc = 3 3\nd = 4\n");
  CHECK(h2.numDiagnostics == 2);
  CHECK(m2.body.size() == 2); // a and d
}

TEST_CASE("pathological input terminates without crashing", "[parser]") {
  Harness h;
  std::string deep(5000, '(');
  h.module("x = " + deep + "\n");
  h.module(std::string(5000, '-') + "1\n");
  std::string manyIndents;
  for (int i = 0; i < 400; ++i)
    manyIndents += std::string(i, ' ') + "if x:\n";
  h.module(manyIndents + std::string(400, ' ') + "pass\n");
  h.module("def f(:\n\x01\xff)\n]]]\n'''");
  CHECK(h.numDiagnostics > 0);
}
