//===- HopperWgmma.cpp - wgmma on descriptors of either major order -------===//
//
// The 16-bit gemms of the Hopper path that build their own wgmma
// descriptors (HopperPlan.h, ownDescriptors):
//   NT  A M x K (K-major),  B N x K (K-major)     imm-trans-a 0, imm-trans-b 0
//   TN  A K x M (MN-major), B K x N (MN-major)    imm-trans-a 1, imm-trans-b 1
//   TT  A K x M (MN-major), B N x K (K-major)     imm-trans-a 1, imm-trans-b 0
//   NN  A M x K (K-major),  B K x N (MN-major)    imm-trans-a 0, imm-trans-b 1
// NN only for warpgroup tiles nvgpu.warpgroup.mma's accumulator store does
// not place (more than 64 rows per warpgroup unless one warpgroup of N =
// 128); the other NN tiles stay nvgpu.warpgroup.mma's. The TMA
// writes both with the 128-byte swizzle into 1 KB aligned tiles:
// - a K-major operand as rows of 128 bytes along K (blockK = 64 16-bit
//   elements), 8-row groups 1 KB apart: descriptor stride (SBO) 1 KB, the
//   leading offset unused; a 16-deep K step starts 32 bytes further into the
//   rows, a 64-row block 8 KB further;
// - a MN-major operand as boxes of 64 elements along M or N (128 bytes) by
//   blockK rows along K: SBO 1 KB (8 K rows), leading offset (LBO) the box
//   size, blockK x 128 bytes, from one 64-wide M or N slice to the next; a K
//   step starts 16 rows (2 KB) further, a 64-row block of A one box further.
// The accumulator is one LLVM struct of blockN / 2 f32 registers per 64-row
// block (the m64nNk16 fragment) in a struct, fed to nvvm.wgmma.mma_async
// (K steps outside, blocks inside, so that consecutive wgmmas write
// different accumulators) and stored by the epilogue itself.
//
//===----------------------------------------------------------------------===//
#include "HopperWgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::hopper;

namespace {
/// Bytes of one row of the 128-byte swizzle atom, and of its 8-row group.
constexpr int64_t kSwizzleRow = 128;
/// Elements per 16-deep K step of a 16-bit wgmma; M rows per instruction.
constexpr int64_t kStepK = 16, kBlockM = 64;
} // namespace

LLVM::LLVMStructType tilec::hopper::accBlocksType(MLIRContext *ctx, int64_t wgRows, int64_t blockN) {
  auto block = LLVM::LLVMStructType::getLiteral(ctx, llvm::SmallVector<Type>(blockN / 2, Float32Type::get(ctx)));
  return LLVM::LLVMStructType::getLiteral(ctx, llvm::SmallVector<Type>(wgRows / kBlockM, block));
}

Value tilec::hopper::wgmmaDescriptor(OpBuilder &b, Location loc, Value addr, bool mnMajor, int64_t kRows,
                                     int64_t rowBytes) {
  Type i64 = b.getI64Type();
  auto k64 = [&](uint64_t v) { return arith::ConstantIntOp::create(b, loc, i64, (int64_t)v).getResult(); };
  // Bits 0-13: the start address >> 4 (shared addresses are below 256 KB).
  Value start = arith::ShRUIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, addr), k64(4));
  start = arith::AndIOp::create(b, loc, start, k64(0x3FFF));
  // Bits 16-29 the leading byte offset >> 4 (K-major swizzled: unused, 1),
  // 32-45 the stride byte offset >> 4 (8 rows), 62-63 the layout: 1, 2, 3 =
  // 128-, 64-, 32-byte swizzle.
  int64_t row = mnMajor ? kSwizzleRow : rowBytes;
  uint64_t lbo = mnMajor ? (uint64_t)kRows * kSwizzleRow >> 4 : 1;
  uint64_t layout = row == 128 ? 1 : row == 64 ? 2 : 3;
  uint64_t fields = (layout << 62) | ((uint64_t)(8 * row) >> 4 << 32) | (lbo << 16);
  return arith::OrIOp::create(b, loc, start, k64(fields));
}

Value tilec::hopper::wgmma16Stage(OpBuilder &b, Location loc, const HopperGemmPlan &p, Value acc, Value aAddr,
                                  Value bAddr, int64_t wgRows, int64_t wait) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  bool aMN = p.transA, bMN = !p.transB;
  Value descA = wgmmaDescriptor(b, loc, aAddr, aMN, p.blockK, p.kRowBytes());
  Value descB = wgmmaDescriptor(b, loc, bAddr, bMN, p.blockK, p.kRowBytes());
  // A descriptor moved by `bytes` (a multiple of 16 inside the tile).
  auto advance = [&](Value desc, int64_t bytes) {
    if (!bytes)
      return desc;
    return arith::AddIOp::create(b, loc, desc, arith::ConstantIntOp::create(b, loc, i64, bytes >> 4)).getResult();
  };
  auto kStep = [&](bool mn) { return mn ? kStepK * kSwizzleRow : kStepK * p.elemBytes; };
  int64_t blockStride = aMN ? p.blockK * kSwizzleRow : kBlockM * p.kRowBytes();
  bool bf16 = cast<MemRefType>(tile::GemmOp(p.gemm).getA().getType()).getElementType().isBF16();
  NVVM::WGMMATypes ab = bf16 ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  auto shape = NVVM::MMAShapeAttr::get(ctx, kBlockM, p.blockN, kStepK);
  // imm-trans-a is 1 for layout col (MN-major A), imm-trans-b 1 for row
  // (MN-major B).
  NVVM::MMALayout layoutA = aMN ? NVVM::MMALayout::col : NVVM::MMALayout::row;
  NVVM::MMALayout layoutB = bMN ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  int64_t blocks = wgRows / kBlockM;
  llvm::SmallVector<Value> regs;
  for (int64_t i = 0; i < blocks; ++i)
    regs.push_back(LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t k = 0; k < p.blockK / kStepK; ++k) {
    Value dB = advance(descB, k * kStep(bMN));
    for (int64_t i = 0; i < blocks; ++i) {
      Value dA = advance(descA, i * blockStride + k * kStep(aMN));
      regs[i] = NVVM::WgmmaMmaAsyncOp::create(b, loc, regs[i].getType(), regs[i], dA, dB, shape, ab, ab,
                                              NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
                                              NVVM::WGMMAScaleIn::one, layoutA, layoutB, NVVM::MMAIntOverflowAttr());
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(wait));
  for (int64_t i = 0; i < blocks; ++i)
    acc = LLVM::InsertValueOp::create(b, loc, acc, regs[i], ArrayRef<int64_t>{i});
  return acc;
}

/// Thread t (lane l, warp t / 32) of warpgroup w holds, in block i, for each
/// 8-column group j, registers 4j..4j+3 at rows w wgRows + 64 i + 16 (t / 32
/// % 4) + l / 4 (+ 8 for the last two) and columns 8j + 2 (l % 4) + {0, 1}.
void tilec::hopper::storeAccBlocks(OpBuilder &b, Location loc, Value acc, Value scratch, Value tid, int64_t wgRows,
                                   int64_t blockN) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b, loc, x, y).getResult(); };
  auto mul = [&](Value x, Value y) { return arith::MulIOp::create(b, loc, x, y).getResult(); };
  auto div = [&](Value x, int64_t y) { return arith::DivUIOp::create(b, loc, x, c(y)).getResult(); };
  auto rem = [&](Value x, int64_t y) { return arith::RemUIOp::create(b, loc, x, c(y)).getResult(); };
  Value lane = rem(tid, 32);
  Value row0 = add(add(mul(div(tid, 128), c(wgRows)), mul(rem(div(tid, 32), 4), c(16))), div(lane, 4));
  Value col0 = mul(rem(lane, 4), c(2));
  for (int64_t i = 0; i < wgRows / kBlockM; ++i) {
    Value regs = LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i});
    for (int64_t j = 0; j < blockN / 8; ++j)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t e = 0; e < 2; ++e) {
          Value x = LLVM::ExtractValueOp::create(b, loc, regs, ArrayRef<int64_t>{4 * j + 2 * h + e});
          memref::StoreOp::create(b, loc, x, scratch,
                                  ValueRange{add(row0, c(kBlockM * i + 8 * h)), add(col0, c(8 * j + e))});
        }
  }
}
