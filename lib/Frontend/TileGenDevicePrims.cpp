//===- TileGenDevicePrims.cpp - Device primitives kernels call directly ---===//
//
// tile-lang kernels call a few device-level primitives by hand: IKET's
// profiling events (tilelang.tools.cuda.iket), which tilec accepts and drops
// (no trace buffer or event records are emitted on any target);
// T.device_assert, a cf.assert (CUDA: __assertfail, which traps with the
// message; host: the message and abort; targets without a trap drop it);
// T.ptx_commit_group / T.ptx_wait_group, which have nothing to order: every
// copy completes, as the program sees it, before the next statement (spec §5);
// T.tvm_warp_shuffle(_down/_up), an exchange through block-shared memory.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

/// An event's name must be a compile-time string; its payload, if any, is
/// evaluated (so its names and types are checked) and dropped.
static bool checkIketEvent(KernelGen &g, const BoundCall &call) {
  g.argFailed = false;
  if (call.get("name") && (!g.constStrArg(call, "name") || g.argFailed))
    return false;
  if (const Expr *p = call.get("payload"))
    return g.eval(p).isValid();
  return true;
}

void KernelGen::genProfileRange(const BoundCall &call, const WithStmt *s) {
  if (s->getTarget()) {
    diags.emit(DiagID::sema_bad_stmt, s->getTarget()->getRange(), "an 'as' target on iket.range");
    return;
  }
  if (checkIketEvent(*this, call))
    genBody(s->getBody());
}

/// `T.device_assert(cond, msg)`: every thread checks its own condition.
static void genDeviceAssert(KernelGen &g, const BoundCall &call) {
  g.argFailed = false;
  std::optional<std::string> msg = g.constStrArg(call, "msg");
  TValue c = g.eval(call.get("condition"));
  if (!msg || g.argFailed || !c.isValid())
    return;
  if (c.isBuffer()) {
    g.diags.emit(DiagID::sema_not_scalar, call.rangeOf("condition"), c.describe());
    return;
  }
  if (c.isConst() && c.cst.truthy())
    return;
  c = g.toBool(c, call.rangeOf("condition"));
  if (!c.isValid())
    return;
  std::string text = "T.device_assert failed";
  if (!msg->empty())
    text += ": " + *msg;
  mlir::cf::AssertOp::create(g.b, g.loc(call.call->getRange()), c.value, text);
}

bool KernelGen::genDevicePrimStmt(const BoundCall &call) {
  switch (call.info->id) {
  case BuiltinID::IketMark:
    checkIketEvent(*this, call);
    return true;
  case BuiltinID::DeviceAssert:
    genDeviceAssert(*this, call);
    return true;
  case BuiltinID::AsyncCommitGroup:
    return true;
  case BuiltinID::SyncGrid:
    genSyncGrid(call);
    return true;
  case BuiltinID::ImportSource:
  case BuiltinID::CallExtern:
    genExternSource(call, false);
    return true;
  case BuiltinID::PtxCpAsync:
  case BuiltinID::CpAsyncBarrier:
    genCpAsync(call);
    return true;
  case BuiltinID::AsyncWaitGroup: {
    // The count of groups left pending: an integer, checked and unused.
    TValue n = eval(call.get("num"));
    if (n.isValid() && (n.isBuffer() || (n.isScalar() && !isIntegerDType(n.dtype)) || (n.isConst() && !n.cst.isInt())))
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("num"), "num", call.info->name, "an integer", n.describe());
    return true;
  }
  default:
    return false;
  }
}

std::optional<TValue> KernelGen::evalDevicePrim(const BoundCall &call) {
  switch (call.info->id) {
  case BuiltinID::WarpShuffle:
  case BuiltinID::WarpShuffleDown:
  case BuiltinID::WarpShuffleUp:
    return evalWarpShuffle(call);
  case BuiltinID::AnySync:
  case BuiltinID::AllSync:
  case BuiltinID::BallotSync:
  case BuiltinID::Ballot:
  case BuiltinID::ActiveMask:
  case BuiltinID::SyncThreadsCount:
  case BuiltinID::SyncThreadsAnd:
  case BuiltinID::SyncThreadsOr:
  case BuiltinID::MatchAnySync:
  case BuiltinID::MatchAllSync:
  case BuiltinID::Ffs:
  case BuiltinID::Fns:
    return evalWarpVote(call);
  case BuiltinID::AccessPtr:
    diags.emit(DiagID::sema_unsupported_primitive, call.call->getCallee()->getRange(), "access_ptr",
               "tilec has no addresses of buffers outside T.ptx_cp_async's arguments; name the buffer or region "
               "itself (T.copy(A[i, 0:n], s), buf[i])");
    return TValue();
  case BuiltinID::IketPayload: {
    // The value an event would record: the scalar itself.
    TValue v = eval(call.get("expr"));
    if (v.isValid() && v.isBuffer()) {
      diags.emit(DiagID::sema_not_scalar, call.rangeOf("expr"), v.describe());
      return TValue();
    }
    return v;
  }
  default:
    return std::nullopt;
  }
}

/// `T.tvm_warp_shuffle(mask, value, lane, width, warp_size)` (and _down/_up,
/// whose `lane` is the delta): the value thread `src` of the caller's
/// `width`-wide lane group holds, CUDA's __shfl_sync. Every target writes the
/// values to a block-shared scratch row (one element per thread) and reads
/// the source's: the barriers tilec places around per-thread shared accesses
/// order the exchange, on the host too (its thread loops split there). The
/// mask is not checked: every thread of the group must take part, as in CUDA.
TValue KernelGen::evalWarpShuffle(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return TValue();
  }
  TValue v = eval(call.get("value"));
  TValue m = call.get("mask") ? eval(call.get("mask")) : TValue();
  TValue lane = eval(call.get("lane"));
  if (!v.isValid() || !lane.isValid() || (call.get("mask") && !m.isValid()))
    return TValue();
  argFailed = false;
  std::optional<int64_t> width = call.get("width") ? constIntArg(call, "width") : std::optional<int64_t>(32);
  if (!width || argFailed)
    return TValue();
  if (*width < 1 || *width > 32 || !llvm::isPowerOf2_64(uint64_t(*width))) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("width"), "width", call.info->name,
               "a power of two from 1 to 32", std::to_string(*width));
    return TValue();
  }
  if (v.isBuffer() || lane.isBuffer()) {
    diags.emit(DiagID::sema_not_scalar, v.isBuffer() ? call.rangeOf("value") : call.rangeOf("lane"),
               (v.isBuffer() ? v : lane).describe());
    return TValue();
  }
  if (v.isConst())
    return v; // every thread holds the same value
  mlir::Value laneIdx = toIndex(lane, call.rangeOf("lane"));
  if (!laneIdx)
    return TValue();
  int64_t threads = 1;
  mlir::Value tid = linearThreadId(l, threads);
  mlir::Value scratch = createAlloc(l, {threads}, v.dtype, tile::Scope::Shared);
  namespace arith = mlir::arith;
  auto cst = [&](int64_t c) { return arith::ConstantIndexOp::create(b, l, c).getResult(); };
  mlir::memref::StoreOp::create(b, l, v.value, scratch, mlir::ValueRange{tid});
  mlir::Value inGroup = arith::RemUIOp::create(b, l, tid, cst(*width));
  mlir::Value base = arith::SubIOp::create(b, l, tid, inGroup);
  mlir::Value src;
  if (call.info->id == BuiltinID::WarpShuffle) {
    src = arith::AddIOp::create(b, l, base, arith::RemUIOp::create(b, l, laneIdx, cst(*width)));
  } else if (call.info->id == BuiltinID::WarpShuffleDown) {
    mlir::Value to = arith::AddIOp::create(b, l, inGroup, laneIdx);
    mlir::Value ok = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, to, cst(*width));
    src = arith::SelectOp::create(b, l, ok, arith::AddIOp::create(b, l, tid, laneIdx), tid);
  } else {
    mlir::Value ok = arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, inGroup, laneIdx);
    src = arith::SelectOp::create(b, l, ok, arith::SubIOp::create(b, l, tid, laneIdx), tid);
  }
  // A source past the block's last thread reads the caller's own value.
  mlir::Value inBlock = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, src, cst(threads));
  src = arith::SelectOp::create(b, l, inBlock, src, tid);
  mlir::Value r = mlir::memref::LoadOp::create(b, l, scratch, mlir::ValueRange{src});
  return TValue::ofScalar(r, v.dtype);
}
