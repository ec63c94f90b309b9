//===- EmitCopy.cpp - tile.copy and tile.fill for one thread --------------===//
//
// A copy iterates over its region's non-unit dimensions ("core" shape):
// 1. with a fragment on one side, over the registers the thread holds (the
//    fragment's layout), whole vectors at a time where both sides allow;
//    part of a fragment: each register tested against the region;
// 2. otherwise over a blocked layout of the core shape, 16-byte vectors where
//    alignment is provable; global -> shared copies inside pipelined loops
//    go through the target's async copies (TargetInfo::emitAsyncCopy:
//    cp.async on CUDA, plain copies on a target without an engine;
//    zero-filled out of bounds).
// Global reads out of bounds yield 0 (clamped address, then select); global
// writes out of bounds are dropped; replicated threads write once.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

namespace {
/// One side of a copy.
struct Side {
  Value buf;
  tile::Scope scope;
  llvm::SmallVector<Value> off;
  llvm::SmallVector<int64_t> sizes;
};
} // namespace

static tile::Scope scopeOf(Value v) { return *tile::getBufferScope(cast<MemRefType>(v.getType())); }

/// The full index of `s` for a point of the core shape.
static llvm::SmallVector<Value> fullIndex(KernelEmitter &e, const Side &s, ArrayRef<Value> core) {
  llvm::SmallVector<Value> idx;
  unsigned k = 0;
  for (unsigned d = 0; d < s.sizes.size(); ++d)
    idx.push_back(s.sizes[d] == 1 ? s.off[d] : e.add(s.off[d], core[k++]));
  return idx;
}

/// Whether `s` can be accessed with `v`-element vectors along its inner dim.
static bool vectorizable(KernelEmitter &e, const Side &s, int64_t v) {
  if (v == 1)
    return true;
  if (s.sizes.empty() || s.sizes.back() % v != 0)
    return false;
  auto type = cast<MemRefType>(s.buf.getType());
  if (type.isDynamicDim(type.getRank() - 1) || type.getShape().back() % v != 0)
    return false;
  // Sub-byte elements (bool) are one byte each in memory; LLVM packs their vectors.
  if (type.getElementType().getIntOrFloatBitWidth() < 8)
    return false;
  if (e.knownMultiple(s.off.back()) % v != 0)
    return false;
  if (s.scope == tile::Scope::Shared) {
    SharedBuffer &sb = e.shared[s.buf];
    // A vector stays inside one swizzled 16-byte chunk (chunks move whole).
    if (sb.swizzled && v * sb.elementType.getIntOrFloatBitWidth() > kSwizzleChunkBytes * 8)
      return false;
  }
  return s.scope != tile::Scope::Fragment;
}

/// Loads `v` elements (a vector when v > 1) at `idx` of side `s`.
static Value loadSide(KernelEmitter &e, const Side &s, ArrayRef<Value> idx, int64_t v) {
  OpBuilder &b = e.b;
  auto type = cast<MemRefType>(s.buf.getType());
  Type elem = type.getElementType();
  Value mem;
  llvm::SmallVector<Value> at(idx.begin(), idx.end());
  int64_t align = v * std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  if (s.scope == tile::Scope::Global) {
    mem = e.globals.lookup(s.buf);
    Value inb = e.inBounds(mem, idx);
    for (Value &i : at)
      i = arith::SelectOp::create(b, e.loc, inb, i, e.cIdx(0));
    Value val;
    if (v == 1) {
      val = memref::LoadOp::create(b, e.loc, mem, at);
    } else {
      auto ld = vector::LoadOp::create(b, e.loc, VectorType::get({v}, elem), mem, at);
      ld.setAlignmentAttr(b.getI64IntegerAttr(align));
      val = ld;
    }
    Value zero = e.zeroOf(val.getType());
    return arith::SelectOp::create(b, e.loc, inb, val, zero);
  }
  if (s.scope == tile::Scope::Shared) {
    mem = e.shared[s.buf].flat;
    at = {e.sharedIndex(s.buf, idx)};
  } else {
    mem = e.locals.lookup(s.buf);
  }
  if (v == 1)
    return memref::LoadOp::create(b, e.loc, mem, at);
  auto ld = vector::LoadOp::create(b, e.loc, VectorType::get({v}, elem), mem, at);
  ld.setAlignmentAttr(b.getI64IntegerAttr(align));
  return ld;
}

/// Stores `val` (scalar or vector) at `idx` of side `s` (bounds and replica
/// predicates for global memory are the caller's).
static void storeSide(KernelEmitter &e, const Side &s, ArrayRef<Value> idx, Value val, Value pred,
                      bool fromUnsigned = false) {
  OpBuilder &b = e.b;
  Type elem = cast<MemRefType>(s.buf.getType()).getElementType();
  val = e.convert(val, elem, fromUnsigned, KernelEmitter::isUnsignedBuffer(s.buf));
  Value mem;
  llvm::SmallVector<Value> at(idx.begin(), idx.end());
  OpBuilder::InsertionGuard guard(b);
  if (s.scope == tile::Scope::Global) {
    mem = e.globals.lookup(s.buf);
    Value inb = e.inBounds(mem, idx);
    pred = pred ? (Value)arith::AndIOp::create(b, e.loc, pred, inb) : inb;
  } else if (s.scope == tile::Scope::Shared) {
    mem = e.shared[s.buf].flat;
    at = {e.sharedIndex(s.buf, idx)};
  } else {
    mem = e.locals.lookup(s.buf);
  }
  if (pred)
    e.beginIf(pred);
  if (auto vt = dyn_cast<VectorType>(val.getType())) {
    auto st = vector::StoreOp::create(b, e.loc, val, mem, at);
    st.setAlignmentAttr(b.getI64IntegerAttr(vt.getNumElements() * std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8)));
  } else {
    memref::StoreOp::create(b, e.loc, val, mem, at);
  }
}

llvm::SmallVector<Value> tilec::gpu_lowering::layoutIndex(KernelEmitter &e, const FragmentLayout &l, int64_t reg) {
  llvm::SmallVector<int64_t> r = l.regIndex(reg);
  llvm::SmallVector<Value> idx;
  for (unsigned d = 0; d < l.dims.size(); ++d)
    idx.push_back(e.addc(e.threadPart(l, d), r[d]));
  return idx;
}

llvm::SmallVector<Value> tilec::gpu_lowering::layoutIndexDyn(KernelEmitter &e, const FragmentLayout &l, Value reg) {
  llvm::SmallVector<Value> idx;
  for (unsigned d = 0; d < l.dims.size(); ++d) {
    Value v = e.threadPart(l, d);
    for (const LayoutField &f : l.dims[d]) {
      if (f.onThread || f.count == 1)
        continue;
      Value digit = arith::DivUIOp::create(e.b, e.loc, reg, e.cIdx(f.stride));
      digit = arith::RemUIOp::create(e.b, e.loc, digit, e.cIdx(f.count));
      v = e.add(v, e.mul(digit, f.scale));
    }
    idx.push_back(v);
  }
  return idx;
}

/// Drops unit dimensions of a fragment index (the copy's core point).
static llvm::SmallVector<Value> coreOf(ArrayRef<Value> idx, ArrayRef<int64_t> sizes) {
  llvm::SmallVector<Value> core;
  for (unsigned d = 0; d < idx.size(); ++d)
    if (sizes[d] != 1)
      core.push_back(idx[d]);
  return core;
}

/// A copy between part of a fragment (`fs`: offsets and sizes within it) and
/// shared or global memory: every register the thread holds is tested
/// against the region and copied element by element when inside.
static LogicalResult copyFragmentPart(KernelEmitter &e, const Side &fs, const Side &os, bool dstFrag) {
  OpBuilder &b = e.b;
  Fragment &frag = e.fragments[fs.buf];
  Value owner = dstFrag ? Value() : e.isFirstReplica(frag.layout);
  for (int64_t r = 0; r < frag.layout.numRegs; ++r) {
    llvm::SmallVector<Value> fidx = layoutIndex(e, frag.layout, r);
    // rel[d] = fidx[d] - off[d]; inside when rel[d] < size[d] (unsigned).
    llvm::SmallVector<Value> rel;
    Value inside;
    for (unsigned d = 0; d < fidx.size(); ++d) {
      Value v = arith::SubIOp::create(b, e.loc, fidx[d], fs.off[d]);
      rel.push_back(v);
      if (fs.sizes[d] == frag.layout.shape[d] && getConstantIntValue(fs.off[d]) == 0)
        continue;
      Value c = arith::CmpIOp::create(b, e.loc, arith::CmpIPredicate::ult, v, e.cIdx(fs.sizes[d]));
      inside = inside ? (Value)arith::AndIOp::create(b, e.loc, inside, c) : c;
    }
    llvm::SmallVector<Value> oidx = fullIndex(e, os, coreOf(rel, fs.sizes));
    OpBuilder::InsertionGuard guard(b);
    if (dstFrag) {
      if (inside)
        e.beginIf(inside);
      Value v = loadSide(e, os, oidx, 1);
      v = e.convert(v, frag.elementType, KernelEmitter::isUnsignedBuffer(os.buf), KernelEmitter::isUnsignedBuffer(fs.buf));
      memref::StoreOp::create(b, e.loc, v, frag.regs, ValueRange{e.cIdx(r)});
    } else {
      Value pred = owner;
      if (inside)
        pred = arith::AndIOp::create(b, e.loc, pred, inside);
      Value v = memref::LoadOp::create(b, e.loc, frag.regs, ValueRange{e.cIdx(r)});
      storeSide(e, os, oidx, v, pred, KernelEmitter::isUnsignedBuffer(fs.buf));
    }
  }
  return success();
}

/// The register of fragment side `ps` (a part of it: offsets, sizes) that
/// holds, for this thread, element `widx` (constant register part `wreg` of
/// a whole fragment of layout `wl`) of the copy's core: each non-unit
/// dimension of `ps` must have the thread fields of its core dimension in
/// `wl` and offset 0, each unit dimension registers only (its offset's
/// digits are computed at run time). Null when the layouts do not allow it.
static Value sliceReg(KernelEmitter &e, const FragmentLayout &wl, int64_t wreg, const Side &ps) {
  const FragmentLayout &pl = e.fragments[ps.buf].layout;
  llvm::SmallVector<int64_t> wi = wl.regIndex(wreg);
  auto spread = [](const FragmentLayout &l, unsigned d) {
    llvm::SmallVector<LayoutField> tf = l.threadFields(d);
    llvm::erase_if(tf, [](const LayoutField &f) { return f.count == 1; });
    return tf;
  };
  // The core dimensions of the whole side are its non-unit dimensions.
  llvm::SmallVector<unsigned> wcore;
  for (unsigned d = 0; d < wl.shape.size(); ++d)
    if (wl.shape[d] != 1)
      wcore.push_back(d);
  int64_t reg = 0;
  Value dyn;
  unsigned k = 0;
  for (unsigned d = 0; d < ps.sizes.size(); ++d) {
    if (ps.sizes[d] == 1) {
      if (!spread(pl, d).empty())
        return Value();
      std::optional<int64_t> c = getConstantIntValue(ps.off[d]);
      for (const LayoutField &f : pl.dims[d]) {
        if (f.onThread || f.count == 1)
          continue;
        if (c) {
          reg += ((*c / f.scale) % f.count) * f.stride;
          continue;
        }
        Value digit = arith::DivUIOp::create(e.b, e.loc, ps.off[d], e.cIdx(f.scale));
        digit = e.mul(arith::RemUIOp::create(e.b, e.loc, digit, e.cIdx(f.count)), f.stride);
        dyn = dyn ? e.add(dyn, digit) : digit;
      }
      continue;
    }
    if (k >= wcore.size())
      return Value();
    unsigned wd = wcore[k++];
    if (getConstantIntValue(ps.off[d]) != 0 || spread(pl, d) != spread(wl, wd))
      return Value();
    int64_t value = wi[wd], decoded = 0;
    for (const LayoutField &f : pl.dims[d])
      if (!f.onThread) {
        int64_t digit = (value / f.scale) % f.count;
        reg += digit * f.stride;
        decoded += digit * f.scale;
      }
    if (decoded != value)
      return Value();
  }
  if (k != wcore.size())
    return Value();
  return dyn ? e.addc(dyn, reg) : e.cIdx(reg);
}

/// A copy between a whole fragment (`ws`) and part of another (`ps`), e.g.
/// `T.copy(x[k, :], row)`: register by register of the whole one, where
/// the layouts give each thread both elements (sliceReg).
static LogicalResult copyFragmentSlice(KernelEmitter &e, tile::CopyOp op, const Side &ws, const Side &ps,
                                       bool wholeIsDst) {
  Fragment &w = e.fragments[ws.buf], &p = e.fragments[ps.buf];
  for (int64_t r = 0; r < w.layout.numRegs; ++r) {
    Value preg = sliceReg(e, w.layout, r, ps);
    if (!preg)
      return op.emitOpError("copies between part of a fragment of layout ")
             << p.layout.str() << " and a fragment of layout " << w.layout.str()
             << " that does not give each thread the elements it copies";
    Value wreg = e.cIdx(r);
    const Side &src = wholeIsDst ? ps : ws, &dst = wholeIsDst ? ws : ps;
    Value v = memref::LoadOp::create(e.b, e.loc, wholeIsDst ? p.regs : w.regs, wholeIsDst ? preg : wreg);
    v = e.convert(v, e.fragments[dst.buf].elementType, KernelEmitter::isUnsignedBuffer(src.buf),
                  KernelEmitter::isUnsignedBuffer(dst.buf));
    memref::StoreOp::create(e.b, e.loc, v, wholeIsDst ? w.regs : p.regs, wholeIsDst ? wreg : preg);
  }
  return success();
}

/// 1. A whole fragment on one side (`fs`), shared, global, local memory or
/// a fragment of the same layout on the other (`os`): over the registers
/// the thread holds, whole vectors at a time where both sides allow.
static LogicalResult copyWholeFragment(KernelEmitter &e, tile::CopyOp op, Side &fs, Side &os, bool dstFrag) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Fragment &frag = e.fragments[fs.buf];
  if (os.scope == tile::Scope::Fragment) {
    Side &src = dstFrag ? os : fs, &dst = dstFrag ? fs : os;
    Fragment &other = e.fragments[os.buf];
    if (other.layout != frag.layout)
      return op.emitOpError("copies between fragments of different layouts (")
             << frag.layout.str() << " vs " << other.layout.str() << ")";
    for (int64_t r = 0; r < frag.layout.numRegs; ++r) {
      Value v = memref::LoadOp::create(b, loc, e.fragments[src.buf].regs, ValueRange{e.cIdx(r)});
      memref::StoreOp::create(b, loc, e.convert(v, e.fragments[dst.buf].elementType, KernelEmitter::isUnsignedBuffer(src.buf), KernelEmitter::isUnsignedBuffer(dst.buf)), e.fragments[dst.buf].regs,
                              ValueRange{e.cIdx(r)});
    }
    return success();
  }
  if (os.scope == tile::Scope::Local && !dstFrag && !frag.layout.isFullyReplicated())
    return op.emitOpError("copies a fragment into a local buffer; its elements live on different threads, "
                          "so no thread's local buffer would get all of them (copy through shared memory)");
  int64_t vec = frag.layout.innerVectorWidth();
  bool innerCore = !fs.sizes.empty() && fs.sizes.back() != 1 && !os.sizes.empty() && os.sizes.back() != 1;
  if (!innerCore)
    vec = 1;
  while (vec > 1 && !vectorizable(e, os, vec))
    vec /= 2;
  Value owner = os.scope == tile::Scope::Local ? Value() : e.isFirstReplica(frag.layout);
  for (int64_t r = 0; r < frag.layout.numRegs; r += vec) {
    llvm::SmallVector<Value> fidx = layoutIndex(e, frag.layout, r);
    llvm::SmallVector<Value> oidx = fullIndex(e, os, coreOf(fidx, fs.sizes));
    if (dstFrag) {
      Value v = loadSide(e, os, oidx, vec);
      v = e.convert(v, frag.elementType, KernelEmitter::isUnsignedBuffer(os.buf), KernelEmitter::isUnsignedBuffer(fs.buf));
      for (int64_t i = 0; i < vec; ++i) {
        Value s = vec == 1 ? v : (Value)vector::ExtractOp::create(b, loc, v, i);
        memref::StoreOp::create(b, loc, s, frag.regs, ValueRange{e.cIdx(r + i)});
      }
    } else {
      llvm::SmallVector<Value> elems;
      for (int64_t i = 0; i < vec; ++i)
        elems.push_back(memref::LoadOp::create(b, loc, frag.regs, ValueRange{e.cIdx(r + i)}));
      Value v = vec == 1 ? elems[0]
                         : (Value)vector::FromElementsOp::create(b, loc, VectorType::get({vec}, frag.elementType), elems);
      storeSide(e, os, oidx, v, owner, KernelEmitter::isUnsignedBuffer(fs.buf));
    }
  }
  return success();
}

/// 2. No fragment: a blocked layout over the core shape; global -> shared
/// copies of a pipelined loop (`async`) through the target's async copies.
static LogicalResult copyBlocked(KernelEmitter &e, Side &src, Side &dst, bool async, ArrayRef<Value> reads,
                                 ArrayRef<Value> writes) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  llvm::SmallVector<int64_t> core;
  for (int64_t s : dst.sizes)
    if (s != 1)
      core.push_back(s);
  Type de = cast<MemRefType>(dst.buf.getType()).getElementType();
  Type se = cast<MemRefType>(src.buf.getType()).getElementType();
  unsigned maxBits = std::max(de.getIntOrFloatBitWidth(), se.getIntOrFloatBitWidth());
  int64_t vec = std::max<int64_t>(1, e.target.getMaxVectorBytes() * 8 / std::max(8u, maxBits));
  bool innerCore = !src.sizes.empty() && src.sizes.back() != 1 && !dst.sizes.empty() && dst.sizes.back() != 1;
  if (!innerCore)
    vec = 1;
  while (vec > 1 && !(vectorizable(e, src, vec) && vectorizable(e, dst, vec)))
    vec /= 2;
  bool perThread = src.scope == tile::Scope::Local || dst.scope == tile::Scope::Local;
  FragmentLayout l = FragmentLayout::canonical(core, perThread ? 1 : e.numThreads, vec);
  l.numThreads = e.numThreads;
  // A copy from or to a thread-private buffer is each thread's own (spec §6,
  // as tile-lang runs it): every thread copies the whole region.
  Value owner = perThread ? Value() : e.isFirstReplica(l);
  bool useAsync = async && se == de && src.scope == tile::Scope::Global && dst.scope == tile::Scope::Shared &&
                  (vec * se.getIntOrFloatBitWidth() == 128 || vec * se.getIntOrFloatBitWidth() == 64 ||
                   vec * se.getIntOrFloatBitWidth() == 32);
  if (async && !useAsync)
    e.noteAccess(reads, writes);
  int64_t steps = l.numRegs / vec;
  // `checked`: clamp out-of-bounds async sources and zero-fill (the
  // fallback); unchecked copies are issued only when the whole source tile is
  // in bounds (their addresses stay affine in the loop variables).
  auto body = [&](Value regValue, bool checked) {
    llvm::SmallVector<Value> cidx = layoutIndexDyn(e, l, regValue);
    llvm::SmallVector<Value> sidx = fullIndex(e, src, cidx), didx = fullIndex(e, dst, cidx);
    OpBuilder::InsertionGuard guard(b);
    if (owner)
      e.beginIf(owner);
    if (useAsync) {
      Value mem = e.globals.lookup(src.buf);
      llvm::SmallVector<Value> at(sidx);
      Value n;
      if (checked) {
        Value inb = e.inBounds(mem, sidx);
        for (Value &i : at)
          i = arith::SelectOp::create(b, loc, inb, i, e.cIdx(0));
        n = arith::SelectOp::create(b, loc, inb, e.cIdx(vec), e.cIdx(0));
      }
      e.target.emitAsyncCopy(b, loc, e.shared[dst.buf].flat, ValueRange{e.sharedIndex(dst.buf, didx)}, mem, at, vec,
                             n);
      return;
    }
    Value v = loadSide(e, src, sidx, vec);
    storeSide(e, dst, didx, v, Value(), KernelEmitter::isUnsignedBuffer(src.buf));
  };
  auto emitAll = [&](bool checked) {
    if (steps == 1) {
      body(e.cIdx(0), checked);
      return;
    }
    auto loop = scf::ForOp::create(b, loc, e.cIdx(0), e.cIdx(l.numRegs), e.cIdx(vec));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVar(), checked);
  };
  if (!useAsync || e.asyncBounds != KernelEmitter::AsyncBounds::PerCopy) {
    emitAll(!useAsync || e.asyncBounds != KernelEmitter::AsyncBounds::Unchecked);
    return success();
  }
  // Async: one block-uniform check of the source tile's first and last
  // element (indices are affine and increasing in the tile index, so the whole
  // box is inside when both corners are); the fast path has no per-copy
  // bounds arithmetic, the slow path is the exact clamped/zero-filled one.
  Value mem = e.globals.lookup(src.buf);
  llvm::SmallVector<Value> first, last;
  for (unsigned d = 0; d < src.sizes.size(); ++d) {
    first.push_back(src.off[d]);
    last.push_back(src.sizes[d] == 1 ? src.off[d] : e.addc(src.off[d], src.sizes[d] - 1));
  }
  Value whole = arith::AndIOp::create(b, loc, e.inBounds(mem, first), e.inBounds(mem, last));
  auto ifOp = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitAll(false);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    emitAll(true);
  }
  return success();
}

LogicalResult KernelEmitter::emitCopy(tile::CopyOp op, bool async) {
  Side src{op.getSrc(), scopeOf(op.getSrc()), {}, llvm::to_vector(op.getSrcSizes())};
  Side dst{op.getDst(), scopeOf(op.getDst()), {}, llvm::to_vector(op.getDstSizes())};
  for (Value v : op.getSrcOffsets())
    src.off.push_back(map.lookup(v));
  for (Value v : op.getDstOffsets())
    dst.off.push_back(map.lookup(v));
  auto cross = [](const Side &s) { return s.scope == tile::Scope::Shared || s.scope == tile::Scope::Global; };
  llvm::SmallVector<Value> reads, writes;
  if (cross(src))
    reads.push_back(src.buf);
  if (cross(dst))
    writes.push_back(dst.buf);
  if (!async)
    noteAccess(reads, writes);

  bool srcFrag = src.scope == tile::Scope::Fragment, dstFrag = dst.scope == tile::Scope::Fragment;
  if (!srcFrag && !dstFrag)
    return copyBlocked(*this, src, dst, async, reads, writes);
  // A fragment on one side: whole, or a part of it (each register tested).
  Side &fs = dstFrag ? dst : src;
  Side &os = dstFrag ? src : dst;
  auto ftype = cast<MemRefType>(fs.buf.getType());
  bool whole = llvm::to_vector(ftype.getShape()) == fs.sizes && llvm::all_of(fs.off, [](Value v) {
    auto c = getConstantIntValue(v);
    return c && *c == 0;
  });
  auto isWhole = [](const Side &s) {
    return llvm::to_vector(cast<MemRefType>(s.buf.getType()).getShape()) == s.sizes &&
           llvm::all_of(s.off, [](Value v) { return getConstantIntValue(v) == 0; });
  };
  if (srcFrag && dstFrag && (whole || isWhole(os)) && !(whole && isWhole(os)))
    return whole ? copyFragmentSlice(*this, op, fs, os, dstFrag) : copyFragmentSlice(*this, op, os, fs, !dstFrag);
  if (whole)
    return copyWholeFragment(*this, op, fs, os, dstFrag);
  if (os.scope == tile::Scope::Fragment || os.scope == tile::Scope::Local)
    return op.emitOpError("copies part of a fragment to or from a ")
           << (os.scope == tile::Scope::Local ? "local buffer" : "fragment")
           << "; the GPU lowering copies parts of fragments only to and from shared and global memory";
  return copyFragmentPart(*this, fs, os, dstFrag);
}

LogicalResult KernelEmitter::emitFill(tile::FillOp op) {
  Value buf = op.getBuffer();
  Value val = map.lookup(op.getValue());
  tile::Scope scope = scopeOf(buf);
  auto type = cast<MemRefType>(buf.getType());
  if (scope == tile::Scope::Fragment) {
    Fragment &f = fragments[buf];
    // A reducer's value goes to one copy of each element, the combiner's
    // identity to the others (the finalize combines the copies).
    auto alloc = buf.getDefiningOp<tile::AllocOp>();
    if (alloc && alloc.getReducer())
      val = arith::SelectOp::create(b, loc, isFirstReplica(f.layout), val,
                                    identityOf(*alloc.getReducer(), f.elementType));
    for (int64_t r = 0; r < f.layout.numRegs; ++r)
      memref::StoreOp::create(b, loc, val, f.regs, ValueRange{cIdx(r)});
    return success();
  }
  llvm::SmallVector<int64_t> shape(type.getShape());
  if (scope == tile::Scope::Local) {
    Value mem = locals.lookup(buf);
    int64_t n = type.getNumElements();
    auto loop = scf::ForOp::create(b, loc, cIdx(0), cIdx(n), cIdx(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    FragmentLayout l = FragmentLayout::canonical(shape, 1, 1);
    llvm::SmallVector<Value> idx;
    for (unsigned d = 0; d < shape.size(); ++d) {
      Value v = cIdx(0);
      for (const LayoutField &fl : l.dims[d]) {
        Value digit = arith::DivUIOp::create(b, loc, loop.getInductionVar(), cIdx(fl.stride));
        digit = arith::RemUIOp::create(b, loc, digit, cIdx(fl.count));
        v = add(v, mul(digit, fl.scale));
      }
      idx.push_back(v);
    }
    memref::StoreOp::create(b, loc, val, mem, idx);
    return success();
  }
  if (scope != tile::Scope::Shared)
    return op.emitOpError("fills only shared, fragment and local buffers on the GPU");
  noteAccess({}, {buf});
  FragmentLayout l = FragmentLayout::canonical(shape, numThreads, 1);
  Value owner = isFirstReplica(l);
  auto loop = scf::ForOp::create(b, loc, cIdx(0), cIdx(l.numRegs), cIdx(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  llvm::SmallVector<Value> idx = layoutIndexDyn(*this, l, loop.getInductionVar());
  beginIf(owner);
  memref::StoreOp::create(b, loc, val, shared[buf].flat, ValueRange{sharedIndex(buf, idx)});
  return success();
}
