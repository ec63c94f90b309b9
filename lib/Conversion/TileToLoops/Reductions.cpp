//===- Reductions.cpp - tile.reduce and tile.cumsum to loops --------------===//
//
// Both walk the reduced dimension innermost, in order, carrying the running
// value in an scf.for iter_arg, and compute in the destination's type.
// reduce: for each destination index, acc = clear ? identity : dst[idx];
//         acc = combine(acc, f(src[..., t, ...])) for t in order.
// cumsum: acc = 0; for t (reversed with `reverse`): acc += src[t]; dst[t] = acc.
// finalize_reducer: nothing (one copy of the reducer took every update).
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

namespace {

/// The identity of `kind` in `type` (what `clear` starts from).
Value reduceIdentity(OpBuilder &b, Location loc, tile::ReduceKind kind, Type type, bool isUnsigned) {
  if (auto ft = llvm::dyn_cast<FloatType>(type)) {
    switch (kind) {
    case tile::ReduceKind::Max:
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, llvm::APFloat::getInf(ft.getFloatSemantics(), true)));
    case tile::ReduceKind::Min:
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, llvm::APFloat::getInf(ft.getFloatSemantics(), false)));
    default:
      return zeroOf(b, loc, type);
    }
  }
  unsigned width = type.getIntOrFloatBitWidth();
  llvm::APInt value(width, 0);
  if (kind == tile::ReduceKind::Max)
    value = isUnsigned ? llvm::APInt::getMinValue(width) : llvm::APInt::getSignedMinValue(width);
  else if (kind == tile::ReduceKind::Min)
    value = isUnsigned ? llvm::APInt::getMaxValue(width) : llvm::APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

/// acc (op) x for `kind` (the abs of x already taken for abssum/absmax).
Value combine(OpBuilder &b, Location loc, tile::ReduceKind kind, Value acc, Value x, bool isUnsigned) {
  bool isFloat = llvm::isa<FloatType>(acc.getType());
  switch (kind) {
  case tile::ReduceKind::Sum:
  case tile::ReduceKind::AbsSum:
    return isFloat ? arith::AddFOp::create(b, loc, acc, x).getResult() : arith::AddIOp::create(b, loc, acc, x).getResult();
  case tile::ReduceKind::Max:
  case tile::ReduceKind::AbsMax:
    if (isFloat)
      return arith::MaxNumFOp::create(b, loc, acc, x);
    return isUnsigned ? arith::MaxUIOp::create(b, loc, acc, x).getResult()
                      : arith::MaxSIOp::create(b, loc, acc, x).getResult();
  case tile::ReduceKind::Min:
    if (isFloat)
      return arith::MinNumFOp::create(b, loc, acc, x);
    return isUnsigned ? arith::MinUIOp::create(b, loc, acc, x).getResult()
                      : arith::MinSIOp::create(b, loc, acc, x).getResult();
  }
  llvm_unreachable("unknown reduce kind");
}

/// The shape without dimension `dim`.
llvm::SmallVector<int64_t> dropDim(llvm::ArrayRef<int64_t> shape, int64_t dim) {
  llvm::SmallVector<int64_t> out(shape);
  out.erase(out.begin() + dim);
  return out;
}

/// `outer` with `inner` inserted at position `dim`.
llvm::SmallVector<Value> insertIndex(ValueRange outer, int64_t dim, Value inner) {
  llvm::SmallVector<Value> out(outer);
  out.insert(out.begin() + dim, inner);
  return out;
}

struct ReduceLowering : OpRewritePattern<tile::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::ReduceOp op, PatternRewriter &rewriter) const override {
    Value src = op.getSrc(), dst = op.getDst();
    auto srcType = llvm::cast<MemRefType>(src.getType());
    Type type = llvm::cast<MemRefType>(dst.getType()).getElementType();
    if (type.isInteger(1))
      return rewriter.notifyMatchFailure(op, "boolean reductions are not supported");
    int64_t dim = op.getDim();
    tile::ReduceKind kind = op.getKind();
    bool isAbs = kind == tile::ReduceKind::AbsSum || kind == tile::ReduceKind::AbsMax;
    bool srcUnsigned = isUnsignedBuffer(src), isUnsigned = isUnsignedBuffer(dst);
    bool clear = op.getClear();
    int64_t extent = srcType.getDimSize(dim);

    buildLoopNest(rewriter, op.getLoc(), dropDim(srcType.getShape(), dim),
                  [&](OpBuilder &b, Location loc, ValueRange idx) {
                    Value init = clear ? reduceIdentity(b, loc, kind, type, isUnsigned)
                                       : memref::LoadOp::create(b, loc, dst, idx).getResult();
                    auto loop = scf::ForOp::create(
                        b, loc, indexConst(b, loc, 0), indexConst(b, loc, extent), indexConst(b, loc, 1),
                        ValueRange{init}, [&](OpBuilder &lb, Location ll, Value t, ValueRange acc) {
                          Value x = memref::LoadOp::create(lb, ll, src, insertIndex(idx, dim, t));
                          x = convertScalar(lb, ll, x, type, srcUnsigned, isUnsigned);
                          if (isAbs)
                            x = llvm::isa<FloatType>(type) ? math::AbsFOp::create(lb, ll, x).getResult()
                                                           : math::AbsIOp::create(lb, ll, x).getResult();
                          scf::YieldOp::create(lb, ll, combine(lb, ll, kind, acc[0], x, isUnsigned));
                        });
                    memref::StoreOp::create(b, loc, loop.getResult(0), dst, idx);
                  });
    rewriter.eraseOp(op);
    return success();
  }
};

struct CumsumLowering : OpRewritePattern<tile::CumsumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::CumsumOp op, PatternRewriter &rewriter) const override {
    Value src = op.getSrc(), dst = op.getDst();
    auto srcType = llvm::cast<MemRefType>(src.getType());
    Type type = llvm::cast<MemRefType>(dst.getType()).getElementType();
    int64_t dim = op.getDim();
    int64_t extent = srcType.getDimSize(dim);
    bool reverse = op.getReverse();
    bool srcUnsigned = isUnsignedBuffer(src), isUnsigned = isUnsignedBuffer(dst);
    bool isFloat = llvm::isa<FloatType>(type);

    buildLoopNest(rewriter, op.getLoc(), dropDim(srcType.getShape(), dim),
                  [&](OpBuilder &b, Location loc, ValueRange idx) {
                    scf::ForOp::create(
                        b, loc, indexConst(b, loc, 0), indexConst(b, loc, extent), indexConst(b, loc, 1),
                        ValueRange{zeroOf(b, loc, type)}, [&](OpBuilder &lb, Location ll, Value t, ValueRange acc) {
                          Value pos = reverse ? arith::SubIOp::create(lb, ll, indexConst(lb, ll, extent - 1), t).getResult()
                                              : t;
                          llvm::SmallVector<Value> at = insertIndex(idx, dim, pos);
                          Value x = memref::LoadOp::create(lb, ll, src, at);
                          x = convertScalar(lb, ll, x, type, srcUnsigned, isUnsigned);
                          Value sum = isFloat ? arith::AddFOp::create(lb, ll, acc[0], x).getResult()
                                              : arith::AddIOp::create(lb, ll, acc[0], x).getResult();
                          memref::StoreOp::create(lb, ll, sum, dst, at);
                          scf::YieldOp::create(lb, ll, sum);
                        });
                  });
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.finalize_reducer: the host runs a T.Parallel's iterations on one
/// copy of the reducer (spec §6), which already holds the combined result.
struct FinalizeReducerLowering : OpRewritePattern<tile::FinalizeReducerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::FinalizeReducerOp op, PatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void loops::populateReductionPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, CumsumLowering, FinalizeReducerLowering>(patterns.getContext());
}
