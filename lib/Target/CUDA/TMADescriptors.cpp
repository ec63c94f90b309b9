//===- TMADescriptors.cpp - Launcher-side CUtensorMap encoding ------------===//
//
// 1. readTMADescriptors: `tile.tensor_maps` of a gpu.func -> TMADescriptor list.
// 2. emitTMADescriptors: per descriptor, stack arrays of the global sizes
//    (innermost first), the row stride in bytes, the box and unit element
//    strides, then cuTensorMapEncodeTiled into a 64-byte aligned 128-byte
//    slot; the launcher passes the slot as the parameter's value.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/CUDA/TMADescriptors.h"
#include "CUDALauncher.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/IR/Module.h"

using namespace tilec;
using llvm::Value;

namespace {
// CUDA driver API enumerators (cuda.h, CUtensorMap*).
constexpr int kDataTypeUInt8 = 0, kDataTypeFloat16 = 6, kDataTypeFloat32 = 7, kDataTypeBFloat16 = 9;
constexpr int kInterleaveNone = 0;
constexpr int kL2Promotion256B = 3;
constexpr int kOOBFillNone = 0; // out-of-bounds elements read as zero
} // namespace

std::vector<TMADescriptor> tilec::readTMADescriptors(mlir::Operation *gpuFunc) {
  std::vector<TMADescriptor> out;
  for (tile::TensorMapAttr m : tile::getTensorMaps(gpuFunc)) {
    TMADescriptor t;
    t.arg = m.getArg();
    t.box[0] = m.getBoxInner();
    t.box[1] = m.getBoxOuter();
    t.dtype = m.getDtype().str();
    t.swizzle = m.getSwizzle();
    out.push_back(t);
  }
  return out;
}

static int dataType(llvm::StringRef dtype, int64_t &bytes) {
  bytes = 2;
  if (dtype == "bfloat16")
    return kDataTypeBFloat16;
  if (dtype == "float16")
    return kDataTypeFloat16;
  bytes = dtype == "float32" ? 4 : 1;
  return dtype == "float32" ? kDataTypeFloat32 : kDataTypeUInt8;
}

static int swizzleKind(int64_t bytes) { return bytes == 128 ? 3 : bytes == 64 ? 2 : bytes == 32 ? 1 : 0; }

llvm::SmallVector<Value *> tilec::emitTMADescriptors(llvm::IRBuilder<> &b, llvm::Function *launcher,
                                                     const KernelSignature &sig, llvm::ArrayRef<TMADescriptor> descs) {
  llvm::SmallVector<Value *> maps;
  if (descs.empty())
    return maps;
  llvm::LLVMContext &ctx = launcher->getContext();
  llvm::Module &m = *launcher->getParent();
  auto *i32 = b.getInt32Ty();
  auto *i64 = b.getInt64Ty();
  auto *ptr = b.getPtrTy();
  llvm::FunctionCallee encode = m.getOrInsertFunction(
      "cuTensorMapEncodeTiled",
      llvm::FunctionType::get(i32, {ptr, i32, i32, ptr, ptr, ptr, ptr, ptr, i32, i32, i32, i32}, false));
  // A dimension's value: a literal, the dynamic-dimension argument or a
  // derived dimension computed from them.
  auto dimValue = [&](const DimExprRef &d) -> Value * { return d ? cudaDimValue(b, launcher, *d) : b.getInt64(1); };
  auto array = [&](llvm::Type *elem, llvm::ArrayRef<Value *> values) {
    auto *ty = llvm::ArrayType::get(elem, values.size());
    Value *slot = b.CreateAlloca(ty);
    for (unsigned i = 0; i < values.size(); ++i)
      b.CreateStore(values[i], b.CreateConstInBoundsGEP2_32(ty, slot, 0, i));
    return slot;
  };
  for (const TMADescriptor &d : descs) {
    const KernelArg &a = sig.args[d.arg];
    int64_t bytes;
    int type = dataType(a.dtype, bytes);
    Value *rows = dimValue(a.dims[0]), *cols = dimValue(a.dims[1]);
    Value *dims = array(i64, {cols, rows});
    Value *strides = array(i64, {b.CreateMul(cols, b.getInt64(bytes))});
    Value *box = array(i32, {b.getInt32(d.box[0]), b.getInt32(d.box[1])});
    Value *unit = array(i32, {b.getInt32(1), b.getInt32(1)});
    auto *mapTy = llvm::ArrayType::get(b.getInt8Ty(), 128);
    auto *map = b.CreateAlloca(mapTy);
    map->setAlignment(llvm::Align(64));
    Value *rc = b.CreateCall(encode, {map, b.getInt32(type), b.getInt32(2), launcher->getArg(d.arg), dims, strides,
                                      box, unit, b.getInt32(kInterleaveNone), b.getInt32(swizzleKind(d.swizzle)),
                                      b.getInt32(kL2Promotion256B), b.getInt32(kOOBFillNone)});
    auto *bad = llvm::BasicBlock::Create(ctx, "tma.bad", launcher);
    auto *ok = llvm::BasicBlock::Create(ctx, "tma.ok", launcher);
    b.CreateCondBr(b.CreateICmpNE(rc, b.getInt32(0)), bad, ok);
    b.SetInsertPoint(bad);
    b.CreateRet(b.getInt32((int)LaunchStatus::LaunchFailed));
    b.SetInsertPoint(ok);
    maps.push_back(map);
  }
  return maps;
}
