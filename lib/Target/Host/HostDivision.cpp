//===- HostDivision.cpp - Integer division that cannot trap on the host ---===//
//
// x86-64's idiv traps (SIGFPE) on a zero divisor and on INT_MIN / -1, and
// LLVM treats both as undefined behaviour. On the GPU targets integer
// division by zero gives an unspecified value and never traps; the host
// gives a defined one (docs/differences.md):
//   x // 0, x / 0 (T.truncdiv), T.ceildiv(x, 0): 0
//   x % 0, T.truncmod(x, 0): x        (so x == q * 0 + r still holds)
//   INT_MIN // -1 and friends: INT_MIN (two's complement wrap), remainder 0.
// Every integer division or remainder whose divisor is not a constant other
// than 0 (and -1, for the signed ones) divides by a guarded divisor
// (1 where it would trap) and selects the defined result for a zero one.
//
//===----------------------------------------------------------------------===//
#include "HostLauncher.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {
enum class DivKind { Quotient, Remainder };

/// `v` of type `type` (an integer or a vector of them; index counts as 64 bits).
Value intConstant(OpBuilder &b, Location loc, Type type, const llvm::APInt &v) {
  Type elt = getElementTypeOrSelf(type);
  if (auto vt = llvm::dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, v));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(elt, v));
}

unsigned bitWidth(Type type) {
  Type elt = getElementTypeOrSelf(type);
  return elt.isIndex() ? 64 : elt.getIntOrFloatBitWidth();
}

void guard(Operation *op, bool isSigned, DivKind kind) {
  Value a = op->getOperand(0), d = op->getOperand(1);
  Type type = d.getType();
  unsigned w = bitWidth(type);
  llvm::APInt c;
  if (matchPattern(d, m_ConstantInt(&c)) && !c.isZero() && !(isSigned && c.isAllOnes()))
    return;
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto eq = [&](Value x, Value y) { return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y).getResult(); };
  Value zero = intConstant(b, loc, type, llvm::APInt(w, 0));
  Value isZero = eq(d, zero), trap = isZero;
  if (isSigned) {
    Value overflow = arith::AndIOp::create(b, loc, eq(a, intConstant(b, loc, type, llvm::APInt::getSignedMinValue(w))),
                                           eq(d, intConstant(b, loc, type, llvm::APInt::getAllOnes(w))));
    trap = arith::OrIOp::create(b, loc, isZero, overflow);
  }
  Value one = intConstant(b, loc, type, llvm::APInt(w, 1));
  op->setOperand(1, arith::SelectOp::create(b, loc, trap, one, d));
  // By 1: the quotient is x (INT_MIN / -1's wrap) and the remainder 0; by 0: 0 and x.
  b.setInsertionPointAfter(op);
  Value result = op->getResult(0);
  Value defined = kind == DivKind::Quotient ? zero : a;
  auto select = arith::SelectOp::create(b, loc, isZero, defined, result);
  result.replaceAllUsesExcept(select, select);
}
} // namespace

void tilec::host::guardIntegerDivision(ModuleOp module) {
  llvm::SmallVector<std::tuple<Operation *, bool, DivKind>> ops;
  module.walk([&](Operation *op) {
    if (isa<arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp>(op))
      ops.push_back({op, true, DivKind::Quotient});
    else if (isa<arith::DivUIOp, arith::CeilDivUIOp>(op))
      ops.push_back({op, false, DivKind::Quotient});
    else if (isa<arith::RemSIOp>(op))
      ops.push_back({op, true, DivKind::Remainder});
    else if (isa<arith::RemUIOp>(op))
      ops.push_back({op, false, DivKind::Remainder});
  });
  for (auto [op, isSigned, kind] : ops)
    guard(op, isSigned, kind);
}
