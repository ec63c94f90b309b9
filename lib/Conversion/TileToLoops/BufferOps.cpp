//===- BufferOps.cpp - alloc, copy, fill and hints to loops ---------------===//
//
// tile.alloc becomes a block-private buffer at the function entry; tile.copy
// and tile.fill become loop nests; a thread_id left outside the thread loops
// (ThreadLoops.cpp) is thread 0's; swizzle and layout hints have no effect.
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

struct AllocLowering : OpRewritePattern<tile::AllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::AllocOp op, PatternRewriter &rewriter) const override {
    Value buffer = createBlockBuffer(rewriter, op, op.getType());
    // Keep the source dtype (signedness) for the conversions that read it.
    if (StringAttr dtype = tile::getDtype(op))
      tile::setDtype(buffer.getDefiningOp(), dtype);
    rewriter.replaceOp(op, buffer);
    return success();
  }
};

/// Copies a region element by element. Unit extents are dropped on both
/// sides; the remaining extents (equal, by the verifier) form the loop nest.
struct CopyLowering : OpRewritePattern<tile::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::CopyOp op, PatternRewriter &rewriter) const override {
    llvm::ArrayRef<int64_t> srcSizes = op.getSrcSizes(), dstSizes = op.getDstSizes();
    llvm::SmallVector<int64_t> srcDims, dstDims, extents;
    for (auto [d, size] : llvm::enumerate(srcSizes))
      if (size != 1) {
        srcDims.push_back(d);
        extents.push_back(size);
      }
    for (auto [d, size] : llvm::enumerate(dstSizes))
      if (size != 1)
        dstDims.push_back(d);
    if (srcDims.size() != dstDims.size() ||
        llvm::any_of(llvm::zip(srcDims, dstDims),
                     [&](auto pair) { return srcSizes[std::get<0>(pair)] != dstSizes[std::get<1>(pair)]; }))
      return rewriter.notifyMatchFailure(op, "copy extents differ");

    Value src = op.getSrc(), dst = op.getDst();
    Type dstElement = llvm::cast<MemRefType>(dst.getType()).getElementType();
    bool srcUnsigned = isUnsignedBuffer(src), dstUnsigned = isUnsignedBuffer(dst);
    llvm::SmallVector<Value> srcOffsets(op.getSrcOffsets()), dstOffsets(op.getDstOffsets());
    buildLoopNest(rewriter, op.getLoc(), extents, [&](OpBuilder &b, Location loc, ValueRange ivs) {
      llvm::SmallVector<Value> si(srcOffsets), di(dstOffsets);
      for (auto [t, iv] : llvm::enumerate(ivs)) {
        si[srcDims[t]] = arith::AddIOp::create(b, loc, si[srcDims[t]], iv);
        di[dstDims[t]] = arith::AddIOp::create(b, loc, di[dstDims[t]], iv);
      }
      Value value = loadElement(b, loc, src, si);
      value = convertScalar(b, loc, value, dstElement, srcUnsigned, dstUnsigned);
      storeElement(b, loc, value, dst, di);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct FillLowering : OpRewritePattern<tile::FillOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::FillOp op, PatternRewriter &rewriter) const override {
    Value value = op.getValue(), buffer = op.getBuffer();
    buildBufferLoopNest(rewriter, op.getLoc(), buffer, [&](OpBuilder &b, Location loc, ValueRange ivs) {
      memref::StoreOp::create(b, loc, value, buffer, ivs);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct ThreadIdLowering : OpRewritePattern<tile::ThreadIdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::ThreadIdOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, indexConst(rewriter, op.getLoc(), 0));
    return success();
  }
};

/// Scheduling and layout hints: accepted, no effect on the host.
template <typename OpTy>
struct EraseHint : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void loops::populateBufferOpPatterns(RewritePatternSet &patterns) {
  patterns.add<AllocLowering, CopyLowering, FillLowering, ThreadIdLowering, EraseHint<tile::UseSwizzleOp>,
               EraseHint<tile::AnnotateLayoutOp>>(patterns.getContext());
}
