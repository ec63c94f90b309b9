//===- TileThreadRanges.cpp - Tile operations under thread-range ifs ------===//
//
// tile-lang runs a tile operation under `if tx < 128:` (or any condition
// that bounds the thread index to a range) on the threads the condition
// leaves: its layout inference takes the thread range from the bounds of the
// enclosing `if`s. tilec gives the same results by running such a branch in
// program order, as it runs a T.ws region (tile-lower-warp-groups): the
// branch becomes a tile.warp_group of the threads the condition leaves
// (marked kThreadRangeAttr), the else branch one of the other threads. Tile
// operations in them then run over the whole block (which computes what
// they compute on the sub-range) and per-thread statements only on the
// threads of their branch.
//
// The condition is evaluated at every linear thread id of the block from
// constants and tile.thread_id alone; one that reads anything else (a block
// index, a loaded value) or that leaves a set of threads that is not one
// range is not converted, and checkUniformControl reports the tile
// operations under it.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/TileSIMT.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>
#include <optional>

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {
/// Evaluates integer SSA values at one thread.
class ThreadEval {
public:
  explicit ThreadEval(llvm::ArrayRef<int64_t> tid) : tid(tid) {}
  std::optional<int64_t> eval(Value v, unsigned depth = 0);

private:
  std::optional<int64_t> evalOp(Operation *op, unsigned resultNo, unsigned depth);
  llvm::ArrayRef<int64_t> tid;
};
} // namespace

/// The bit width of an integer or index type (index: 64); 0 for others.
static unsigned widthOf(Type t) {
  if (t.isIndex())
    return 64;
  if (auto it = dyn_cast<IntegerType>(t))
    return it.getWidth();
  return 0;
}

/// `x` wrapped to `width` bits: i1 as 0/1, wider types sign-extended.
static int64_t wrap(int64_t x, unsigned width) {
  if (width >= 64)
    return x;
  if (width == 1)
    return x & 1;
  return llvm::SignExtend64(uint64_t(x), width);
}

static uint64_t unsignedOf(int64_t x, unsigned width) {
  return width >= 64 ? uint64_t(x) : uint64_t(x) & ((uint64_t(1) << width) - 1);
}

static bool compare(arith::CmpIPredicate p, int64_t a, int64_t b, unsigned width) {
  uint64_t ua = unsignedOf(a, width), ub = unsignedOf(b, width);
  switch (p) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return a < b;
  case arith::CmpIPredicate::sle:
    return a <= b;
  case arith::CmpIPredicate::sgt:
    return a > b;
  case arith::CmpIPredicate::sge:
    return a >= b;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  return false;
}

std::optional<int64_t> ThreadEval::eval(Value v, unsigned depth) {
  unsigned width = widthOf(v.getType());
  Operation *def = v.getDefiningOp();
  if (!width || !def || depth > 64)
    return std::nullopt;
  std::optional<int64_t> r = evalOp(def, cast<OpResult>(v).getResultNumber(), depth + 1);
  return r ? std::optional<int64_t>(wrap(*r, width)) : std::nullopt;
}

std::optional<int64_t> ThreadEval::evalOp(Operation *op, unsigned resultNo, unsigned depth) {
  using R = std::optional<int64_t>;
  auto arg = [&](unsigned i) { return eval(op->getOperand(i), depth); };
  auto binary = [&](auto f) -> R {
    R a = arg(0), b = arg(1);
    if (!a || !b)
      return std::nullopt;
    return f(*a, *b);
  };
  unsigned width = op->getNumOperands() ? widthOf(op->getOperand(0).getType()) : 64;
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case<arith::ConstantOp>([](arith::ConstantOp c) -> R {
        if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
          return i.getValue().getSExtValue();
        return std::nullopt;
      })
      .Case<ThreadIdOp>([&](ThreadIdOp t) -> R {
        int64_t d = t.getDimAttr().getInt();
        return d < int64_t(tid.size()) ? R(tid[d]) : std::nullopt;
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>([&](Operation *) { return arg(0); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>([&](Operation *) -> R {
        R a = arg(0);
        return a ? R(int64_t(unsignedOf(*a, width))) : std::nullopt;
      })
      .Case<arith::AddIOp>([&](Operation *) { return binary([](int64_t a, int64_t b) -> R { return a + b; }); })
      .Case<arith::SubIOp>([&](Operation *) { return binary([](int64_t a, int64_t b) -> R { return a - b; }); })
      .Case<arith::MulIOp>([&](Operation *) { return binary([](int64_t a, int64_t b) -> R { return a * b; }); })
      .Case<arith::AndIOp>([&](Operation *) { return binary([](int64_t a, int64_t b) -> R { return a & b; }); })
      .Case<arith::OrIOp>([&](Operation *) { return binary([](int64_t a, int64_t b) -> R { return a | b; }); })
      .Case<arith::XOrIOp>([&](Operation *) { return binary([](int64_t a, int64_t b) -> R { return a ^ b; }); })
      .Case<arith::MinSIOp>(
          [&](Operation *) { return binary([](int64_t a, int64_t b) -> R { return std::min(a, b); }); })
      .Case<arith::MaxSIOp>(
          [&](Operation *) { return binary([](int64_t a, int64_t b) -> R { return std::max(a, b); }); })
      .Case<arith::DivSIOp, arith::FloorDivSIOp, arith::RemSIOp>([&](Operation *o) {
        bool floor = isa<arith::FloorDivSIOp>(o), rem = isa<arith::RemSIOp>(o);
        return binary([&](int64_t a, int64_t b) -> R {
          if (b == 0 || b == -1)
            return std::nullopt;
          if (rem)
            return a % b;
          int64_t q = a / b;
          return floor && (a % b != 0) && ((a < 0) != (b < 0)) ? q - 1 : q;
        });
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp c) {
        return binary([&](int64_t a, int64_t b) -> R { return compare(c.getPredicate(), a, b, width) ? 1 : 0; });
      })
      .Case<arith::SelectOp>([&](Operation *) -> R {
        R c = arg(0);
        return c ? eval(op->getOperand(*c ? 1 : 2), depth) : std::nullopt;
      })
      .Case<scf::IfOp>([&](scf::IfOp i) -> R {
        // A short-circuit `and` / `or`: the yield of the branch taken.
        R c = eval(i.getCondition(), depth);
        if (!c || (!*c && i.getElseRegion().empty()))
          return std::nullopt;
        Block &blk = *c ? *i.thenBlock() : *i.elseBlock();
        return eval(blk.getTerminator()->getOperand(resultNo), depth);
      })
      .Default([](Operation *) -> R { return std::nullopt; });
}

/// The linear thread ids [lo, hi) of `launch` for which `cond` holds, when
/// it is computed from thread ids and constants alone and holds on one
/// range of them.
static std::optional<std::pair<int64_t, int64_t>> threadRange(Value cond, LaunchOp launch) {
  llvm::ArrayRef<int64_t> threads = launch.getThreads();
  int64_t n = 1;
  for (int64_t t : threads)
    n *= t;
  if (n <= 0 || n > 4096)
    return std::nullopt;
  int64_t lo = -1, hi = -1;
  bool varies = false;
  std::optional<int64_t> first;
  for (int64_t lin = 0; lin < n; ++lin) {
    llvm::SmallVector<int64_t, 3> tid;
    for (int64_t rest = lin, d = 0; d < int64_t(threads.size()); ++d) {
      tid.push_back(rest % threads[d]);
      rest /= threads[d];
    }
    std::optional<int64_t> c = ThreadEval(tid).eval(cond);
    if (!c)
      return std::nullopt;
    varies |= first && *first != *c;
    first = first ? first : c;
    if (*c && lo < 0)
      lo = lin;
    if (*c && hi >= 0)
      return std::nullopt; // a second range
    if (!*c && lo >= 0 && hi < 0)
      hi = lin;
  }
  if (!varies)
    return std::nullopt; // uniform: every thread takes the same branch
  return std::make_pair(lo, hi < 0 ? n : hi);
}

/// The groups of `size` threads whose ids lie in [lo, hi) (`in`) or outside.
static llvm::SmallVector<int64_t> groupsOf(int64_t lo, int64_t hi, int64_t n, int64_t size, bool in) {
  llvm::SmallVector<int64_t> groups;
  for (int64_t g = 0; g * size < n; ++g)
    if ((g * size >= lo && g * size < hi) == in)
      groups.push_back(g);
  return groups;
}

/// Moves the ops of `from` (but its terminator) into a new marked
/// tile.warp_group of `groups` in front of `before`.
static void moveIntoGroup(Block &from, Operation *before, llvm::ArrayRef<int64_t> groups, int64_t size) {
  OpBuilder b(before);
  auto ws = WarpGroupOp::create(b, before->getLoc(), groups, size);
  ws->setAttr(kThreadRangeAttr, b.getUnitAttr());
  Block *body = &ws.getBody().emplaceBlock();
  b.setInsertionPointToStart(body);
  auto yield = YieldOp::create(b, ws.getLoc());
  body->getOperations().splice(Block::iterator(yield), from.getOperations(), from.begin(),
                               Block::iterator(from.getTerminator()));
}

/// Program order runs the then branch before the else branch: a wait in the
/// then branch for a barrier the else branch arrives at cannot be kept.
static LogicalResult checkOrder(scf::IfOp i) {
  if (i.getElseRegion().empty())
    return success();
  llvm::DenseMap<Value, Operation *> arrived;
  i.getElseRegion().walk([&](BarrierArriveOp a) { arrived.try_emplace(a.getBarriers(), a); });
  WalkResult r = i.getThenRegion().walk([&](BarrierWaitOp w) {
    auto it = arrived.find(w.getBarriers());
    if (it == arrived.end())
      return WalkResult::advance();
    InFlightDiagnostic d =
        w.emitError() << "this branch of a condition on the thread index waits for a barrier that its else "
                         "branch arrives at; tilec runs the two branches' tile operations one after the "
                         "other (program order), so the first cannot wait for the second (a warp-specialized "
                         "exchange in both directions is not supported)";
    d.attachNote(it->second->getLoc()) << "the else branch arrives here";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

/// A store into a replicated fragment outside T.Parallel under the if: every
/// thread holds a copy, so running it on a range of threads would leave the
/// copies disagreeing; the if stays as it is and the SIMT check reports it.
static bool storesReplicatedFragment(scf::IfOp i) {
  WalkResult r = i->walk<WalkOrder::PreOrder>([](Operation *op) {
    if (isa<ParallelOp>(op))
      return WalkResult::skip();
    if (auto st = dyn_cast<memref::StoreOp>(op))
      if (isBufferInScope(st.getMemRef().getType(), Scope::Fragment))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

LogicalResult tile::structureThreadRangeIfs(Operation *launchOp) {
  auto launch = dyn_cast<LaunchOp>(launchOp);
  if (!launch)
    return success();
  int64_t n = 1;
  for (int64_t t : launch.getThreads())
    n *= t;
  // Post-order: inner ifs first, so an outer one sees their warp groups.
  llvm::SmallVector<scf::IfOp> ifs;
  launch.walk([&](scf::IfOp i) { ifs.push_back(i); });
  for (scf::IfOp i : ifs) {
    if (i->getNumResults() || !containsCollective(i) || storesReplicatedFragment(i))
      continue;
    std::optional<std::pair<int64_t, int64_t>> r = threadRange(i.getCondition(), launch);
    if (!r)
      continue;
    if (failed(checkOrder(i)))
      return failure();
    auto [lo, hi] = *r;
    int64_t size = std::gcd(std::gcd(lo, hi), n);
    moveIntoGroup(*i.thenBlock(), i, groupsOf(lo, hi, n, size, true), size);
    // The else branch: the other threads, [0, lo) and [hi, n).
    if (!i.getElseRegion().empty() && !i.elseBlock()->without_terminator().empty())
      moveIntoGroup(*i.elseBlock(), i, groupsOf(lo, hi, n, size, false), size);
    i.erase();
  }
  return success();
}
