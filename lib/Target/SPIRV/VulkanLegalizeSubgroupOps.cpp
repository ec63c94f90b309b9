//===- VulkanLegalizeSubgroupOps.cpp - Shuffles at the subgroup width -----===//
//
// tilec-vulkan-legalize-subgroup-ops: gpu.shuffle xor with a constant offset
// below the subgroup size gets the subgroup size as its width. See Passes.td.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilec {
#define GEN_PASS_DEF_VULKANLEGALIZESUBGROUPOPS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {
struct VulkanLegalizeSubgroupOpsPass
    : tilec::impl::VulkanLegalizeSubgroupOpsBase<VulkanLegalizeSubgroupOpsPass> {
  using VulkanLegalizeSubgroupOpsBase::VulkanLegalizeSubgroupOpsBase;
  void runOnOperation() override {
    llvm::DenseMap<Operation *, Value> widths;
    WalkResult r = getOperation().walk([&](gpu::ShuffleOp shuffle) -> WalkResult {
      APInt width, offset;
      if (!matchPattern(shuffle.getWidth(), m_ConstantInt(&width)))
        return shuffle.emitOpError("has a width that is not a constant; the Vulkan target needs the subgroup size"),
               WalkResult::interrupt();
      if (width.getSExtValue() == subgroupSize)
        return WalkResult::advance();
      bool xorInGroup = shuffle.getMode() == gpu::ShuffleMode::XOR &&
                        matchPattern(shuffle.getOffset(), m_ConstantInt(&offset)) &&
                        offset.getSExtValue() < subgroupSize && offset.getSExtValue() < width.getSExtValue() &&
                        llvm::isPowerOf2_64(width.getZExtValue()) && llvm::isPowerOf2_64(subgroupSize);
      if (!xorInGroup)
        return shuffle.emitOpError("shuffles across ")
                   << width.getSExtValue() << " lanes; the Vulkan target's subgroup has "
                   << static_cast<int64_t>(subgroupSize),
               WalkResult::interrupt();
      // One width constant per kernel, at its entry.
      auto func = shuffle->getParentOfType<FunctionOpInterface>();
      Value &w = widths[func.getOperation()];
      if (!w) {
        OpBuilder b = OpBuilder::atBlockBegin(&func.getFunctionBody().front());
        w = arith::ConstantIntOp::create(b, shuffle.getLoc(), subgroupSize, 32);
      }
      shuffle.getWidthMutable().assign(w);
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
