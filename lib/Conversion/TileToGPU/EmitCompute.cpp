//===- EmitCompute.cpp - T.Parallel, reductions, scans, atomics, print ----===//
//
// T.Parallel: the thread runs the body once per register of the loop's
// driver layout (fully unrolled, so fragment registers stay registers).
// Reductions of fragments: per-thread partials, then xor shuffles over the
// reduced lane digits, then shared memory over the reduced warp digits; the
// result goes to a fragment, a shared buffer (first replica writes) or a
// local one. Shared and local sources: each output element loops over its
// line. Reducers: the same shuffles and shared memory over the digits that
// replicate the reducer's layout, every copy getting the combined value.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

static tile::Scope scopeOf(Value v) { return *tile::getBufferScope(cast<MemRefType>(v.getType())); }

//===----------------------------------------------------------------------===//
// Buffer element access
//===----------------------------------------------------------------------===//

/// The register of a fully replicated fragment that holds element `idx`
/// (constant when the indices are).
static Value replicatedReg(KernelEmitter &e, const FragmentLayout &l, ValueRange idx) {
  int64_t known = 0;
  Value reg;
  for (unsigned d = 0; d < idx.size(); ++d)
    for (const LayoutField &f : l.dims[d]) {
      if (f.onThread || f.count == 1)
        continue;
      Value i = e.map.lookup(idx[d]);
      if (std::optional<int64_t> c = getConstantIntValue(i)) {
        known += ((*c / f.scale) % f.count) * f.stride;
        continue;
      }
      Value digit = arith::DivUIOp::create(e.b, e.loc, i, e.cIdx(f.scale));
      digit = arith::RemUIOp::create(e.b, e.loc, digit, e.cIdx(f.count));
      digit = e.mul(digit, f.stride);
      reg = reg ? e.add(reg, digit) : digit;
    }
  return reg ? e.addc(reg, known) : e.cIdx(known);
}

Value KernelEmitter::addRegisterDigits(Value sum, const FragmentLayout &l, unsigned d, Value v) {
  for (const LayoutField &f : l.dims[d]) {
    if (f.onThread || f.count == 1)
      continue;
    Value digit = arith::DivUIOp::create(b, loc, v, cIdx(f.scale));
    digit = mul(arith::RemUIOp::create(b, loc, digit, cIdx(f.count)), f.stride);
    sum = sum ? add(sum, digit) : digit;
  }
  return sum;
}

FailureOr<Value> KernelEmitter::fragmentRegIndex(Operation *op, Value buf, ValueRange idx) {
  Fragment &frag = fragments[buf];
  // Outside T.Parallel (per-thread code): the thread's own copy of a
  // replicated fragment.
  if (!par && frag.layout.isFullyReplicated())
    return replicatedReg(*this, frag.layout, idx);
  if (!par)
    return op->emitOpError("indexes a fragment outside T.Parallel whose layout ")
               << frag.layout.str() << " is not replicated (tile-infer-layouts replicates such fragments)",
           failure();
  llvm::SmallVector<unsigned> kept;
  bool ivsOnly = true;
  for (Value i : idx) {
    int which = -1;
    for (unsigned k = 0; k < par->ivs.size(); ++k)
      if (par->ivs[k] == i)
        which = k;
    if (which < 0 || (!kept.empty() && (unsigned)which <= kept.back()))
      ivsOnly = false;
    else
      kept.push_back(which);
  }
  if (ivsOnly && frag.layout == par->driver->project(kept))
    return cIdx(par->driver->projectReg(kept, par->reg));
  // Each index an induction variable whose thread fields match the loop's, or
  // a constant on a dimension held in registers only: the element's register
  // is known at compile time. A value defined outside the loop on such a
  // dimension (a serial loop's index) adds its register digits at run time.
  {
    llvm::SmallVector<int64_t> driverIdx = par->driver->regIndex(par->reg);
    int64_t reg = 0;
    Value dyn;
    bool known = true;
    for (unsigned d = 0; d < idx.size() && known; ++d) {
      int64_t value = 0;
      llvm::SmallVector<LayoutField> tf = frag.layout.threadFields(d);
      llvm::erase_if(tf, [](const LayoutField &f) { return f.count == 1; });
      // `iv // c`: the loop's layout with that dimension divided by c.
      Value iv = idx[d];
      int64_t c = 1;
      if (Operation *def = iv.getDefiningOp(); def && isa<arith::FloorDivSIOp, arith::DivUIOp, arith::DivSIOp>(def))
        if (std::optional<int64_t> k = getConstantIntValue(def->getOperand(1));
            k && *k > 1 && llvm::is_contained(par->ivs, def->getOperand(0)))
          iv = def->getOperand(0), c = *k;
      auto k = llvm::find(par->ivs, iv);
      std::optional<tile::OffsetIndex> off;
      if (k == par->ivs.end() && c == 1)
        off = tile::matchOffsetIndex(idx[d], par->ivs, op->getParentOfType<tile::ParallelOp>().getBody());
      if (off) {
        // `iv + offset` (tile-infer-layouts' Access::align): the offset is a
        // multiple of every thread digit's span, so the thread holds the
        // element; its register digits are computed from the index here.
        llvm::SmallVector<LayoutField> dtf = par->driver->threadFields(off->iv);
        llvm::erase_if(dtf, [](const LayoutField &f) { return f.count == 1; });
        known = tf == dtf &&
                llvm::all_of(tf, [&](const LayoutField &f) { return off->multiple % (f.scale * f.count) == 0; });
        if (known)
          dyn = addRegisterDigits(dyn, frag.layout, d, map.lookup(idx[d]));
        continue;
      }
      if (k != par->ivs.end()) {
        unsigned kd = k - par->ivs.begin();
        std::optional<FragmentLayout> divided = c == 1 ? *par->driver : par->driver->divideDim(kd, c);
        llvm::SmallVector<LayoutField> dtf = divided ? divided->threadFields(kd) : llvm::SmallVector<LayoutField>{};
        llvm::erase_if(dtf, [](const LayoutField &f) { return f.count == 1; });
        known = divided && tf == dtf;
        value = driverIdx[kd] / c;
      } else if (auto c = getConstantIntValue(idx[d])) {
        known = tf.empty();
        value = *c;
      } else {
        known =
            tf.empty() && !op->getParentOfType<tile::ParallelOp>()->isAncestor(idx[d].getParentRegion()->getParentOp());
        // The index is within the dimension (as on the host, which indexes
        // the buffer with it); its register digits are computed here.
        if (known)
          dyn = addRegisterDigits(dyn, frag.layout, d, map.lookup(idx[d]));
        continue;
      }
      int64_t decoded = 0;
      for (const LayoutField &f : frag.layout.dims[d])
        if (!f.onThread) {
          int64_t digit = (value / f.scale) % f.count;
          reg += digit * f.stride;
          decoded += digit * f.scale;
        }
      known &= decoded == value;
    }
    if (known)
      return dyn ? addc(dyn, reg) : cIdx(reg);
  }
  if (frag.layout.isFullyReplicated()) // every thread holds everything
    return replicatedReg(*this, frag.layout, idx);
  return op->emitOpError("indexes a fragment whose layout ")
             << frag.layout.str() << " does not give this thread those elements (loop layout "
             << par->driver->str() << ")",
         failure();
}

LogicalResult KernelEmitter::emitLoad(memref::LoadOp op) {
  Value buf = op.getMemRef();
  llvm::SmallVector<Value> idx;
  for (Value i : op.getIndices())
    idx.push_back(map.lookup(i));
  auto scope = tile::getBufferScope(op.getMemRefType());
  Value v;
  if (!scope) {
    v = memref::LoadOp::create(b, loc, map.lookup(buf), idx);
  } else if (*scope == tile::Scope::Fragment) {
    FailureOr<Value> reg = fragmentRegIndex(op, buf, op.getIndices());
    if (failed(reg))
      return failure();
    v = memref::LoadOp::create(b, loc, fragments[buf].regs, ValueRange{*reg});
  } else if (*scope == tile::Scope::Shared) {
    if (!par)
      noteAccess({buf}, {});
    v = memref::LoadOp::create(b, loc, shared[buf].flat, ValueRange{sharedIndex(buf, idx)});
  } else if (*scope == tile::Scope::Global) {
    Value mem = globals.lookup(buf);
    if (!par)
      noteAccess({buf}, {});
    {
      // A read outside the tensor gives 0 (as on the host).
      Value inb = inBounds(mem, idx);
      for (Value &i : idx)
        i = arith::SelectOp::create(b, loc, inb, i, cIdx(0));
      v = memref::LoadOp::create(b, loc, mem, idx);
      v = arith::SelectOp::create(b, loc, inb, v, zeroOf(v.getType()));
    }
  } else {
    v = memref::LoadOp::create(b, loc, locals.lookup(buf), idx);
  }
  map.map(op.getResult(), v);
  return success();
}

LogicalResult KernelEmitter::emitStore(memref::StoreOp op) {
  Value buf = op.getMemRef();
  Value val = map.lookup(op.getValueToStore());
  llvm::SmallVector<Value> idx;
  for (Value i : op.getIndices())
    idx.push_back(map.lookup(i));
  auto scope = tile::getBufferScope(op.getMemRefType());
  if (!scope) {
    memref::StoreOp::create(b, loc, val, map.lookup(buf), idx);
    return success();
  }
  if (*scope == tile::Scope::Fragment) {
    FailureOr<Value> reg = fragmentRegIndex(op, buf, op.getIndices());
    if (failed(reg))
      return failure();
    // A reducer's copy takes the updates of the loop's first replicas only:
    // the other replicas of a replicated loop run the same iterations again.
    auto alloc = buf.getDefiningOp<tile::AllocOp>();
    if (alloc && alloc.getReducer() && par && par->driver) {
      Value old = memref::LoadOp::create(b, loc, fragments[buf].regs, ValueRange{*reg});
      val = arith::SelectOp::create(b, loc, isFirstReplica(*par->driver), val, old);
    }
    memref::StoreOp::create(b, loc, val, fragments[buf].regs, ValueRange{*reg});
    return success();
  }
  if (*scope == tile::Scope::Local) {
    memref::StoreOp::create(b, loc, val, locals.lookup(buf), idx);
    return success();
  }
  // Inside T.Parallel, shared and global stores happen once per element (the
  // first replica of the loop's layout); outside, every thread stores (spec
  // §6: per-thread statements).
  if (!par)
    noteAccess({}, {buf});
  OpBuilder::InsertionGuard guard(b);
  Value owner = par ? isFirstReplica(*par->driver) : Value();
  // A write outside the tensor is dropped (as on the host).
  if (*scope == tile::Scope::Global) {
    Value inb = inBounds(globals.lookup(buf), idx);
    owner = owner ? arith::AndIOp::create(b, loc, owner, inb).getResult() : inb;
  }
  if (owner)
  beginIf(owner);
  if (*scope == tile::Scope::Shared)
    memref::StoreOp::create(b, loc, val, shared[buf].flat, ValueRange{sharedIndex(buf, idx)});
  else
    memref::StoreOp::create(b, loc, val, globals.lookup(buf), idx);
  return success();
}

//===----------------------------------------------------------------------===//
// T.Parallel
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitParallel(tile::ParallelOp op) {
  const FragmentLayout *driver = nullptr;
  auto it = plan.parallels.find(op);
  if (it != plan.parallels.end())
    driver = &it->second;
  llvm::SmallVector<Value> reads, writes;
  op.getBody().walk([&](Operation *inner) {
    if (auto l = dyn_cast<memref::LoadOp>(inner)) {
      auto s = tile::getBufferScope(l.getMemRefType());
      if (s && (*s == tile::Scope::Shared || *s == tile::Scope::Global))
        reads.push_back(l.getMemRef());
      if (!driver && s && *s == tile::Scope::Fragment && l.getMemRefType().getShape() == op.getExtents() &&
          llvm::equal(l.getIndices(), op.getInductionVars()))
        driver = &fragments[l.getMemRef()].layout;
    } else if (auto st = dyn_cast<memref::StoreOp>(inner)) {
      auto s = tile::getBufferScope(st.getMemRefType());
      if (s && (*s == tile::Scope::Shared || *s == tile::Scope::Global))
        writes.push_back(st.getMemRef());
      if (!driver && s && *s == tile::Scope::Fragment && st.getMemRefType().getShape() == op.getExtents() &&
          llvm::equal(st.getIndices(), op.getInductionVars()))
        driver = &fragments[st.getMemRef()].layout;
    } else if (auto a = dyn_cast<tile::AtomicAddOp>(inner)) {
      writes.push_back(a.getDst());
    }
  });
  if (!driver)
    return op.emitOpError("has no thread mapping (layout inference left it unplaced)");
  noteAccess(reads, writes);
  FragmentLayout layout = *driver;
  ParallelCtx ctx;
  ctx.driver = &layout;
  for (Value iv : op.getInductionVars())
    ctx.ivs.push_back(iv);
  ParallelCtx *saved = par;
  par = &ctx;
  for (int64_t r = 0; r < layout.numRegs; ++r) {
    ctx.reg = r;
    llvm::SmallVector<int64_t> ri = layout.regIndex(r);
    for (unsigned d = 0; d < ri.size(); ++d)
      map.map(op.getInductionVars()[d], addc(threadPart(layout, d), ri[d]));
    if (failed(emitBlock(*op.getBodyBlock()))) {
      par = saved;
      return failure();
    }
  }
  par = saved;
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// xor-shuffle of any 8..64-bit scalar (narrow types go through 32 bits).
static Value shuffleXor(KernelEmitter &e, Value v, int64_t offset) {
  OpBuilder &b = e.b;
  Type t = v.getType();
  unsigned bits = t.getIntOrFloatBitWidth();
  Type wide = bits >= 32 ? t : (isa<FloatType>(t) ? (Type)b.getF32Type() : (Type)b.getI32Type());
  Value w = e.convert(v, wide);
  // Over 32 lanes: the SPIR-V targets narrow the width to their subgroup
  // (VulkanLegalizeSubgroupOps); the lane digits stay below getShuffleLanes().
  Value r = e.target.emitShuffleXor(b, e.loc, w, offset, 32);
  return e.convert(r, t);
}

/// Reduces a shared or local source element by element: each output element
/// this thread produces (`out`'s registers) loops over the reduced dimension.
static void reduceSerially(KernelEmitter &e, tile::ReduceOp op, const FragmentLayout &out, bool unrolled,
                           llvm::function_ref<Value(ArrayRef<Value>)> loadSrc,
                           llvm::function_ref<Value(ArrayRef<Value>, Value)> loadDst,
                           llvm::function_ref<void(ArrayRef<Value>, Value, Value)> storeDst) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  tile::ReduceKind kind = op.getKind();
  Type acc = op.getDst().getType().getElementType();
  bool abs = kind == tile::ReduceKind::AbsSum || kind == tile::ReduceKind::AbsMax;
  int64_t dim = op.getDim(), ext = op.getSrc().getType().getDimSize(dim);
  auto one = [&](Value reg, ArrayRef<Value> didx) {
    Value init = op.getClear() ? e.identityOf(kind, acc) : loadDst(didx, reg);
    auto loop = e.loopWithIterArgs(e.cIdx(0), e.cIdx(ext), e.cIdx(1), ValueRange{init});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      llvm::SmallVector<Value> sidx(didx);
      sidx.insert(sidx.begin() + dim, loop.getInductionVar());
      Value v = e.convert(loadSrc(sidx), acc);
      if (abs)
        v = isa<FloatType>(acc) ? (Value)math::AbsFOp::create(b, loc, v) : (Value)math::AbsIOp::create(b, loc, v);
      Value r = e.combine(kind, loop.getRegionIterArgs()[0], v);
      loop.getBody()->getTerminator()->setOperands(ValueRange{r});
    }
    storeDst(didx, reg, loop.getResult(0));
  };
  if (unrolled) {
    for (int64_t r = 0; r < out.numRegs; ++r)
      one(e.cIdx(r), layoutIndex(e, out, r));
    return;
  }
  auto loop = scf::ForOp::create(b, loc, e.cIdx(0), e.cIdx(out.numRegs), e.cIdx(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  one(loop.getInductionVar(), layoutIndexDyn(e, out, loop.getInductionVar()));
}

/// The warp digits of a reduction (`warpFields`, lane digits done): every
/// thread's partial results `part` through one half of the reduction
/// scratch in shared memory, each thread combining those of its row. A half
/// holds numThreads values of as many registers as fit (all of them unless
/// tile-plan-shared-memory shrank the scratch to fit the window); the
/// registers go through in chunks of that many, the halves in turn.
static void reduceAcrossWarps(KernelEmitter &e, tile::ReduceKind kind, Type acc, const FragmentLayout &outLayout,
                              ArrayRef<LayoutField> warpFields, llvm::SmallVector<Value> &part) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto wg = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Type st = acc.getIntOrFloatBitWidth() >= 32 ? acc : (isa<FloatType>(acc) ? (Type)b.getF32Type() : (Type)b.getI32Type());
  int64_t bytes = st.getIntOrFloatBitWidth() / 8;
  int64_t chunk = std::clamp<int64_t>(e.window.getReduceScratch() / (e.numThreads * bytes), 1, outLayout.numRegs);
  Value base;
  int64_t combos = 1;
  for (int64_t first = 0; first < outLayout.numRegs; first += chunk) {
    int64_t last = std::min(outLayout.numRegs, first + chunk);
    // The half the previous reduction (or chunk) did not read; with the
    // state unknown, a barrier first.
    int half = 0;
    if (e.scratchPendingHalf == 0 || e.scratchPendingHalf == 1)
      half = 1 - e.scratchPendingHalf;
    else if (e.scratchPendingHalf != -1)
      e.barrier();
    Value scratch = memref::ViewOp::create(
        b, loc, MemRefType::get({e.numThreads * (last - first)}, st, AffineMap(), wg), e.scratchBase,
        e.cIdx(e.window.getScratchOffset() + half * e.window.getReduceScratch()), ValueRange{});
    for (int64_t rp = first; rp < last; ++rp)
      memref::StoreOp::create(b, loc, e.convert(part[rp], st), scratch,
                              ValueRange{e.addc(e.tid, (rp - first) * e.numThreads)});
    e.barrier();
    e.scratchPendingHalf = half;
    if (!base) {
      base = e.tid;
      for (const LayoutField &f : warpFields) {
        Value digit =
            arith::RemUIOp::create(b, loc, arith::DivUIOp::create(b, loc, e.tid, e.cIdx(f.stride)), e.cIdx(f.count));
        base = arith::SubIOp::create(b, loc, base, e.mul(digit, f.stride));
        combos *= f.count;
      }
    }
    for (int64_t rp = first; rp < last; ++rp) {
      Value accv = e.identityOf(kind, acc);
      for (int64_t c = 0; c < combos; ++c) {
        int64_t rest = c, off = (rp - first) * e.numThreads;
        for (const LayoutField &f : warpFields) {
          off += (rest % f.count) * f.stride;
          rest /= f.count;
        }
        Value v = memref::LoadOp::create(b, loc, scratch, ValueRange{e.addc(base, off)});
        accv = e.combine(kind, accv, e.convert(v, acc));
      }
      part[rp] = accv;
    }
  }
}

LogicalResult KernelEmitter::emitReduce(tile::ReduceOp op) {
  Value src = op.getSrc(), dst = op.getDst();
  tile::Scope ss = scopeOf(src), ds = scopeOf(dst);
  auto dstType = cast<MemRefType>(dst.getType());
  if (ss == tile::Scope::Global || ds == tile::Scope::Global)
    return op.emitOpError("reduces only shared, fragment and local buffers on the GPU; copy the global tensor "
                          "to or from shared memory or a fragment");
  if (ss != tile::Scope::Fragment) {
    // A shared or local source: every thread reads whole lines.
    if (ss == tile::Scope::Local && ds == tile::Scope::Fragment)
      return op.emitOpError("reduces a local buffer into a fragment; reduce into a local buffer or copy the "
                            "source to shared memory first");
    auto loadBuf = [&](Value buf, tile::Scope s, ArrayRef<Value> idx) -> Value {
      if (s == tile::Scope::Shared)
        return memref::LoadOp::create(b, loc, shared[buf].flat, ValueRange{sharedIndex(buf, idx)});
      return memref::LoadOp::create(b, loc, locals.lookup(buf), idx);
    };
    auto loadSrc = [&](ArrayRef<Value> idx) { return loadBuf(src, ss, idx); };
    llvm::SmallVector<Value> reads, writes;
    if (ss == tile::Scope::Shared)
      reads.push_back(src);
    if (ds == tile::Scope::Shared)
      writes.push_back(dst), reads.push_back(dst);
    noteAccess(reads, writes);
    if (ds == tile::Scope::Fragment) {
      Fragment &fd = fragments[dst];
      reduceSerially(
          *this, op, fd.layout, /*unrolled=*/true, loadSrc,
          [&](ArrayRef<Value>, Value reg) -> Value { return memref::LoadOp::create(b, loc, fd.regs, ValueRange{reg}); },
          [&](ArrayRef<Value>, Value reg, Value v) { memref::StoreOp::create(b, loc, v, fd.regs, ValueRange{reg}); });
      return success();
    }
    // Local destinations: every thread computes every element. Shared ones:
    // spread over the threads, or thread 0 alone from a local source.
    bool perThread = ds == tile::Scope::Local || ss == tile::Scope::Local;
    FragmentLayout out = FragmentLayout::canonical(dstType.getShape(), perThread ? 1 : numThreads, 1);
    out.numThreads = numThreads;
    // Only the owner of a shared element computes it: a replica reading the
    // element (clear=False) while the owner stores it would race.
    Value owner = ds == tile::Scope::Shared ? isFirstReplica(out) : Value();
    OpBuilder::InsertionGuard ownerGuard(b);
    if (owner)
      beginIf(owner);
    reduceSerially(
        *this, op, out, /*unrolled=*/false, loadSrc, [&](ArrayRef<Value> idx, Value) { return loadBuf(dst, ds, idx); },
        [&](ArrayRef<Value> idx, Value, Value v) {
          if (ds == tile::Scope::Shared)
            memref::StoreOp::create(b, loc, v, shared[dst].flat, ValueRange{sharedIndex(dst, idx)});
          else
            memref::StoreOp::create(b, loc, v, locals.lookup(dst), idx);
        });
    return success();
  }
  Fragment &fs = fragments[src];
  int64_t dim = op.getDim();
  llvm::SmallVector<unsigned> kept;
  for (unsigned d = 0; d < fs.layout.shape.size(); ++d)
    if ((int64_t)d != dim)
      kept.push_back(d);
  FragmentLayout outLayout = fs.layout.project(kept);
  if (ds == tile::Scope::Fragment && fragments[dst].layout != outLayout)
    return op.emitOpError("reduces into a fragment whose layout ")
           << fragments[dst].layout.str() << " is not the source layout without dimension " << dim;
  if (ds == tile::Scope::Local && !outLayout.isFullyReplicated())
    return op.emitOpError("reduces a fragment into a local buffer whose elements would live on different "
                          "threads; reduce into a fragment or a shared buffer");
  tile::ReduceKind kind = op.getKind();
  Type acc = dstType.getElementType();
  bool abs = kind == tile::ReduceKind::AbsSum || kind == tile::ReduceKind::AbsMax;
  llvm::SmallVector<Value> part(outLayout.numRegs, identityOf(kind, acc));
  for (int64_t r = 0; r < fs.layout.numRegs; ++r) {
    Value v = convert(memref::LoadOp::create(b, loc, fs.regs, ValueRange{cIdx(r)}), acc);
    if (abs)
      v = isa<FloatType>(acc) ? (Value)math::AbsFOp::create(b, loc, v) : (Value)math::AbsIOp::create(b, loc, v);
    int64_t rp = fs.layout.projectReg(kept, r);
    part[rp] = combine(kind, part[rp], v);
  }
  // Lane digits, then warp digits, of the reduced dimension.
  llvm::SmallVector<LayoutField> warpFields;
  for (LayoutField f : fs.layout.threadFields(dim)) {
    if (f.count == 1)
      continue;
    int64_t k = 1;
    for (; k < f.count && f.stride * k < target.getShuffleLanes(); k *= 2)
      for (Value &p : part)
        p = combine(kind, p, shuffleXor(*this, p, f.stride * k));
    if (k < f.count)
      warpFields.push_back({true, f.stride * k, f.count / k, 0});
  }
  if (!warpFields.empty())
    reduceAcrossWarps(*this, kind, acc, outLayout, warpFields, part);
  if (ds == tile::Scope::Fragment) {
    Fragment &fd = fragments[dst];
    for (int64_t rp = 0; rp < outLayout.numRegs; ++rp) {
      Value v = part[rp];
      if (!op.getClear())
        v = combine(kind, memref::LoadOp::create(b, loc, fd.regs, ValueRange{cIdx(rp)}), v);
      memref::StoreOp::create(b, loc, v, fd.regs, ValueRange{cIdx(rp)});
    }
    return success();
  }
  // Shared (first replica writes) or local (every thread holds every element).
  if (ds == tile::Scope::Shared)
    noteAccess({dst}, {dst});
  OpBuilder::InsertionGuard guard(b);
  if (ds == tile::Scope::Shared)
    beginIf(isFirstReplica(outLayout));
  for (int64_t rp = 0; rp < outLayout.numRegs; ++rp) {
    llvm::SmallVector<Value> idx = layoutIndex(*this, outLayout, rp);
    Value mem = ds == tile::Scope::Shared ? shared[dst].flat : locals.lookup(dst);
    llvm::SmallVector<Value> at = ds == tile::Scope::Shared ? llvm::SmallVector<Value>{sharedIndex(dst, idx)} : idx;
    Value v = part[rp];
    if (!op.getClear())
      v = combine(kind, memref::LoadOp::create(b, loc, mem, at), v);
    memref::StoreOp::create(b, loc, v, mem, at);
  }
  return success();
}

/// tile.finalize_reducer: each thread's copies of the reducer's elements
/// combined over the thread digits that replicate its layout (xor shuffles
/// within a warp, the reduction scratch across warps), so that every copy
/// holds the result.
LogicalResult KernelEmitter::emitFinalizeReducer(tile::FinalizeReducerOp op) {
  Fragment &f = fragments[op.getReducer()];
  llvm::SmallVector<LayoutField> replicas;
  if (!f.layout.replicationFields(replicas))
    return op.emitOpError("cannot combine the copies of a reducer whose layout ")
           << f.layout.str() << " does not split the thread id into digits";
  if (replicas.empty())
    return success(); // one copy of every element
  tile::ReduceKind kind = op.getKind();
  llvm::SmallVector<Value> part;
  for (int64_t r = 0; r < f.layout.numRegs; ++r)
    part.push_back(memref::LoadOp::create(b, loc, f.regs, ValueRange{cIdx(r)}));
  // Lane digits by shuffles (powers of two), the rest through shared memory.
  llvm::SmallVector<LayoutField> warpFields;
  for (const LayoutField &rf : replicas) {
    if (!llvm::isPowerOf2_64(rf.count)) {
      warpFields.push_back(rf);
      continue;
    }
    int64_t k = 1;
    for (; k < rf.count && rf.stride * k < target.getShuffleLanes(); k *= 2)
      for (Value &p : part)
        p = combine(kind, p, shuffleXor(*this, p, rf.stride * k));
    if (k < rf.count)
      warpFields.push_back({true, rf.stride * k, rf.count / k, 0});
  }
  if (!warpFields.empty())
    reduceAcrossWarps(*this, kind, f.elementType, f.layout, warpFields, part);
  for (int64_t r = 0; r < f.layout.numRegs; ++r)
    memref::StoreOp::create(b, loc, part[r], f.regs, ValueRange{cIdx(r)});
  return success();
}
