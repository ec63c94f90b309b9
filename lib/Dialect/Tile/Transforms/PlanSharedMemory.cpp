//===- PlanSharedMemory.cpp - The shared memory window of a launch --------===//
//
// The tile-plan-shared-memory planning, written as tile.shared_buffer /
// tile.shared_memory attributes (after tile-infer-layouts and
// tile-plan-pipelines, whose attributes it reads). Per tile.launch:
// 1. Shared allocations of the launch body, in order, on 128-byte
//    boundaries of one window: `stages` copies each (a pipeline's staged
//    buffers), swizzled where only copies and matrix gemms use them.
// 2. The scratch area after them (16-byte aligned): two halves for
//    cross-warp reductions and reducer finalizes (threads x destination
//    registers of 32-bit or wider values each) and a row-major copy for
//    scans of fragments.
// 3. Past the target's limit: buffers whose live ranges (spans of the
//    launch body's top-level ops) do not overlap share bytes, as tile-lang's
//    storage rewrite merges them (pipeline-staged buffers only with ones
//    used after their loop, which waits for its copies); still
//    past it, each scratch half holds one value per thread and the
//    reductions go through in chunks of registers. The lowering puts a
//    barrier between the accesses of buffers that share bytes.
// 4. The window against the target's limit (a diagnostic past it).
// 5. Tensor-copy pipelines: their tiles must sit on 1 KB boundaries of the
//    window, and the window then starts at a 1 KB boundary of the dynamic
//    shared memory (1 KB more for the pad, when that still fits); a pipeline
//    whose tiles cannot falls back to async copies. Their tiles' rows wider
//    than 128 bytes are stored as 128-byte column boxes.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

static int64_t elementBytes(Type t) { return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8); }

/// Step 2: scratch bytes of the launch's reductions (one half) and scans.
static LogicalResult planScratch(LaunchOp launch, const TargetInfo &target, int64_t &reduceHalf, int64_t &scan) {
  int64_t numThreads = 1;
  for (int64_t t : launch.getThreads())
    numThreads *= t;
  auto layoutName = TileDialect::LayoutAttrHelper::getNameStr();
  launch.walk([&](ReduceOp r) {
    auto alloc = r.getSrc().getDefiningOp<AllocOp>();
    auto attr = alloc ? alloc->getAttrOfType<FragmentLayoutAttr>(layoutName) : FragmentLayoutAttr();
    if (!attr)
      return;
    FragmentLayout src = attr.getLayout();
    llvm::SmallVector<unsigned> kept;
    for (unsigned d = 0; d < src.shape.size(); ++d)
      if (d != r.getDim())
        kept.push_back(d);
    int64_t dstRegs = src.project(kept).numRegs;
    bool crossWarp = false;
    for (const LayoutField &f : src.threadFields(r.getDim()))
      crossWarp |= f.count > 1 && f.stride * f.count > target.getShuffleLanes();
    unsigned bits = std::max(32u, r.getDst().getType().getElementType().getIntOrFloatBitWidth());
    if (crossWarp)
      reduceHalf = std::max<int64_t>(reduceHalf, numThreads * dstRegs * bits / 8);
  });
  // Reducers' finalizes combine the copies over the replicating digits the
  // same way.
  launch.walk([&](FinalizeReducerOp f) {
    auto alloc = f.getReducer().getDefiningOp<AllocOp>();
    auto attr = alloc ? alloc->getAttrOfType<FragmentLayoutAttr>(layoutName) : FragmentLayoutAttr();
    if (!attr)
      return;
    FragmentLayout layout = attr.getLayout();
    llvm::SmallVector<LayoutField> replicas;
    if (!layout.replicationFields(replicas))
      return;
    bool crossWarp = false;
    for (const LayoutField &rf : replicas)
      crossWarp |= !llvm::isPowerOf2_64(rf.count) || rf.stride * rf.count > target.getShuffleLanes();
    unsigned bits = std::max(32u, alloc.getType().getElementType().getIntOrFloatBitWidth());
    if (crossWarp)
      reduceHalf = std::max<int64_t>(reduceHalf, numThreads * layout.numRegs * bits / 8);
  });
  // Scans of fragments go through a row-major scratch copy.
  launch.walk([&](CumsumOp c) {
    auto type = cast<MemRefType>(c.getDst().getType());
    if (isBufferInScope(c.getSrc().getType(), Scope::Fragment) || isBufferInScope(type, Scope::Fragment))
      scan = std::max<int64_t>(scan, type.getNumElements() * elementBytes(type.getElementType()));
  });
  return success();
}

/// Step 4: which tensor-copy pipelines keep their engine (the others fall
/// back to async copies), whether the window is 1 KB aligned, and the
/// column boxes of the tensor-copied tiles.
static bool planTensorCopies(LaunchOp launch, const TargetInfo &target, int64_t size,
                             llvm::DenseMap<Value, SharedBufferAttr> &placed) {
  MLIRContext *ctx = launch.getContext();
  auto pipelineName = TileDialect::PipelineAttrHelper::getNameStr();
  auto stagedName = TileDialect::StagedAttrHelper::getNameStr();
  llvm::SmallVector<std::pair<ForOp, bool>> tensorLoops;
  bool any = false;
  launch.walk([&](ForOp loop) {
    auto plan = loop->getAttrOfType<PipelinePlanAttr>(pipelineName);
    if (!plan || plan.getEngine() != CopyEngine::Tensor)
      return;
    bool onBoundaries = true;
    for (auto copy : loop.getBodyBlock()->getOps<CopyOp>())
      if (copy->hasAttr(stagedName))
        onBoundaries &= placed.count(copy.getDst()) && placed[copy.getDst()].getOffset() % 1024 == 0;
    tensorLoops.push_back({loop, onBoundaries});
    any |= onBoundaries;
  });
  bool align1k = any && size > 0 && size + 1024 <= target.getMaxSharedMemoryBytes();
  for (auto [loop, onBoundaries] : tensorLoops) {
    auto plan = loop->getAttrOfType<PipelinePlanAttr>(pipelineName);
    if (!onBoundaries || !align1k) {
      loop->setAttr(pipelineName, PipelinePlanAttr::get(ctx, plan.getStages(), CopyEngine::Async, plan.getHandoff()));
      continue;
    }
    for (auto copy : loop.getBodyBlock()->getOps<CopyOp>()) {
      if (!copy->hasAttr(stagedName))
        continue;
      SharedBufferAttr sb = placed[copy.getDst()];
      auto type = cast<MemRefType>(copy.getDst().getType());
      int64_t bytes = elementBytes(type.getElementType());
      if (type.getShape().back() * bytes > 128)
        placed[copy.getDst()] =
            SharedBufferAttr::get(ctx, sb.getOffset(), sb.getStages(), sb.getSwizzle(), 128 / bytes);
    }
  }
  return align1k;
}

/// Step 3: offsets for `order` where buffers whose live ranges (the spans
/// of top-level ops of the launch body that use them) do not overlap share
/// bytes: largest first, each at the lowest 128-byte boundary clear of the
/// placed buffers it is live with. Pipeline-staged buffers are live from
/// the start of the body (their loops manage their barriers). Returns the
/// end.
static int64_t placeByLiveness(LaunchOp launch, ArrayRef<AllocOp> order, const llvm::DenseMap<Value, int64_t> &stagesOf,
                               llvm::DenseMap<Value, SharedBufferAttr> &placed) {
  MLIRContext *ctx = launch.getContext();
  llvm::DenseMap<Value, std::pair<int64_t, int64_t>> live;
  int64_t pos = 0, last = 0;
  for (Operation &top : launch.getBodyBlock()->getOperations()) {
    top.walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (v.getDefiningOp<AllocOp>() && isBufferInScope(v.getType(), Scope::Shared)) {
          auto [it, inserted] = live.try_emplace(v, pos, pos);
          it->second.second = pos;
        }
    });
    last = pos++;
  }
  struct Item {
    Value buf;
    int64_t bytes, begin, end;
  };
  llvm::SmallVector<Item> items;
  for (AllocOp alloc : order) {
    Value v = alloc.getResult();
    SharedBufferAttr sb = placed[v];
    int64_t bytes = sb.getStages() * alloc.getType().getNumElements() * elementBytes(alloc.getType().getElementType());
    auto range = live.lookup(v);
    if (!live.count(v))
      range = {0, -1}; // never used: live nowhere
    // A staged buffer is live from the start (its pipeline's prologue
    // copies are not tracked by the lowering's barriers) to its last use:
    // the pipelined loop ends with a wait for every copy and a barrier, so
    // buffers used only after it may take its bytes (tile-lang's C_shared
    // epilogue over the pipeline's tiles).
    if (stagesOf.lookup(v))
      range = {0, live.count(v) ? range.second : last};
    items.push_back({v, bytes, range.first, range.second});
  }
  llvm::stable_sort(items, [](const Item &a, const Item &b) { return a.bytes > b.bytes; });
  llvm::SmallVector<std::pair<const Item *, int64_t>> done;
  int64_t end = 0;
  for (const Item &it : items) {
    int64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (auto [other, at] : done)
        if (other->begin <= it.end && it.begin <= other->end && at < offset + it.bytes && offset < at + other->bytes) {
          offset = (at + other->bytes + 127) / 128 * 128;
          moved = true;
        }
    }
    done.push_back({&it, offset});
    end = std::max(end, offset + it.bytes);
    SharedBufferAttr sb = placed[it.buf];
    placed[it.buf] = SharedBufferAttr::get(ctx, offset, sb.getStages(), sb.getSwizzle(), 0);
  }
  return end;
}

LogicalResult tilec::tile::planSharedMemory(LaunchOp launch, const TargetInfo &target) {
  MLIRContext *ctx = launch.getContext();
  auto pipelineName = TileDialect::PipelineAttrHelper::getNameStr();
  auto stagedName = TileDialect::StagedAttrHelper::getNameStr();
  // The depth of each staged buffer (tile-plan-pipelines).
  llvm::DenseMap<Value, int64_t> stagesOf;
  launch.walk([&](ForOp loop) {
    if (auto plan = loop->getAttrOfType<PipelinePlanAttr>(pipelineName))
      for (auto copy : loop.getBodyBlock()->getOps<CopyOp>())
        if (copy->hasAttr(stagedName))
          stagesOf[copy.getDst()] = plan.getStages();
  });
  // Step 1.
  int64_t offset = 0;
  llvm::SmallVector<AllocOp> order;
  llvm::DenseMap<Value, SharedBufferAttr> placed;
  for (auto alloc : launch.getBodyBlock()->getOps<AllocOp>()) {
    switch (alloc.getScope()) {
    case Scope::Shared: {
      MemRefType type = alloc.getType();
      int64_t stages = std::max<int64_t>(1, stagesOf.lookup(alloc.getResult()));
      offset = (offset + 127) / 128 * 128;
      placed[alloc.getResult()] = SharedBufferAttr::get(ctx, offset, stages, chooseSharedSwizzle(alloc), 0);
      // A huge num_stages (-D num_stages=2**62) wrapped this product around and passed the limit check.
      int64_t bytes = 0, end = 0;
      if (llvm::MulOverflow(stages, type.getNumElements() * elementBytes(type.getElementType()), bytes) ||
          llvm::AddOverflow(offset, bytes, end) || end > (int64_t(1) << 40))
        return launch.emitError() << "the kernel needs over 2^40 bytes of shared memory (" << stages << " stage"
                                  << (stages == 1 ? "" : "s") << " of a "
                                  << type.getNumElements() * elementBytes(type.getElementType()) << "-byte buffer); "
                                  << target.getName() << " allows at most " << target.getMaxSharedMemoryBytes();
      offset = end;
      order.push_back(alloc);
      break;
    }
    case Scope::Fragment:
      if (!alloc->hasAttr(TileDialect::LayoutAttrHelper::getNameStr()))
        return alloc.emitOpError("has no fragment layout (tile-infer-layouts writes one)");
      break;
    case Scope::Local:
      break;
    case Scope::Global:
      return alloc.emitOpError("cannot allocate global memory in a kernel");
    }
  }
  // Step 2.
  int64_t reduceHalf = 0, scan = 0;
  if (failed(planScratch(launch, target, reduceHalf, scan)))
    return failure();
  int64_t scratch = std::max(2 * reduceHalf, scan);
  int64_t scratchOffset = (offset + 15) / 16 * 16;
  int64_t size = scratchOffset + scratch;
  // Step 3: past the limit, buffers that are never live together share
  // bytes; still past it, each scratch half holds one register of every
  // thread (the reductions go through in chunks).
  int64_t limit = target.getMaxSharedMemoryBytes();
  if (size > limit) {
    scratchOffset = (placeByLiveness(launch, order, stagesOf, placed) + 15) / 16 * 16;
    size = scratchOffset + scratch;
  }
  if (size > limit && reduceHalf > 0) {
    int64_t numThreads = 1;
    for (int64_t t : launch.getThreads())
      numThreads *= t;
    // One value per thread: 32 bits, or 64 where a reduction is that wide.
    int64_t bytes = 4;
    launch.walk([&](Operation *op) {
      Value v = isa<ReduceOp>(op)            ? cast<ReduceOp>(op).getDst()
                : isa<FinalizeReducerOp>(op) ? cast<FinalizeReducerOp>(op).getReducer()
                                             : Value();
      if (v)
        bytes = std::max(bytes, elementBytes(cast<MemRefType>(v.getType()).getElementType()));
    });
    int64_t smallHalf = std::min(reduceHalf, numThreads * bytes);
    if (scratchOffset + std::max(2 * smallHalf, scan) < size) {
      reduceHalf = smallHalf;
      scratch = std::max(2 * smallHalf, scan);
      size = scratchOffset + scratch;
    }
  }
  // Step 4.
  if (size > limit)
    return launch.emitError() << "the kernel needs " << size << " bytes of shared memory; " << target.getName()
                              << " allows at most " << limit;
  // Step 5.
  bool align1k = planTensorCopies(launch, target, size, placed);
  for (AllocOp alloc : order)
    alloc->setAttr(TileDialect::SharedBufferAttrHelper::getNameStr(), placed[alloc.getResult()]);
  launch->setAttr(TileDialect::SharedMemoryAttrHelper::getNameStr(),
                  SharedMemoryPlanAttr::get(ctx, size, scratchOffset, reduceHalf, align1k));
  return success();
}
