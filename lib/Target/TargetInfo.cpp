//===- TargetInfo.cpp - Defaults of the TargetInfo hooks and the registry -===//
//
// What a target without a feature does (plain copies, gpu.barrier,
// gpu.shuffle), and the registry of target families convert-tile-to-gpu reads.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/TargetInfo.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/ErrorHandling.h"

#include <vector>

using namespace mlir;
using namespace tilec;

TargetInfo::~TargetInfo() = default;

llvm::SmallVector<MatrixShape> TargetInfo::getSubgroupMatrixShapes(Type, Type) const { return {}; }

void TargetInfo::getDependentDialects(DialectRegistry &) const {}

FailureOr<bool> TargetInfo::lowerKernel(tile::KernelOp, tile::LaunchOp, gpu::GPUFuncOp) const { return false; }
FailureOr<bool> TargetInfo::describeKernelLayouts(tile::KernelOp, tile::LaunchOp, KernelLayouts &) const {
  return false;
}

/// A hook that only a target with the feature may be asked for.
[[noreturn]] static void noFeature(const TargetInfo &t, llvm::StringRef what) {
  llvm::report_fatal_error(llvm::Twine("target '") + t.getName() + "' has no " + what +
                           "; the lowering must ask its capability first");
}

llvm::SmallVector<Value> TargetInfo::emitMatrixLoad(OpBuilder &, Location, Value, int64_t, int, bool) const {
  noFeature(*this, "matrix load");
}

void TargetInfo::emitMatrixMultiply(OpBuilder &, Location, MatrixShape, Type, ArrayRef<Value>, ArrayRef<Value>, Value,
                                    int64_t) const {
  noFeature(*this, "warp-level matrix instruction");
}

/// The zero of a scalar element type.
static Value zeroOf(OpBuilder &b, Location loc, Type t) {
  if (isa<FloatType>(t))
    return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, 0.0));
  return arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, 0));
}

void TargetInfo::emitAsyncCopy(OpBuilder &b, Location loc, Value dst, ValueRange dstIndices, Value src,
                               ValueRange srcIndices, int64_t elements, Value srcElements) const {
  Type elem = cast<MemRefType>(src.getType()).getElementType();
  Value zero = zeroOf(b, loc, elem);
  for (int64_t i = 0; i < elements; ++i) {
    Value ci = arith::ConstantIndexOp::create(b, loc, i);
    llvm::SmallVector<Value> from(srcIndices), to(dstIndices);
    Value inner = arith::AddIOp::create(b, loc, from.back(), ci);
    Value live;
    if (srcElements) {
      // Past the elements to read: read the first one again, store zero.
      live = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ci, srcElements);
      inner = arith::SelectOp::create(b, loc, live, inner, from.back());
    }
    from.back() = inner;
    to.back() = arith::AddIOp::create(b, loc, to.back(), ci);
    Value v = memref::LoadOp::create(b, loc, src, from);
    if (live)
      v = arith::SelectOp::create(b, loc, live, v, zero);
    memref::StoreOp::create(b, loc, v, dst, to);
  }
}

void TargetInfo::emitAsyncCommit(OpBuilder &, Location) const {}

void TargetInfo::emitAsyncWait(OpBuilder &, Location, int64_t) const {}

FailureOr<unsigned> TargetInfo::addTensorCopyDescriptors(gpu::GPUFuncOp, ArrayRef<TensorCopyDescriptor>) const {
  noFeature(*this, "tensor copy engine");
}

Value TargetInfo::emitTensorCopyBarriers(OpBuilder &, Location, int64_t) const {
  noFeature(*this, "tensor copy engine");
}

void TargetInfo::emitTensorCopyInit(OpBuilder &, Location, Value, int64_t, ValueRange) const {
  noFeature(*this, "tensor copy engine");
}

Value TargetInfo::emitTensorCopyArrive(OpBuilder &, Location, Value, Value, int64_t) const {
  noFeature(*this, "tensor copy engine");
}

void TargetInfo::emitTensorCopyLoad2D(OpBuilder &, Location, Value, Value, Value, Value, Value) const {
  noFeature(*this, "tensor copy engine");
}

void TargetInfo::emitTensorCopyWait(OpBuilder &, Location, Value, Value, Value) const {
  noFeature(*this, "tensor copy engine");
}

void TargetInfo::emitTensorCopyRelease(OpBuilder &, Location, Value, int64_t) const {
  noFeature(*this, "tensor copy engine");
}

FailureOr<Value> TargetInfo::emitExternCall(OpBuilder &, tile::CallExternOp call, ArrayRef<ExternCallArg>) const {
  noFeature(*this, "extern calls");
}

Value TargetInfo::emitElect(OpBuilder &, Location) const { noFeature(*this, "lane election"); }

Value TargetInfo::emitIsWarpZero(OpBuilder &b, Location loc, Value tid) const {
  Value warp = arith::DivUIOp::create(b, loc, tid, arith::ConstantIndexOp::create(b, loc, getWarpSize()));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp, arith::ConstantIndexOp::create(b, loc, 0));
}

void TargetInfo::emitBarrier(OpBuilder &b, Location loc) const { gpu::BarrierOp::create(b, loc); }

Value TargetInfo::emitShuffleXor(OpBuilder &b, Location loc, Value v, int64_t mask, int64_t width) const {
  Value off = arith::ConstantIntOp::create(b, loc, mask, 32);
  Value w = arith::ConstantIntOp::create(b, loc, width, 32);
  return gpu::ShuffleOp::create(b, loc, v, off, w, gpu::ShuffleMode::XOR).getShuffleResult();
}

/// The registered families, in registration order.
static std::vector<TargetInfoFactory> &factories() {
  static std::vector<TargetInfoFactory> list;
  return list;
}

void tilec::registerTargetInfoFactory(TargetInfoFactory factory) {
  if (!llvm::is_contained(factories(), factory))
    factories().push_back(factory);
}

std::unique_ptr<TargetInfo> tilec::createTargetInfo(llvm::StringRef name) {
  for (TargetInfoFactory f : factories())
    if (std::unique_ptr<TargetInfo> t = f(name))
      return t;
  return nullptr;
}
