//===- EmitGemm.cpp - tile.gemm -------------------------------------------===//
//
// Gemm, matrix-instruction path (f16/bf16 operands in shared memory, f32
// accumulator in the m16n8k16 layout), per 16-wide K step, through the
// target's hooks (TargetInfo.h; on CUDA ldmatrix and mma.sync):
// 1. matrix loads of 4 tiles for the warp's A tiles (16 x 16 each;
//    transposed when A is K x M);
// 2. matrix loads of pairs of B tiles (8 columns each; transposed when B is
//    K x N);
// 3. one m16n8k16 matrix multiply for every (m tile, n tile) of the warp.
// Otherwise every thread computes its own accumulator elements with a K loop.
//
// Pipelined loops that feed such a gemm: EmitPipelined.cpp.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

/// Per-lane shared-memory addressing of one gemm operand, as 32-bit
/// shared-window byte addresses. A tile's element index is split into a lane
/// part (loop-invariant), the stage offset and a constant:
///   swizzled: row*inner + ((col/8 + cc/8) ^ x(row))*8 + col%8 + rc*inner
///             with x the XOR term of the buffer's swizzle (row % 8,
///             (row/2) % 4 or (row/4) % 2: a function of row % 8, so rc a
///             multiple of 8 leaves it alone; one lane part per cc),
///   plain:    row*inner + col + rc*inner + cc.
/// Each (operand, column key) gets one base register per K-tile (lane part +
/// stage offset, one 32-bit add); the constant becomes the matrix load's
/// immediate.
struct OperandAddress {
  KernelEmitter &e;
  Value buf, row, col;
  OperandAddress(KernelEmitter &e, Value buf, Value row, Value col) : e(e), buf(buf), row(row), col(col) {}

  Value i32(Value index) {
    return arith::IndexCastUIOp::create(e.b, e.loc, e.b.getI32Type(), index);
  }
  /// 32-bit shared address of byte `byteOff` (index) of the dynamic shared memory.
  Value sharedAddr(Value byteOff) {
    if (!base)
      base = i32(memref::ExtractAlignedPointerAsIndexOp::create(e.b, e.loc, e.scratchBase));
    return arith::AddIOp::create(e.b, e.loc, base, i32(byteOff));
  }

  /// The 32-bit base address and constant byte offset of (row + rc, col + cc)
  /// in stage `stage`.
  std::pair<Value, int64_t> address(int64_t rc, int64_t cc, Value stage) {
    SharedBuffer &sb = e.shared[buf];
    int64_t inner = sb.shape.back();
    int64_t bytes = sb.elementType.getIntOrFloatBitWidth() / 8;
    int64_t chunk = 128 / sb.elementType.getIntOrFloatBitWidth();
    bool swz = sb.swizzled && sb.shape.size() == 2;
    if (sb.shape.size() != 2 || (swz && (rc % 8 != 0 || cc % chunk != 0))) {
      Value r = e.addc(row, rc), c = e.addc(col, cc);
      return {sharedAddr(e.addc(e.mul(e.sharedIndex(buf, {r, c}), bytes), sb.byteOffset)), 0};
    }
    int64_t key = swz ? cc : 0;
    Value &addr = addrs[key];
    if (swz && sb.boxCols) {
      // Box-major rows (TMA boxes of 128 bytes): the box and the chunk from
      // column col + cc; rows are boxCols elements apart inside a box.
      if (!addr) {
        Location loc = e.loc;
        Value c2 = e.addc(col, cc);
        Value box = arith::DivUIOp::create(e.b, loc, c2, e.cIdx(sb.boxCols));
        Value cb = arith::RemUIOp::create(e.b, loc, c2, e.cIdx(sb.boxCols));
        Value ch = arith::DivUIOp::create(e.b, loc, cb, e.cIdx(chunk));
        Value sw = arith::XOrIOp::create(e.b, loc, ch, e.emitSwizzleXor(sb, row));
        int64_t rows = sb.numel / inner;
        Value lane = e.add(e.add(e.mul(box, rows * sb.boxCols), e.mul(row, sb.boxCols)),
                           e.add(e.mul(sw, chunk), arith::RemUIOp::create(e.b, loc, cb, e.cIdx(chunk))));
        addr = sharedAddr(e.addc(e.mul(lane, bytes), sb.byteOffset));
        if (stage)
          addr = arith::AddIOp::create(e.b, loc, addr,
                                       arith::MulIOp::create(e.b, loc, i32(stage),
                                                             arith::ConstantIntOp::create(e.b, loc, bytes, 32)));
      }
      return {addr, rc * sb.boxCols * bytes};
    }
    if (!addr) {
      Location loc = e.loc;
      Value lane;
      if (swz) {
        Value ch = e.addc(arith::DivUIOp::create(e.b, loc, col, e.cIdx(chunk)), cc / chunk);
        Value sw = arith::XOrIOp::create(e.b, loc, ch, e.emitSwizzleXor(sb, row));
        lane = e.add(e.add(e.mul(row, inner), e.mul(sw, chunk)), arith::RemUIOp::create(e.b, loc, col, e.cIdx(chunk)));
      } else {
        lane = e.add(e.mul(row, inner), col);
      }
      addr = sharedAddr(e.addc(e.mul(lane, bytes), sb.byteOffset));
      if (stage)
        addr = arith::AddIOp::create(e.b, loc, addr,
                                     arith::MulIOp::create(e.b, loc, i32(stage),
                                                           arith::ConstantIntOp::create(e.b, loc, bytes, 32)));
    }
    return {addr, (rc * inner + (swz ? 0 : cc)) * bytes};
  }
  llvm::DenseMap<int64_t, Value> addrs;
  Value base;
};

namespace {
/// The matrix-instruction path of one tile.gemm (GemmPlan::mma): the warp's
/// tiles of A and B come from shared memory through the target's matrix
/// load (or, GemmPlan::aRegs, from A's registers), one target matrix
/// multiply per (m tile, n tile) and 16-wide K step.
struct MmaGemm {
  KernelEmitter &e;
  tile::GemmOp op;
  const GemmPlan &gp;
  Fragment &c;
  bool ta, tb;
  int64_t k = 0, mTiles = 0, nTiles = 0;
  Type ab;
  /// Lane parts: the warp's first row / column, the lane's offsets inside a
  /// 16x16 A tile and a 16x16 (two n tiles) B tile.
  Value mBase, nBase, l8, aM, aK, bK, bN;
  using Frags = llvm::SmallVector<llvm::SmallVector<Value>>;

  MmaGemm(KernelEmitter &e, tile::GemmOp op, const GemmPlan &gp) : e(e), op(op), gp(gp), c(e.fragments[op.getC()]) {}
  LogicalResult run();

  OperandAddress addressA() {
    return ta ? OperandAddress(e, op.getA(), aK, e.add(mBase, aM)) : OperandAddress(e, op.getA(), e.add(mBase, aM), aK);
  }
  OperandAddress addressB() {
    return tb ? OperandAddress(e, op.getB(), e.add(nBase, bN), bK) : OperandAddress(e, op.getB(), bK, e.add(nBase, bN));
  }
  /// For an odd last n tile lanes 16..31 repeat the addresses of lanes 0..15.
  OperandAddress addressB2() {
    return tb ? OperandAddress(e, op.getB(), e.add(nBase, l8), bK) : OperandAddress(e, op.getB(), bK, nBase);
  }
  llvm::SmallVector<Value> matrixLoad(std::pair<Value, int64_t> at, int tiles, bool trans) {
    return e.target.emitMatrixLoad(e.b, e.loc, at.first, at.second, tiles, trans);
  }
  llvm::SmallVector<Value> regsA(int64_t mi, int64_t kk);
  void loadStepAt(int64_t kk, Frags &aFrag, Frags &bFrag, OperandAddress &aA, OperandAddress &bA,
                  OperandAddress &bA2, Value as, Value bs);
  void carry(Frags &aF, Frags &bF, bool store);
  void multiply(Frags &aFrag, Frags &bFrag);
};
} // namespace

/// A in registers (GemmPlan::aRegs): the accumulator layout's n tiles 2kk
/// and 2kk + 1 are the k16 step's A operand (rows g and g + 8, columns 2q and
/// 2q + 8 of the step), two 16-bit elements per register.
llvm::SmallVector<Value> MmaGemm::regsA(int64_t mi, int64_t kk) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Fragment &fa = e.fragments[op.getA()];
  int64_t kTiles = k / 8;
  Type pair = VectorType::get({2}, fa.elementType);
  llvm::SmallVector<Value> regs;
  for (int64_t t : {2 * kk, 2 * kk + 1})
    for (int64_t half : {0, 2}) {
      int64_t r = (mi * kTiles + t) * 4 + half;
      Value lo = memref::LoadOp::create(b, loc, fa.regs, ValueRange{e.cIdx(r)});
      Value hi = memref::LoadOp::create(b, loc, fa.regs, ValueRange{e.cIdx(r + 1)});
      Value v = vector::FromElementsOp::create(b, loc, cast<VectorType>(pair), ValueRange{lo, hi});
      regs.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), v));
    }
  // In the A operand's order: (g, 2q), (g + 8, 2q), (g, 2q + 8), (g + 8, 2q + 8).
  return regs;
}

/// The fragments of one 16-wide K step, at stage offsets `as` / `bs`.
void MmaGemm::loadStepAt(int64_t kk, Frags &aFrag, Frags &bFrag, OperandAddress &aA, OperandAddress &bA,
                         OperandAddress &bA2, Value as, Value bs) {
  for (int64_t mi = 0; mi < mTiles; ++mi) {
    if (gp.aRegs) {
      aFrag.push_back(regsA(mi, kk));
      continue;
    }
    auto lin = ta ? aA.address(kk * 16, mi * 16, as) : aA.address(mi * 16, kk * 16, as);
    aFrag.push_back(matrixLoad(lin, 4, ta));
  }
  for (int64_t ni = 0; ni < nTiles; ni += 2) {
    int tiles = ni + 1 < nTiles ? 4 : 2;
    OperandAddress &ba = tiles == 2 ? bA2 : bA;
    auto lin = tb ? ba.address(ni * 8, kk * 16, bs) : ba.address(kk * 16, ni * 8, bs);
    bFrag.push_back(matrixLoad(lin, tiles, !tb));
  }
}

/// Hand-off: the fragments carried between the calls of a pipelined loop.
void MmaGemm::carry(Frags &aF, Frags &bF, bool store) {
  KernelEmitter::MmaHandoff *h = e.mmaHandoff;
  int64_t r = 0;
  for (Frags *fs : {&aF, &bF})
    for (int64_t g = 0; g < (fs == &aF ? mTiles : (nTiles + 1) / 2); ++g) {
      int tiles = fs == &aF || g * 2 + 1 < nTiles ? 4 : 2;
      if (!store)
        fs->emplace_back();
      for (int t = 0; t < tiles; ++t, ++r) {
        if (store)
          memref::StoreOp::create(e.b, e.loc, (*fs)[g][t], h->carry, ValueRange{e.cIdx(r)});
        else
          (*fs)[g].push_back(memref::LoadOp::create(e.b, e.loc, h->carry, ValueRange{e.cIdx(r)}));
      }
    }
}

/// One matrix multiply per (m tile, n tile) of the warp on one K step's
/// fragments.
void MmaGemm::multiply(Frags &aFrag, Frags &bFrag) {
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni) {
      const llvm::SmallVector<Value> &bf = bFrag[ni / 2];
      int64_t bOff = (ni % 2) * 2;
      e.target.emitMatrixMultiply(e.b, e.loc, MatrixShape{16, 8, 16}, ab, aFrag[mi], {bf[bOff], bf[bOff + 1]},
                                  c.regs, (mi * nTiles + ni) * 4);
    }
}

LogicalResult MmaGemm::run() {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto at = cast<MemRefType>(op.getA().getType());
  auto ct = cast<MemRefType>(op.getC().getType());
  ta = op.getTransposeA(), tb = op.getTransposeB();
  int64_t m = ct.getDimSize(0), n = ct.getDimSize(1);
  k = ta ? at.getDimSize(0) : at.getDimSize(1);
  int64_t wmSize = m / gp.warpsM, wnSize = n / gp.warpsN;
  mTiles = wmSize / 16, nTiles = wnSize / 8;
  ab = at.getElementType();
  Value warp = arith::DivUIOp::create(b, loc, e.tid, e.cIdx(e.target.getWarpSize()));
  Value lane = arith::RemUIOp::create(b, loc, e.tid, e.cIdx(e.target.getWarpSize()));
  Value wm = arith::DivUIOp::create(b, loc, warp, e.cIdx(gp.warpsN));
  Value wn = arith::RemUIOp::create(b, loc, warp, e.cIdx(gp.warpsN));
  mBase = e.mul(wm, wmSize), nBase = e.mul(wn, wnSize);
  l8 = arith::RemUIOp::create(b, loc, lane, e.cIdx(8));
  Value j = arith::DivUIOp::create(b, loc, lane, e.cIdx(8));
  Value jLow = arith::RemUIOp::create(b, loc, j, e.cIdx(2)), jHigh = arith::DivUIOp::create(b, loc, j, e.cIdx(2));
  // A (M x K): row = (j % 2) * 8 + lane % 8, col = (j / 2) * 8;  A (K x M): k = (j / 2) * 8 + lane % 8, m = (j % 2) * 8.
  aM = ta ? e.mul(jLow, 8) : e.add(e.mul(jLow, 8), l8);
  aK = ta ? e.add(e.mul(jHigh, 8), l8) : e.mul(jHigh, 8);
  // B (K x N): k = (j % 2) * 8 + lane % 8, n = (j / 2) * 8;  B (N x K): n = (j / 2) * 8 + lane % 8, k = (j % 2) * 8.
  bK = tb ? e.mul(jLow, 8) : e.add(e.mul(jLow, 8), l8);
  bN = tb ? e.add(e.mul(jHigh, 8), l8) : e.mul(jHigh, 8);
  KernelEmitter::MmaHandoff *h = e.mmaHandoff;
  if (op.getClearAccum() && !(h && h->prologue))
    for (int64_t r = 0; r < c.layout.numRegs; ++r)
      memref::StoreOp::create(b, loc, e.zeroOf(c.elementType), c.regs, ValueRange{e.cIdx(r)});
  e.noteAccess({op.getA(), op.getB()}, {});
  // Lane parts of the addresses (rows and columns of the operand buffers);
  // an A in registers has none (its OperandAddress is never asked).
  Value aStage = e.stageBase.lookup(op.getA()), bStage = e.stageBase.lookup(op.getB());
  OperandAddress aAddr = addressA();
  OperandAddress bAddr = addressB();
  OperandAddress bAddr2 = addressB2();
  auto loadStep = [&](int64_t kk, Frags &aFrag, Frags &bFrag) {
    loadStepAt(kk, aFrag, bFrag, aAddr, bAddr, bAddr2, aStage, bStage);
  };
  Frags aCur, bCur;
  if (h && h->prologue) {
    loadStep(0, aCur, bCur);
    carry(aCur, bCur, /*store=*/true);
    return success();
  }
  // Fragments double-buffered across the K steps: step kk + 1 is loaded
  // before the multiplies of step kk, so shared-memory latency overlaps
  // them; with a hand-off the last step loads the next tile's first step.
  if (h)
    carry(aCur, bCur, /*store=*/false);
  else
    loadStep(0, aCur, bCur);
  for (int64_t kk = 0; kk < k / 16; ++kk) {
    Frags aNext, bNext;
    if (kk + 1 < k / 16) {
      loadStep(kk + 1, aNext, bNext);
    } else if (h) {
      h->sync();
      Value as = h->nextStage.lookup(op.getA()), bs = h->nextStage.lookup(op.getB());
      OperandAddress aNA = addressA();
      OperandAddress bNA = addressB();
      OperandAddress bNA2 = addressB2();
      loadStepAt(0, aNext, bNext, aNA, bNA, bNA2, as, bs);
    }
    multiply(aCur, bCur);
    aCur = std::move(aNext);
    bCur = std::move(bNext);
  }
  if (h)
    carry(aCur, bCur, /*store=*/true);
  return success();
}

/// Loads A or B element (row, col) of a gemm operand in any scope.
static Value loadOperand(KernelEmitter &e, Value buf, Value row, Value col) {
  tile::Scope s = *tile::getBufferScope(cast<MemRefType>(buf.getType()));
  if (s == tile::Scope::Shared)
    return memref::LoadOp::create(e.b, e.loc, e.shared[buf].flat, ValueRange{e.sharedIndex(buf, {row, col})});
  if (s == tile::Scope::Local)
    return memref::LoadOp::create(e.b, e.loc, e.locals.lookup(buf), ValueRange{row, col});
  // A fully replicated fragment: the register is the row-major element.
  Fragment &f = e.fragments[buf];
  Value reg = e.cIdx(0);
  Value idx[2] = {row, col};
  for (unsigned d = 0; d < 2; ++d)
    for (const LayoutField &fl : f.layout.dims[d]) {
      if (fl.onThread || fl.count == 1)
        continue;
      Value digit = arith::DivUIOp::create(e.b, e.loc, idx[d], e.cIdx(fl.scale));
      digit = arith::RemUIOp::create(e.b, e.loc, digit, e.cIdx(fl.count));
      reg = e.add(reg, e.mul(digit, fl.stride));
    }
  return memref::LoadOp::create(e.b, e.loc, f.regs, ValueRange{reg});
}

LogicalResult KernelEmitter::emitGemm(tile::GemmOp op) {
  const GemmPlan &gp = plan.gemms[op];
  if (gp.mma)
    return MmaGemm(*this, op, gp).run();
  if (std::optional<LogicalResult> done = emitGemmSubgroupMMA(op))
    return *done;
  Fragment &c = fragments[op.getC()];
  for (Value v : {op.getA(), op.getB()})
    if (tile::isBufferInScope(v.getType(), tile::Scope::Fragment) && !fragments[v].layout.isFullyReplicated())
      return op.emitOpError("takes a distributed fragment operand; the GPU lowering needs A and B in shared memory "
                            "for this shape and dtype");
  noteAccess({op.getA(), op.getB()}, {});
  auto at = cast<MemRefType>(op.getA().getType());
  int64_t k = op.getTransposeA() ? at.getDimSize(0) : at.getDimSize(1);
  for (int64_t r = 0; r < c.layout.numRegs; ++r) {
    llvm::SmallVector<int64_t> ri = c.layout.regIndex(r);
    Value i = addc(threadPart(c.layout, 0), ri[0]), j = addc(threadPart(c.layout, 1), ri[1]);
    Value init = op.getClearAccum() ? zeroOf(c.elementType)
                                    : (Value)memref::LoadOp::create(b, loc, c.regs, ValueRange{cIdx(r)});
    // The body is built in place (an scf.for with iteration arguments gets
    // no terminator from the plain builder).
    Value lbK = cIdx(0), ubK = cIdx(k), one = cIdx(1);
    auto loop = scf::ForOp::create(b, loc, lbK, ubK, one, ValueRange{init},
                                   [&](OpBuilder &nb, Location, Value kv, ValueRange iter) {
                                     OpBuilder::InsertionGuard guard(b);
                                     b.setInsertionPointToEnd(nb.getInsertionBlock());
                                     Value a = op.getTransposeA() ? loadOperand(*this, op.getA(), kv, i)
                                                                  : loadOperand(*this, op.getA(), i, kv);
                                     Value bb = op.getTransposeB() ? loadOperand(*this, op.getB(), j, kv)
                                                                   : loadOperand(*this, op.getB(), kv, j);
                                     a = convert(a, c.elementType, isUnsignedBuffer(op.getA()));
                                     bb = convert(bb, c.elementType, isUnsignedBuffer(op.getB()));
                                     Value acc = iter[0];
                                     Value sum = isa<FloatType>(c.elementType)
                                                     ? (Value)arith::AddFOp::create(b, loc, acc, arith::MulFOp::create(b, loc, a, bb))
                                                     : (Value)arith::AddIOp::create(b, loc, acc, arith::MulIOp::create(b, loc, a, bb));
                                     scf::YieldOp::create(b, loc, ValueRange{sum});
                                   });
    memref::StoreOp::create(b, loc, loop.getResult(0), c.regs, ValueRange{cIdx(r)});
  }
  return success();
}
