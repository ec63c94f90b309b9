//===- EmitGemm.cpp - tile.gemm and pipelined loops ------------------------===//
//
// Gemm, mma path (f16/bf16 operands in shared memory, f32 accumulator in the
// mma.sync layout), per 16-wide K step:
// 1. ldmatrix.x4 the warp's A tiles (16 x 16 each; .trans when A is K x M);
// 2. ldmatrix.x4 pairs of B tiles (8 columns each; .trans when B is K x N);
// 3. mma.sync m16n8k16 for every (m tile, n tile) of the warp.
// Otherwise every thread computes its own accumulator elements with a K loop.
//
// Pipelined loops (num_stages = S): the global -> shared copies of iteration
// k + S - 1 are issued as cp.async into stage (k + S - 1) % S while iteration
// k computes on stage k % S; one commit group per iteration.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tilec/Conversion/TileToGPU/Hopper/HopperGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

/// Per-lane shared-memory addressing of one gemm operand, as 32-bit
/// shared-window byte addresses. A tile's element index is split into a lane
/// part (loop-invariant), the stage offset and a constant:
///   swizzled: row*inner + ((col/8 + cc/8) ^ (row%8))*8 + col%8 + rc*inner
///             (rc a multiple of 8 leaves row%8 alone; one lane part per cc),
///   plain:    row*inner + col + rc*inner + cc.
/// Each (operand, column key) gets one base register per K-tile (lane part +
/// stage offset, one 32-bit add); the constant becomes the ldmatrix
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
    if (Value shift = e.shared[buf].shift)
      byteOff = e.add(byteOff, shift);
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
        Value sw = arith::XOrIOp::create(e.b, loc, ch, arith::RemUIOp::create(e.b, loc, row, e.cIdx(8)));
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
        Value sw = arith::XOrIOp::create(e.b, loc, ch, arith::RemUIOp::create(e.b, loc, row, e.cIdx(8)));
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

/// One ldmatrix of 4 (or 2) 8x8 tiles at shared address `at.first + at.second`
/// (32-bit register plus immediate); the result as `tiles` i32 registers.
static llvm::SmallVector<Value> ldmatrix(KernelEmitter &e, std::pair<Value, int64_t> at, int tiles, bool trans) {
  std::string text = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(tiles) + (trans ? ".trans" : "") + ".shared.b16 {";
  std::string constraints;
  for (int i = 0; i < tiles; ++i) {
    text += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=r,";
  }
  text += "}, [$" + std::to_string(tiles) + (at.second ? "+" + std::to_string(at.second) : "") + "];";
  constraints += "r";
  Type i32 = e.b.getI32Type();
  auto type = LLVM::LLVMStructType::getLiteral(e.b.getContext(), llvm::SmallVector<Type>(tiles, i32));
  // Has side effects: LLVM must not move it across barriers or cp.async waits.
  auto asmOp = LLVM::InlineAsmOp::create(e.b, e.loc, type, ValueRange{at.first}, text, constraints,
                                         /*has_side_effects=*/true, /*is_align_stack=*/false,
                                         LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  llvm::SmallVector<Value> regs;
  for (int i = 0; i < tiles; ++i)
    regs.push_back(LLVM::ExtractValueOp::create(e.b, e.loc, asmOp.getRes(), llvm::ArrayRef<int64_t>{i}));
  return regs;
}

/// Register `i` of an ldmatrix result as mma.sync wants it.
static Value operand(KernelEmitter &e, const llvm::SmallVector<Value> &frag, int64_t i, bool bf16) {
  if (bf16)
    return frag[i];
  return LLVM::BitcastOp::create(e.b, e.loc, VectorType::get({2}, e.b.getF16Type()), frag[i]);
}

static LogicalResult emitMmaGemm(KernelEmitter &e, tile::GemmOp op, const GemmPlan &gp) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Fragment &c = e.fragments[op.getC()];
  auto at = cast<MemRefType>(op.getA().getType());
  auto ct = cast<MemRefType>(op.getC().getType());
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  int64_t m = ct.getDimSize(0), n = ct.getDimSize(1), k = ta ? at.getDimSize(0) : at.getDimSize(1);
  int64_t wmSize = m / gp.warpsM, wnSize = n / gp.warpsN, mTiles = wmSize / 16, nTiles = wnSize / 8;
  bool bf16 = at.getElementType().isBF16();
  Value warp = arith::DivUIOp::create(b, loc, e.tid, e.cIdx(32));
  Value lane = arith::RemUIOp::create(b, loc, e.tid, e.cIdx(32));
  Value wm = arith::DivUIOp::create(b, loc, warp, e.cIdx(gp.warpsN));
  Value wn = arith::RemUIOp::create(b, loc, warp, e.cIdx(gp.warpsN));
  Value mBase = e.mul(wm, wmSize), nBase = e.mul(wn, wnSize);
  Value l8 = arith::RemUIOp::create(b, loc, lane, e.cIdx(8));
  Value j = arith::DivUIOp::create(b, loc, lane, e.cIdx(8));
  Value jLow = arith::RemUIOp::create(b, loc, j, e.cIdx(2)), jHigh = arith::DivUIOp::create(b, loc, j, e.cIdx(2));
  // Per-lane offsets inside a 16x16 A tile and a 16x16 (two n tiles) B tile.
  // A (M x K): row = (j % 2) * 8 + lane % 8, col = (j / 2) * 8;  A (K x M): k = (j / 2) * 8 + lane % 8, m = (j % 2) * 8.
  Value aM = ta ? e.mul(jLow, 8) : e.add(e.mul(jLow, 8), l8);
  Value aK = ta ? e.add(e.mul(jHigh, 8), l8) : e.mul(jHigh, 8);
  // B (K x N): k = (j % 2) * 8 + lane % 8, n = (j / 2) * 8;  B (N x K): n = (j / 2) * 8 + lane % 8, k = (j % 2) * 8.
  Value bK = tb ? e.mul(jLow, 8) : e.add(e.mul(jLow, 8), l8);
  Value bN = tb ? e.add(e.mul(jHigh, 8), l8) : e.mul(jHigh, 8);
  KernelEmitter::MmaHandoff *h = e.mmaHandoff;
  if (op.getClearAccum() && !(h && h->prologue))
    for (int64_t r = 0; r < c.layout.numRegs; ++r)
      memref::StoreOp::create(b, loc, e.zeroOf(c.elementType), c.regs, ValueRange{e.cIdx(r)});
  e.noteAccess({op.getA(), op.getB()}, {});
  Type f32 = b.getF32Type();
  Type resType = LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes ptx = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  // Lane parts of the addresses (rows and columns of the operand buffers).
  Value aStage = e.stageBase.lookup(op.getA()), bStage = e.stageBase.lookup(op.getB());
  OperandAddress aAddr = ta ? OperandAddress(e, op.getA(), aK, e.add(mBase, aM))
                            : OperandAddress(e, op.getA(), e.add(mBase, aM), aK);
  OperandAddress bAddr = tb ? OperandAddress(e, op.getB(), e.add(nBase, bN), bK)
                            : OperandAddress(e, op.getB(), bK, e.add(nBase, bN));
  // For an odd last n tile lanes 16..31 repeat the addresses of lanes 0..15.
  OperandAddress bAddr2 = tb ? OperandAddress(e, op.getB(), e.add(nBase, l8), bK)
                             : OperandAddress(e, op.getB(), bK, nBase);
  using Frags = llvm::SmallVector<llvm::SmallVector<Value>>;
  // The fragments of one 16-wide K step, at stage offsets `as` / `bs`.
  auto loadStepAt = [&](int64_t kk, Frags &aFrag, Frags &bFrag, OperandAddress &aA, OperandAddress &bA,
                        OperandAddress &bA2, Value as, Value bs) {
    for (int64_t mi = 0; mi < mTiles; ++mi) {
      auto lin = ta ? aA.address(kk * 16, mi * 16, as) : aA.address(mi * 16, kk * 16, as);
      aFrag.push_back(ldmatrix(e, lin, 4, ta));
    }
    for (int64_t ni = 0; ni < nTiles; ni += 2) {
      int tiles = ni + 1 < nTiles ? 4 : 2;
      OperandAddress &ba = tiles == 2 ? bA2 : bA;
      auto lin = tb ? ba.address(ni * 8, kk * 16, bs) : ba.address(kk * 16, ni * 8, bs);
      bFrag.push_back(ldmatrix(e, lin, tiles, !tb));
    }
  };
  auto loadStep = [&](int64_t kk, Frags &aFrag, Frags &bFrag) {
    loadStepAt(kk, aFrag, bFrag, aAddr, bAddr, bAddr2, aStage, bStage);
  };
  // Hand-off: the fragments carried between the calls of a pipelined loop.
  auto carry = [&](Frags &aF, Frags &bF, bool store) {
    int64_t r = 0;
    for (Frags *fs : {&aF, &bF})
      for (int64_t g = 0; g < (fs == &aF ? mTiles : (nTiles + 1) / 2); ++g) {
        int tiles = fs == &aF || g * 2 + 1 < nTiles ? 4 : 2;
        if (!store)
          fs->emplace_back();
        for (int t = 0; t < tiles; ++t, ++r) {
          if (store)
            memref::StoreOp::create(b, loc, (*fs)[g][t], h->carry, ValueRange{e.cIdx(r)});
          else
            (*fs)[g].push_back(memref::LoadOp::create(b, loc, h->carry, ValueRange{e.cIdx(r)}));
        }
      }
  };
  Frags aCur, bCur;
  if (h && h->prologue) {
    loadStep(0, aCur, bCur);
    carry(aCur, bCur, /*store=*/true);
    return success();
  }
  // Fragments double-buffered across the K steps: step kk + 1 is loaded
  // before the mma of step kk, so shared-memory latency overlaps the mma;
  // with a hand-off the last step loads the next tile's first step.
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
      OperandAddress aNA = ta ? OperandAddress(e, op.getA(), aK, e.add(mBase, aM))
                             : OperandAddress(e, op.getA(), e.add(mBase, aM), aK);
      OperandAddress bNA = tb ? OperandAddress(e, op.getB(), e.add(nBase, bN), bK)
                             : OperandAddress(e, op.getB(), bK, e.add(nBase, bN));
      OperandAddress bNA2 = tb ? OperandAddress(e, op.getB(), e.add(nBase, l8), bK)
                              : OperandAddress(e, op.getB(), bK, nBase);
      loadStepAt(0, aNext, bNext, aNA, bNA, bNA2, as, bs);
    }
    Frags &aFrag = aCur, &bFrag = bCur;
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ni = 0; ni < nTiles; ++ni) {
        const llvm::SmallVector<Value> &bf = bFrag[ni / 2];
        int64_t bOff = (ni % 2) * 2;
        llvm::SmallVector<Value> A, B, C;
        for (int64_t i = 0; i < 4; ++i)
          A.push_back(operand(e, aFrag[mi], i, bf16));
        B.push_back(operand(e, bf, bOff, bf16));
        B.push_back(operand(e, bf, bOff + 1, bf16));
        int64_t r0 = (mi * nTiles + ni) * 4;
        for (int64_t i = 0; i < 4; ++i)
          C.push_back(memref::LoadOp::create(b, loc, c.regs, ValueRange{e.cIdx(r0 + i)}));
        Value d = NVVM::MmaOp::create(b, loc, resType, A, B, C, llvm::ArrayRef<int64_t>{16, 8, 16}, std::nullopt,
                                      std::nullopt, std::array<NVVM::MMATypes, 2>{ptx, ptx},
                                      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
        for (int64_t i = 0; i < 4; ++i)
          memref::StoreOp::create(b, loc, LLVM::ExtractValueOp::create(b, loc, d, llvm::ArrayRef<int64_t>{i}), c.regs,
                                  ValueRange{e.cIdx(r0 + i)});
      }
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
    return emitMmaGemm(*this, op, gp);
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

/// How `v` (a value of the source loop `op`'s body or above) depends on the
/// loop's induction variable: 0 not at all, 1 affinely, -1 otherwise.
static int affineKind(tile::ForOp op, Value v) {
  if (v == op.getInductionVar())
    return 1;
  if (!op.getRegion().isAncestor(v.getParentRegion()))
    return 0;
  Operation *def = v.getDefiningOp();
  if (!def || !isPure(def))
    return -1;
  llvm::SmallVector<int> kinds;
  for (Value o : def->getOperands())
    kinds.push_back(affineKind(op, o));
  if (llvm::is_contained(kinds, -1))
    return -1;
  int most = kinds.empty() ? 0 : *llvm::max_element(kinds);
  if (most == 0)
    return 0;
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return 1;
  if (isa<arith::MulIOp>(def) && kinds[0] + kinds[1] == 1)
    return 1;
  return -1;
}

/// i1, block-uniform: every staged copy's source tile is in bounds in every
/// iteration of `op` (offsets affine in the induction variable, so the tiles
/// of the first and the last iteration bound all others); null when an offset
/// is not affine.
static Value wholeFootprintInBounds(KernelEmitter &e, tile::ForOp op, ArrayRef<tile::CopyOp> copies, Operation *lastCopy,
                                    Value lb, Value ub, Value step) {
  for (tile::CopyOp c : copies)
    for (Value o : c.getSrcOffsets())
      if (affineKind(op, o) < 0)
        return Value();
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // The last iteration: lb + (ub - lb - 1) / step * step (unused when there is none).
  Value span = arith::SubIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb), e.cIdx(1));
  Value kLast = e.add(lb, arith::MulIOp::create(b, loc, arith::DivSIOp::create(b, loc, span, step), step));
  Value all;
  for (Value kv : {lb, kLast}) {
    e.map.map(op.getInductionVar(), kv);
    for (Operation &inner : *op.getBodyBlock()) {
      if (&inner == lastCopy)
        break;
      if (!isa<tile::CopyOp>(inner))
        b.clone(inner, e.map);
    }
    for (tile::CopyOp c : copies) {
      Value mem = e.globals.lookup(c.getSrc());
      llvm::SmallVector<Value> first, last;
      for (auto [o, size] : llvm::zip(c.getSrcOffsets(), c.getSrcSizes())) {
        first.push_back(e.map.lookup(o));
        last.push_back(e.addc(first.back(), size - 1));
      }
      Value in = arith::AndIOp::create(b, loc, e.inBounds(mem, first), e.inBounds(mem, last));
      all = all ? (Value)arith::AndIOp::create(b, loc, all, in) : in;
    }
  }
  return all;
}

/// A staged copy the TMA can do: a whole 2-D tile of a kernel argument
/// (static row length, rows 16-byte aligned) into a swizzled shared tile of
/// 128-byte rows (TMA's 128-byte swizzle is the same XOR of 16-byte chunks by
/// row % 8) or of rows of several 128 bytes (then stored as boxes of 128-byte
/// columns, SharedBuffer::boxCols), on 1 KB boundaries.
static bool isTMATile(KernelEmitter &e, tile::CopyOp c) {
  auto arg = dyn_cast<BlockArgument>(c.getSrc());
  auto src = dyn_cast<MemRefType>(c.getSrc().getType());
  if (!arg || !isa<tile::KernelOp>(arg.getOwner()->getParentOp()) || !src || src.getRank() != 2 ||
      ShapedType::isDynamic(src.getDimSize(1)))
    return false;
  const SharedBuffer &sb = e.shared[c.getDst()];
  int64_t bytes = sb.elementType.getIntOrFloatBitWidth() / 8;
  if (sb.shape.size() != 2 || !sb.swizzled || bytes != 2 || (sb.shape[1] * bytes) % 128 != 0 || sb.shape[0] > 256 ||
      (src.getDimSize(1) * bytes) % 16 != 0 || sb.byteOffset % 1024 != 0 || (sb.numel * bytes) % 1024 != 0)
    return false;
  for (Value o : c.getDstOffsets())
    if (!matchPattern(o, m_Zero()))
      return false;
  return llvm::equal(c.getSrcSizes(), sb.shape) && llvm::equal(c.getDstSizes(), sb.shape);
}

LogicalResult KernelEmitter::emitPipelined(tile::ForOp op) {
  int64_t stages = *op.getNumStages();
  // The staged copies, and whether everything before the last is pure.
  llvm::SmallVector<tile::CopyOp> copies;
  Operation *lastCopy = nullptr;
  for (Operation &inner : *op.getBodyBlock())
    if (auto c = dyn_cast<tile::CopyOp>(inner))
      if (shared.count(c.getDst()) && shared[c.getDst()].stages == stages &&
          tile::isBufferInScope(c.getSrc().getType(), tile::Scope::Global))
        copies.push_back(c), lastCopy = c;
  bool ok = !copies.empty();
  for (Operation &inner : *op.getBodyBlock()) {
    if (!ok || &inner == lastCopy)
      break;
    bool staged = llvm::is_contained(copies, dyn_cast<tile::CopyOp>(inner));
    ok &= staged || (inner.getDialect()->getNamespace() != "tile" && isPure(&inner));
  }
  if (!ok)
    return emitFor(op);
  Value lb = map.lookup(op.getLowerBound()), ub = map.lookup(op.getUpperBound()), step = map.lookup(op.getStep());
  // Issues iteration `kv`'s copies into stage `slot`, cp.async bounds as `mode`.
  AsyncBounds mode = AsyncBounds::PerCopy;
  auto issue = [&](Value kv, Value slot) -> LogicalResult {
    map.map(op.getInductionVar(), kv);
    for (Operation &inner : *op.getBodyBlock()) {
      if (&inner == lastCopy->getNextNode())
        break;
      if (auto c = dyn_cast<tile::CopyOp>(inner)) {
        stageBase[c.getDst()] = arith::MulIOp::create(b, loc, slot, cIdx(shared[c.getDst()].numel));
        asyncBounds = mode;
        LogicalResult r = emitCopy(c, /*async=*/true);
        asyncBounds = AsyncBounds::PerCopy;
        if (failed(r))
          return failure();
        continue;
      }
      b.clone(inner, map);
    }
    return success();
  };
  for (tile::CopyOp c : copies)
    untracked.insert(c.getDst());
  // An mma.sync gemm of two staged buffers right after the last copy, ending
  // the body: its next tile's first fragments are loaded during the last k
  // step (the wait and the barrier move there from the top of the loop).
  tile::GemmOp hg = dyn_cast_or_null<tile::GemmOp>(lastCopy->getNextNode());
  if (hg && !(isa<tile::YieldOp>(hg->getNextNode()) && plan.gemms.count(hg) && plan.gemms[hg].mma && stages >= 2 &&
              llvm::any_of(copies, [&](tile::CopyOp c) { return c.getDst() == hg.getA(); }) &&
              llvm::any_of(copies, [&](tile::CopyOp c) { return c.getDst() == hg.getB(); })))
    hg = nullptr;
  // sm_90+: the staged tiles of such a gemm come in by TMA (one thread issues
  // them, completion on one mbarrier per stage) instead of 16-byte cp.async
  // by every thread: no per-thread global address arithmetic in the loop and
  // bounds handled by the TMA (zero fill).
  bool useTMA = hg && target.getAsyncCopyEngine() == AsyncCopyEngine::TensorBulk &&
                sharedBytes + 1024 <= target.getMaxSharedMemoryBytes() &&
                llvm::all_of(copies, [&](tile::CopyOp c) { return isTMATile(*this, c); });
  Value tmaGroup, isThread0;
  llvm::SmallVector<Value> tmaMaps;
  int64_t tmaBytes = 0;
  // Thread 0: iteration `kv`'s tiles by TMA into stage `slot`, completing on
  // that stage's mbarrier.
  auto issueTMA = [&](Value kv, Value slot) {
    map.map(op.getInductionVar(), kv);
    for (Operation &inner : *op.getBodyBlock()) {
      if (&inner == lastCopy->getNextNode())
        break;
      if (!isa<tile::CopyOp>(inner))
        b.clone(inner, map);
    }
    nvgpu::MBarrierArriveExpectTxOp::create(b, loc, tmaGroup, cIdx(tmaBytes), slot, Value());
    auto wg = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
    for (auto [c, m] : llvm::zip(copies, tmaMaps)) {
      SharedBuffer &sb = shared[c.getDst()];
      int64_t bytes = sb.elementType.getIntOrFloatBitWidth() / 8;
      int64_t boxCols = sb.boxCols ? sb.boxCols : sb.shape[1];
      Value at = add(add(cIdx(sb.byteOffset), sb.shift), arith::MulIOp::create(b, loc, slot, cIdx(sb.numel * bytes)));
      auto offs = c.getSrcOffsets();
      for (int64_t j = 0; j < sb.shape[1] / boxCols; ++j) {
        Value dst = memref::ViewOp::create(b, loc, MemRefType::get({sb.shape[0], boxCols}, sb.elementType, AffineMap(), wg),
                                           scratchBase, addc(at, j * sb.shape[0] * boxCols * bytes), ValueRange{});
        nvgpu::TmaAsyncLoadOp::create(b, loc, dst, tmaGroup, m,
                                      ValueRange{addc(map.lookup(offs[1]), j * boxCols), map.lookup(offs[0])}, slot,
                                      Value(), Value());
      }
    }
  };
  // The stage and mbarrier phase the next `sync` waits for (TMA), and whether
  // that tile exists.
  Value waitSlot, waitParity, waitCond;
  Value carryRegs;
  if (hg) {
    const GemmPlan &gp = plan.gemms[hg];
    auto ct = cast<MemRefType>(hg.getC().getType());
    int64_t mTiles = ct.getDimSize(0) / gp.warpsM / 16, nTiles = ct.getDimSize(1) / gp.warpsN / 8;
    carryRegs = memref::AllocaOp::create(b, loc, MemRefType::get({mTiles * 4 + nTiles * 2}, b.getI32Type()));
  }
  // (After the allocas, so that they stay in the entry block: registers.)
  if (useTMA) {
    MLIRContext *ctx = b.getContext();
    isThread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cIdx(0));
    // 128-byte swizzled tiles start on a 1 KB boundary of the shared window.
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, b.getIndexType(), scratchBase);
    Value rem = arith::AndIOp::create(b, loc, base, cIdx(1023));
    Value pad = arith::AndIOp::create(b, loc, arith::SubIOp::create(b, loc, cIdx(1024), rem), cIdx(1023));
    sharedBytes += 1024;
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto space3 = IntegerAttr::get(IntegerType::get(ctx, 64), 3);
    llvm::SmallVector<hopper::TMADescriptorSpec> specs;
    llvm::SmallVector<Type> mapTypes;
    for (tile::CopyOp c : copies) {
      SharedBuffer &sb = shared[c.getDst()];
      sb.shift = pad;
      int64_t elemBytes = sb.elementType.getIntOrFloatBitWidth() / 8;
      if (sb.shape[1] * elemBytes > 128)
        sb.boxCols = 128 / elemBytes;
      int64_t boxCols = sb.boxCols ? sb.boxCols : sb.shape[1];
      sb.flat = memref::ViewOp::create(b, loc, MemRefType::get({sb.stages * sb.numel}, sb.elementType, AffineMap(), wg),
                                       scratchBase, add(cIdx(sb.byteOffset), pad), ValueRange{});
      specs.push_back({cast<BlockArgument>(c.getSrc()).getArgNumber(), boxCols, sb.shape[0], sb.elementType});
      mapTypes.push_back(nvgpu::TensorMapDescriptorType::get(
          ctx, MemRefType::get({sb.shape[0], boxCols}, sb.elementType, AffineMap(), space3),
          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B, nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
          nvgpu::TensorMapOOBKind::OOB_ZERO, nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE));
      tmaBytes += sb.numel * (sb.elementType.getIntOrFloatBitWidth() / 8);
    }
    FailureOr<unsigned> first = hopper::appendTMADescriptorParams(func, specs);
    if (failed(first))
      return failure();
    for (auto [i, t] : llvm::enumerate(mapTypes))
      tmaMaps.push_back(
          UnrealizedConversionCastOp::create(b, loc, t, func.getArgument(*first + i)).getResult(0));
    tmaGroup = nvgpu::MBarrierCreateOp::create(b, loc, nvgpu::MBarrierGroupType::get(ctx, wg, stages));
    {
      OpBuilder::InsertionGuard guard(b);
      beginIf(isThread0);
      for (int64_t s = 0; s < stages; ++s)
        nvgpu::MBarrierInitOp::create(b, loc, tmaGroup, cIdx(1), cIdx(s), Value());
      // The initialised barriers must be visible to the TMA unit (async proxy).
      NVVM::FenceMbarrierInitOp::create(b, loc);
      for (Value m : tmaMaps)
        nvgpu::TmaPrefetchOp::create(b, loc, m, Value());
    }
    barrier();
  }
  MmaHandoff handoff;
  handoff.carry = carryRegs;
  handoff.sync = [&] {
    if (useTMA) {
      // Only for a tile that exists: the last iteration's (and an empty
      // loop's) next tile was never loaded, and its phase never completes.
      OpBuilder::InsertionGuard guard(b);
      beginIf(waitCond);
      nvgpu::MBarrierTryWaitParityOp::create(b, loc, tmaGroup, waitParity, cIdx(10000000), waitSlot);
    } else
      NVVM::CpAsyncWaitGroupOp::create(b, loc, stages - 2);
    barrier();
  };
  // The prologue, the loop and the final wait, with the copies' bounds handled as `mode`.
  auto version = [&](AsyncBounds m) -> LogicalResult {
    mode = m;
    for (int64_t s = 0; s + 1 < stages; ++s) {
      Value kv = add(lb, arith::MulIOp::create(b, loc, step, cIdx(s)));
      Value cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, kv, ub);
      {
        OpBuilder::InsertionGuard guard(b);
        beginIf(cond);
        if (useTMA) {
          beginIf(isThread0);
          issueTMA(kv, cIdx(s));
        } else if (failed(issue(kv, cIdx(s)))) {
          return failure();
        }
      }
      if (!useTMA)
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
    }
    if (hg) {
      waitSlot = cIdx(0);
      waitParity = arith::ConstantIntOp::create(b, loc, 0, 1);
      waitCond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
      handoff.sync();
      for (tile::CopyOp c : copies)
        stageBase[c.getDst()] = cIdx(0);
      handoff.prologue = true;
      mmaHandoff = &handoff;
      LogicalResult r = emitOp(hg);
      mmaHandoff = nullptr;
      handoff.prologue = false;
      if (failed(r))
        return failure();
    }
    auto loop = scf::ForOp::create(b, loc, lb, ub, step);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value k = loop.getInductionVar();
      Value it = arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, k, lb), step);
      if (!hg) {
        NVVM::CpAsyncWaitGroupOp::create(b, loc, stages - 2);
        barrier();
      }
      Value kn = add(k, arith::MulIOp::create(b, loc, step, cIdx(stages - 1)));
      Value slotNext = arith::RemUIOp::create(b, loc, addc(it, stages - 1), cIdx(stages));
      Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, kn, ub);
      if (useTMA) {
        OpBuilder::InsertionGuard guard2(b);
        beginIf(arith::AndIOp::create(b, loc, more, isThread0));
        issueTMA(kn, slotNext);
      } else {
        {
          OpBuilder::InsertionGuard guard2(b);
          beginIf(more);
          if (failed(issue(kn, slotNext)))
            return failure();
        }
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
      }
      Value slot = arith::RemUIOp::create(b, loc, it, cIdx(stages));
      Value slotAfter = arith::RemUIOp::create(b, loc, addc(it, 1), cIdx(stages));
      for (tile::CopyOp c : copies) {
        stageBase[c.getDst()] = arith::MulIOp::create(b, loc, slot, cIdx(shared[c.getDst()].numel));
        handoff.nextStage[c.getDst()] = arith::MulIOp::create(b, loc, slotAfter, cIdx(shared[c.getDst()].numel));
      }
      if (useTMA) {
        // The next tile (it + 1) is in stage slotAfter, in round (it + 1) / S.
        waitSlot = slotAfter;
        Value round = arith::DivUIOp::create(b, loc, addc(it, 1), cIdx(stages));
        waitParity = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                           arith::AndIOp::create(b, loc, round, cIdx(1)), cIdx(0));
        waitCond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, add(k, step), ub);
      }
      map.map(op.getInductionVar(), k);
      for (Operation &inner : *op.getBodyBlock()) {
        if (isa<tile::YieldOp>(inner) || llvm::is_contained(copies, dyn_cast<tile::CopyOp>(inner)))
          continue;
        if (&inner == hg.getOperation())
          mmaHandoff = &handoff;
        LogicalResult r = emitOp(&inner);
        mmaHandoff = nullptr;
        if (failed(r))
          return failure();
      }
    }
    if (useTMA) {
      // Every load completed (each was waited for); thread 0 retires the
      // mbarriers once no thread waits on them.
      barrier();
      OpBuilder::InsertionGuard guard(b);
      beginIf(isThread0);
      auto ptrT = LLVM::LLVMPointerType::get(b.getContext(), 3);
      for (int64_t s = 0; s < stages; ++s) {
        Value addr = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), tmaGroup, cIdx(s));
        NVVM::MBarrierInvalOp::create(b, loc, LLVM::IntToPtrOp::create(b, loc, ptrT, addr));
      }
      return success();
    }
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
    barrier();
    return success();
  };
  auto finish = [&]() -> LogicalResult {
    for (tile::CopyOp c : copies) {
      stageBase.erase(c.getDst());
      untracked.erase(c.getDst());
    }
    return success();
  };
  // A block whose source tiles are in bounds for every iteration runs a loop
  // with only unchecked cp.async; other blocks run the zero-filling one. The
  // test is block-uniform and made once, so each loop has one copy form live.
  Value allIn = useTMA ? Value() : wholeFootprintInBounds(*this, op, copies, lastCopy, lb, ub, step);
  if (!allIn)
    return failed(version(AsyncBounds::PerCopy)) ? failure() : finish();
  auto ifOp = scf::IfOp::create(b, loc, allIn, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    auto reads = pendingReads, writes = pendingWrites;
    int half = scratchPendingHalf;
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    if (failed(version(AsyncBounds::Unchecked)))
      return failure();
    pendingReads = reads, pendingWrites = writes, scratchPendingHalf = half;
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    if (failed(version(AsyncBounds::Checked)))
      return failure();
  }
  return finish();
}
