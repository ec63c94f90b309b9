//===- LegalizeBuffers.cpp - Host types for tile buffers ------------------===//
//
// The last step of convert-tile-to-loops:
// 1. Find the loads and stores of 4-bit elements (i4, and float4_e2m1fn's
//    f4E2M1FN, whose bits are moved as i4), noting whether the buffer is a
//    global tensor (packed, two per byte) or block-private (a byte each).
// 2. Retype every value in place: strip `#tile.scope`, 4-bit elements to i8.
// 3. Rewrite the noted i4 accesses on the byte buffers: nibble extraction
//    and an atomic read-modify-write for packed tensors (element `i` of the
//    row-major tensor lives in byte `i / 2`, low nibble first).
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

namespace {

/// Whether elements of `type` take 4 bits (i4, f4E2M1FN).
bool isNibble(Type type) { return type.isInteger(4) || llvm::isa<Float4E2M1FNType>(type); }

/// The host type of a buffer type: no memory space, 4-bit elements stored as i8.
Type hostType(Type type) {
  auto memref = llvm::dyn_cast<MemRefType>(type);
  if (!memref || (!tile::getBufferScope(memref) && !isNibble(memref.getElementType())))
    return type;
  Type element = memref.getElementType();
  if (isNibble(element))
    element = IntegerType::get(type.getContext(), 8);
  return MemRefType::get(memref.getShape(), element, memref.getLayout(), Attribute());
}

/// Index of `indices` in the row-major order of `buffer`'s shape.
Value linearIndex(OpBuilder &b, Location loc, Value buffer, ValueRange indices) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  Value linear = indexConst(b, loc, 0);
  for (auto [d, index] : llvm::enumerate(indices)) {
    Value size = type.isDynamicDim(d) ? memref::DimOp::create(b, loc, buffer, d).getResult()
                                      : indexConst(b, loc, type.getDimSize(d));
    linear = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, linear, size), index);
  }
  return linear;
}

/// The packed bytes of a global i4 tensor as a 1-D i8 memref.
Value packedBytes(OpBuilder &b, Location loc, Value buffer) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  Value count = indexConst(b, loc, 1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size = type.isDynamicDim(d) ? memref::DimOp::create(b, loc, buffer, d).getResult()
                                      : indexConst(b, loc, type.getDimSize(d));
    count = arith::MulIOp::create(b, loc, count, size);
  }
  Value bytes = arith::ShRUIOp::create(b, loc, arith::AddIOp::create(b, loc, count, indexConst(b, loc, 1)),
                                       indexConst(b, loc, 1));
  auto flatType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  return memref::ReinterpretCastOp::create(b, loc, flatType, buffer, OpFoldResult(b.getIndexAttr(0)),
                                           llvm::ArrayRef<OpFoldResult>{bytes},
                                           llvm::ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

/// Byte index and nibble shift (as i8) of element `indices` of a packed tensor.
std::pair<Value, Value> nibbleAddress(OpBuilder &b, Location loc, Value buffer, ValueRange indices) {
  Value linear = linearIndex(b, loc, buffer, indices);
  Value byte = arith::ShRUIOp::create(b, loc, linear, indexConst(b, loc, 1));
  Value odd = arith::AndIOp::create(b, loc, linear, indexConst(b, loc, 1));
  Value shift = arith::MulIOp::create(b, loc, arith::IndexCastOp::create(b, loc, b.getI8Type(), odd),
                                      arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(4)));
  return {byte, shift};
}

void rewriteLoad(memref::LoadOp load, bool packed) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  Value bits;
  if (packed) {
    auto [byte, shift] = nibbleAddress(b, loc, load.getMemref(), load.getIndices());
    Value word = memref::LoadOp::create(b, loc, packedBytes(b, loc, load.getMemref()), ValueRange{byte});
    bits = arith::ShRUIOp::create(b, loc, word, shift);
  } else {
    bits = memref::LoadOp::create(b, loc, load.getMemref(), load.getIndices());
  }
  Value nibble = arith::TruncIOp::create(b, loc, b.getIntegerType(4), bits);
  if (load.getType() != nibble.getType()) // f4E2M1FN: the float of these bits
    nibble = arith::BitcastOp::create(b, loc, load.getType(), nibble);
  load.getResult().replaceAllUsesWith(nibble);
  load.erase();
}

void rewriteStore(memref::StoreOp store, bool packed) {
  OpBuilder b(store);
  Location loc = store.getLoc();
  Value value = store.getValue();
  if (!value.getType().isInteger(4))
    value = arith::BitcastOp::create(b, loc, b.getIntegerType(4), value);
  Value byteValue = arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
  if (!packed) {
    memref::StoreOp::create(b, loc, byteValue, store.getMemref(), store.getIndices());
    store.erase();
    return;
  }
  auto [byte, shift] = nibbleAddress(b, loc, store.getMemref(), store.getIndices());
  Value flat = packedBytes(b, loc, store.getMemref());
  Value mask = arith::ShLIOp::create(b, loc, arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0xF)), shift);
  Value keep = arith::XOrIOp::create(b, loc, mask, arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(-1)));
  Value placed = arith::ShLIOp::create(b, loc, byteValue, shift);
  auto rmw = memref::GenericAtomicRMWOp::create(b, loc, flat, ValueRange{byte});
  OpBuilder body = OpBuilder::atBlockEnd(rmw.getBody());
  Value old = rmw.getCurrentValue();
  Value merged = arith::OrIOp::create(body, loc, arith::AndIOp::create(body, loc, old, keep), placed);
  memref::AtomicYieldOp::create(body, loc, merged);
  store.erase();
}

} // namespace

LogicalResult loops::legalizeBuffers(Operation *root) {
  // 1. Note the i4 accesses.
  llvm::SmallVector<std::pair<memref::LoadOp, bool>> loads;
  llvm::SmallVector<std::pair<memref::StoreOp, bool>> stores;
  bool unsupported = false;
  root->walk([&](Operation *op) {
    if (auto load = llvm::dyn_cast<memref::LoadOp>(op)) {
      if (isNibble(load.getType()))
        loads.push_back({load, isGlobalBuffer(load.getMemref())});
    } else if (auto store = llvm::dyn_cast<memref::StoreOp>(op)) {
      if (isNibble(store.getValue().getType()))
        stores.push_back({store, isGlobalBuffer(store.getMemref())});
    }
    for (Value operand : op->getOperands())
      if (auto type = llvm::dyn_cast<MemRefType>(operand.getType()))
        if (isNibble(type.getElementType()) &&
            !llvm::isa<memref::LoadOp, memref::StoreOp, memref::DimOp, memref::DeallocOp>(op)) {
          op->emitOpError("on a 4-bit (int4/uint4/float4_e2m1fn) buffer is not supported on the host target");
          unsupported = true;
        }
  });
  if (unsupported)
    return failure();

  // 2. Retype in place.
  root->walk([&](Operation *op) {
    for (OpResult result : op->getResults())
      result.setType(hostType(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(hostType(arg.getType()));
    if (auto fn = llvm::dyn_cast<func::FuncOp>(op)) {
      llvm::SmallVector<Type> inputs, results;
      for (Type t : fn.getFunctionType().getInputs())
        inputs.push_back(hostType(t));
      for (Type t : fn.getFunctionType().getResults())
        results.push_back(hostType(t));
      fn.setFunctionType(FunctionType::get(fn.getContext(), inputs, results));
    }
  });

  // 3. Rewrite the i4 accesses on the byte buffers.
  for (auto [load, packed] : loads)
    rewriteLoad(load, packed);
  for (auto [store, packed] : stores)
    rewriteStore(store, packed);
  return success();
}
