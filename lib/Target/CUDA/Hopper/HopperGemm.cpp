//===- HopperGemm.cpp - TMA + mbarrier + WGMMA body of a gemm kernel ------===//
//
// For a matched kernel (HopperPlan.h), with W = 1 or 2 consumer warpgroups
// (128 W threads; warpgroup w computes rows [w blockM / W, (w + 1) blockM / W)
// of the tile) and S = num_stages shared buffers per operand:
// 1. two kernel parameters more: the CUtensorMaps of A (box K x M; A K x M,
//    transpose_A: boxes of 64 columns x K) and B (boxes of 64 columns x K;
//    B N x K, transpose_B: one box K x N), both 128-byte swizzled, which the
//    launcher encodes (`tile.tensor_maps`) and passes as __grid_constant__
//    parameters;
// 2. dynamic shared memory aligned to 1 KB at run time, S "full" mbarriers
//    (TMA transaction counts) and S "empty" mbarriers (128 W arrivals);
// 3. prologue: the producer issues the TMA loads of the first stages; the
//    producer is one elected lane (elect.sync) of warp 0, behind a
//    warp-uniform branch (createIsWarp0), so that the other warps skip the
//    issue with one branch; its loads are inline PTX on 32-bit shared
//    addresses (TMAParams.cpp);
// 4. main loop over k: wait full[k % S]; wgmma (A and B from shared memory,
//    one group kept in flight); each thread releases the stage whose wgmma
//    completed on empty[]; the producer waits that release and refills the
//    stage with the loads of iteration k + S - 1. The stage k % S and its
//    phase parity (k / S) & 1 are carried across iterations (no division);
// 5. epilogue: accumulator -> padded f32 shared tile -> 16-byte vector
//    stores of C, bounds-checked for ragged M and N; thread 0 invalidates
//    the mbarriers last. Split-K (T.atomic_add epilogue, f16/bf16 C, the
//    16-bit and the fp8 forms alike): the 8 converted columns are added with
//    red.global.add.noftz.f16x2 / .bf16x2 instead (atomicAddChunk).
// Warp-specialized (--hopper-ws=on; HopperWarpSpecialized.cpp): a producer
// warpgroup more runs 3. and 4.'s loads in a loop of its own, and the
// consumers' loop keeps only the waits, wgmmas and releases of 4.
// 16-bit operands in the layouts other than A M x K, B K x N (and that one
// for warpgroup tiles nvgpu's accumulator store does not place) build their
// wgmma descriptors themselves, the major order in the transpose immediates,
// on LLVM struct accumulators (ownDescriptors, HopperWgmma.cpp).
// fp8 (e4m3/e5m2, transpose_B only): tiles are bytes, B is N x K in one box
// of block_N rows x 128 bytes, and each stage is four k32 wgmmas over
// 32-byte K slices of the K-major A and B (fp8Mma).
// int8 (transpose_B only): the same tiles and k32 steps, but nvgpu.warpgroup.mma
// takes only f32 accumulators, so the four steps are nvvm.wgmma.mma_async ops
// (s32 += s8 * s8) in one wgmma group on an LLVM struct of i32 registers,
// which the epilogue writes to an i32 shared tile itself (int8Mma,
// storeAccStruct).
// fp8 promoted (HopperPlan.h: gemm with clear_accum into C_local, T.Parallel
// C_acc += C_local): the stage's four k32 steps are nvvm.wgmma.mma_async ops
// (f32 += e4m3/e5m2 products) on an LLVM struct of f32 registers, the first
// with scale-d = 0 (the k tile starts from zero, no register clearing); the
// group is waited for in the same iteration (no wgmma group in flight across
// iterations, the TMA loads of the next stages still are), the stage is
// released, and the registers are added into C_acc's registers (the same
// wgmma m64 layout), which the epilogue stores (promotedMma, storeAccStruct).
// Registers: two accumulators of wgRows x blockN / 128 f32 each per thread.
//
//===----------------------------------------------------------------------===//
#include "HopperGemm.h"

#include "HopperEmitter.h"
#include "HopperWgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tilec-hopper"

using namespace mlir;
using namespace tilec;
using namespace tilec::hopper;

void GemmEmitter::setUpTypes() {
  elem = cast<MemRefType>(p.gemm.getA().getType()).getElementType();
  // fp8 tiles are bytes in shared memory (the CUDA target stores fp8 as i8);
  // only the wgmma descriptors carry the fp8 type.
  storage = p.kMajor() ? (Type)IntegerType::get(ctx, 8) : elem;
  accElem = p.int8 ? (Type)IntegerType::get(ctx, 32) : (Type)Float32Type::get(ctx);
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  threads = 128 * p.warpgroups;
  wgRows = p.blockM / p.warpgroups;
  wgATileT = MemRefType::get({wgRows, p.blockK}, storage, AffineMap(), wg);
  bTileT = MemRefType::get({p.blockK, p.blockN}, storage, AffineMap(), wg);
  auto space3 = IntegerAttr::get(IntegerType::get(ctx, 64), 3);
  // K-major tiles (cols = blockK) are swizzled as wide as their rows.
  auto tensorMap = [&](int64_t rows, int64_t cols) {
    int64_t bytes = cols * p.elemBytes;
    auto swizzle = bytes == 32   ? nvgpu::TensorMapSwizzleKind::SWIZZLE_32B
                   : bytes == 64 ? nvgpu::TensorMapSwizzleKind::SWIZZLE_64B
                                 : nvgpu::TensorMapSwizzleKind::SWIZZLE_128B;
    return nvgpu::TensorMapDescriptorType::get(ctx, MemRefType::get({rows, cols}, storage, AffineMap(), space3),
                                               swizzle, nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
                                               nvgpu::TensorMapOOBKind::OOB_ZERO,
                                               nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  };
  // A M x K: one box of blockM rows of blockK elements; A K x M (transpose_A):
  // boxes of 64 columns.
  tmAT = p.transA ? tensorMap(p.blockK, kBoxN) : tensorMap(p.blockM, p.blockK);
  // B N x K (transpose_B; fp8, int8): one box of blockN rows of blockK elements.
  tmBT = p.bKMajor() ? tensorMap(p.blockN, p.blockK) : tensorMap(p.blockK, kBoxN);
  aStageBytes = p.blockM * p.blockK * p.elemBytes;
  bStageBytes = p.blockK * p.blockN * p.elemBytes;
  // The promoted form adds each k tile's product right after its wgmmas:
  // nothing stays in flight across iterations.
  lag = p.stages > 1 && !p.promote ? 1 : 0;
}

/// Block indices, rasterized in panels when the kernel asks (same order as
/// the mma.sync path: consecutive blocks sweep a panel of `panel` rows).
void GemmEmitter::blockIndices() {
  AtOp at(*this, launch);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  mapBlockIndices(bx, by, [&] {
    return std::pair<Value, Value>(gpu::GridDimOp::create(b, loc, gpu::Dimension::x),
                                   gpu::GridDimOp::create(b, loc, gpu::Dimension::y));
  });
}

/// Maps the launch's block indices to (`bx`, `by`) rasterized by the
/// kernel's T.use_swizzle over the grid extents `extents()` gives, and a
/// third one to blockIdx.z.
void GemmEmitter::mapBlockIndices(Value bx, Value by, llvm::function_ref<std::pair<Value, Value>()> extents) {
  auto ids = launch.getBlockIndices();
  if (p.swizzle && ids.size() >= 2) {
    auto [nx, ny] = extents();
    bool rows = p.swizzle.getOrder() != "col";
    if (!rows) {
      std::swap(bx, by);
      std::swap(nx, ny);
    }
    int64_t panel = p.swizzle.getPanelSize();
    Value linear = add(bx, mul(by, nx));
    Value perPanel = mul(nx, c(panel));
    Value panelIdx = arith::DivUIOp::create(b, loc, linear, perPanel);
    Value inPanel = arith::RemUIOp::create(b, loc, linear, perPanel);
    Value first = mul(panelIdx, c(panel));
    Value height = arith::MinUIOp::create(b, loc, arith::SubIOp::create(b, loc, ny, first), c(panel));
    Value newY = add(first, arith::RemUIOp::create(b, loc, inPanel, height));
    Value newX = arith::DivUIOp::create(b, loc, inPanel, height);
    bx = rows ? newX : newY;
    by = rows ? newY : newX;
  }
  Value xyz[2] = {bx, by};
  for (unsigned i = 0; i < ids.size() && i < 2; ++i)
    map.map(ids[i], xyz[i]);
  if (ids.size() > 2)
    map.map(ids[2], gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
}

void GemmEmitter::setUpSharedMemory() {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  smem = gpu::DynamicSharedMemoryOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8), AffineMap(), wg));
  // 128-byte swizzled tiles must start on a 1 KB boundary of the shared
  // window; the static mbarriers shift the dynamic part, so align at run time.
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, b.getIndexType(), smem);
  Value rem = arith::AndIOp::create(b, loc, base, c(1023));
  alignPad = arith::AndIOp::create(b, loc, arith::SubIOp::create(b, loc, c(1024), rem), c(1023));
  tiles32 = i32(add(base, alignPad));
  auto groupT = nvgpu::MBarrierGroupType::get(ctx, wg, p.stages);
  full = nvgpu::MBarrierCreateOp::create(b, loc, groupT);
  empty = nvgpu::MBarrierCreateOp::create(b, loc, groupT);
  ifThen(isThread0, [&] {
    for (int64_t s = 0; s < p.stages; ++s) {
      nvgpu::MBarrierInitOp::create(b, loc, full, c(1), c(s), Value());
      nvgpu::MBarrierInitOp::create(b, loc, empty, c(threads), c(s), Value());
    }
    // Make the initialised barriers visible to the TMA unit (async proxy)
    // before any copy completes on them.
    NVVM::FenceMbarrierInitOp::create(b, loc);
    nvgpu::TmaPrefetchOp::create(b, loc, tmA, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, tmB, Value());
  });
  gpu::BarrierOp::create(b, loc);
}

/// Thread 0 invalidates every mbarrier once no thread uses them any more: the
/// next block on this multiprocessor may place tiles where they were.
void GemmEmitter::invalidateBarriers() {
  syncConsumers();
  ifThen(isThread0, [&] {
    auto ptrT = LLVM::LLVMPointerType::get(ctx, 3);
    for (Value group : {full, empty})
      for (int64_t s = 0; s < p.stages; ++s) {
        Value addr = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), group, c(s));
        NVVM::MBarrierInvalOp::create(b, loc, LLVM::IntToPtrOp::create(b, loc, ptrT, addr));
      }
  });
}

/// The producer: the TMA loads of loop iteration `iter` into stage `slot`.
void GemmEmitter::issueLoads(Value iter, Value slot) {
  AtOp atLoad(*this, p.loadA);
  tile::ForOp loop = p.loop;
  IRMapping m = map;
  Value iv = add(map.lookupOrDefault(loop.getLowerBound()), mul(iter, map.lookupOrDefault(loop.getStep())));
  m.map(loop.getInductionVar(), iv);
  for (Operation &op : *loop.getBodyBlock())
    if (!isa<tile::TileDialect>(op.getDialect()) && !op.hasTrait<OpTrait::IsTerminator>())
      b.clone(op, m);
  Value aRow = m.lookupOrDefault(p.loadA.getSrcOffsets()[0]), aCol = m.lookupOrDefault(p.loadA.getSrcOffsets()[1]);
  Value bRow = m.lookupOrDefault(p.loadB.getSrcOffsets()[0]), bCol = m.lookupOrDefault(p.loadB.getSrcOffsets()[1]);
  Value bar = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), full, slot);
  createArriveExpectTx(b, loc, bar, aStageBytes + bStageBytes);
  auto at = [&](Value byteOffset) { return arith::AddIOp::create(b, loc, tiles32, i32(byteOffset)).getResult(); };
  if (p.transA) {
    // A is K x M: (aRow, aCol) = (k, m), boxes of 64 columns of blockK rows.
    Value aBase = mul(slot, c(aStageBytes));
    for (int64_t j = 0; j < p.blockM / kBoxN; ++j)
      createTMALoad2D(b, loc, at(add(aBase, c(j * p.blockK * kBoxN * p.elemBytes))), tmAPtr,
                      i32(add(aCol, c(j * kBoxN))), i32(aRow), bar);
  } else {
    createTMALoad2D(b, loc, at(mul(slot, c(aStageBytes))), tmAPtr, i32(aCol), i32(aRow), bar);
  }
  loc = p.loadB->getLoc();
  Value bBase = add(c(p.stages * aStageBytes), mul(slot, c(bStageBytes)));
  if (p.bKMajor()) {
    // B is N x K: (bRow, bCol) = (n, k), one box of blockN rows.
    createTMALoad2D(b, loc, at(bBase), tmBPtr, i32(bCol), i32(bRow), bar);
    return;
  }
  for (int64_t j = 0; j < p.blockN / kBoxN; ++j) {
    Value bDst = at(add(bBase, c(j * p.blockK * kBoxN * p.elemBytes)));
    createTMALoad2D(b, loc, bDst, tmBPtr, i32(add(bCol, c(j * kBoxN))), i32(bRow), bar);
  }
}

/// Index arithmetic of the launch body before the loop (loop bounds), then
/// the k loop's trip count.
void GemmEmitter::tileSetUp() {
  for (Operation &op : *launch.getBodyBlock()) {
    if (&op == p.loop.getOperation())
      break;
    if (!isa<tile::TileDialect>(op.getDialect()))
      b.clone(op, map);
  }
  countIterations();
}

/// The k loop's trip count, ceil((ub - lb) / step), which every thread computes.
void GemmEmitter::countIterations() {
  tile::ForOp loop = p.loop;
  Value lb = map.lookupOrDefault(loop.getLowerBound()), ub = map.lookupOrDefault(loop.getUpperBound());
  Value step = map.lookupOrDefault(loop.getStep());
  Value span = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb), c(0));
  numIters = arith::CeilDivUIOp::create(b, loc, span, step);
}

/// The consumers' loop (and, not warp-specialized, the producer's prologue
/// and refills inside it), then the epilogue.
LogicalResult GemmEmitter::mainLoop() {
  AtOp at(*this, p.loop);
  // Prologue: the loads of iterations [0, S - lag). A warp-specialized
  // kernel's producer warpgroup issues every load itself (producerLoop).
  if (!p.warpSpecialized)
    producer([&] {
      for (int64_t s = 0; s < p.stages - lag; ++s)
        ifThen(ult(c(s), numIters), [&] { issueLoads(c(s), c(s)); });
    });
  auto accT = nvgpu::WarpgroupAccumulatorType::get(ctx, VectorType::get({wgRows, p.blockN}, b.getF32Type()));
  // This warpgroup's rows of the A stage (128-byte rows, so a multiple of 1 KB).
  // Ping-pong: each warpgroup reads the whole A tile.
  Value wgAOffset =
      p.pingpong ? c(0) : mul(arith::DivUIOp::create(b, loc, tid, c(128)), c(wgRows * p.blockK * p.elemBytes));
  Value acc0;
  {
    AtOp atFill(*this, p.fill); // T.clear of the accumulator
    acc0 = p.registerEpilogue ? zeroAccBlocks()
           : p.structAcc()    ? (Value)LLVM::ZeroOp::create(b, loc, accStructType())
                              : (Value)nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accT);
  }
  // Carried besides the accumulator: the stage of iteration i (i % S) and
  // its phase parity ((i / S) & 1, i1), and with lag 1 those of iteration
  // i - 1 (the stage released and refilled; S - 1 and round -1 for i = 0).
  Value phase0 = arith::ConstantIntOp::create(b, loc, 0, 1), phase1 = arith::ConstantIntOp::create(b, loc, 1, 1);
  // Persistent: the ring's stage and parity run on from the previous tile.
  llvm::SmallVector<Value> inits = {acc0, ringSlot ? ringSlot : c(0), ringPhase ? ringPhase : phase0};
  if (lag)
    inits.append({c(p.stages - 1), phase1});
  auto forOp = scf::ForOp::create(b, loc, c(0), numIters, c(1), inits);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(forOp.getBody());
    Value i = forOp.getInductionVar();
    Value slot = forOp.getRegionIterArg(1), phase = forOp.getRegionIterArg(2);
    Value doneSlot = lag ? forOp.getRegionIterArg(3) : slot, donePhase = lag ? forOp.getRegionIterArg(4) : phase;
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, full, phase, c(10000000), slot);
    Value part;
    Value acc = stageMma(forOp.getRegionIterArgs()[0], slot, wgAOffset, accT, part);
    // Iteration r = i - lag has finished reading its stage: release it, and
    // let the producer refill it (stage r % S = (r + S) % S) with iteration
    // r + S once all threads released it.
    Value done = arith::SubIOp::create(b, loc, i, c(lag));
    Value released = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, done, c(0));
    auto tokenT = nvgpu::MBarrierTokenType::get(ctx);
    ifThen(released, [&] { nvgpu::MBarrierArriveOp::create(b, loc, tokenT, empty, doneSlot); });
    Value next = add(done, c(p.stages));
    if (!p.warpSpecialized)
      ifThen(slt(next, numIters), [&] {
        producer([&] {
          ifThen(released,
                 [&] { nvgpu::MBarrierTryWaitParityOp::create(b, loc, empty, donePhase, c(10000000), doneSlot); });
          issueLoads(next, doneSlot);
        });
      });
    // Promotion, after the stage is released (the producer has refilled it).
    if (part)
      acc = addAcc(acc, part);
    auto [slotAfter, phaseAfter] = advanceStage(slot, phase, phase1);
    llvm::SmallVector<Value> yields = {acc, slotAfter, phaseAfter};
    if (lag)
      yields.append({slot, phase});
    scf::YieldOp::create(b, loc, yields);
  }
  // Ping-pong: the other warpgroup's turn starts while these wgmmas finish.
  if (p.pingpong)
    ifThen(handOffCond,
           [&] { NVVM::BarrierArriveOp::create(b, loc, handOffBar, arith::ConstantIntOp::create(b, loc, 256, 32)); });
  if (lag)
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
  if (p.persistent) {
    // The last iteration's stage, whose wgmma group just completed, is
    // released here: the producer refills it with the next tile's loads.
    if (lag)
      ifThen(ult(c(0), numIters), [&] {
        nvgpu::MBarrierArriveOp::create(b, loc, nvgpu::MBarrierTokenType::get(ctx), empty, forOp.getResult(3));
      });
    ringSlot = forOp.getResult(1);
    ringPhase = forOp.getResult(2);
  }
  epilogue(forOp.getResult(0));
  return success();
}

/// The stage and phase parity after those of iteration i: (i + 1) % S, and
/// the parity flipped (xor `phase1`, the i1 constant 1) when the stage wraps.
std::pair<Value, Value> GemmEmitter::advanceStage(Value slot, Value phase, Value phase1) {
  Value lastSlot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot, c(p.stages - 1));
  Value slotAfter = arith::SelectOp::create(b, loc, lastSlot, c(0), add(slot, c(1)));
  Value phaseAfter = arith::SelectOp::create(b, loc, lastSlot, arith::XOrIOp::create(b, loc, phase, phase1), phase);
  return {slotAfter, phaseAfter};
}

/// Split-K: `red.global.add.noftz` of `addr` += `x` (an f16x2/bf16x2 pair as
/// i32, or one f16/bf16 as i16). LLVM 22's NVPTX backend expands atomicrmw
/// fadd on <2 x half> / <2 x bfloat> into a compare-and-swap loop, so the
/// reduction is one inline PTX instruction (relaxed, gpu scope: PTX's default).
void GemmEmitter::red(Value addr, Value x, bool pair) {
  bool bf16 = cast<MemRefType>(p.outTensor().getType()).getElementType().isBF16();
  std::string text = std::string("red.global.add.noftz.") + (bf16 ? "bf16" : "f16") + (pair ? "x2" : "") + " [$0], $1;";
  createInlinePTX(b, loc, text, pair ? "l,r" : "l,h", {addr, x});
}

/// Split-K: adds the 8 converted values `v` (f16/bf16) at C[gr, gc..gc+7]
/// into C: four f16x2/bf16x2 reductions when the chunk lies inside C and
/// starts at an even element (4-byte aligned pairs), otherwise one 16-bit
/// reduction per column inside C (ragged N edge, odd offsets).
void GemmEmitter::atomicAddChunk(Value v, Value out, Value gr, Value gc, Value cols, Value rowOk, Value whole) {
  auto i64 = b.getI64Type();
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, b.getIndexType(), out);
  Value elemIdx = add(mul(gr, cols), gc);
  auto ptrAt = [&](Value idx) {
    Value a = arith::IndexCastUIOp::create(b, loc, i64, add(base, mul(idx, c(2))));
    Value generic = LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx), a);
    return LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 1), generic).getResult();
  };
  Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, andi(elemIdx, c(1)), c(0));
  auto ifOp = scf::IfOp::create(b, loc, andi(whole, even), /*withElse=*/true);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value pairs = vector::BitCastOp::create(b, loc, VectorType::get({4}, b.getI32Type()), v);
  for (int64_t e = 0; e < 4; ++e)
    red(ptrAt(add(elemIdx, c(2 * e))), vector::ExtractOp::create(b, loc, pairs, ArrayRef<int64_t>{e}), true);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  ifThen(rowOk, [&] {
    for (int64_t e = 0; e < 8; ++e)
      ifThen(ult(add(gc, c(e)), cols), [&] {
        Value x = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e});
        red(ptrAt(add(elemIdx, c(e))), arith::BitcastOp::create(b, loc, b.getI16Type(), x), false);
      });
  });
}

void GemmEmitter::epilogue(Value acc) {
  AtOp at(*this, p.epilogueOp());
  // Offsets of the C tile: the ops between the loop and the store.
  for (Operation *op = p.loop->getNextNode(); op && op != p.epilogueOp(); op = op->getNextNode())
    if (!isa<tile::TileDialect>(op->getDialect()))
      b.clone(*op, map);
  Value out = map.lookupOrDefault(p.outTensor());
  Value rowOff = map.lookupOrDefault(p.outOffsets()[0]), colOff = map.lookupOrDefault(p.outOffsets()[1]);
  if (p.registerEpilogue) {
    storeFromRegisters(acc, out, rowOff, colOff);
    return;
  }
  int64_t ld = p.blockN + kEpiloguePad, passes = p.epiloguePasses();
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  // Persistent: after the stages, which the producer refills meanwhile.
  int64_t scratchAt = p.persistent ? p.stages * (aStageBytes + bStageBytes) : 0;
  auto tileT = MemRefType::get({p.blockM, ld}, accElem, AffineMap(), wg);
  for (int64_t pass = 0; pass < passes; ++pass) {
    syncConsumers();
    Value scratch = view(tileT, c(scratchAt));
    // The store's lowering adds 16 rows per warp index (tid / 32), so every
    // warpgroup stores through the same view of the first wgRows rows and
    // warpgroup w's rows land at wgRows w of the scratch tile. By
    // warpgroup (passes > 1): pass w's warpgroup stores through a view
    // wgRows w rows lower, its rows landing at the tile's first.
    if (passes == 1) {
      storeAcc(acc, scratch);
    } else {
      Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         arith::DivUIOp::create(b, loc, tid, c(128)), c(pass));
      ifThen(here, [&] { storeAcc(acc, view(tileT, c(scratchAt - pass * wgRows * ld * 4))); });
    }
    syncConsumers();
    storeRows(scratch, out, rowOff, colOff, pass * p.epilogueRows());
  }
}

/// The accumulator into the f32 tile `scratch` (each warpgroup its rows).
void GemmEmitter::storeAcc(Value acc, Value scratch) {
  if (p.ownDescriptors) {
    storeAccBlocks(b, loc, acc, scratch, tid, wgRows, p.blockN);
  } else if (p.structAcc()) {
    storeAccStruct(acc, scratch);
  } else {
    Value tileView = memref::SubViewOp::create(b, loc, scratch, ArrayRef<int64_t>{0, 0},
                                               ArrayRef<int64_t>{wgRows, p.blockN}, ArrayRef<int64_t>{1, 1});
    nvgpu::WarpgroupMmaStoreOp::create(b, loc, acc, tileView);
  }
}

/// The f32 tile's epilogueRows() rows into C at row rowOff + `rowBase`.
void GemmEmitter::storeRows(Value scratch, Value out, Value rowOff, Value colOff, int64_t rowBase) {
  // 8 columns per thread and step: one 16-byte store of f16/bf16 C.
  Type outElem = cast<MemRefType>(out.getType()).getElementType();
  Value rows = memref::DimOp::create(b, loc, out, 0), cols = memref::DimOp::create(b, loc, out, 1);
  int64_t chunksPerRow = p.blockN / 8, steps = p.epilogueRows() * chunksPerRow / threads;
  auto loopOp = scf::ForOp::create(b, loc, c(0), c(steps), c(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loopOp.getBody());
  Value chunk = add(mul(loopOp.getInductionVar(), c(threads)), tid);
  Value r = arith::DivUIOp::create(b, loc, chunk, c(chunksPerRow));
  Value col = mul(arith::RemUIOp::create(b, loc, chunk, c(chunksPerRow)), c(8));
  Value v = vector::LoadOp::create(b, loc, VectorType::get({8}, accElem), scratch, ValueRange{r, col});
  if (outElem != accElem)
    v = arith::TruncFOp::create(b, loc, VectorType::get({8}, outElem), v);
  if (p.tmaStore) {
    vector::StoreOp::create(b, loc, v, tmaStoreTile(outElem), ValueRange{r, col});
    b.setInsertionPointAfter(loopOp);
    tmaStoreOut(rowOff, colOff);
    return;
  }
  Value gr = add(rowOff, rowBase ? add(r, c(rowBase)) : r), gc = add(colOff, col);
  Value rowOk = ult(gr, rows);
  Value whole = andi(rowOk, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, add(gc, c(8)), cols));
  if (p.atomic) {
    atomicAddChunk(v, out, gr, gc, cols, rowOk, whole);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, whole, /*withElse=*/true);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  vector::StoreOp::create(b, loc, v, out, ValueRange{gr, gc}, /*nontemporal=*/false,
                          llvm::MaybeAlign(outElem.isF32() ? 16 : 16));
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  ifThen(rowOk, [&] {
    for (int64_t e = 0; e < 8; ++e) {
      Value ge = add(gc, c(e));
      ifThen(ult(ge, cols), [&] {
        Value x = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e});
        memref::StoreOp::create(b, loc, x, out, ValueRange{gr, ge});
      });
    }
  });
}

LogicalResult GemmEmitter::run(unsigned firstDescArg) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  setUpTypes();
  Block &kernelEntry = kernel.getBody().front();
  for (auto [src, dst] : llvm::zip(kernelEntry.getArguments(), entry.getArguments()))
    map.map(src, dst);
  for (Operation &op : kernelEntry) {
    if (&op == launch.getOperation())
      break;
    b.clone(op, map);
  }
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  isThread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, c(0));
  isWarp0 = createIsWarp0(b, loc, tid);
  auto cast = [&](unsigned arg, Type t) {
    return UnrealizedConversionCastOp::create(b, loc, t, entry.getArgument(arg)).getResult(0);
  };
  tmAPtr = entry.getArgument(firstDescArg);
  tmBPtr = entry.getArgument(firstDescArg + 1);
  if (p.tmaStore)
    tmCPtr = entry.getArgument(firstDescArg + 2);
  tmA = cast(firstDescArg, tmAT);
  tmB = cast(firstDescArg + 1, tmBT);
  if (!p.persistent)
    blockIndices();
  setUpSharedMemory();
  if (!p.persistent)
    tileSetUp();
  if (p.pingpong) {
    if (failed(pingpongLoops()))
      return failure();
  } else if (p.persistent) {
    if (failed(persistentLoops()))
      return failure();
  } else if (p.warpSpecialized) {
    if (failed(warpSpecializedLoop()))
      return failure();
  } else {
    if (failed(mainLoop()))
      return failure();
    invalidateBarriers();
  }
  gpu::ReturnOp::create(b, loc);
  int64_t pipeline = p.stages * (aStageBytes + bStageBytes);
  int64_t epilogueBytes = p.scratchBytes() + (p.tmaStore ? tmaStoreTileBytes() : 0);
  // Ping-pong stores from registers: the stages only.
  tile::setSharedBytes(func, 1024 + (p.pingpong     ? pipeline
                                     : p.persistent ? pipeline + epilogueBytes
                                                    : std::max(pipeline, epilogueBytes)));
  return success();
}

FailureOr<bool> tilec::hopper::lowerGemmKernel(tile::KernelOp kernel, tile::LaunchOp launch, gpu::GPUFuncOp func,
                                               const TargetInfo &target, HopperWarpSpecialization ws, bool tmaStore,
                                               HopperPersistence persistent) {
  llvm::StringRef whyNot;
  std::optional<HopperGemmPlan> plan = matchGemmKernel(kernel, launch, target, &whyNot, ws, tmaStore, persistent);
  if (target.hasWarpgroupMMA())
    recordWgmmaDecision(func, launch, plan ? &*plan : nullptr, whyNot);
  if (!plan) {
    LLVM_DEBUG(llvm::dbgs() << "tilec-hopper: " << kernel.getSymName() << " keeps the mma.sync path: " << whyNot
                            << "\n");
    return false;
  }
  MLIRContext *ctx = func.getContext();
  ctx->getOrLoadDialect<nvgpu::NVGPUDialect>();
  ctx->getOrLoadDialect<NVVM::NVVMDialect>();
  // 1. The descriptor parameters (after every kernel argument) and what the
  //    launcher encodes into them.
  Type elem = cast<MemRefType>(plan->gemm.getA().getType()).getElementType();
  auto argOf = [](tile::CopyOp load) { return cast<BlockArgument>(load.getSrc()).getArgNumber(); };
  llvm::SmallVector<TMADescriptorSpec> specs;
  if (plan->transA)
    specs.push_back({argOf(plan->loadA), kBoxN, plan->blockK, elem});
  else
    specs.push_back({argOf(plan->loadA), plan->blockK, plan->blockM, elem, plan->kRowBytes()});
  if (plan->bKMajor())
    specs.push_back({argOf(plan->loadB), plan->blockK, plan->blockN, elem, plan->kRowBytes()});
  else
    specs.push_back({argOf(plan->loadB), kBoxN, plan->blockK, elem});
  // The TMA store's: C in one box of the tile, not swizzled.
  if (plan->tmaStore)
    specs.push_back({cast<BlockArgument>(plan->outTensor()).getArgNumber(), plan->blockN, plan->blockM,
                     cast<MemRefType>(plan->outTensor().getType()).getElementType(), /*swizzle=*/0});
  FailureOr<unsigned> first = appendTMADescriptorParams(func, specs);
  if (failed(first))
    return failure();
  // A warp-specialized kernel runs one warpgroup more: the launcher reads
  // the block size from tile.threads.
  if (plan->warpSpecialized) {
    auto block = static_cast<int32_t>(plan->blockThreads());
    func.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(ctx, {block, 1, 1}));
    tile::setThreads(func, {block, 1, 1});
    // .minnctapersm beside .maxntid: ptxas then knows the register count at
    // entry (HopperPlan.h, entryRegs), without which it ignores setmaxnreg
    // (C7508).
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  IntegerAttr::get(IntegerType::get(ctx, 32), plan->minBlocksPerSM()));
  }
  if (plan->persistent)
    func->setAttr(kPersistentBlocksAttr, IntegerAttr::get(IntegerType::get(ctx, 64), plan->persistentBlocksPerSM));
  // 2.-5. The body.
  GemmEmitter e(*plan, kernel, launch, func);
  if (failed(e.run(*first)))
    return failure();
  return true;
}
