//===- HopperPersistent.cpp - Persistent form of the warp-specialized loop ===//
//
// --hopper-persistent=on (HopperPlan.h, persistent): the warp-specialized
// body (HopperWarpSpecialized.cpp) with both roles looping over the output
// tiles t = blockIdx.x, blockIdx.x + gridDim.x, ... < tiles (the launch's
// grid extents nx x ny; the launcher makes the grid min(tiles, SMs x blocks
// per SM) x 1 x nz). Tile t stands for the block (t % nx, t / nx) of the
// one-block-per-tile launch and goes through the same T.use_swizzle
// rasterization (mapBlockIndices), so blocks that run at the same time share
// panels as before.
// - The producer's elected lane carries the ring's stage, parity and its
//   count of loads issued across tiles: a load waits for the stage's release
//   (empty[s]) from the second round of the ring on, whichever tile it is
//   in; it never waits for an epilogue otherwise, so it fills the next
//   tile's stages while the consumers store this one.
// - The consumers carry the stage and parity across tiles (ringSlot,
//   ringPhase), start each tile from a zero accumulator, release the tile's
//   last stage once its wgmma group completes (wgmma.wait_group 0 after the
//   loop), and store the tile through the f32 epilogue tile, which lies
//   after the stages (run), not over them.
// Both sides run the same tiles with the same trip counts, so every load is
// waited for by the consumers and no mbarrier is in use when thread 0
// invalidates them after the consumers' loop.
//
//===----------------------------------------------------------------------===//
#include "HopperEmitter.h"
#include "HopperGemm.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::hopper;

/// The output tiles: the product of the launch's first two grid extents.
Value GemmEmitter::tileCount() {
  auto grid = launch.getGrid();
  Value nx = map.lookupOrDefault(grid[0]);
  Value ny = grid.size() > 1 ? map.lookupOrDefault(grid[1]) : c(1);
  return mul(nx, ny);
}

/// Maps the launch's block indices to those of tile `t`.
void GemmEmitter::tileIndices(Value t) {
  auto grid = launch.getGrid();
  Value nx = map.lookupOrDefault(grid[0]);
  Value ny = grid.size() > 1 ? map.lookupOrDefault(grid[1]) : c(1);
  Value bx = arith::RemUIOp::create(b, loc, t, nx);
  Value by = arith::DivUIOp::create(b, loc, t, nx);
  mapBlockIndices(bx, by, [&] { return std::pair<Value, Value>(nx, ny); });
}

/// scf.for t = blockIdx.x; t < tiles; t += gridDim.x with `inits`; the
/// builder is left at the start of its body.
static scf::ForOp tileLoop(GemmEmitter &e, ValueRange inits) {
  Value first = gpu::BlockIdOp::create(e.b, e.loc, gpu::Dimension::x);
  Value step = gpu::GridDimOp::create(e.b, e.loc, gpu::Dimension::x);
  auto forOp = scf::ForOp::create(e.b, e.loc, first, e.tileCount(), step, inits);
  e.b.setInsertionPointToStart(forOp.getBody());
  return forOp;
}

void GemmEmitter::persistentProducer() {
  AtOp at(*this, p.loop);
  inProducerLane([&](Value phase0, Value phase1) {
    OpBuilder::InsertionGuard g(b);
    scf::ForOp tiles = tileLoop(*this, ValueRange{c(0), phase0, c(0)});
    Value issued = tiles.getRegionIterArg(2);
    tileIndices(tiles.getInductionVar());
    tileSetUp();
    auto forOp = scf::ForOp::create(b, loc, c(0), numIters, c(1),
                                    ValueRange{tiles.getRegionIterArg(0), tiles.getRegionIterArg(1)});
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(forOp.getBody());
      Value i = forOp.getInductionVar();
      // The ring runs on across tiles: load number issued + i of the kernel.
      ringLoad(add(issued, i), i, forOp.getRegionIterArg(0), forOp.getRegionIterArg(1), phase1);
    }
    scf::YieldOp::create(b, loc, ValueRange{forOp.getResult(0), forOp.getResult(1), add(issued, numIters)});
  });
}

LogicalResult GemmEmitter::persistentLoops() {
  OpBuilder::InsertionGuard g(b);
  scf::IfOp roles = splitRoles();
  persistentProducer();
  enterConsumers(roles);
  {
    OpBuilder::InsertionGuard g2(b);
    AtOp at(*this, p.loop);
    scf::ForOp tiles = tileLoop(*this, ValueRange{c(0), arith::ConstantIntOp::create(b, loc, 0, 1)});
    ringSlot = tiles.getRegionIterArg(0);
    ringPhase = tiles.getRegionIterArg(1);
    tileIndices(tiles.getInductionVar());
    tileSetUp();
    if (failed(mainLoop()))
      return failure();
    scf::YieldOp::create(b, loc, ValueRange{ringSlot, ringPhase});
  }
  invalidateBarriers();
  return success();
}
