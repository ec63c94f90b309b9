//===- Passes.cpp - Planning passes of the tile dialect -------------------===//
//
// The pass wrappers of Passes.td: resolve the `target` option to a
// TargetInfo and run the planning function on every tile.launch.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilec {
#define GEN_PASS_DEF_TILEINFERLAYOUTS
#define GEN_PASS_DEF_TILEPLANPIPELINES
#define GEN_PASS_DEF_TILEPLANSHAREDMEMORY
#define GEN_PASS_DEF_TILELOWERWARPGROUPS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {
/// The TargetInfo named `name`, or a diagnostic on `module`.
std::unique_ptr<TargetInfo> resolveTarget(ModuleOp module, StringRef name) {
  std::unique_ptr<TargetInfo> target = createTargetInfo(name);
  if (!target)
    module.emitError() << "unknown target '" << name << "' for the tile planning passes";
  return target;
}

/// Runs `plan` on every tile.launch of `module` for the target `name`.
LogicalResult runOnLaunches(ModuleOp module, StringRef name,
                            LogicalResult (*plan)(tile::LaunchOp, const TargetInfo &)) {
  std::unique_ptr<TargetInfo> target = resolveTarget(module, name);
  if (!target)
    return failure();
  bool ok = true;
  module.walk([&](tile::LaunchOp launch) { ok &= succeeded(plan(launch, *target)); });
  return success(ok);
}

struct TileInferLayoutsPass : tilec::impl::TileInferLayoutsBase<TileInferLayoutsPass> {
  using TileInferLayoutsBase::TileInferLayoutsBase;
  void runOnOperation() override {
    if (failed(runOnLaunches(getOperation(), targetName, tile::inferLayouts)))
      signalPassFailure();
  }
};

struct TilePlanPipelinesPass : tilec::impl::TilePlanPipelinesBase<TilePlanPipelinesPass> {
  using TilePlanPipelinesBase::TilePlanPipelinesBase;
  void runOnOperation() override {
    if (failed(runOnLaunches(getOperation(), targetName, tile::planPipelines)))
      signalPassFailure();
  }
};

struct TilePlanSharedMemoryPass : tilec::impl::TilePlanSharedMemoryBase<TilePlanSharedMemoryPass> {
  using TilePlanSharedMemoryBase::TilePlanSharedMemoryBase;
  void runOnOperation() override {
    if (failed(runOnLaunches(getOperation(), targetName, tile::planSharedMemory)))
      signalPassFailure();
  }
};

struct TileLowerWarpGroupsPass : tilec::impl::TileLowerWarpGroupsBase<TileLowerWarpGroupsPass> {
  using TileLowerWarpGroupsBase::TileLowerWarpGroupsBase;
  void runOnOperation() override {
    std::unique_ptr<TargetInfo> target;
    if (targetName != "host" && !(target = resolveTarget(getOperation(), targetName)))
      return signalPassFailure();
    bool ok = true;
    getOperation().walk([&](tile::LaunchOp launch) { ok &= succeeded(tile::lowerWarpGroups(launch, target.get())); });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

void tile::registerTilePasses() {
  mlir::registerPass([] { return createTileOutlineLaunches(); });
  mlir::registerPass([] { return createTileInferLayouts(); });
  mlir::registerPass([] { return createTilePlanPipelines(); });
  mlir::registerPass([] { return createTilePlanSharedMemory(); });
  mlir::registerPass([] { return createTileLowerWarpGroups(); });
}
