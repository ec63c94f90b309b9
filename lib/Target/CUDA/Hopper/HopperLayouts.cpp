//===- HopperLayouts.cpp - What the wgmma path places where, for --emit=layout ===//
//
// A kernel the wgmma path takes (matchGemmKernel) keeps no layout
// attributes: its layouts are fixed by the path (HopperGemm.cpp) and
// described here.
// - Accumulators: wgmma's m64nNk16 D fragment per warpgroup; warp w of a
//   warpgroup holds rows 16 w + 64 b of each m64 block b, lane l rows
//   l / 4 and l / 4 + 8 and columns 2 (l % 4) + {0, 1} of every n8 block.
// - Operand tiles: a K-major tile (A M x K, B N x K) is one TMA box swizzled
//   as wide as its K rows (32, 64 or 128 bytes); an MN-major tile (A K x M,
//   B K x N) boxes of 64 columns, 128-byte swizzled.
//
//===----------------------------------------------------------------------===//
#include "HopperPlan.h"

#include "tilec/Dialect/Tile/IR/SharedSwizzle.h"
#include "tilec/Target/CUDA/CUDATargetInfo.h"
#include "tilec/Target/KernelLayouts.h"

using namespace mlir;
using namespace tilec;

/// The wgmma accumulator of a blockM x blockN tile over `warpgroups`
/// warpgroups (warpgroup g: rows [g wgRows, (g + 1) wgRows)), registers in
/// the order of wgmma's D operands (d[4 j + 2 h + e]: n8 block j, row half
/// h, column e) per m64 block.
static tile::FragmentLayout wgmmaAccumulator(int64_t blockM, int64_t blockN, int64_t warpgroups) {
  tile::FragmentLayout l;
  l.shape = {blockM, blockN};
  l.numThreads = 128 * warpgroups;
  int64_t wgRows = blockM / warpgroups, mBlocks = wgRows / 64, nBlocks = blockN / 8;
  int64_t perBlock = 4 * nBlocks;
  l.numRegs = perBlock * mBlocks;
  l.dims.resize(2);
  l.dims[0].push_back({true, 4, 8, 1});   // lane / 4
  l.dims[0].push_back({false, 2, 2, 8});  // d[2], d[3]: row + 8
  l.dims[0].push_back({true, 32, 4, 16}); // warp of the warpgroup
  if (mBlocks > 1)
    l.dims[0].push_back({false, perBlock, mBlocks, 64});
  if (warpgroups > 1)
    l.dims[0].push_back({true, 128, warpgroups, wgRows});
  l.dims[1].push_back({false, 1, 2, 1}); // d[1]: column + 1
  l.dims[1].push_back({true, 1, 4, 2});  // 2 (lane % 4)
  l.dims[1].push_back({false, 4, nBlocks, 8});
  return l;
}

/// A shared operand tile of `rows` x `cols` elements of `elemBytes` bytes.
static void placeOperand(BufferLayout &b, bool kMajor, int64_t rowBytes, int64_t elemBytes, int64_t stages) {
  b.kind = BufferLayout::Kind::Shared;
  b.stages = stages;
  b.offset = -1; // the path places its tiles itself
  if (kMajor) {
    b.swizzleBytes = tile::swizzleSpanFor(rowBytes);
    b.origin = "wgmma K-major operand: one TMA box, swizzled as wide as its K rows";
  } else {
    b.swizzleBytes = 128;
    b.boxCols = rowBytes > 128 ? 128 / elemBytes : 0;
    b.origin = "wgmma MN-major operand: TMA boxes of 64 columns, 128-byte swizzle";
  }
}

FailureOr<bool> CUDATargetInfo::describeKernelLayouts(tile::KernelOp kernel, tile::LaunchOp launch,
                                                      KernelLayouts &out) const {
  if (!hasWarpgroupMMA())
    return false;
  std::optional<hopper::HopperGemmPlan> plan = hopper::matchGemmKernel(kernel, launch, *this);
  if (!plan)
    return false;
  out.path = "TMA + mbarrier + wgmma";
  out.threads = 128 * plan->warpgroups;
  int64_t elemBytes = plan->elemBytes;
  auto operand = [&](Value v, bool kMajor) {
    Operation *alloc = v.getDefiningOp();
    if (!alloc)
      return;
    BufferLayout b = describeBuffer(alloc);
    b.elementBits = 8 * elemBytes;
    placeOperand(b, kMajor, b.shape.back() * elemBytes, elemBytes, plan->stages);
    out.buffers.push_back(std::move(b));
  };
  operand(plan->gemm.getA(), plan->kMajor() || !plan->transA);
  operand(plan->gemm.getB(), plan->kMajor() || plan->bKMajor());
  // The accumulator (the promoted form: the gemm's product and the total,
  // in the same layout).
  llvm::SmallVector<Value, 2> accs{plan->gemm.getC()};
  if (plan->promote && plan->fill && plan->fill.getBuffer() != plan->gemm.getC())
    accs.push_back(plan->fill.getBuffer());
  for (Value acc : accs) {
    Operation *alloc = acc.getDefiningOp();
    if (!alloc)
      continue;
    BufferLayout b = describeBuffer(alloc);
    b.kind = BufferLayout::Kind::Fragment;
    b.fragment = wgmmaAccumulator(plan->blockM, plan->blockN, plan->warpgroups);
    b.origin = "wgmma m64n" + std::to_string(plan->blockN) + " accumulator, " + std::to_string(plan->warpgroups) +
               (plan->warpgroups > 1 ? " warpgroups" : " warpgroup");
    out.buffers.push_back(std::move(b));
  }
  return true;
}
