//===- NarrowFloats.cpp - The emulate-narrow-floats pass ------------------===//
//
// Software f16/bf16/fp8 for CPUs without them, in two walks:
// 1. Promote: an arith/math op touching a narrow float computes in f32
//    (f64 for integer-to-float casts) between an extf and a truncf.
// 2. Expand: extf/truncf involving narrow floats become bit manipulation
//    (decode exactly to f32; encode from f32 or f64 with round to nearest
//    even), and selects select bits.
// 3. Store as bits: every remaining narrow float value (loads, stores,
//    constants, loop-carried values, arguments) becomes the integer of its
//    width, so LLVM never sees half/bfloat (whose constants and phis it may
//    otherwise lower through runtime library calls).
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tilec {
#define GEN_PASS_DEF_EMULATENARROWFLOATS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// A narrow binary float format.
struct Format {
  unsigned width, expBits, manBits;
  int bias;
  bool ieeeSpecials; ///< all-ones exponent is inf/NaN (false: E4M3FN, NaN only at all ones)
  bool saturate;     ///< overflow gives the largest finite value instead of inf

  int64_t maxFinite() const {
    int64_t allOnesExp = (int64_t(1) << expBits) - 1;
    if (ieeeSpecials)
      return ((allOnesExp - 1) << manBits) | ((int64_t(1) << manBits) - 1);
    return (allOnesExp << manBits) | ((int64_t(1) << manBits) - 2);
  }
  int64_t infinity() const { return ((int64_t(1) << expBits) - 1) << manBits; }
  int64_t nan() const {
    return ieeeSpecials ? infinity() | (int64_t(1) << (manBits - 1)) : (int64_t(1) << (width - 1)) - 1;
  }
};

std::optional<Format> narrowFormat(Type type) {
  if (type.isF16())
    return Format{16, 5, 10, 15, true, false};
  if (type.isBF16())
    return Format{16, 8, 7, 127, true, false};
  if (llvm::isa<Float8E5M2Type>(type))
    return Format{8, 5, 2, 15, true, true};
  if (llvm::isa<Float8E4M3FNType>(type))
    return Format{8, 4, 3, 7, false, true};
  return std::nullopt;
}

bool isNarrow(Type type) { return narrowFormat(type).has_value(); }

/// Small builder helpers over one integer type.
struct IntOps {
  OpBuilder &b;
  Location loc;
  Type type;
  Value c(int64_t v) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v)); }
  Value shl(Value x, int64_t s) { return s ? arith::ShLIOp::create(b, loc, x, c(s)).getResult() : x; }
  Value shr(Value x, int64_t s) { return s ? arith::ShRUIOp::create(b, loc, x, c(s)).getResult() : x; }
  Value band(Value x, int64_t m) { return arith::AndIOp::create(b, loc, x, c(m)); }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) { return arith::CmpIOp::create(b, loc, p, x, y); }
  Value sel(Value cond, Value x, Value y) { return arith::SelectOp::create(b, loc, cond, x, y); }
};

/// Narrow float -> f32, exact.
Value decode(OpBuilder &b, Location loc, Value value, const Format &f) {
  Type i32 = b.getI32Type();
  IntOps o{b, loc, i32};
  Value raw = arith::BitcastOp::create(b, loc, b.getIntegerType(f.width), value);
  Value w = arith::ExtUIOp::create(b, loc, i32, raw);
  if (f.expBits == 8) // bf16: the upper half of an f32
    return arith::BitcastOp::create(b, loc, b.getF32Type(), o.shl(w, 16));
  Value sign = o.shl(o.shr(w, f.width - 1), 31);
  Value exp = o.band(o.shr(w, f.manBits), (1 << f.expBits) - 1);
  Value man = o.band(w, (1 << f.manBits) - 1);
  Value manAligned = o.shl(man, 23 - f.manBits);
  Value normal = o.bor(sign, o.bor(o.shl(o.add(exp, o.c(127 - f.bias)), 23), manAligned));
  // Subnormal: man * 2^(1 - bias - manBits), exact in f32.
  Value manF = arith::UIToFPOp::create(b, loc, b.getF32Type(), man);
  Value scale = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(std::ldexp(1.0f, 1 - f.bias - int(f.manBits))));
  Value subF = arith::MulFOp::create(b, loc, manF, scale);
  Value sub = o.bor(sign, arith::BitcastOp::create(b, loc, i32, subF));
  Value allOnes = o.c((1 << f.expBits) - 1);
  Value special, isSpecial;
  if (f.ieeeSpecials) {
    // inf (man == 0) or a quiet NaN keeping the payload.
    Value nanBit = o.sel(o.cmp(arith::CmpIPredicate::ne, man, o.c(0)), o.c(0x400000), o.c(0));
    special = o.bor(sign, o.bor(o.c(0x7F800000), o.bor(manAligned, nanBit)));
    isSpecial = o.cmp(arith::CmpIPredicate::eq, exp, allOnes);
  } else {
    special = o.bor(sign, o.c(0x7FC00000));
    isSpecial = o.cmp(arith::CmpIPredicate::eq, o.band(w, (1 << (f.width - 1)) - 1), o.c((1 << (f.width - 1)) - 1));
  }
  Value isSub = o.cmp(arith::CmpIPredicate::eq, exp, o.c(0));
  Value bits = o.sel(isSub, sub, o.sel(isSpecial, special, normal));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

/// f32 or f64 -> narrow float, round to nearest even.
Value encode(OpBuilder &b, Location loc, Value value, const Format &f, Type narrowType) {
  auto srcType = llvm::cast<FloatType>(value.getType());
  unsigned W = srcType.getWidth();
  int64_t M = srcType.getFPMantissaWidth() - 1, B = W == 64 ? 1023 : 127, E = W == 64 ? 11 : 8;
  Type iW = b.getIntegerType(W);
  IntOps o{b, loc, iW};
  Value x = arith::BitcastOp::create(b, loc, iW, value);
  Value signBit = o.shr(x, W - 1);
  Value abs = arith::AndIOp::create(b, loc, x, o.c(~(int64_t(1) << (W - 1)) & (W == 64 ? -1 : 0xFFFFFFFFLL)));
  int64_t expMask = ((int64_t(1) << E) - 1) << M;
  Value isNaN = o.cmp(arith::CmpIPredicate::ugt, abs, o.c(expMask));
  Value isInf = o.cmp(arith::CmpIPredicate::eq, abs, o.c(expMask));

  // Normal results: rebias the exponent in place, then round off the extra
  // mantissa bits (a carry moves into the exponent, as it should).
  int64_t shift = M - f.manBits;
  Value rebased = arith::SubIOp::create(b, loc, abs, o.c((B - f.bias) << M));
  Value lsb = o.band(o.shr(rebased, shift), 1);
  Value rounded = o.shr(o.add(o.add(rebased, o.c((int64_t(1) << (shift - 1)) - 1)), lsb), shift);

  Value magnitude = rounded;
  if (!(E == f.expBits && B == f.bias)) {
    // Subnormal results: |x| * 2^(bias + manBits - 1) rounded to an integer
    // (adding and subtracting 2^M rounds to nearest even).
    Value isNormal = o.cmp(arith::CmpIPredicate::uge, abs, o.c((B - f.bias + 1) << M));
    Value absF = arith::BitcastOp::create(b, loc, srcType, o.sel(isNormal, o.c(0), abs));
    Value scale = arith::ConstantOp::create(b, loc, b.getFloatAttr(srcType, std::ldexp(1.0, f.bias + f.manBits - 1)));
    Value magic = arith::ConstantOp::create(b, loc, b.getFloatAttr(srcType, std::ldexp(1.0, M)));
    Value scaled = arith::MulFOp::create(b, loc, absF, scale);
    Value integral = arith::SubFOp::create(b, loc, arith::AddFOp::create(b, loc, scaled, magic), magic);
    Value sub = arith::FPToUIOp::create(b, loc, iW, integral);
    magnitude = o.sel(isNormal, rounded, sub);
  }
  Value overflow = o.bor(o.cmp(arith::CmpIPredicate::ugt, magnitude, o.c(f.maxFinite())), isInf);
  magnitude = o.sel(overflow, o.c(f.saturate ? f.maxFinite() : f.infinity()), magnitude);
  magnitude = o.sel(isNaN, o.c(f.nan()), magnitude);
  Value bits = o.bor(o.shl(signBit, f.width - 1), magnitude);
  Value narrowBits = arith::TruncIOp::create(b, loc, b.getIntegerType(f.width), bits);
  return arith::BitcastOp::create(b, loc, narrowType, narrowBits);
}

/// Phase 1: arith/math ops on narrow floats compute in a wide type.
struct PromoteNarrowCompute : RewritePattern {
  PromoteNarrowCompute(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), 1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!llvm::isa_and_nonnull<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        llvm::isa<arith::ExtFOp, arith::TruncFOp, arith::BitcastOp, arith::ConstantOp, arith::SelectOp>(op))
      return failure();
    auto narrow = [](Type t) { return isNarrow(t); };
    if (llvm::none_of(op->getOperandTypes(), narrow) && llvm::none_of(op->getResultTypes(), narrow))
      return failure();
    bool fromInt = llvm::isa<arith::SIToFPOp, arith::UIToFPOp>(op);
    Type wide = fromInt ? rewriter.getF64Type() : rewriter.getF32Type();
    Location loc = op->getLoc();
    OperationState state(loc, op->getName());
    state.addAttributes(op->getAttrs());
    for (Value operand : op->getOperands())
      state.addOperands(isNarrow(operand.getType()) ? arith::ExtFOp::create(rewriter, loc, wide, operand).getResult()
                                                    : operand);
    for (Type t : op->getResultTypes())
      state.addTypes(isNarrow(t) ? wide : t);
    Operation *promoted = rewriter.create(state);
    llvm::SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op->getResults(), promoted->getResults()))
      results.push_back(isNarrow(old.getType()) ? arith::TruncFOp::create(rewriter, loc, old.getType(), now).getResult()
                                                : now);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op, PatternRewriter &rewriter) const override {
    std::optional<Format> from = narrowFormat(op.getIn().getType());
    if (!from)
      return failure();
    Location loc = op.getLoc();
    Value f32 = decode(rewriter, loc, op.getIn(), *from);
    Type to = op.getType();
    Value result = f32;
    if (auto toFormat = narrowFormat(to))
      result = encode(rewriter, loc, f32, *toFormat, to);
    else if (!to.isF32())
      result = arith::ExtFOp::create(rewriter, loc, to, f32);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op, PatternRewriter &rewriter) const override {
    std::optional<Format> to = narrowFormat(op.getType());
    if (!to)
      return failure();
    Location loc = op.getLoc();
    Value in = op.getIn();
    if (auto fromFormat = narrowFormat(in.getType()))
      in = decode(rewriter, loc, in, *fromFormat);
    else if (!in.getType().isF32() && !in.getType().isF64())
      in = arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), in);
    rewriter.replaceOp(op, encode(rewriter, loc, in, *to, op.getType()));
    return success();
  }
};

struct ExpandSelect : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SelectOp op, PatternRewriter &rewriter) const override {
    std::optional<Format> f = narrowFormat(op.getType());
    if (!f)
      return failure();
    Location loc = op.getLoc();
    Type bits = rewriter.getIntegerType(f->width);
    Value t = arith::BitcastOp::create(rewriter, loc, bits, op.getTrueValue());
    Value e = arith::BitcastOp::create(rewriter, loc, bits, op.getFalseValue());
    Value chosen = arith::SelectOp::create(rewriter, loc, op.getCondition(), t, e);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), chosen);
    return success();
  }
};

/// The type with every narrow float (also as a memref element) replaced by
/// the integer of its width.
Type asBits(Type type) {
  if (auto f = narrowFormat(type))
    return IntegerType::get(type.getContext(), f->width);
  if (auto memref = llvm::dyn_cast<MemRefType>(type))
    if (auto f = narrowFormat(memref.getElementType()))
      return MemRefType::get(memref.getShape(), IntegerType::get(type.getContext(), f->width), memref.getLayout(),
                             memref.getMemorySpace());
  return type;
}

/// Phase 3 (see the file comment).
void storeAsBits(Operation *root) {
  // Constants first, as integer constants bitcast to the float type.
  root->walk([](arith::ConstantOp op) {
    auto attr = llvm::dyn_cast<FloatAttr>(op.getValue());
    if (!attr || !isNarrow(op.getType()))
      return;
    OpBuilder b(op);
    Type bits = asBits(op.getType());
    Value value = arith::ConstantOp::create(b, op.getLoc(), b.getIntegerAttr(bits, attr.getValue().bitcastToAPInt()));
    op.replaceAllUsesWith(arith::BitcastOp::create(b, op.getLoc(), op.getType(), value).getResult());
    op.erase();
  });
  // Retype every value and function in place.
  root->walk([](Operation *op) {
    for (OpResult result : op->getResults())
      result.setType(asBits(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(asBits(arg.getType()));
    if (auto fn = llvm::dyn_cast<FunctionOpInterface>(op)) {
      if (auto type = llvm::dyn_cast<FunctionType>(fn.getFunctionType())) {
        llvm::SmallVector<Type> inputs, results;
        for (Type t : type.getInputs())
          inputs.push_back(asBits(t));
        for (Type t : type.getResults())
          results.push_back(asBits(t));
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
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet promote(ctx);
    promote.add<PromoteNarrowCompute>(ctx);
    walkAndApplyPatterns(getOperation(), FrozenRewritePatternSet(std::move(promote)));
    RewritePatternSet expand(ctx);
    expand.add<ExpandExtF, ExpandTruncF, ExpandSelect>(ctx);
    walkAndApplyPatterns(getOperation(), FrozenRewritePatternSet(std::move(expand)));
    storeAsBits(getOperation());
  }
};

} // namespace
