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
#include "HopperWgmma.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

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

/// The persistent forms' frame: the producer's loop over every tile of the
/// block, then, at the kernel's pipelined loop, the consumers' loop(s) that
/// `consumers` builds; the mbarriers are invalidated after both.
LogicalResult GemmEmitter::persistentFrame(llvm::function_ref<LogicalResult()> consumers) {
  OpBuilder::InsertionGuard g(b);
  scf::IfOp roles = splitRoles();
  persistentProducer();
  enterConsumers(roles);
  {
    OpBuilder::InsertionGuard g2(b);
    AtOp at(*this, p.loop);
    if (failed(consumers()))
      return failure();
  }
  invalidateBarriers();
  return success();
}

LogicalResult GemmEmitter::persistentLoops() {
  return persistentFrame([&]() -> LogicalResult {
    scf::ForOp tiles = tileLoop(*this, ValueRange{c(0), arith::ConstantIntOp::create(b, loc, 0, 1)});
    ringSlot = tiles.getRegionIterArg(0);
    ringPhase = tiles.getRegionIterArg(1);
    tileIndices(tiles.getInductionVar());
    tileSetUp();
    if (failed(mainLoop()))
      return failure();
    scf::YieldOp::create(b, loc, ValueRange{ringSlot, ringPhase});
    return success();
  });
}

// Ping-pong (HopperPlan.h, pingpong): the producer's loop is the persistent
// one above (every tile of the block in order, one ring). Consumer warpgroup
// w (0 or 1) takes the block's tiles of ordinal q = w, w + 2, ...; tile q's
// loads are the ring's loads q N .. q N + N - 1 (N k iterations), so its
// stage is (q N) % S and its parity ((q N) / S) & 1. The wgmma loops take
// turns on named barriers 2 + w (256 threads: this warpgroup's bar.sync and
// the other's bar.arrive): warpgroup 1 opens warpgroup 0's first turn, and a
// warpgroup hands the turn on once its tile's wgmmas are issued, when the
// next tile exists (so that no arrival is left unmatched at exit). Its
// epilogue then runs from registers while the other warpgroup's loop runs.
LogicalResult GemmEmitter::pingpongLoops() {
  return persistentFrame([&]() -> LogicalResult {
    auto c32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
    Value wg32 = uniformWarpgroup(b, loc, tid);
    Value wg = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), wg32);
    Value turn = arith::AddIOp::create(b, loc, wg32, c32(2));
    Value otherTurn = arith::SubIOp::create(b, loc, c32(3), wg32);
    Value tiles = tileCount();
    Value first = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    Value grid = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    ifThen(andi(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wg32, c32(1)), ult(first, tiles)),
           [&] { NVVM::BarrierArriveOp::create(b, loc, c32(2), c32(256)); });
    auto forOp = scf::ForOp::create(b, loc, add(first, mul(wg, grid)), tiles, mul(grid, c(2)), ValueRange{wg});
    b.setInsertionPointToStart(forOp.getBody());
    Value t = forOp.getInductionVar(), q = forOp.getRegionIterArg(0);
    tileIndices(t);
    tileSetUp();
    Value load = mul(q, numIters);
    ringSlot = arith::RemUIOp::create(b, loc, load, c(p.stages));
    Value round = arith::DivUIOp::create(b, loc, load, c(p.stages));
    ringPhase = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, andi(round, c(1)), c(0));
    NVVM::BarrierOp::create(b, loc, Type(), turn, c32(256), NVVM::BarrierReductionAttr(), Value());
    handOffBar = otherTurn;
    handOffCond = ult(add(t, grid), tiles);
    if (failed(mainLoop()))
      return failure();
    scf::YieldOp::create(b, loc, ValueRange{add(q, c(2))});
    return success();
  });
}

void GemmEmitter::storeFromRegisters(Value acc, Value out, Value rowOff, Value colOff) {
  // Thread t of the warpgroup (lane l, warp t / 32 % 4) holds, in 64-row
  // block i, for each 8-column group j, registers 4j + 2h + e at row 64 i +
  // 16 (t / 32 % 4) + l / 4 + 8 h, column 8 j + 2 (l % 4) + e (HopperWgmma.cpp).
  Type outElem = cast<MemRefType>(out.getType()).getElementType();
  Value rows = memref::DimOp::create(b, loc, out, 0), cols = memref::DimOp::create(b, loc, out, 1);
  Value lane = arith::RemUIOp::create(b, loc, tid, c(32));
  Value warp = arith::RemUIOp::create(b, loc, arith::DivUIOp::create(b, loc, tid, c(32)), c(4));
  Value row0 = add(rowOff, add(mul(warp, c(16)), arith::DivUIOp::create(b, loc, lane, c(4))));
  // Two warpgroups of one tile (not ping-pong): warpgroup w's rows start at w wgRows.
  if (!p.pingpong && p.warpgroups > 1)
    row0 = add(row0, mul(arith::DivUIOp::create(b, loc, tid, c(128)), c(wgRows)));
  Value col0 = add(colOff, mul(arith::RemUIOp::create(b, loc, lane, c(4)), c(2)));
  auto pairT = VectorType::get({2}, b.getF32Type()), outT = VectorType::get({2}, outElem);
  auto forEachPair = [&](llvm::function_ref<void(Value r, Value col, Value pair)> store) {
    for (int64_t i = 0; i < wgRows / 64; ++i) {
      Value regs = LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i});
      for (int64_t j = 0; j < p.blockN / 8; ++j)
        for (int64_t h = 0; h < 2; ++h) {
          Value x0 = LLVM::ExtractValueOp::create(b, loc, regs, ArrayRef<int64_t>{4 * j + 2 * h});
          Value x1 = LLVM::ExtractValueOp::create(b, loc, regs, ArrayRef<int64_t>{4 * j + 2 * h + 1});
          Value pair = vector::FromElementsOp::create(b, loc, pairT, ValueRange{x0, x1});
          if (outElem != pairT.getElementType())
            pair = arith::TruncFOp::create(b, loc, outT, pair);
          store(add(row0, c(64 * i + 8 * h)), add(col0, c(8 * j)), pair);
        }
    }
  };
  // The whole tile inside C, whose rows have an even count of elements (each
  // pair aligned to its size): one unchecked store per pair.
  Value inside = andi(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, add(rowOff, c(p.blockM)), rows),
                      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, add(colOff, c(p.blockN)), cols));
  Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, andi(cols, c(1)), c(0));
  auto ifOp = scf::IfOp::create(b, loc, andi(inside, even), /*withElse=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  int64_t pairBytes = 2 * outElem.getIntOrFloatBitWidth() / 8;
  forEachPair([&](Value r, Value col, Value pair) {
    vector::StoreOp::create(b, loc, pair, out, ValueRange{r, col}, /*nontemporal=*/false, llvm::MaybeAlign(pairBytes));
  });
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  forEachPair([&](Value r, Value col, Value pair) {
    ifThen(ult(r, rows), [&] {
      for (int64_t e = 0; e < 2; ++e) {
        Value ce = add(col, c(e));
        ifThen(ult(ce, cols), [&] {
          memref::StoreOp::create(b, loc, vector::ExtractOp::create(b, loc, pair, ArrayRef<int64_t>{e}), out,
                                  ValueRange{r, ce});
        });
      }
    });
  });
}

Value GemmEmitter::zeroAccBlocks() {
  auto accT = accBlocksType(ctx, wgRows, p.blockN);
  Value acc = LLVM::UndefOp::create(b, loc, accT);
  for (int64_t i = 0; i < wgRows / 64; ++i) {
    auto blockT = cast<LLVM::LLVMStructType>(accT.getBody()[i]);
    std::string text, constraints;
    for (size_t r = 0; r < blockT.getBody().size(); ++r) {
      text += "mov.b32 $" + std::to_string(r) + ", 0;";
      constraints += r ? ",=f" : "=f";
    }
    auto zeros = LLVM::InlineAsmOp::create(b, loc, blockT, ValueRange{}, text, constraints, /*has_side_effects=*/true,
                                           /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
                                           LLVM::AsmDialectAttr(), mlir::ArrayAttr());
    acc = LLVM::InsertValueOp::create(b, loc, acc, zeros.getResult(0), ArrayRef<int64_t>{i});
  }
  return acc;
}
