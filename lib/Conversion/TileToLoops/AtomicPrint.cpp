//===- AtomicPrint.cpp - tile.atomic_add and tile.print to loops ----------===//
//
// atomic_add: memref.atomic_rmw for f32/f64 and integers; f16/bf16/fp8 use a
//   compare-and-swap loop on the element's bits (LLVM's cmpxchg takes
//   integers only), so the add itself stays an arith op that
//   emulate-narrow-floats can rewrite. Adds outside a global tensor are
//   dropped, like writes.
// print: printf of `msg block (bx, by, bz) thread (0, 0, 0): value`, one
//   line per element for buffers (with its index).
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

namespace {

/// The address of `buffer[indices]` as an !llvm.ptr.
Value elementPointer(OpBuilder &b, Location loc, Value buffer, ValueRange indices) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value linear = meta.getOffset();
  for (auto [d, index] : llvm::enumerate(indices))
    linear = arith::AddIOp::create(b, loc, linear, arith::MulIOp::create(b, loc, index, meta.getStrides()[d]));
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value addr = arith::AddIOp::create(b, loc, base, arith::MulIOp::create(b, loc, linear, indexConst(b, loc, bytes)));
  Value addr64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), addr);
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), addr64);
}

/// Whether emitAtomicAdd handles elements of `type`.
bool isAtomicAddSupported(Type type) {
  return llvm::isa<FloatType>(type) || (type.isInteger() && type.getIntOrFloatBitWidth() >= 8);
}

/// buffer[indices] += value atomically (value has the element type).
void emitAtomicAdd(OpBuilder &b, Location loc, Value buffer, ValueRange indices, Value value) {
  Type type = value.getType();
  if (type.isF32() || type.isF64()) {
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addf, value, buffer, indices);
    return;
  }
  if (type.isInteger()) {
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, value, buffer, indices);
    return;
  }
  // Compare-and-swap loop on the element's bits.
  Type bitsType = b.getIntegerType(llvm::cast<FloatType>(type).getWidth());
  Value ptr = elementPointer(b, loc, buffer, indices);
  Value init = LLVM::LoadOp::create(b, loc, bitsType, ptr);
  scf::WhileOp::create(
      b, loc, TypeRange{bitsType}, ValueRange{init},
      [&](OpBuilder &w, Location l, ValueRange args) {
        Value old = args[0];
        Value sum = arith::AddFOp::create(w, l, arith::BitcastOp::create(w, l, type, old), value);
        Value bits = arith::BitcastOp::create(w, l, bitsType, sum);
        auto pair = LLVM::AtomicCmpXchgOp::create(w, l, ptr, old, bits, LLVM::AtomicOrdering::acq_rel,
                                                  LLVM::AtomicOrdering::monotonic);
        Value seen = LLVM::ExtractValueOp::create(w, l, pair, 0);
        Value ok = LLVM::ExtractValueOp::create(w, l, pair, 1);
        Value retry = arith::XOrIOp::create(w, l, ok, arith::ConstantOp::create(w, l, w.getBoolAttr(true)));
        scf::ConditionOp::create(w, l, retry, ValueRange{seen});
      },
      [&](OpBuilder &w, Location l, ValueRange args) { scf::YieldOp::create(w, l, args); });
}

struct AtomicAddLowering : OpRewritePattern<tile::AtomicAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::AtomicAddOp op, PatternRewriter &rewriter) const override {
    Value dst = op.getDst(), value = op.getValue();
    Type elementType = llvm::cast<MemRefType>(dst.getType()).getElementType();
    if (!isAtomicAddSupported(elementType))
      return rewriter.notifyMatchFailure(op, "unsupported element type");
    llvm::SmallVector<Value> offsets(op.getIndices());
    auto addAt = [&](OpBuilder &b, Location loc, llvm::ArrayRef<Value> at, Value v) {
      ifInBounds(b, loc, dst, at, [&](OpBuilder &t, Location l) { emitAtomicAdd(t, l, dst, at, v); });
    };
    if (!op.isRegionForm()) {
      addAt(rewriter, op.getLoc(), offsets, value);
    } else {
      auto valueType = llvm::cast<MemRefType>(value.getType());
      bool srcUnsigned = isUnsignedBuffer(value), dstUnsigned = isUnsignedBuffer(dst);
      buildLoopNest(rewriter, op.getLoc(), valueType.getShape(), [&](OpBuilder &b, Location loc, ValueRange ivs) {
        llvm::SmallVector<Value> at;
        for (auto [offset, iv] : llvm::zip(offsets, ivs))
          at.push_back(arith::AddIOp::create(b, loc, offset, iv));
        Value v = memref::LoadOp::create(b, loc, value, ivs);
        addAt(b, loc, at, convertScalar(b, loc, v, elementType, srcUnsigned, dstUnsigned));
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The printf conversion of a scalar of `type` and the value to pass for it.
std::pair<std::string, Value> printfArgument(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  Type type = v.getType();
  if (type.isIndex())
    return {"%lld", arith::IndexCastOp::create(b, loc, b.getI64Type(), v)};
  if (auto ft = llvm::dyn_cast<FloatType>(type)) {
    Value wide = ft.isF64() ? v : arith::ExtFOp::create(b, loc, b.getF64Type(), v).getResult();
    return {ft.isF64() ? "%.17g" : "%.9g", wide};
  }
  if (type.isInteger(1))
    return {"%d", arith::ExtUIOp::create(b, loc, b.getI32Type(), v)};
  Value wide = v;
  if (type.getIntOrFloatBitWidth() < 64)
    wide = isUnsigned ? arith::ExtUIOp::create(b, loc, b.getI64Type(), v).getResult()
                      : arith::ExtSIOp::create(b, loc, b.getI64Type(), v).getResult();
  return {isUnsigned ? "%llu" : "%lld", wide};
}

LLVM::LLVMFuncOp getOrInsertPrintf(OpBuilder &b, ModuleOp module) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>("printf"))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  auto fnType = LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrType}, /*isVarArg=*/true);
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), "printf", fnType);
}

/// A pointer to a private NUL-terminated copy of `text` in `module`.
Value globalString(OpBuilder &b, Location loc, ModuleOp module, llvm::StringRef text) {
  std::string data = text.str();
  data.push_back('\0');
  auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  std::string name;
  for (unsigned i = 0; name.empty() || module.lookupSymbol(name); ++i)
    name = "__tilec_fmt_" + std::to_string(i);
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Internal, name,
                                    b.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

std::string escapePercent(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    out.push_back(c);
    if (c == '%')
      out.push_back('%');
  }
  return out;
}

struct PrintLowering : OpRewritePattern<tile::PrintOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::PrintOp op, PatternRewriter &rewriter) const override {
    auto fn = op->getParentOfType<func::FuncOp>();
    auto module = op->getParentOfType<ModuleOp>();
    if (!fn || fn.getNumArguments() < 3)
      return rewriter.notifyMatchFailure(op, "not inside a body function");
    Location loc = op.getLoc();
    // The body function's last three arguments are (bx, by, bz).
    llvm::SmallVector<Value> blockIdx;
    for (unsigned i = fn.getNumArguments() - 3; i < fn.getNumArguments(); ++i)
      blockIdx.push_back(arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), fn.getArgument(i)));
    std::string prefix = op.getMsg().empty() ? "" : escapePercent(op.getMsg()) + " ";
    prefix += "block (%lld, %lld, %lld) thread (0, 0, 0)";
    LLVM::LLVMFuncOp printf = getOrInsertPrintf(rewriter, module);

    Value value = op.getValue();
    auto bufferType = llvm::dyn_cast<MemRefType>(value.getType());
    if (!bufferType) {
      auto [conv, arg] = printfArgument(rewriter, loc, value, false);
      llvm::SmallVector<Value> args{globalString(rewriter, loc, module, prefix + ": " + conv + "\n")};
      args.append(blockIdx);
      args.push_back(arg);
      LLVM::CallOp::create(rewriter, loc, printf, args);
      rewriter.eraseOp(op);
      return success();
    }
    bool isUnsigned = isUnsignedBuffer(value);
    buildBufferLoopNest(rewriter, loc, value, [&](OpBuilder &b, Location l, ValueRange ivs) {
      auto [conv, arg] = printfArgument(b, l, memref::LoadOp::create(b, l, value, ivs), isUnsigned);
      std::string format = prefix + " [";
      for (size_t i = 0; i < ivs.size(); ++i)
        format += i ? ", %lld" : "%lld";
      format += "] = " + conv + "\n";
      llvm::SmallVector<Value> args{globalString(b, l, module, format)};
      args.append(blockIdx);
      for (Value iv : ivs)
        args.push_back(arith::IndexCastOp::create(b, l, b.getI64Type(), iv));
      args.push_back(arg);
      LLVM::CallOp::create(b, l, printf, args);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// A declaration of the C function `name` in `module` (created once).
LLVM::LLVMFuncOp getOrInsertFunction(OpBuilder &b, ModuleOp module, llvm::StringRef name, LLVM::LLVMFunctionType type) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// T.device_assert (cf.assert) on the host: a failed condition writes the
/// message with the block index to stderr (unbuffered: dprintf on fd 2, so it
/// survives the abort) and aborts the process.
struct AssertLowering : OpRewritePattern<cf::AssertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(cf::AssertOp op, PatternRewriter &rewriter) const override {
    auto fn = op->getParentOfType<func::FuncOp>();
    auto module = op->getParentOfType<ModuleOp>();
    if (!fn || fn.getNumArguments() < 3)
      return rewriter.notifyMatchFailure(op, "not inside a body function");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i32 = rewriter.getI32Type();
    LLVM::LLVMFuncOp dprintf = getOrInsertFunction(rewriter, module, "dprintf",
                                                   LLVM::LLVMFunctionType::get(i32, {i32, ptr}, /*isVarArg=*/true));
    LLVM::LLVMFuncOp abortFn =
        getOrInsertFunction(rewriter, module, "abort", LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}));
    Value t = arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
    Value failed = arith::XOrIOp::create(rewriter, loc, op.getArg(), t);
    auto ifOp = scf::IfOp::create(rewriter, loc, failed, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    llvm::SmallVector<Value> args{arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(2))};
    args.push_back(
        globalString(rewriter, loc, module, "block (%lld, %lld, %lld): " + escapePercent(op.getMsg()) + "\n"));
    for (unsigned i = fn.getNumArguments() - 3; i < fn.getNumArguments(); ++i)
      args.push_back(arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), fn.getArgument(i)));
    LLVM::CallOp::create(rewriter, loc, dprintf, args);
    LLVM::CallOp::create(rewriter, loc, abortFn, ValueRange{});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void loops::populateAtomicPrintPatterns(RewritePatternSet &patterns) {
  patterns.add<AtomicAddLowering, PrintLowering, AssertLowering>(patterns.getContext());
}
