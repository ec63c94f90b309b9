//===- EmitGemmSubgroupMMA.cpp - tile.gemm as subgroup matrix operations --===//
//
// T.gemm with the upstream gpu.subgroup_mma_* ops when the target has
// subgroup-scope matrix operations (TargetInfo::getSubgroupMatrixShapes; on
// Vulkan, SPV_KHR_cooperative_matrix). A and B are read from their shared
// buffers; the accumulator fragment keeps the layout the rest of the lowering
// gave it and passes through a workgroup tile of M x N accumulator elements:
// 1. barrier (earlier readers of the tile and writers of A and B are done);
//    unless clear_accum, every thread stores its accumulator registers into
//    the tile (the first replica only) and a barrier follows;
// 2. subgroup s of S takes the output tiles s, s + S, ...: it loads the C
//    tile (a zero matrix with clear_accum), loads the A and B tiles of every
//    K step (column-major when transposed) and multiply-accumulates, then
//    stores the C tile;
// 3. barrier; every thread loads its registers back from the tile.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

/// The subgroup matrix shape `target` has for this gemm, if one tiles it.
static std::optional<MatrixShape> pickShape(const TargetInfo &target, Type ab, Type acc, int64_t m, int64_t n,
                                            int64_t k) {
  for (const MatrixShape &s : target.getSubgroupMatrixShapes(ab, acc))
    if (s.m > 0 && s.n > 0 && s.k > 0 && m % s.m == 0 && n % s.n == 0 && k % s.k == 0)
      return s;
  return std::nullopt;
}

/// Whether threads outside the first replica hold copies of `layout`'s elements.
static bool isReplicated(const FragmentLayout &layout) {
  int64_t threads = 1;
  for (const auto &fields : layout.dims)
    for (const LayoutField &f : fields)
      if (f.onThread)
        threads *= f.count;
  return threads < layout.numThreads;
}

std::optional<LogicalResult> KernelEmitter::emitGemmSubgroupMMA(tile::GemmOp op) {
  Value aBuf = op.getA(), bBuf = op.getB();
  if (insideParallel || !shared.count(aBuf) || !shared.count(bBuf) || !fragments.count(op.getC()))
    return std::nullopt;
  const SharedBuffer &sa = shared[aBuf], &sb = shared[bBuf];
  Fragment &c = fragments[op.getC()];
  if (sa.swizzled || sb.swizzled || sa.shape.size() != 2 || sb.shape.size() != 2 ||
      sa.elementType != sb.elementType || c.layout.shape.size() != 2)
    return std::nullopt;
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  int64_t m = c.layout.shape[0], n = c.layout.shape[1], k = ta ? sa.shape[0] : sa.shape[1];
  std::optional<MatrixShape> shape = pickShape(target, sa.elementType, c.elementType, m, n, k);
  if (!shape)
    return std::nullopt;

  // The accumulator tile, a static workgroup buffer at the kernel entry.
  auto fn = b.getInsertionBlock()->getParent()->getParentOfType<gpu::GPUFuncOp>();
  if (!fn) {
    op.emitOpError("is not inside a GPU kernel");
    return failure();
  }
  auto wg = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value accTile;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&fn.getBody().front());
    accTile = memref::AllocOp::create(b, loc, MemRefType::get({m * n}, c.elementType, AffineMap(), wg));
  }
  auto elementAt = [&](int64_t reg) {
    llvm::SmallVector<int64_t> ri = c.layout.regIndex(reg);
    Value i = addc(threadPart(c.layout, 0), ri[0]), j = addc(threadPart(c.layout, 1), ri[1]);
    return add(mul(i, n), j);
  };

  // 1. Registers -> tile.
  barrier();
  if (!op.getClearAccum()) {
    std::optional<OpBuilder::InsertPoint> after;
    if (isReplicated(c.layout))
      after = beginIf(isFirstReplica(c.layout));
    for (int64_t r = 0; r < c.layout.numRegs; ++r) {
      Value v = memref::LoadOp::create(b, loc, c.regs, ValueRange{cIdx(r)});
      memref::StoreOp::create(b, loc, v, accTile, ValueRange{elementAt(r)});
    }
    if (after)
      b.restoreInsertionPoint(*after);
    barrier();
  }

  // 2. Output tiles round-robin over the subgroups.
  auto aType = gpu::MMAMatrixType::get({shape->m, shape->k}, sa.elementType, "AOp");
  auto bType = gpu::MMAMatrixType::get({shape->k, shape->n}, sb.elementType, "BOp");
  auto cType = gpu::MMAMatrixType::get({shape->m, shape->n}, c.elementType, "COp");
  int64_t tilesN = n / shape->n, numTiles = (m / shape->m) * tilesN;
  Value subgroup = gpu::SubgroupIdOp::create(b, loc, /*upper_bound=*/IntegerAttr());
  Value subgroups = gpu::NumSubgroupsOp::create(b, loc, /*upper_bound=*/IntegerAttr());
  auto loop = scf::ForOp::create(b, loc, subgroup, cIdx(numTiles), subgroups);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value t = loop.getInductionVar();
    Value row = mul(arith::DivUIOp::create(b, loc, t, cIdx(tilesN)), shape->m);
    Value col = mul(arith::RemUIOp::create(b, loc, t, cIdx(tilesN)), shape->n);
    Value cAt = add(mul(row, n), col);
    IntegerAttr cLead = b.getIndexAttr(n);
    Value acc = op.getClearAccum()
                    ? (Value)gpu::SubgroupMmaConstantMatrixOp::create(b, loc, cType, zeroOf(c.elementType))
                    : (Value)gpu::SubgroupMmaLoadMatrixOp::create(b, loc, cType, accTile, ValueRange{cAt}, cLead,
                                                                  /*transpose=*/nullptr);
    // A (M x K) row-major, or (K x M): the same tile column-major; B alike.
    UnitAttr aTrans = ta ? b.getUnitAttr() : nullptr, bTrans = tb ? b.getUnitAttr() : nullptr;
    for (int64_t kk = 0; kk < k; kk += shape->k) {
      Value kv = cIdx(kk);
      Value aAt = ta ? sharedIndex(aBuf, {kv, row}) : sharedIndex(aBuf, {row, kv});
      Value bAt = tb ? sharedIndex(bBuf, {col, kv}) : sharedIndex(bBuf, {kv, col});
      Value aTile = gpu::SubgroupMmaLoadMatrixOp::create(b, loc, aType, sa.flat, ValueRange{aAt},
                                                         b.getIndexAttr(sa.shape[1]), aTrans);
      Value bTile = gpu::SubgroupMmaLoadMatrixOp::create(b, loc, bType, sb.flat, ValueRange{bAt},
                                                         b.getIndexAttr(sb.shape[1]), bTrans);
      acc = gpu::SubgroupMmaComputeOp::create(b, loc, cType, aTile, bTile, acc, /*a_transpose=*/nullptr,
                                              /*b_transpose=*/nullptr);
    }
    gpu::SubgroupMmaStoreMatrixOp::create(b, loc, acc, accTile, ValueRange{cAt}, cLead, /*transpose=*/nullptr);
  }

  // 3. Tile -> registers.
  barrier();
  for (int64_t r = 0; r < c.layout.numRegs; ++r) {
    Value v = memref::LoadOp::create(b, loc, accTile, ValueRange{elementAt(r)});
    memref::StoreOp::create(b, loc, v, c.regs, ValueRange{cIdx(r)});
  }
  return success();
}
