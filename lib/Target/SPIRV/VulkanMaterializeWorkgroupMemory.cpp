//===- VulkanMaterializeWorkgroupMemory.cpp - Typed workgroup buffers -----===//
//
// tilec-vulkan-materialize-workgroup-memory: gpu.dynamic_shared_memory and
// its memref.views -> one static workgroup memref.alloc per element type,
// accesses re-indexed. See Passes.td.
//
// 1. Collect the views of every dynamic shared memory op of a kernel.
// 2. Group them by element type; a group spans [lowest, highest) byte of its
//    views (all of the dynamic memory when one offset is not a constant).
// 3. Allocate each group at the kernel's entry, replace every view by the
//    group's buffer plus an element offset added to each access's index.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

namespace tilec {
#define GEN_PASS_DEF_VULKANMATERIALIZEWORKGROUPMEMORY
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {
/// The views of one element type.
struct Group {
  llvm::SmallVector<memref::ViewOp> views;
  int64_t lo = INT64_MAX, hi = 0; ///< covered bytes
  bool dynamic = false;           ///< some view's offset is not a constant
};
} // namespace

/// The index operands of a memory access `op` on a 1-D memref, or failure.
static FailureOr<MutableOperandRange> accessIndices(Operation *op, Value memref) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getIndicesMutable();
  if (auto store = dyn_cast<memref::StoreOp>(op); store && store.getMemRef() == memref)
    return store.getIndicesMutable();
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getIndicesMutable();
  if (auto store = dyn_cast<vector::StoreOp>(op); store && store.getBase() == memref)
    return store.getIndicesMutable();
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op); rmw && rmw.getMemref() == memref)
    return rmw.getIndicesMutable();
  if (auto rmw = dyn_cast<memref::GenericAtomicRMWOp>(op); rmw && rmw.getMemref() == memref)
    return rmw.getIndicesMutable();
  if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op))
    return load.getIndicesMutable();
  if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op); store && store.getDstMemref() == memref)
    return store.getIndicesMutable();
  return failure();
}

/// Rewrites every access through `view` to `buffer` at element offset `offset`.
static LogicalResult redirect(memref::ViewOp view, Value buffer, Value offset) {
  OpBuilder b(view.getContext());
  for (OpOperand &use : llvm::make_early_inc_range(view.getResult().getUses())) {
    Operation *user = use.getOwner();
    FailureOr<MutableOperandRange> indices = accessIndices(user, view.getResult());
    if (failed(indices) || indices->size() != 1)
      return user->emitOpError("accesses shared memory in a way the Vulkan target cannot re-type");
    if (offset) {
      b.setInsertionPoint(user);
      Value old = (*indices)[0].get();
      indices->assign(ValueRange{arith::AddIOp::create(b, user->getLoc(), old, offset).getResult()});
    }
    use.set(buffer);
  }
  view.erase();
  return success();
}

static LogicalResult materialize(gpu::GPUFuncOp func) {
  llvm::SmallVector<gpu::DynamicSharedMemoryOp> bases;
  func.walk([&](gpu::DynamicSharedMemoryOp op) { bases.push_back(op); });
  if (bases.empty())
    return success();
  int64_t totalBytes = tilec::tile::getSharedBytes(func).value_or(0);

  // 1-2. Views grouped by element type.
  llvm::MapVector<Type, Group> groups;
  for (gpu::DynamicSharedMemoryOp base : bases) {
    for (Operation *user : base->getUsers()) {
      auto view = dyn_cast<memref::ViewOp>(user);
      if (!view || view.getType().getRank() != 1 || !view.getType().hasStaticShape())
        return user->emitOpError("uses dynamic shared memory in a way the Vulkan target cannot re-type "
                                 "(only 1-D static memref.view is supported)");
      Type elem = view.getType().getElementType();
      int64_t bits = elem.isInteger(1) ? 8 : elem.getIntOrFloatBitWidth();
      int64_t bytes = (view.getType().getNumElements() * bits + 7) / 8;
      Group &g = groups[elem];
      g.views.push_back(view);
      APInt shift;
      if (matchPattern(view.getByteShift(), m_ConstantInt(&shift))) {
        g.lo = std::min(g.lo, shift.getSExtValue());
        g.hi = std::max(g.hi, shift.getSExtValue() + bytes);
      } else {
        g.dynamic = true;
      }
    }
  }

  // 3. One buffer per group, at the kernel entry.
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  auto wg = gpu::AddressSpaceAttr::get(func.getContext(), gpu::AddressSpace::Workgroup);
  for (auto &[elem, g] : groups) {
    // Booleans take one byte each, as the thread-level lowering lays them out.
    int64_t elemBytes = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
    if (elem.getIntOrFloatBitWidth() % 8 != 0 && !elem.isInteger(1))
      return g.views.front().emitOpError("views shared memory as ")
             << elem << ", which the Vulkan target cannot place in workgroup memory";
    if (g.dynamic) {
      g.lo = 0;
      g.hi = std::max(g.hi, totalBytes);
    }
    int64_t numel = (g.hi - g.lo + elemBytes - 1) / elemBytes;
    auto type = MemRefType::get({numel}, elem, AffineMap(), wg);
    OpBuilder::InsertionGuard guard(b);
    Value buffer = memref::AllocOp::create(b, loc, type);
    for (memref::ViewOp view : g.views) {
      b.setInsertionPoint(view);
      Value offset;
      APInt shift;
      if (matchPattern(view.getByteShift(), m_ConstantInt(&shift))) {
        int64_t rel = shift.getSExtValue() - g.lo;
        if (rel % elemBytes != 0)
          return view.emitOpError("starts at byte ") << shift.getSExtValue() << ", not a multiple of the "
                                                     << elemBytes << "-byte element";
        if (rel != 0)
          offset = arith::ConstantIndexOp::create(b, view.getLoc(), rel / elemBytes);
      } else {
        Value rel = view.getByteShift();
        if (g.lo != 0)
          rel = arith::SubIOp::create(b, view.getLoc(), rel, arith::ConstantIndexOp::create(b, view.getLoc(), g.lo));
        offset = arith::DivUIOp::create(b, view.getLoc(), rel,
                                        arith::ConstantIndexOp::create(b, view.getLoc(), elemBytes));
      }
      if (failed(redirect(view, buffer, offset)))
        return failure();
    }
  }
  for (gpu::DynamicSharedMemoryOp base : bases) {
    if (!base->use_empty())
      return base.emitOpError("still has uses after re-typing shared memory");
    base.erase();
  }
  if (tilec::tile::getSharedBytes(func))
    tilec::tile::setSharedBytes(func, 0);
  return success();
}

namespace {
struct VulkanMaterializeWorkgroupMemoryPass
    : tilec::impl::VulkanMaterializeWorkgroupMemoryBase<VulkanMaterializeWorkgroupMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      if (failed(materialize(func)))
        return signalPassFailure();
  }
};
} // namespace
