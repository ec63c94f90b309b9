//===- NarrowStorage.cpp - fp8 and packed 4-bit tensors in a gpu.func -----===//
//
// The emitters write fp8, fp4 and int4/uint4 values with their own types; this
// last step makes them bytes, which the NVPTX path can translate:
// 0. float4_e2m1fn: emulateNarrowFloats with it alone selected, first, so
//    that its values and tensors are i4 bits, which step 1 packs.
// 1. Packed global tensors (element i of the row-major tensor in byte
//    i * bits / 8, low bits first): the argument becomes bytes, each element
//    load reads its byte and shifts, each element store updates its bits
//    with an atomic and (clear) plus an atomic or (set), so neighbouring
//    elements written by other threads or blocks never race. 4-bit scalar
//    arguments become bytes.
// 2. fp8: emulateNarrowFloats (NarrowFloatBits.h) with fp8 alone selected:
//    arithmetic in f32, conversions as integer bit arithmetic bit-exact with
//    the host target, storage as i8.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tilec/Conversion/NarrowFloatBits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilec;

/// Whether `type` is stored packed in global memory (int2/int4/uint4...).
static bool isPackedElement(Type type) {
  auto it = dyn_cast<IntegerType>(type);
  return it && it.getWidth() > 1 && it.getWidth() < 8 && 8 % it.getWidth() == 0;
}

/// Rewrites the accesses of the packed tensor argument `arg`.
static LogicalResult packArgument(gpu::GPUFuncOp func, BlockArgument arg) {
  auto type = cast<MemRefType>(arg.getType());
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  int64_t perByte = 8 / bits;
  Location loc = func.getLoc();
  MLIRContext *ctx = func.getContext();
  Type i8 = IntegerType::get(ctx, 8);
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  auto cIdx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };

  // The argument as bytes (same shape, so the launcher's descriptor and
  // memref.dim stay as they are) and a flat byte view of it.
  arg.setType(MemRefType::get(type.getShape(), i8, AffineMap(), type.getMemorySpace()));
  llvm::SmallVector<Value> dims;
  Value numel = cIdx(1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size = type.isDynamicDim(d) ? (Value)memref::DimOp::create(b, loc, arg, d) : cIdx(type.getDimSize(d));
    dims.push_back(size);
    numel = arith::MulIOp::create(b, loc, numel, size);
  }
  Value nbytes = arith::DivUIOp::create(b, loc, arith::AddIOp::create(b, loc, numel, cIdx(perByte - 1)), cIdx(perByte));
  auto flatType = MemRefType::get({ShapedType::kDynamic}, i8, AffineMap(), type.getMemorySpace());
  Value flat = memref::ReinterpretCastOp::create(b, loc, flatType, arg, OpFoldResult(b.getIndexAttr(0)),
                                                 {OpFoldResult(nbytes)}, {OpFoldResult(b.getIndexAttr(1))});

  // Byte index and bit shift (as i8) of an element access.
  auto locate = [&](ValueRange idx) -> std::pair<Value, Value> {
    Value lin = cIdx(0);
    for (auto [i, size] : llvm::zip(idx, dims))
      lin = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, lin, size), i);
    Value byte = arith::DivUIOp::create(b, loc, lin, cIdx(perByte));
    Value slot = arith::RemUIOp::create(b, loc, lin, cIdx(perByte));
    Value shift = arith::MulIOp::create(b, loc, slot, cIdx(bits));
    return {byte, arith::IndexCastUIOp::create(b, loc, i8, shift)};
  };
  auto c8 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, i8, v).getResult(); };

  for (Operation *user : llvm::to_vector(arg.getUsers())) {
    if (isa<memref::DimOp>(user) || user == flat.getDefiningOp())
      continue;
    b.setInsertionPoint(user);
    loc = user->getLoc();
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      auto [byte, shift] = locate(load.getIndices());
      Value word = memref::LoadOp::create(b, loc, flat, ValueRange{byte});
      Value v = arith::ShRUIOp::create(b, loc, word, shift);
      load.replaceAllUsesWith(arith::TruncIOp::create(b, loc, load.getType(), v).getResult());
      load.erase();
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(user); store && store.getMemRef() == arg) {
      auto [byte, shift] = locate(store.getIndices());
      Value v = arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i8, store.getValueToStore()), shift);
      Value mask = arith::ShLIOp::create(b, loc, c8((1 << bits) - 1), shift);
      Value keep = arith::XOrIOp::create(b, loc, mask, c8(-1));
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::andi, keep, flat, ValueRange{byte});
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::ori, v, flat, ValueRange{byte});
      store.erase();
      continue;
    }
    return user->emitError() << "accesses a packed " << bits << "-bit tensor with '" << user->getName()
                             << "'; the GPU lowering reads and writes packed tensors only element by element";
  }
  return success();
}

LogicalResult tilec::gpu_lowering::legalizeNarrowStorage(gpu::GPUFuncOp func) {
  // 0. float4_e2m1fn: emulated first, so that its tensors are i4 tensors,
  //    packed below like int4's.
  emulateNarrowFloats(func, [](Type t) { return isa<Float4E2M1FNType>(t); });
  // 1. Packed tensors.
  FunctionType fnType = func.getFunctionType();
  llvm::SmallVector<Type> inputs(fnType.getInputs());
  for (auto [i, arg] : llvm::enumerate(func.getArguments().take_front(inputs.size()))) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !isPackedElement(type.getElementType()))
      continue;
    if (failed(packArgument(func, arg)))
      return failure();
    inputs[i] = arg.getType();
  }
  // 4-bit scalars (int4, uint4, float4_e2m1fn's bits): a byte each (PTX has
  // no 4-bit parameters), its low bits taken at the entry.
  for (auto [i, arg] : llvm::enumerate(func.getArguments().take_front(inputs.size()))) {
    if (!arg.getType().isInteger(4))
      continue;
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    arg.setType(b.getI8Type());
    Value low = arith::TruncIOp::create(b, func.getLoc(), b.getIntegerType(4), arg);
    arg.replaceAllUsesExcept(low, low.getDefiningOp());
    inputs[i] = arg.getType();
  }
  func.setType(FunctionType::get(func.getContext(), inputs, fnType.getResults()));
  // 2. fp8.
  emulateNarrowFloats(func, [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); });
  return success();
}
