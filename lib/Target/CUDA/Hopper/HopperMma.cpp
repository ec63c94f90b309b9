//===- HopperMma.cpp - The wgmma steps of one pipeline stage --------------===//
//
// The forms of HopperGemm.cpp's loop body that read one stage of A and B
// tiles from shared memory into the accumulator (stageMma): nvgpu's
// warpgroup.mma for the plain 16-bit form, k32 slices for fp8, and
// nvvm.wgmma.mma_async on LLVM struct accumulators for int8, promoted fp8
// and the layout forms (HopperWgmma.cpp); and the struct accumulators'
// stores into the epilogue's scratch tile.
//
//===----------------------------------------------------------------------===//
#include "HopperEmitter.h"
#include "HopperGemm.h"
#include "HopperWgmma.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::hopper;
/// The K width of the wgmma steps over byte tiles (fp8, int8): 32 elements.
static constexpr int64_t kSliceK = 32;

/// The k32 steps of one stage (fp8Mma, int8Mma, promotedMma): the wgmma
/// descriptor of K slice `k` (32 bytes of the 128-byte swizzled rows) of this
/// warpgroup's 64 A rows at byte `off` (`isB` false) or of the blockN B rows
/// at `off` (`isB` true), both K-major.
Value GemmEmitter::kSliceDescriptor(bool isB, Value off, int64_t k) {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto descT =
      nvgpu::WarpgroupMatrixDescriptorType::get(ctx, isB ? MemRefType::get({kSliceK, p.blockN}, elem, AffineMap(), wg)
                                                         : MemRefType::get({wgRows, kSliceK}, elem, AffineMap(), wg));
  auto sliceT = MemRefType::get({isB ? p.blockN : wgRows, kSliceK}, storage, AffineMap(), wg);
  return nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, descT, view(sliceT, add(off, c(k * kSliceK))),
                                                      isB ? tmB : tmA);
}

/// fp8: one k32 wgmma per 32-byte column of the 128-byte swizzled rows of
/// this warpgroup's 64 A rows (at byte `aOff`) and the blockN B rows (at
/// `bOff`), both K-major; the descriptors advance 32 bytes a step inside the
/// swizzle atom. nvgpu.warpgroup.mma's own k iteration assumes an N-major B,
/// so each step is its own op over a 32-wide K slice (transpose_B: K-major B).
/// The steps but the last wait for nothing; the last leaves this iteration's
/// groups in flight (`lag` iterations' worth).
Value GemmEmitter::fp8Mma(Value acc, nvgpu::WarpgroupAccumulatorType accT, Value aOff, Value bOff) {
  int64_t steps = p.blockK / kSliceK;
  for (int64_t k = 0; k < steps; ++k) {
    Value descA = kSliceDescriptor(/*isB=*/false, aOff, k);
    Value descB = kSliceDescriptor(/*isB=*/true, bOff, k);
    int64_t wait = k + 1 < steps ? 7 : lag * steps;
    // No transpose_B attribute: B col-major (K-major), the only fp8 form.
    acc = nvgpu::WarpgroupMmaOp::create(b, loc, accT, descA, descB, b.getI64IntegerAttr(wait), UnitAttr(), UnitAttr(),
                                        acc);
  }
  return acc;
}

/// int8 and fp8 promoted: this warpgroup's accumulator, wgRows x blockN / 128
/// registers (i32 / f32) per thread.
LLVM::LLVMStructType GemmEmitter::accStructType() {
  if (p.ownDescriptors)
    return accBlocksType(ctx, wgRows, p.blockN);
  return LLVM::LLVMStructType::getLiteral(ctx, llvm::SmallVector<Type>(wgRows * p.blockN / 128, accElem));
}

/// int8 and fp8 promoted: the k32 steps of one stage as nvvm.wgmma.mma_async
/// `acc` += A * B (`ab` operands, `d` accumulator), one fence before and one
/// commit after, then a wait that leaves `wait` groups in flight; with
/// `zeroFirst` the first step ignores acc's registers (scale-d = 0).
Value GemmEmitter::wgmmaAsyncStage(Value acc, Value aOff, Value bOff, NVVM::WGMMATypes ab, NVVM::WGMMATypes d,
                                   bool zeroFirst, int64_t wait) {
  auto i64 = b.getI64Type();
  auto toI64 = [&](Value v) { return UnrealizedConversionCastOp::create(b, loc, i64, v).getResult(0); };
  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, p.blockN, kSliceK);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t k = 0; k < p.blockK / kSliceK; ++k) {
    Value descA = toI64(kSliceDescriptor(/*isB=*/false, aOff, k));
    Value descB = toI64(kSliceDescriptor(/*isB=*/true, bOff, k));
    acc = NVVM::WgmmaMmaAsyncOp::create(b, loc, acc.getType(), acc, descA, descB, shape, ab, ab, d,
                                        zeroFirst && k == 0 ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
                                        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
                                        NVVM::MMALayout::col, NVVM::MMAIntOverflowAttr());
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(wait));
  return acc;
}

/// int8: the four k32 steps of one stage (32-byte K slices of the K-major A
/// and B, as fp8Mma) as s32 += s8 * s8; `lag` groups stay in flight.
Value GemmEmitter::int8Mma(Value acc, Value aOff, Value bOff) {
  return wgmmaAsyncStage(acc, aOff, bOff, NVVM::WGMMATypes::s8, NVVM::WGMMATypes::s32, /*zeroFirst=*/false, lag);
}

/// fp8 promoted: the four k32 steps of one stage as f32 += fp8 * fp8 into
/// fresh registers, the first with scale-d = 0 (its input registers are
/// undefined and ignored), and a wait for the group (lag = 0): the product is
/// read right away.
Value GemmEmitter::promotedMma(Value aOff, Value bOff) {
  auto fp8T = isa<Float8E4M3FNType>(elem) ? NVVM::WGMMATypes::e4m3 : NVVM::WGMMATypes::e5m2;
  Value acc = LLVM::UndefOp::create(b, loc, accStructType());
  return wgmmaAsyncStage(acc, aOff, bOff, fp8T, NVVM::WGMMATypes::f32, /*zeroFirst=*/true, /*wait=*/0);
}

/// fp8 promoted: total + part, register by register (both in the wgmma
/// accumulator layout, so element e of one is element e of the other).
Value GemmEmitter::addAcc(Value total, Value part) {
  AtOp at(*this, p.promote);
  for (int64_t e = 0, n = wgRows * p.blockN / 128; e < n; ++e) {
    Value x = LLVM::ExtractValueOp::create(b, loc, total, ArrayRef<int64_t>{e});
    Value y = LLVM::ExtractValueOp::create(b, loc, part, ArrayRef<int64_t>{e});
    total = LLVM::InsertValueOp::create(b, loc, total, arith::AddFOp::create(b, loc, x, y), ArrayRef<int64_t>{e});
  }
  return total;
}

/// int8 and fp8 promoted: the wgmma m64 accumulator layout into the scratch tile: thread
/// t (lane l, warp t / 32 of the block) holds, for each 8-column group j,
/// registers 4j..4j+3 at rows 16 (t / 32) + l / 4 (+ 8 for the last two) and
/// columns 8j + 2 (l % 4) + {0, 1}; warpgroup w's rows land at 64 w.
void GemmEmitter::storeAccStruct(Value acc, Value scratch) {
  Value lane = arith::RemUIOp::create(b, loc, tid, c(32));
  Value row0 = add(mul(arith::DivUIOp::create(b, loc, tid, c(32)), c(16)), arith::DivUIOp::create(b, loc, lane, c(4)));
  Value col0 = mul(arith::RemUIOp::create(b, loc, lane, c(4)), c(2));
  for (int64_t j = 0; j < p.blockN / 8; ++j)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t e = 0; e < 2; ++e) {
        Value x = LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{4 * j + 2 * h + e});
        memref::StoreOp::create(b, loc, x, scratch, ValueRange{add(row0, c(8 * h)), add(col0, c(8 * j + e))});
      }
}

Value GemmEmitter::stageMma(Value accIn, Value slot, Value wgAOffset, nvgpu::WarpgroupAccumulatorType accT,
                            Value &part) {
  AtOp at(*this, p.gemm);
  Value aOff = add(mul(slot, c(aStageBytes)), wgAOffset);
  auto bOff = [&] { return add(c(p.stages * aStageBytes), mul(slot, c(bStageBytes))); };
  if (p.promote) {
    part = promotedMma(aOff, bOff());
    return accIn;
  }
  if (p.ownDescriptors) {
    auto addr = [&](Value off) { return arith::AddIOp::create(b, loc, tiles32, i32(off)).getResult(); };
    Value aAddr = addr(aOff);
    return wgmma16Stage(b, loc, p, accIn, aAddr, addr(bOff()), wgRows, lag);
  }
  if (p.int8)
    return int8Mma(accIn, aOff, bOff());
  if (p.fp8)
    return fp8Mma(accIn, accT, aOff, bOff());
  auto descAT = nvgpu::WarpgroupMatrixDescriptorType::get(ctx, wgATileT);
  auto descBT = nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bTileT);
  Value aTile = view(wgATileT, aOff);
  Value bTile = view(bTileT, bOff());
  Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, descAT, aTile, tmA);
  Value descB = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, descBT, bTile, tmB);
  return nvgpu::WarpgroupMmaOp::create(b, loc, accT, descA, descB, b.getI64IntegerAttr(lag), UnitAttr(),
                                       b.getUnitAttr(), accIn);
}

int64_t GemmEmitter::tmaStoreTileBytes() {
  Type outElem = cast<MemRefType>(p.outTensor().getType()).getElementType();
  return p.blockM * p.blockN * outElem.getIntOrFloatBitWidth() / 8;
}

/// After the f32 scratch tile (blockM x (blockN + pad) x 4 bytes: a multiple
/// of 256, so 128-byte aligned as the TMA wants).
static int64_t tmaStoreTileOffset(const HopperGemmPlan &p) { return p.blockM * (p.blockN + kEpiloguePad) * 4; }

Value GemmEmitter::tmaStoreTile(Type outElem) {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return view(MemRefType::get({p.blockM, p.blockN}, outElem, AffineMap(), wg), c(tmaStoreTileOffset(p)));
}

void GemmEmitter::tmaStoreOut(Value rowOff, Value colOff) {
  // Each thread's shared-memory writes, visible to the async proxy, then all of them.
  createInlinePTX(b, loc, "fence.proxy.async.shared::cta;", "", {});
  syncConsumers();
  ifThen(isThread0, [&] {
    Value src = arith::AddIOp::create(b, loc, tiles32, i32(c(tmaStoreTileOffset(p))));
    createInlinePTX(b, loc, "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$1, $2}], [$3];", "l,r,r,r",
                    {tmCPtr, i32(colOff), i32(rowOff), src});
    createInlinePTX(b, loc, "cp.async.bulk.commit_group;", "", {});
    // The tile must stay until the TMA has read it (the block's exit frees it).
    createInlinePTX(b, loc, "cp.async.bulk.wait_group.read 0;", "", {});
  });
}
