//===- HopperWarpSpecialized.cpp - Producer/consumer form of the wgmma loop ===//
//
// The warp-specialized body (HopperPlan.h, warpSpecialized): the block is
// the W consumer warpgroups (threads [0, 128 W), as in the one-role form) and
// one producer warpgroup after them (threads [128 W, 128 W + 128)). After the
// common set-up (the 2 S mbarriers, a block barrier):
// 1. the producer warpgroup lowers its registers (setmaxnreg.dec to
//    kProducerRegs); the elected lane of its first warp runs the load loop:
//    for each k iteration i, stage s = i % S, it waits until the consumers
//    have released the stage's previous tile (empty[s], parity of round
//    i / S - 1; no wait in the first round), arrives on full[s] expecting the
//    stage's bytes and issues its TMA loads. The other producer threads are
//    done;
// 2. the consumer warpgroups raise theirs (setmaxnreg.inc to consumerRegs)
//    and run the one-role loop without its producer parts: wait full[s],
//    wgmma (one group in flight), release the stage whose wgmma group has
//    completed on empty[] (128 W arrivals); then the epilogue and the
//    mbarriers' invalidation, synchronised by named barrier 1 over the 128 W
//    consumer threads only.
// The producer never waits on a consumer barrier after its loop, and the
// consumers' last full-barrier wait follows the producer's last arrival, so
// no mbarrier is in use when thread 0 invalidates them.
//
//===----------------------------------------------------------------------===//
#include "HopperEmitter.h"
#include "HopperGemm.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::hopper;

void GemmEmitter::syncConsumers() {
  if (!p.warpSpecialized) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  Value id = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value count = arith::ConstantIntOp::create(b, loc, 128 * p.consumerGroups(), 32);
  NVVM::BarrierOp::create(b, loc, Type(), id, count, NVVM::BarrierReductionAttr(), Value());
}

void GemmEmitter::inProducerLane(llvm::function_ref<void(Value phase0, Value phase1)> body) {
  // The first producer warp (warp-uniform, as createIsWarp0 makes it), then
  // its elected lane.
  Value producerTid = arith::SubIOp::create(b, loc, tid, c(128 * p.consumerGroups()));
  Value isLeadWarp = createIsWarp0(b, loc, producerTid);
  ifThen(isLeadWarp, [&] {
    ifThen(NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value()), [&] {
      body(arith::ConstantIntOp::create(b, loc, 0, 1), arith::ConstantIntOp::create(b, loc, 1, 1));
    });
  });
}

void GemmEmitter::ringLoad(Value load, Value i, Value slot, Value phase, Value phase1) {
  // Load number `load` of the kernel, from the ring's second round on, refills
  // the stage an earlier load used: its release is the empty barrier's phase
  // before this round, of parity phase ^ 1.
  Value refill = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, load, c(p.stages));
  ifThen(refill, [&] {
    Value parity = arith::XOrIOp::create(b, loc, phase, phase1);
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, empty, parity, c(10000000), slot);
  });
  issueLoads(i, slot);
  auto [slotAfter, phaseAfter] = advanceStage(slot, phase, phase1);
  scf::YieldOp::create(b, loc, ValueRange{slotAfter, phaseAfter});
}

void GemmEmitter::producerLoop() {
  AtOp at(*this, p.loop);
  inProducerLane([&](Value phase0, Value phase1) {
    auto forOp = scf::ForOp::create(b, loc, c(0), numIters, c(1), ValueRange{c(0), phase0});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(forOp.getBody());
    Value i = forOp.getInductionVar();
    ringLoad(i, i, forOp.getRegionIterArg(0), forOp.getRegionIterArg(1), phase1);
  });
}

/// i1, true in the producer warpgroup, from lane 0's warpgroup index
/// (`tid >> 7` by shfl.sync idx) so that ptxas knows the branch on it to be
/// warp-uniform: wgmma in a branch ptxas takes for divergent is serialized
/// (ptxas C7520).
Value tilec::hopper::isProducerWarpgroup(OpBuilder &b, Location loc, Value tid, int64_t consumers) {
  Value consumers32 = arith::ConstantIntOp::create(b, loc, consumers, 32);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, uniformWarpgroup(b, loc, tid), consumers32);
}

Value tilec::hopper::uniformWarpgroup(OpBuilder &b, Location loc, Value tid) {
  auto c32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
  Value tid32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), tid);
  Value wg = arith::ShRUIOp::create(b, loc, tid32, c32(7));
  return NVVM::ShflOp::create(b, loc, b.getI32Type(), c32(-1), wg, c32(0), c32(31), NVVM::ShflKind::idx, UnitAttr());
}

scf::IfOp GemmEmitter::splitRoles() {
  Value isProducer = isProducerWarpgroup(b, loc, tid, p.consumerGroups());
  auto ifOp = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  NVVM::SetMaxRegisterOp::create(b, loc, HopperGemmPlan::kProducerRegs, NVVM::SetMaxRegisterAction::decrease);
  return ifOp;
}

void GemmEmitter::enterConsumers(scf::IfOp roles) {
  b.setInsertionPointToStart(&roles.getElseRegion().front());
  NVVM::SetMaxRegisterOp::create(b, loc, p.consumerRegs(), NVVM::SetMaxRegisterAction::increase);
}

LogicalResult GemmEmitter::warpSpecializedLoop() {
  OpBuilder::InsertionGuard g(b);
  scf::IfOp roles = splitRoles();
  producerLoop();
  enterConsumers(roles);
  if (failed(mainLoop()))
    return failure();
  invalidateBarriers();
  return success();
}
