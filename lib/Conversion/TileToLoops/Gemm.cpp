//===- Gemm.cpp - tile.gemm to loops --------------------------------------===//
//
// C += op(A) @ op(B), computed in C's element type:
// 1. clear_accum: C = 0.
// 2. A and B are brought to row-major [M, K] / [K, N] buffers of C's type
//    (a converting, transposing copy) unless they already are.
// 3. for i, for k, for j: C[i, j] += A[i, k] * B[k, j]. Each C[i, j] sums
//    over k in order, so the result is deterministic; the innermost loop is
//    contiguous and vectorizes.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

namespace {

/// Returns `operand` as a row-major [rows, cols] buffer of `elementType`,
/// transposing (`transposed`: stored [cols, rows]) and converting as needed.
Value normalizeOperand(PatternRewriter &rewriter, Operation *anchor, Value operand, bool transposed,
                       Type elementType) {
  auto type = llvm::cast<MemRefType>(operand.getType());
  if (!transposed && type.getElementType() == elementType)
    return operand;
  int64_t rows = type.getDimSize(transposed ? 1 : 0), cols = type.getDimSize(transposed ? 0 : 1);
  auto tmpType = MemRefType::get({rows, cols}, elementType, MemRefLayoutAttrInterface{}, type.getMemorySpace());
  Value tmp = createBlockBuffer(rewriter, anchor, tmpType);
  bool isUnsigned = isUnsignedBuffer(operand);
  buildLoopNest(rewriter, anchor->getLoc(), {rows, cols}, [&](OpBuilder &b, Location loc, ValueRange ivs) {
    Value r = ivs[0], c = ivs[1];
    Value v = memref::LoadOp::create(b, loc, operand, transposed ? ValueRange{c, r} : ValueRange{r, c});
    v = convertScalar(b, loc, v, elementType, isUnsigned, false);
    memref::StoreOp::create(b, loc, v, tmp, ValueRange{r, c});
  });
  return tmp;
}

struct GemmLowering : OpRewritePattern<tile::GemmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::GemmOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value c = op.getC();
    auto cType = llvm::cast<MemRefType>(c.getType());
    Type acc = cType.getElementType();
    if (!acc.isIntOrFloat() || acc.isInteger(1))
      return rewriter.notifyMatchFailure(op, "unsupported accumulator type");
    int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);

    if (op.getClearAccum()) {
      Value zero = zeroOf(rewriter, loc, acc);
      buildLoopNest(rewriter, loc, {m, n}, [&](OpBuilder &b, Location l, ValueRange ivs) {
        memref::StoreOp::create(b, l, zero, c, ivs);
      });
    }

    Value a = normalizeOperand(rewriter, op, op.getA(), op.getTransposeA(), acc);
    Value bm = normalizeOperand(rewriter, op, op.getB(), op.getTransposeB(), acc);
    int64_t k = llvm::cast<MemRefType>(a.getType()).getDimSize(1);
    bool isFloat = llvm::isa<FloatType>(acc);

    buildLoopNest(rewriter, loc, {m, k}, [&](OpBuilder &b, Location l, ValueRange ik) {
      Value av = memref::LoadOp::create(b, l, a, ik);
      buildLoopNest(b, l, {n}, [&](OpBuilder &inner, Location il, ValueRange j) {
        Value bv = memref::LoadOp::create(inner, il, bm, ValueRange{ik[1], j[0]});
        Value cv = memref::LoadOp::create(inner, il, c, ValueRange{ik[0], j[0]});
        Value sum = isFloat ? arith::AddFOp::create(inner, il, cv, arith::MulFOp::create(inner, il, av, bv)).getResult()
                            : arith::AddIOp::create(inner, il, cv, arith::MulIOp::create(inner, il, av, bv)).getResult();
        memref::StoreOp::create(inner, il, sum, c, ValueRange{ik[0], j[0]});
      });
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void loops::populateGemmPatterns(RewritePatternSet &patterns) { patterns.add<GemmLowering>(patterns.getContext()); }
