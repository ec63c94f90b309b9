//===- LoweringUtils.cpp - Helpers shared by the tile-to-loops patterns ---===//
//
// Element conversions, loop nests, guarded global accesses and hoisted
// scratch buffers.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tilec;

bool loops::isUnsignedBuffer(Value buffer) { return tile::isUnsignedBuffer(buffer); }

bool loops::isGlobalBuffer(Value buffer) { return tile::isBufferInScope(buffer.getType(), tile::Scope::Global); }

Value loops::indexConst(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value loops::zeroOf(OpBuilder &b, Location loc, Type type) {
  if (auto ft = llvm::dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, 0.0));
  if (type.isIndex())
    return indexConst(b, loc, 0);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
}

Value loops::convertScalar(OpBuilder &b, Location loc, Value value, Type to, bool fromUnsigned, bool toUnsigned) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (from.isIndex() || to.isIndex())
    return arith::IndexCastOp::create(b, loc, to, value);
  auto fromFloat = llvm::dyn_cast<FloatType>(from);
  auto toFloat = llvm::dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    if (fromFloat.getWidth() > toFloat.getWidth())
      return arith::TruncFOp::create(b, loc, to, value);
    // Two formats of one width (bf16 <-> f16): neither extf nor truncf takes them; through f32.
    return arith::TruncFOp::create(b, loc, to, arith::ExtFOp::create(b, loc, b.getF32Type(), value));
  }
  if (fromFloat) {
    if (to.isInteger(1))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value, zeroOf(b, loc, from));
    if (toUnsigned)
      return arith::FPToUIOp::create(b, loc, to, value);
    return arith::FPToSIOp::create(b, loc, to, value);
  }
  if (toFloat) {
    if (fromUnsigned || from.isInteger(1))
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth(), toWidth = to.getIntOrFloatBitWidth();
  if (toWidth == 1)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, zeroOf(b, loc, from));
  if (toWidth < fromWidth)
    return arith::TruncIOp::create(b, loc, to, value);
  if (fromUnsigned || fromWidth == 1)
    return arith::ExtUIOp::create(b, loc, to, value);
  return arith::ExtSIOp::create(b, loc, to, value);
}

void loops::buildLoopNest(OpBuilder &b, Location loc, ValueRange extents, LoopBody body) {
  llvm::SmallVector<Value> ivs;
  std::function<void(OpBuilder &, size_t)> build = [&](OpBuilder &nested, size_t depth) {
    if (depth == extents.size()) {
      body(nested, loc, ivs);
      return;
    }
    Value lb = indexConst(nested, loc, 0), step = indexConst(nested, loc, 1);
    scf::ForOp::create(nested, loc, lb, extents[depth], step, ValueRange{},
                       [&](OpBuilder &inner, Location, Value iv, ValueRange) {
                         ivs.push_back(iv);
                         build(inner, depth + 1);
                         ivs.pop_back();
                         scf::YieldOp::create(inner, loc);
                       });
  };
  build(b, 0);
}

void loops::buildLoopNest(OpBuilder &b, Location loc, llvm::ArrayRef<int64_t> extents, LoopBody body) {
  llvm::SmallVector<Value> bounds;
  for (int64_t extent : extents)
    bounds.push_back(indexConst(b, loc, extent));
  buildLoopNest(b, loc, ValueRange(bounds), body);
}

void loops::buildBufferLoopNest(OpBuilder &b, Location loc, Value buffer, LoopBody body) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  llvm::SmallVector<Value> bounds;
  for (int64_t d = 0; d < type.getRank(); ++d)
    bounds.push_back(type.isDynamicDim(d) ? memref::DimOp::create(b, loc, buffer, d).getResult()
                                          : indexConst(b, loc, type.getDimSize(d)));
  buildLoopNest(b, loc, ValueRange(bounds), body);
}

Value loops::inBounds(OpBuilder &b, Location loc, Value buffer, ValueRange indices) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  Value all;
  for (auto [d, index] : llvm::enumerate(indices)) {
    Value size = type.isDynamicDim(d) ? memref::DimOp::create(b, loc, buffer, d).getResult()
                                      : indexConst(b, loc, type.getDimSize(d));
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, size);
    all = all ? arith::AndIOp::create(b, loc, all, ok).getResult() : ok;
  }
  return all ? all : arith::ConstantOp::create(b, loc, b.getBoolAttr(true)).getResult();
}

Value loops::loadElement(OpBuilder &b, Location loc, Value buffer, ValueRange indices) {
  if (!isGlobalBuffer(buffer))
    return memref::LoadOp::create(b, loc, buffer, indices);
  Type elementType = llvm::cast<MemRefType>(buffer.getType()).getElementType();
  auto ifOp = scf::IfOp::create(
      b, loc, inBounds(b, loc, buffer, indices),
      [&](OpBuilder &t, Location l) {
        scf::YieldOp::create(t, l, memref::LoadOp::create(t, l, buffer, indices).getResult());
      },
      [&](OpBuilder &e, Location l) { scf::YieldOp::create(e, l, zeroOf(e, l, elementType)); });
  return ifOp.getResult(0);
}

void loops::ifInBounds(OpBuilder &b, Location loc, Value buffer, ValueRange indices,
                       llvm::function_ref<void(OpBuilder &, Location)> body) {
  if (!isGlobalBuffer(buffer)) {
    body(b, loc);
    return;
  }
  scf::IfOp::create(b, loc, inBounds(b, loc, buffer, indices), [&](OpBuilder &t, Location l) {
    body(t, l);
    scf::YieldOp::create(t, l);
  });
}

void loops::storeElement(OpBuilder &b, Location loc, Value value, Value buffer, ValueRange indices) {
  ifInBounds(b, loc, buffer, indices,
             [&](OpBuilder &t, Location l) { memref::StoreOp::create(t, l, value, buffer, indices); });
}

int64_t loops::hostBufferBytes(MemRefType type) {
  int64_t bits = type.getElementType().isIndex() ? 64 : type.getElementTypeBitWidth();
  return type.getNumElements() * std::max<int64_t>(1, (bits + 7) / 8);
}

Value loops::createBlockBuffer(RewriterBase &rewriter, Operation *anchor, MemRefType type) {
  auto fn = anchor->getParentOfType<FunctionOpInterface>();
  Block &entry = fn.getFunctionBody().front();
  int64_t used = 0;
  for (auto alloca : entry.getOps<memref::AllocaOp>())
    used += hostBufferBytes(alloca.getType());
  int64_t limit = 256 * 1024;
  if (std::optional<int64_t> attr = tile::getStackLimit(fn))
    limit = *attr;

  // After the buffers already placed, so they keep the source order.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&entry);
  for (Operation &op : entry) {
    if (!llvm::isa<memref::AllocaOp, memref::AllocOp>(op))
      break;
    rewriter.setInsertionPointAfter(&op);
  }
  Location loc = anchor->getLoc();
  if (used + hostBufferBytes(type) <= limit)
    return memref::AllocaOp::create(rewriter, loc, type);
  Value buffer = memref::AllocOp::create(rewriter, loc, type);
  fn->walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::ReturnLike>() && op->getParentOp() == fn.getOperation()) {
      rewriter.setInsertionPoint(op);
      memref::DeallocOp::create(rewriter, loc, buffer);
    }
  });
  return buffer;
}
