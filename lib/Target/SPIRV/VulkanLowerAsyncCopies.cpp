//===- VulkanLowerAsyncCopies.cpp - Async copies as plain loads/stores ----===//
//
// tilec-vulkan-lower-async-copies: nvgpu.device_async_copy -> scalar
// memref.load/store (zero past srcElements); the commit/wait-group ops and
// their tokens disappear. See Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"

namespace tilec {
#define GEN_PASS_DEF_VULKANLOWERASYNCCOPIES
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

/// The zero of a scalar element type.
static Value zeroOf(OpBuilder &b, Location loc, Type t) {
  if (isa<FloatType>(t))
    return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, 0.0));
  return arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, 0));
}

/// Replaces one async copy by `count` scalar copies; erases it.
static LogicalResult lowerCopy(nvgpu::DeviceAsyncCopyOp copy) {
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  int64_t count = copy.getDstElements().getSExtValue();
  Value n = copy.getSrcElements();
  Type elem = copy.getSrc().getType().getElementType();
  if (copy.getSrcIndices().empty() || copy.getDstIndices().empty())
    return copy.emitOpError("without indices cannot be made synchronous");
  Value zero = zeroOf(b, loc, elem);
  for (int64_t i = 0; i < count; ++i) {
    Value ci = arith::ConstantIndexOp::create(b, loc, i);
    llvm::SmallVector<Value> src(copy.getSrcIndices()), dst(copy.getDstIndices());
    Value inner = arith::AddIOp::create(b, loc, src.back(), ci);
    Value live;
    if (n) {
      live = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ci, n);
      inner = arith::SelectOp::create(b, loc, live, inner, src.back());
    }
    src.back() = inner;
    dst.back() = arith::AddIOp::create(b, loc, dst.back(), ci);
    Value v = memref::LoadOp::create(b, loc, copy.getSrc(), src);
    if (live)
      v = arith::SelectOp::create(b, loc, live, v, zero);
    memref::StoreOp::create(b, loc, v, copy.getDst(), dst);
  }
  if (!copy.getResult().use_empty())
    for (Operation *user : llvm::make_early_inc_range(copy.getResult().getUsers()))
      if (!isa<nvgpu::DeviceAsyncCreateGroupOp>(user))
        return user->emitOpError("uses an async-copy token the Vulkan target cannot keep");
  copy.erase();
  return success();
}

namespace {
struct VulkanLowerAsyncCopiesPass
    : tilec::impl::VulkanLowerAsyncCopiesBase<VulkanLowerAsyncCopiesPass> {
  void runOnOperation() override {
    llvm::SmallVector<Operation *> groups;
    llvm::SmallVector<nvgpu::DeviceAsyncCopyOp> copies;
    getOperation().walk([&](Operation *op) {
      if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
        copies.push_back(copy);
      else if (isa<NVVM::CpAsyncCommitGroupOp, NVVM::CpAsyncWaitGroupOp, nvgpu::DeviceAsyncCreateGroupOp,
                   nvgpu::DeviceAsyncWaitOp>(op))
        groups.push_back(op);
    });
    // Waits first (they use the group tokens), then groups, then copies.
    llvm::stable_sort(groups, [](Operation *a, Operation *b) {
      return isa<nvgpu::DeviceAsyncWaitOp>(a) && !isa<nvgpu::DeviceAsyncWaitOp>(b);
    });
    for (Operation *op : groups) {
      if (!op->use_empty()) {
        op->emitOpError("has uses the Vulkan target cannot keep");
        return signalPassFailure();
      }
      op->erase();
    }
    for (nvgpu::DeviceAsyncCopyOp copy : copies)
      if (failed(lowerCopy(copy)))
        return signalPassFailure();
  }
};
} // namespace
