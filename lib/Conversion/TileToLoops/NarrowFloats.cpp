//===- NarrowFloats.cpp - The emulate-narrow-floats pass ------------------===//
//
// Software f16/bf16/fp8 for CPUs without them (the GPU lowering runs the same
// walks for fp8 alone), in three walks:
// 1. Promote: an arith/math op touching a narrow float computes in f32
//    (f64 for integer-to-float casts) between an extf and a truncf.
// 2. Expand: extf/truncf involving narrow floats become bit manipulation
//    (NarrowFloatBits.h: decode exactly to f32; encode from f32 or f64 with
//    round to nearest even), and selects select bits.
// 3. Store as bits: every remaining narrow float value (loads, stores,
//    constants, loop-carried values, arguments) becomes the integer of its
//    width, so LLVM never sees half/bfloat (whose constants and phis it may
//    otherwise lower through runtime library calls).
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/Passes.h"
#include "tilec/Conversion/NarrowFloatBits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tilec {
#define GEN_PASS_DEF_EMULATENARROWFLOATS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The narrow float types one run emulates.
using Selector = llvm::function_ref<bool(Type)>;

/// The integer type (or vector of it) of `type`'s width.
Type bitsTypeOf(Type type) {
  Type bits = IntegerType::get(type.getContext(), getElementTypeOrSelf(type).getIntOrFloatBitWidth());
  if (auto v = llvm::dyn_cast<VectorType>(type))
    return VectorType::get(v.getShape(), bits);
  return bits;
}

/// `narrow` (scalar or vector) decoded to f32.
Value decode(OpBuilder &b, Location loc, Value narrow) {
  Value bits = arith::BitcastOp::create(b, loc, bitsTypeOf(narrow.getType()), narrow);
  return tilec::emitDecodeToF32(b, loc, bits, llvm::cast<FloatType>(getElementTypeOrSelf(narrow.getType())));
}

/// `wide` (f32/f64, scalar or vector) encoded as `narrowType`.
Value encode(OpBuilder &b, Location loc, Value wide, Type narrowType) {
  Value bits = tilec::emitEncodeFromF32(b, loc, wide, llvm::cast<FloatType>(getElementTypeOrSelf(narrowType)));
  return arith::BitcastOp::create(b, loc, narrowType, bits);
}

/// `type` with its element type replaced by `elem` (vectors keep their shape).
Type withElement(Type type, Type elem) {
  if (auto v = llvm::dyn_cast<VectorType>(type))
    return VectorType::get(v.getShape(), elem);
  return elem;
}

/// Phase 1: arith/math ops on narrow floats compute in a wide type.
struct PromoteNarrowCompute : RewritePattern {
  PromoteNarrowCompute(MLIRContext *ctx, Selector narrow)
      : RewritePattern(MatchAnyOpTypeTag(), 1, ctx), isNarrow(narrow) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!llvm::isa_and_nonnull<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        llvm::isa<arith::ExtFOp, arith::TruncFOp, arith::BitcastOp, arith::ConstantOp, arith::SelectOp>(op))
      return failure();
    auto narrow = [&](Type t) { return isNarrow(getElementTypeOrSelf(t)); };
    if (llvm::none_of(op->getOperandTypes(), narrow) && llvm::none_of(op->getResultTypes(), narrow))
      return failure();
    bool fromInt = llvm::isa<arith::SIToFPOp, arith::UIToFPOp>(op);
    Type wideElem = fromInt ? rewriter.getF64Type() : rewriter.getF32Type();
    Location loc = op->getLoc();
    OperationState state(loc, op->getName());
    state.addAttributes(op->getAttrs());
    for (Value operand : op->getOperands())
      state.addOperands(narrow(operand.getType())
                            ? arith::ExtFOp::create(rewriter, loc, withElement(operand.getType(), wideElem), operand)
                                  .getResult()
                            : operand);
    for (Type t : op->getResultTypes())
      state.addTypes(narrow(t) ? withElement(t, wideElem) : t);
    Operation *promoted = rewriter.create(state);
    llvm::SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op->getResults(), promoted->getResults()))
      results.push_back(narrow(old.getType()) ? arith::TruncFOp::create(rewriter, loc, old.getType(), now).getResult()
                                              : now);
    rewriter.replaceOp(op, results);
    return success();
  }
  Selector isNarrow;
};

/// `f32` (scalar or vector) converted exactly to the wide float `to`.
Value fromF32(OpBuilder &b, Location loc, Value f32, Type to) {
  unsigned width = getElementTypeOrSelf(to).getIntOrFloatBitWidth();
  if (width > 32)
    return arith::ExtFOp::create(b, loc, to, f32);
  if (width < 32) // a narrow type computed natively: f32 holds its values exactly
    return arith::TruncFOp::create(b, loc, to, f32);
  return f32;
}

struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  ExpandExtF(MLIRContext *ctx, Selector narrow) : OpRewritePattern(ctx), isNarrow(narrow) {}
  LogicalResult matchAndRewrite(arith::ExtFOp op, PatternRewriter &rewriter) const override {
    if (!isNarrow(getElementTypeOrSelf(op.getIn().getType())))
      return failure();
    Location loc = op.getLoc();
    Value f32 = decode(rewriter, loc, op.getIn());
    Type to = op.getType();
    Value result = isNarrow(getElementTypeOrSelf(to)) ? encode(rewriter, loc, f32, to) : fromF32(rewriter, loc, f32, to);
    rewriter.replaceOp(op, result);
    return success();
  }
  Selector isNarrow;
};

struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  ExpandTruncF(MLIRContext *ctx, Selector narrow) : OpRewritePattern(ctx), isNarrow(narrow) {}
  LogicalResult matchAndRewrite(arith::TruncFOp op, PatternRewriter &rewriter) const override {
    if (!isNarrow(getElementTypeOrSelf(op.getType())))
      return failure();
    Location loc = op.getLoc();
    Value in = op.getIn();
    Type inElem = getElementTypeOrSelf(in.getType());
    if (isNarrow(inElem))
      in = decode(rewriter, loc, in);
    else if (inElem.getIntOrFloatBitWidth() < 32) // natively computed f16/bf16: exact in f32
      in = arith::ExtFOp::create(rewriter, loc, withElement(in.getType(), rewriter.getF32Type()), in);
    else if (!inElem.isF32() && !inElem.isF64())
      in = arith::ExtFOp::create(rewriter, loc, withElement(in.getType(), rewriter.getF64Type()), in);
    rewriter.replaceOp(op, encode(rewriter, loc, in, op.getType()));
    return success();
  }
  Selector isNarrow;
};

struct ExpandSelect : OpRewritePattern<arith::SelectOp> {
  ExpandSelect(MLIRContext *ctx, Selector narrow) : OpRewritePattern(ctx), isNarrow(narrow) {}
  LogicalResult matchAndRewrite(arith::SelectOp op, PatternRewriter &rewriter) const override {
    if (!isNarrow(getElementTypeOrSelf(op.getType())))
      return failure();
    Location loc = op.getLoc();
    Type bits = bitsTypeOf(op.getType());
    Value t = arith::BitcastOp::create(rewriter, loc, bits, op.getTrueValue());
    Value e = arith::BitcastOp::create(rewriter, loc, bits, op.getFalseValue());
    Value chosen = arith::SelectOp::create(rewriter, loc, op.getCondition(), t, e);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), chosen);
    return success();
  }
  Selector isNarrow;
};

/// The type with every selected narrow float (also as a vector or memref
/// element) replaced by the integer of its width.
Type asBits(Type type, Selector isNarrow) {
  if (isNarrow(type))
    return IntegerType::get(type.getContext(), type.getIntOrFloatBitWidth());
  if (auto vector = llvm::dyn_cast<VectorType>(type))
    if (isNarrow(vector.getElementType()))
      return bitsTypeOf(vector);
  if (auto memref = llvm::dyn_cast<MemRefType>(type))
    if (isNarrow(memref.getElementType()))
      return MemRefType::get(memref.getShape(),
                             IntegerType::get(type.getContext(), memref.getElementType().getIntOrFloatBitWidth()),
                             memref.getLayout(), memref.getMemorySpace());
  return type;
}

/// Phase 3 (see the file comment).
void storeAsBits(Operation *root, Selector isNarrow) {
  // Constants first, as integer constants bitcast to the float type.
  root->walk([&](arith::ConstantOp op) {
    Type type = op.getType();
    if (!isNarrow(getElementTypeOrSelf(type)))
      return;
    OpBuilder b(op);
    TypedAttr bitsAttr;
    if (auto attr = llvm::dyn_cast<FloatAttr>(op.getValue()))
      bitsAttr = b.getIntegerAttr(asBits(type, isNarrow), attr.getValue().bitcastToAPInt());
    else if (auto dense = llvm::dyn_cast<DenseElementsAttr>(op.getValue()))
      bitsAttr = dense.bitcast(getElementTypeOrSelf(asBits(type, isNarrow)));
    else
      return;
    Value value = arith::ConstantOp::create(b, op.getLoc(), bitsAttr);
    op.replaceAllUsesWith(arith::BitcastOp::create(b, op.getLoc(), type, value).getResult());
    op.erase();
  });
  // Retype every value and function in place.
  root->walk([&](Operation *op) {
    for (OpResult result : op->getResults())
      result.setType(asBits(result.getType(), isNarrow));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(asBits(arg.getType(), isNarrow));
    if (auto fn = llvm::dyn_cast<FunctionOpInterface>(op)) {
      if (auto type = llvm::dyn_cast<FunctionType>(fn.getFunctionType())) {
        llvm::SmallVector<Type> inputs, results;
        for (Type t : type.getInputs())
          inputs.push_back(asBits(t, isNarrow));
        for (Type t : type.getResults())
          results.push_back(asBits(t, isNarrow));
        fn.setType(FunctionType::get(op->getContext(), inputs, results));
      }
    }
  });
  // Bitcasts between a narrow float and its bits are now no-ops.
  root->walk([](arith::BitcastOp op) {
    if (op.getIn().getType() == op.getType()) {
      op.replaceAllUsesWith(op.getIn());
      op.erase();
    }
  });
}

struct EmulateNarrowFloatsPass : tilec::impl::EmulateNarrowFloatsBase<EmulateNarrowFloatsPass> {
  void runOnOperation() override { tilec::emulateNarrowFloats(getOperation(), tilec::isSoftwareNarrowFloat); }
};

} // namespace

void tilec::emulateNarrowFloats(Operation *root, Selector emulated) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet promote(ctx);
  promote.add<PromoteNarrowCompute>(ctx, emulated);
  walkAndApplyPatterns(root, FrozenRewritePatternSet(std::move(promote)));
  RewritePatternSet expand(ctx);
  expand.add<ExpandExtF, ExpandTruncF, ExpandSelect>(ctx, emulated);
  walkAndApplyPatterns(root, FrozenRewritePatternSet(std::move(expand)));
  storeAsBits(root, emulated);
}
