//===- TileGenRandom.cpp - T.rng_init / T.rng_rand (curand's Philox) ------===//
//
// tile-lang's device random numbers are curand's Philox4x32-10 generator
// (curandStatePhilox4_32_10_t): `T.rng_init(seed, seq, off)` is
// curand_init(seed, seq, off) and `T.rng_rand()` is curand(): output number
// p = off, off + 1, ... of the stream is word p % 4 of Philox4x32-10 of the
// 128-bit counter (p / 4, seq) under the key seed (Salmon et al., SC'11).
// Each thread keeps (seed, seq, p) in a 3-element local buffer of the launch;
// every T.rng_rand computes its counter's block and advances p, so results
// are bit-exact with curand on every target.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;

void KernelGen::genRngInit(const BoundCall &call) {
  argFailed = false;
  std::optional<std::string> gen = constStrArg(call, "generator");
  if (argFailed || !gen)
    return;
  if (*gen != "curandStatePhilox4_32_10_t") {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("generator"), "generator", call.info->name,
               "\"curandStatePhilox4_32_10_t\" (tilec has no MRG32k3a or XORWOW generator)", "\"" + *gen + "\"");
    return;
  }
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  auto u64 = [&](const char *name) -> mlir::Value {
    TValue v = eval(call.get(name));
    if (!v.isValid())
      return {};
    if (v.isBuffer() || (v.isScalar() && !isIntegerDType(v.dtype)) || (v.isConst() && !v.cst.isIntLike())) {
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf(name), name, call.info->name, "an integer", v.describe());
      return {};
    }
    v = convert(toScalar(v, call.rangeOf(name)), DType::UInt64, call.rangeOf(name));
    return v.isValid() ? v.value : mlir::Value();
  };
  mlir::Value seed = u64("seed");
  if (!seed)
    return;
  mlir::Value seq;
  if (call.get("seq")) {
    seq = u64("seq");
  } else {
    // tile-lang's default: the thread's index in the grid along x.
    mlir::Value tx = tile::ThreadIdOp::create(b, l, b.getIndexType(), uint64_t(0));
    mlir::Value ex = indexConst(launch.getThreads()[0], range);
    mlir::Value id = arith::AddIOp::create(b, l, tx, arith::MulIOp::create(b, l, launch.getBlockIndices()[0], ex));
    seq = arith::IndexCastUIOp::create(b, l, b.getI64Type(), id);
  }
  mlir::Value off = call.get("off") ? u64("off") : arith::ConstantIntOp::create(b, l, b.getI64Type(), 0).getResult();
  if (!seq || !off)
    return;
  if (!rngState) {
    mlir::OpBuilder::InsertionGuard top(b);
    b.setInsertionPointToStart(launch.getBodyBlock());
    rngState = createAlloc(l, {3}, DType::UInt64, tile::Scope::Local);
  }
  mlir::Value vals[] = {seed, seq, off};
  for (int k = 0; k < 3; ++k)
    mlir::memref::StoreOp::create(b, l, vals[k], rngState, mlir::ValueRange{indexConst(k, range)});
}

TValue KernelGen::evalRngRand(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  if (!rngState) {
    diags.emit(DiagID::sema_wrong_context, call.call->getCallee()->getRange(), call.info->name,
               "before T.rng_init in this T.Kernel (it draws from the stream T.rng_init starts)");
    return TValue();
  }
  mlir::Location l = loc(range);
  mlir::Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto c32 = [&](uint32_t v) { return arith::ConstantIntOp::create(b, l, i32, int64_t(v)).getResult(); };
  auto c64 = [&](int64_t v) { return arith::ConstantIntOp::create(b, l, i64, v).getResult(); };
  auto at = [&](int k) { return mlir::memref::LoadOp::create(b, l, rngState, mlir::ValueRange{indexConst(k, range)}); };
  mlir::Value seed = at(0), seq = at(1), pos = at(2);
  auto lo = [&](mlir::Value x) { return arith::TruncIOp::create(b, l, i32, x).getResult(); };
  auto hi = [&](mlir::Value x) { return lo(arith::ShRUIOp::create(b, l, x, c64(32))); };
  mlir::Value q = arith::ShRUIOp::create(b, l, pos, c64(2));
  mlir::Value ctr[4] = {lo(q), hi(q), lo(seq), hi(seq)};
  mlir::Value k0 = lo(seed), k1 = hi(seed);
  auto x = [&](mlir::Value a, mlir::Value c) { return arith::XOrIOp::create(b, l, a, c).getResult(); };
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 = arith::AddIOp::create(b, l, k0, c32(0x9E3779B9));
      k1 = arith::AddIOp::create(b, l, k1, c32(0xBB67AE85));
    }
    auto p0 = arith::MulUIExtendedOp::create(b, l, c32(0xD2511F53), ctr[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, l, c32(0xCD9E8D57), ctr[2]);
    mlir::Value next[4] = {x(x(p1.getHigh(), ctr[1]), k0), p1.getLow(), x(x(p0.getHigh(), ctr[3]), k1), p0.getLow()};
    std::copy(std::begin(next), std::end(next), std::begin(ctr));
  }
  // Word pos % 4 of the block.
  mlir::Value w = lo(arith::AndIOp::create(b, l, pos, c64(3)));
  mlir::Value out = ctr[3];
  for (int k = 2; k >= 0; --k) {
    mlir::Value is = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, w, c32(uint32_t(k)));
    out = arith::SelectOp::create(b, l, is, ctr[k], out);
  }
  mlir::Value nextPos = arith::AddIOp::create(b, l, pos, c64(1));
  mlir::memref::StoreOp::create(b, l, nextPos, rngState, mlir::ValueRange{indexConst(2, range)});
  return TValue::ofScalar(out, DType::UInt32);
}
