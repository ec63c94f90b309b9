//===- VulkanNarrowIndexCasts.cpp - No 64-bit detour for index values -----===//
//
// tilec-vulkan-narrow-index-casts: on the SPIR-V targets index is 32 bits, so
// an index value widened to i64 only to become a float or to be compared is
// narrowed back to 32 bits. Each rewrite is exact there. See Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tilec {
#define GEN_PASS_DEF_VULKANNARROWINDEXCASTS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {
/// A scalar integer wider than 32 bits.
bool isWide(Type t) {
  auto it = dyn_cast<IntegerType>(t);
  return it && it.getWidth() > 32;
}

/// `v` = `arith.index_cast %x : index to iN` (N > 32; `Cast` picks the
/// signed or unsigned cast): %x, else null.
template <typename Cast> Value widenedIndex(Value v) {
  auto cast = v.getDefiningOp<Cast>();
  if (!cast || !cast.getIn().getType().isIndex() || !isWide(cast.getType()))
    return {};
  return cast.getIn();
}

/// sitofp/uitofp of a widened index (or of a sign/zero extension of an
/// integer of at most 32 bits): the same conversion from 32 bits.
template <typename ToFP, typename IndexCast, typename Ext> struct NarrowToFP : OpRewritePattern<ToFP> {
  using OpRewritePattern<ToFP>::OpRewritePattern;
  LogicalResult matchAndRewrite(ToFP op, PatternRewriter &rewriter) const override {
    if (!isWide(op.getIn().getType()))
      return failure();
    Value narrow;
    if (Value x = widenedIndex<IndexCast>(op.getIn()))
      narrow = IndexCast::create(rewriter, op.getLoc(), rewriter.getI32Type(), x);
    else if (auto ext = op.getIn().template getDefiningOp<Ext>();
             ext && ext.getIn().getType().getIntOrFloatBitWidth() <= 32)
      narrow = ext.getIn();
    if (!narrow)
      return failure();
    rewriter.replaceOpWithNewOp<ToFP>(op, op.getType(), narrow);
    return success();
  }
};

/// index_cast(fptosi %f to iN) to index -> index_cast(fptosi %f to i32).
struct NarrowFPToIndex : OpRewritePattern<arith::IndexCastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::IndexCastOp op, PatternRewriter &rewriter) const override {
    auto fp = op.getIn().getDefiningOp<arith::FPToSIOp>();
    if (!op.getType().isIndex() || !fp || !isWide(fp.getType()))
      return failure();
    Value narrow = arith::FPToSIOp::create(rewriter, fp.getLoc(), rewriter.getI32Type(), fp.getIn());
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, op.getType(), narrow);
    return success();
  }
};

/// cmpi of widened indices and constants that fit 32 bits (at least one
/// widened index) -> the same cmpi on index. A sign extension keeps both the
/// signed and the unsigned order, so every predicate is kept.
struct NarrowCmpI : OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpIOp op, PatternRewriter &rewriter) const override {
    if (!isWide(op.getLhs().getType()))
      return failure();
    Value lhs = widenedIndex<arith::IndexCastOp>(op.getLhs()), rhs = widenedIndex<arith::IndexCastOp>(op.getRhs());
    if (!lhs && !rhs)
      return failure();
    // Each side: a widened index, or a constant of at most 32 signed bits.
    auto fits = [](Value v) {
      APInt c;
      return matchPattern(v, m_ConstantInt(&c)) && c.isSignedIntN(32);
    };
    if ((!lhs && !fits(op.getLhs())) || (!rhs && !fits(op.getRhs())))
      return failure();
    auto narrowConstant = [&](Value v) -> Value {
      APInt c;
      (void)matchPattern(v, m_ConstantInt(&c));
      return arith::ConstantIndexOp::create(rewriter, op.getLoc(), c.getSExtValue());
    };
    if (!lhs)
      lhs = narrowConstant(op.getLhs());
    if (!rhs)
      rhs = narrowConstant(op.getRhs());
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, op.getPredicate(), lhs, rhs);
    return success();
  }
};

struct VulkanNarrowIndexCastsPass : tilec::impl::VulkanNarrowIndexCastsBase<VulkanNarrowIndexCastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<NarrowToFP<arith::SIToFPOp, arith::IndexCastOp, arith::ExtSIOp>,
                 NarrowToFP<arith::UIToFPOp, arith::IndexCastUIOp, arith::ExtUIOp>, NarrowFPToIndex, NarrowCmpI>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
