//===- LayoutReport.cpp - The layouts the GPU lowering would choose -------===//
//
// On a clone of the tile module, per kernel: the warp-group lowering, then
// the target's own path (TargetInfo::describeKernelLayouts) or the plans of
// the generic lowering (tile-infer-layouts, tile-plan-pipelines,
// tile-plan-shared-memory), whose attributes are read back per buffer.
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/TileToGPU/LayoutReport.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

using namespace mlir;
using namespace tilec;

/// What chose the layout of fragment `alloc`: the matrix instruction of a
/// gemm it is the accumulator (or register A operand) of, else inference.
static std::string fragmentOrigin(tile::LaunchOp launch, Value alloc, const TargetInfo &target) {
  auto *dialect = launch->getContext()->getLoadedDialect<tile::TileDialect>();
  std::string origin = "layout inference (gemm operands, T.Parallel, reductions, copies; blocked otherwise)";
  launch.walk([&](tile::GemmOp gemm) {
    tile::GemmPlanAttr plan = dialect->getGemmPlanAttrHelper().getAttr(gemm);
    if (!plan || (gemm.getC() != alloc && !(plan.getAInRegisters() && gemm.getA() == alloc)))
      return WalkResult::advance();
    Type ab = cast<MemRefType>(gemm.getA().getType()).getElementType();
    Type acc = cast<MemRefType>(gemm.getC().getType()).getElementType();
    llvm::SmallVector<MatrixShape> shapes = target.getMatrixShapes(ab, acc);
    std::string instr = "matrix instruction";
    if (!shapes.empty())
      instr = ("m" + llvm::Twine(shapes.front().m) + "n" + llvm::Twine(shapes.front().n) + "k" +
               llvm::Twine(shapes.front().k) + " " + instr)
                  .str();
    origin = ((gemm.getC() == alloc ? "T.gemm accumulator: " : "T.gemm A operand in registers: ") + instr + ", " +
              llvm::Twine(plan.getWarpsM()) + " x " + llvm::Twine(plan.getWarpsN()) + " warps")
                 .str();
    return WalkResult::interrupt();
  });
  return origin;
}

/// The planned layouts of `launch`'s fragments and shared buffers.
static void readPlans(tile::LaunchOp launch, const TargetInfo &target, KernelLayouts &out) {
  auto *dialect = launch->getContext()->getLoadedDialect<tile::TileDialect>();
  for (Operation &op : *launch.getBodyBlock()) {
    auto alloc = dyn_cast<tile::AllocOp>(op);
    if (!alloc)
      continue;
    if (alloc.getScope() == tile::Scope::Fragment) {
      tile::FragmentLayoutAttr layout = dialect->getLayoutAttrHelper().getAttr(alloc);
      if (!layout)
        continue;
      BufferLayout b = describeBuffer(alloc);
      b.kind = BufferLayout::Kind::Fragment;
      b.fragment = layout.getLayout();
      b.origin = fragmentOrigin(launch, alloc.getResult(), target);
      out.buffers.push_back(std::move(b));
    } else if (alloc.getScope() == tile::Scope::Shared) {
      tile::SharedBufferAttr placed = dialect->getSharedBufferAttrHelper().getAttr(alloc);
      if (!placed)
        continue;
      BufferLayout b = describeBuffer(alloc);
      b.kind = BufferLayout::Kind::Shared;
      b.swizzleBytes = placed.getSwizzle();
      b.boxCols = placed.getBoxCols();
      b.stages = placed.getStages();
      b.offset = placed.getOffset();
      b.origin = b.stages > 1 ? "staged by T.Pipelined" : "shared-memory plan";
      out.buffers.push_back(std::move(b));
    }
  }
}

LogicalResult tilec::collectKernelLayouts(ModuleOp module, const TargetInfo &target, std::vector<KernelLayouts> &out) {
  OwningOpRef<ModuleOp> clone(module.clone());
  for (tile::KernelOp kernel : clone->getOps<tile::KernelOp>()) {
    tile::LaunchOp launch = kernel.isLaunchSequence() ? tile::LaunchOp() : kernel.getLaunchOp();
    if (!launch)
      continue;
    KernelLayouts k;
    k.kernel = kernel.getSymName().str();
    k.target = target.getName().str();
    k.warpSize = target.getWarpSize();
    for (int64_t t : launch.getThreads())
      k.threads *= t;
    if (failed(tile::lowerWarpGroups(launch, &target)))
      return failure();
    FailureOr<bool> own = target.describeKernelLayouts(kernel, launch, k);
    if (failed(own))
      return failure();
    if (!*own) {
      k.path = "thread-level lowering";
      if (failed(tile::inferLayouts(launch, target)) || failed(tile::planPipelines(launch, target)) ||
          failed(tile::planSharedMemory(launch, target)))
        return failure();
      readPlans(launch, target, k);
    }
    out.push_back(std::move(k));
  }
  return success();
}
