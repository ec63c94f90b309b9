//===- TileGenWarpVote.cpp - Warp votes, matches and block predicate syncs ===//
//
// tile-lang's warp-level vote primitives (CUDA's __any_sync, __all_sync,
// __ballot_sync, __activemask, __match_any_sync, __match_all_sync), the
// block barriers with a predicate (__syncthreads_count / _and / _or) and
// the bit scans __ffs / __fns.
//
// A vote reads every lane's predicate, so like T.tvm_warp_shuffle
// (TileGenDevicePrims.cpp) it is an exchange through a block-shared scratch
// row with one element per thread: each thread stores its own value, and
// after the barrier tilec places between a shared store and another thread's
// read (on the host: the cut of its per-thread loop) each thread combines
// the row's entries of its warp (or of the whole block) in a serial loop of
// per-thread code. That is the same on every target; the mask names the
// lanes that take part, and every lane of it must reach the call, as in
// CUDA. Results have tile-lang's dtypes: int32 for the votes and counts,
// uint64 for ballots and the active mask (a 32-lane mask, zero-extended),
// uint32 for matches and __fns, int32 for __ffs.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;

namespace {
constexpr int64_t kWarp = 32;

/// Builders for the integer arithmetic a vote is computed in: 32-bit (so
/// that targets without 64-bit integers, WGSL, take the votes), 64-bit only
/// for 64-bit values (T.match_*_sync, T.__ffs of an int64).
struct Bits {
  mlir::OpBuilder &b;
  mlir::Location l;
  unsigned w = 32;
  mlir::Type ty() { return b.getIntegerType(w); }
  mlir::Value i64(int64_t v) {
    return arith::ConstantIntOp::create(b, l, w == 64 ? v : int64_t(int32_t(uint32_t(v))), w);
  }
  mlir::Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, l, v); }
  mlir::Value toI64(mlir::Value index) { return arith::IndexCastUIOp::create(b, l, ty(), index); }
  mlir::Value cmp(arith::CmpIPredicate p, mlir::Value x, mlir::Value y) { return arith::CmpIOp::create(b, l, p, x, y); }
  mlir::Value sel(mlir::Value c, mlir::Value x, mlir::Value y) { return arith::SelectOp::create(b, l, c, x, y); }
  mlir::Value band(mlir::Value x, mlir::Value y) { return arith::AndIOp::create(b, l, x, y); }
  mlir::Value bor(mlir::Value x, mlir::Value y) { return arith::OrIOp::create(b, l, x, y); }
  mlir::Value add(mlir::Value x, mlir::Value y) { return arith::AddIOp::create(b, l, x, y); }
  mlir::Value sub(mlir::Value x, mlir::Value y) { return arith::SubIOp::create(b, l, x, y); }
  mlir::Value shl(mlir::Value x, mlir::Value y) { return arith::ShLIOp::create(b, l, x, y); }
  mlir::Value shr(mlir::Value x, mlir::Value y) { return arith::ShRUIOp::create(b, l, x, y); }
  /// Bit `j` (an i64) of `mask` is set.
  mlir::Value bit(mlir::Value mask, mlir::Value j) {
    return cmp(arith::CmpIPredicate::ne, band(shr(mask, j), i64(1)), i64(0));
  }
};
} // namespace

mlir::Value KernelGen::linearThreadId(mlir::Location l, int64_t &threads) {
  llvm::ArrayRef<int64_t> dims = launch.getThreads();
  threads = 1;
  for (int64_t t : dims)
    threads *= t;
  mlir::Value tid = tile::ThreadIdOp::create(b, l, b.getIndexType(), uint64_t(0));
  int64_t stride = dims.empty() ? 1 : dims[0];
  for (unsigned d = 1; d < dims.size() && d < 3; ++d) {
    if (dims[d] == 1)
      continue;
    mlir::Value t = tile::ThreadIdOp::create(b, l, b.getIndexType(), uint64_t(d));
    tid =
        arith::AddIOp::create(b, l, tid, arith::MulIOp::create(b, l, t, arith::ConstantIndexOp::create(b, l, stride)));
    stride *= dims[d];
  }
  return tid;
}

/// An integer or bool argument, evaluated and checked (`what` names its
/// role in the diagnostic for a float or a buffer); its dtype in `dtype`.
static TValue intArg(KernelGen &g, const BoundCall &call, llvm::StringRef name, llvm::StringRef what) {
  llvm::SMRange range = call.rangeOf(name);
  TValue v = g.eval(call.get(name));
  if (!v.isValid())
    return TValue();
  if (v.isBuffer()) {
    g.diags.emit(DiagID::sema_not_scalar, range, v.describe());
    return TValue();
  }
  if ((v.isConst() && !v.cst.isIntLike()) || (v.isScalar() && !isIntegerDType(v.dtype))) {
    g.diags.emit(DiagID::sema_wrong_arg_kind, range, name, call.info->name, what, v.describe());
    return TValue();
  }
  return v;
}

/// The bit pattern of an integer argument at width `w`: a constant
/// truncated, a signed value sign-extended (a -1 mask is every lane), an
/// unsigned or bool one zero-extended.
static mlir::Value bitsOf(KernelGen &g, const TValue &v, unsigned w, mlir::Location l) {
  mlir::Type ty = g.b.getIntegerType(w);
  if (v.isConst()) {
    int64_t c = v.cst.isIntLike() ? v.cst.getInt() : 0;
    return arith::ConstantIntOp::create(g.b, l, w == 64 ? c : int64_t(int32_t(uint32_t(c))), w);
  }
  if (v.dtype == DType::Index)
    return arith::IndexCastOp::create(g.b, l, ty, v.value);
  unsigned from = v.value.getType().getIntOrFloatBitWidth();
  if (from == w)
    return v.value;
  if (from > w)
    return arith::TruncIOp::create(g.b, l, ty, v.value);
  if (isUnsignedDType(v.dtype) || v.dtype == DType::Bool)
    return arith::ExtUIOp::create(g.b, l, ty, v.value);
  return arith::ExtSIOp::create(g.b, l, ty, v.value);
}

/// Whether an argument needs 64-bit arithmetic.
static bool is64(const TValue &v) {
  return v.isScalar() ? dtypeBits(v.dtype) == 64
                      : (v.cst.isIntLike() && v.cst.getInt() != int64_t(int32_t(v.cst.getInt())) &&
                         v.cst.getInt() != int64_t(uint32_t(v.cst.getInt())));
}

/// A value of the computation's width as a scalar of `t` (truncated or zero-extended).
static TValue bitsAs(KernelGen &g, mlir::Location l, mlir::Value v, DType t) {
  unsigned w = dtypeBits(t), from = v.getType().getIntOrFloatBitWidth();
  if (w < from)
    v = arith::TruncIOp::create(g.b, l, g.b.getIntegerType(w), v);
  else if (w > from)
    v = arith::ExtUIOp::create(g.b, l, g.b.getIntegerType(w), v);
  return TValue::ofScalar(v, t);
}

/// `for j in [0, count)` of per-thread code with one i64 accumulator in a
/// local buffer: `step(j, acc)` gives the next value. Returns the final one.
template <typename Step>
static mlir::Value accumulate(KernelGen &g, mlir::Location l, int64_t count, mlir::Value init, Step step) {
  Bits k{g.b, l};
  DType t = init.getType().getIntOrFloatBitWidth() == 64 ? DType::Int64 : DType::Int32;
  mlir::Value acc = g.createAlloc(l, {1}, t, tile::Scope::Local);
  mlir::Value zero = k.idx(0);
  mlir::memref::StoreOp::create(g.b, l, init, acc, mlir::ValueRange{zero});
  {
    mlir::OpBuilder::InsertionGuard guard(g.b);
    auto loop = tile::ForOp::create(g.b, l, zero, k.idx(count), k.idx(1), tile::LoopKind::Serial, std::nullopt);
    g.b.setInsertionPoint(loop.getBodyBlock()->getTerminator());
    mlir::Value j = loop.getInductionVar();
    mlir::Value cur = mlir::memref::LoadOp::create(g.b, l, acc, mlir::ValueRange{zero});
    mlir::Value next = step(j, cur);
    mlir::memref::StoreOp::create(g.b, l, next, acc, mlir::ValueRange{zero});
  }
  return mlir::memref::LoadOp::create(g.b, l, acc, mlir::ValueRange{zero});
}

/// `T.__ffs(x)`: one plus the index of x's lowest set bit, 0 for x = 0 (the
/// 32-bit pattern for integers up to 32 bits, as __ffs; 64-bit: __ffsll).
static TValue genFfs(KernelGen &g, const BoundCall &call) {
  mlir::Location l = g.loc(call.call->getRange());
  TValue v = intArg(g, call, "value", "an integer");
  if (!v.isValid())
    return TValue();
  Bits k{g.b, l, is64(v) ? 64u : 32u};
  mlir::Value x = bitsOf(g, v, k.w, l);
  // The lowest set bit alone, then its index by halving.
  mlir::Value lowest = k.band(x, k.sub(k.i64(0), x));
  mlir::Value pos = k.i64(0);
  for (int64_t s : {32, 16, 8, 4, 2, 1}) {
    if (s >= int64_t(k.w))
      continue;
    mlir::Value t = k.shr(lowest, k.i64(s));
    mlir::Value nz = k.cmp(arith::CmpIPredicate::ne, t, k.i64(0));
    pos = k.sel(nz, k.add(pos, k.i64(s)), pos);
    lowest = k.sel(nz, t, lowest);
  }
  mlir::Value r = k.sel(k.cmp(arith::CmpIPredicate::eq, x, k.i64(0)), k.i64(0), k.add(pos, k.i64(1)));
  return bitsAs(g, l, r, DType::Int32);
}

/// `T.__fns(mask, base, offset)`: the position of the |offset|-th set bit
/// of the 32-bit mask from bit `base` up (offset > 0) or down (offset < 0),
/// `base` itself if set for offset 0; 0xffffffff when there is none (PTX fns).
static TValue genFns(KernelGen &g, const BoundCall &call) {
  mlir::Location l = g.loc(call.call->getRange());
  TValue m = intArg(g, call, "mask", "an integer");
  TValue bs = intArg(g, call, "base", "an integer");
  TValue off = intArg(g, call, "offset", "an integer");
  if (!m.isValid() || !bs.isValid() || !off.isValid())
    return TValue();
  Bits k{g.b, l};
  using P = arith::CmpIPredicate;
  mlir::Value mask = bitsOf(g, m, 32, l), base = bitsOf(g, bs, 32, l), offset = bitsOf(g, off, 32, l);
  mlir::Value zero = k.i64(0);
  mlir::Value up = k.cmp(P::sgt, offset, zero);
  mlir::Value isZero = k.cmp(P::eq, offset, zero);
  mlir::Value absOff = k.sel(k.cmp(P::slt, offset, zero), k.sub(zero, offset), offset);
  mlir::Value need = k.sel(isZero, k.i64(1), absOff);
  mlir::Value limit = k.sel(isZero, k.i64(1), k.i64(kWarp));
  // Two per-thread counters: the set bits seen so far, and the result
  // (all ones until found).
  mlir::Value notFound = k.i64(-1);
  mlir::Value count = g.createAlloc(l, {1}, DType::Int32, tile::Scope::Local);
  mlir::memref::StoreOp::create(g.b, l, zero, count, mlir::ValueRange{k.idx(0)});
  mlir::Value found = accumulate(g, l, kWarp, notFound, [&](mlir::Value jIdx, mlir::Value res) {
    mlir::Value j = k.toI64(jIdx);
    mlir::Value pos = k.sel(up, k.add(base, j), k.sub(base, j));
    mlir::Value inRange = k.band(k.cmp(P::sge, pos, zero), k.cmp(P::slt, pos, k.i64(kWarp)));
    mlir::Value posSafe = k.sel(inRange, pos, zero);
    mlir::Value hit = k.band(k.band(inRange, k.cmp(P::slt, j, limit)), k.bit(mask, posSafe));
    mlir::Value c0 = mlir::memref::LoadOp::create(g.b, l, count, mlir::ValueRange{k.idx(0)});
    mlir::Value c1 = k.sel(hit, k.add(c0, k.i64(1)), c0);
    mlir::memref::StoreOp::create(g.b, l, c1, count, mlir::ValueRange{k.idx(0)});
    mlir::Value first = k.band(k.band(hit, k.cmp(P::eq, c1, need)), k.cmp(P::eq, res, notFound));
    return k.sel(first, pos, res);
  });
  return bitsAs(g, l, found, DType::UInt32);
}

TValue KernelGen::evalWarpVote(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  BuiltinID id = call.info->id;
  if (id == BuiltinID::Ffs)
    return genFfs(*this, call);
  if (id == BuiltinID::Fns)
    return genFns(*this, call);
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return TValue();
  }
  using P = arith::CmpIPredicate;
  bool isMatch = id == BuiltinID::MatchAnySync || id == BuiltinID::MatchAllSync;
  bool block = id == BuiltinID::SyncThreadsCount || id == BuiltinID::SyncThreadsAnd || id == BuiltinID::SyncThreadsOr;
  TValue own, m;
  if (id != BuiltinID::ActiveMask) {
    own = intArg(*this, call, isMatch ? "value" : "predicate",
                 isMatch ? "an integer" : "an integer or boolean predicate");
    if (!own.isValid())
      return TValue();
  }
  if (!block && id != BuiltinID::Ballot && id != BuiltinID::ActiveMask && call.get("mask")) {
    m = intArg(*this, call, "mask", "an integer lane mask");
    if (!m.isValid())
      return TValue();
  }
  Bits k{b, l, isMatch && is64(own) ? 64u : 32u};
  int64_t threads = 1;
  mlir::Value tid = linearThreadId(l, threads);
  mlir::Value warpBase = arith::SubIOp::create(b, l, tid, arith::RemUIOp::create(b, l, tid, k.idx(kWarp)));
  if (id == BuiltinID::ActiveMask) {
    // The lanes of the caller's warp that the block has (tilec keeps no
    // record of which of them reach the call).
    mlir::Value n = k.sub(k.i64(threads), k.toI64(warpBase));
    mlir::Value full = k.cmp(P::sge, n, k.i64(kWarp));
    mlir::Value part = k.sub(k.shl(k.i64(1), k.sel(full, k.i64(0), n)), k.i64(1));
    return bitsAs(*this, l, k.sel(full, k.i64(0xffffffff), part), DType::UInt64);
  }
  mlir::Value mask = m.isValid() ? bitsOf(*this, m, k.w, l) : k.i64(0xffffffff);
  if (k.w == 64)
    mask = k.band(mask, k.i64(0xffffffff));
  mlir::Value mine = bitsOf(*this, own, k.w, l);
  if (!isMatch) // votes count a predicate as set or not
    mine = arith::ExtUIOp::create(b, l, k.ty(), k.cmp(P::ne, mine, k.i64(0)));
  mlir::Value scratch = createAlloc(l, {threads}, k.w == 64 ? DType::Int64 : DType::Int32, tile::Scope::Shared);
  mlir::memref::StoreOp::create(b, l, mine, scratch, mlir::ValueRange{tid});
  // The warp's lanes (or the block's threads) in a loop of per-thread code.
  mlir::Value first = block ? k.idx(0) : warpBase;
  int64_t count = block ? threads : kWarp;
  auto entry = [&](mlir::Value jIdx, mlir::Value &ok) {
    mlir::Value t = arith::AddIOp::create(b, l, first, jIdx);
    mlir::Value inBlock = arith::CmpIOp::create(b, l, P::ult, t, k.idx(threads));
    ok = block ? inBlock : k.band(inBlock, k.bit(mask, k.toI64(jIdx)));
    mlir::Value safe = arith::SelectOp::create(b, l, inBlock, t, tid);
    return mlir::memref::LoadOp::create(b, l, scratch, mlir::ValueRange{safe}).getResult();
  };
  // Accumulators are 32-bit: counts, flags and 32-lane masks.
  Bits a{b, l};
  mlir::Value one = a.i64(1), zero = a.i64(0), vzero = k.i64(0);
  // One pass over the lanes: a flag (any / all), a count, or a lane mask.
  bool startsSet = id == BuiltinID::AllSync || id == BuiltinID::SyncThreadsAnd || id == BuiltinID::MatchAllSync;
  mlir::Value r = accumulate(*this, l, count, startsSet ? one : zero, [&](mlir::Value j, mlir::Value acc) {
    mlir::Value ok;
    mlir::Value x = entry(j, ok);
    switch (id) {
    case BuiltinID::AnySync:
    case BuiltinID::SyncThreadsOr:
      return a.sel(a.band(ok, k.cmp(P::ne, x, vzero)), one, acc);
    case BuiltinID::AllSync:
    case BuiltinID::SyncThreadsAnd:
      return a.sel(a.band(ok, k.cmp(P::eq, x, vzero)), zero, acc);
    case BuiltinID::SyncThreadsCount:
      return a.sel(a.band(ok, k.cmp(P::ne, x, vzero)), a.add(acc, one), acc);
    case BuiltinID::MatchAllSync: // cleared by a lane of the mask holding another value
      return a.sel(a.band(ok, k.cmp(P::ne, x, mine)), zero, acc);
    default: // ballots and match_any: the lanes' bits
      mlir::Value set = isMatch ? k.cmp(P::eq, x, mine) : k.cmp(P::ne, x, vzero);
      return a.sel(a.band(ok, set), a.bor(acc, a.shl(one, a.toI64(j))), acc);
    }
  });
  switch (id) {
  case BuiltinID::BallotSync:
  case BuiltinID::Ballot:
    return bitsAs(*this, l, r, DType::UInt64);
  case BuiltinID::MatchAnySync:
    return bitsAs(*this, l, r, DType::UInt32);
  case BuiltinID::MatchAllSync: {
    // The mask when every lane of it holds the caller's value, else 0.
    mlir::Value mask32 = k.w == 64 ? arith::TruncIOp::create(b, l, b.getI32Type(), mask).getResult() : mask;
    return bitsAs(*this, l, a.sel(a.cmp(P::ne, r, zero), mask32, zero), DType::UInt32);
  }
  default:
    return bitsAs(*this, l, r, DType::Int32);
  }
}
