//===- Loops.cpp - tile.parallel and tile.for to scf.for ------------------===//
//
// T.Parallel runs its iterations in order (any order is allowed); serial,
// unrolled and pipelined loops are all plain serial loops on the host (the
// scheduling annotations have no effect).
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

namespace {

/// Moves `body` (ending in tile.yield) before `dest`'s terminator, binding its
/// arguments to `args`, and drops the tile.yield.
void inlineBody(PatternRewriter &rewriter, Block *body, Block *dest, ValueRange args) {
  Operation *yield = body->getTerminator();
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(body, dest->getTerminator(), args);
}

struct ParallelLowering : OpRewritePattern<tile::ParallelOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::ParallelOp op, PatternRewriter &rewriter) const override {
    llvm::SmallVector<Value> ivs;
    Block *innermost = nullptr;
    buildLoopNest(rewriter, op.getLoc(), op.getExtents(), [&](OpBuilder &b, Location, ValueRange loopIvs) {
      ivs.assign(loopIvs.begin(), loopIvs.end());
      innermost = b.getInsertionBlock();
    });
    inlineBody(rewriter, op.getBodyBlock(), innermost, ivs);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ForLowering : OpRewritePattern<tile::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::ForOp op, PatternRewriter &rewriter) const override {
    auto loop = scf::ForOp::create(rewriter, op.getLoc(), op.getLowerBound(), op.getUpperBound(), op.getStep());
    inlineBody(rewriter, op.getBodyBlock(), loop.getBody(), loop.getInductionVar());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void loops::populateLoopPatterns(RewritePatternSet &patterns) {
  patterns.add<ParallelLowering, ForLowering>(patterns.getContext());
}
