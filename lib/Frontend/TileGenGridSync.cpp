//===- TileGenGridSync.cpp - T.sync_grid as the end of a launch -----------===//
//
// `T.sync_grid()`, a barrier across every block of the grid, as a statement
// of the T.Kernel body itself: tilec ends the launch there and runs the rest
// of the body as a second launch of the same grid and threads (spec §6: the
// launches of a kernel function run one after another), which orders every
// block's global writes before any block's reads after it, on every target,
// with no cooperative launch. What crosses the barrier must be in global
// memory: the block indices, and the names bound to values computed from them
// and constants alone (recomputed in the second launch), carry over; a name
// bound to any other value (loaded data) cannot be read after the barrier,
// and the buffers allocated before it are allocated anew, their contents not
// kept (docs/differences.md).
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

namespace {
/// Rebuilds values of the launch before the barrier in the one after it.
class Carrier {
public:
  Carrier(mlir::OpBuilder &b, tile::LaunchOp from, tile::LaunchOp to) : b(b), from(from) {
    for (auto [o, n] : llvm::zip(from.getBlockIndices(), to.getBlockIndices()))
      map.map(o, n);
  }
  /// `v` in the new launch: itself when defined outside the old one, a clone
  /// of its computation (pure ops, allocations), or null when it cannot be.
  mlir::Value carry(mlir::Value v) {
    if (!from->isAncestor(v.getParentBlock()->getParentOp()))
      return v;
    if (mlir::Value m = map.lookupOrNull(v))
      return m;
    mlir::Operation *def = v.getDefiningOp();
    if (!def || def->getNumRegions() || def->getBlock() != from.getBodyBlock())
      return nullptr;
    bool alloc = mlir::isa<tile::AllocOp, tile::AllocBarrierOp>(def); // allocated anew
    if (!alloc && !mlir::isMemoryEffectFree(def))
      return nullptr;
    for (mlir::Value operand : def->getOperands())
      if (!carry(operand))
        return nullptr;
    b.clone(*def, map);
    return map.lookup(v);
  }

private:
  mlir::OpBuilder &b;
  tile::LaunchOp from;
  mlir::IRMapping map;
};
} // namespace

void KernelGen::genSyncGrid(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return;
  }
  if (b.getInsertionBlock() != launch.getBodyBlock()) {
    diags.emit(DiagID::not_supported_yet, range,
               "T.sync_grid inside a loop, branch or T.Parallel (tilec ends the launch at the barrier and runs the "
               "rest of the T.Kernel body as a second launch, so the barrier must be a statement of the body itself)");
    return;
  }
  tile::LaunchOp old = launch;
  launches.push_back(old);
  b.setInsertionPointAfter(old);
  std::optional<llvm::ArrayRef<int64_t>> cluster = old.getCluster();
  launch = tile::LaunchOp::create(b, loc(range), old.getGrid(), old.getThreads(),
                                  cluster ? *cluster : llvm::ArrayRef<int64_t>());
  b.setInsertionPoint(launch.getBodyBlock()->getTerminator());
  Carrier carrier(b, old, launch);
  // A carried value keeps its symbol: the linear forms of the names bound to
  // it (slice extents, bounds checks) stay true of the new value.
  auto carry = [&](mlir::Value v) {
    mlir::Value n = carrier.carry(v);
    if (n && n != v)
      if (auto it = symbols.find(v); it != symbols.end())
        symbols[n] = it->second;
    return n;
  };
  for (BufferInfo &buf : buffers)
    if (buf.value)
      if (mlir::Value n = carry(buf.value))
        buf.value = n;
  rngState = nullptr; // T.rng_init's state is the old launch's
  for (LocalScope &scope : scopes)
    for (auto &entry : scope.names) {
      LocalVar &var = entry.second;
      if (!var.isBound() || !var.value.isScalar())
        continue;
      if (mlir::Value n = carry(var.value.value))
        var.value.value = n;
      else
        var.state = LocalVar::State::BeforeGridSync;
    }
}
