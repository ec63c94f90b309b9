//===- Passes.cpp - Planning passes of the tile dialect -------------------===//
//
// The pass wrappers of Passes.td: resolve the `target` option to a
// TargetInfo and run the planning function on every tile.launch.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/Transforms/Passes.h"

namespace tilec {
#define GEN_PASS_DEF_TILEINFERLAYOUTS
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

struct TileInferLayoutsPass : tilec::impl::TileInferLayoutsBase<TileInferLayoutsPass> {
  using TileInferLayoutsBase::TileInferLayoutsBase;
  void runOnOperation() override {
    std::unique_ptr<TargetInfo> target = resolveTarget(getOperation(), targetName);
    if (!target)
      return signalPassFailure();
    bool ok = true;
    getOperation().walk([&](tile::LaunchOp launch) { ok &= succeeded(tile::inferLayouts(launch, *target)); });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

void tile::registerTilePasses() {
  mlir::registerPass([] { return createTileInferLayouts(); });
}
