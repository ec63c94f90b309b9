//===- Limits.cpp - Kernel size limits checked before the lowering --------===//
//
// The emitter gives every thread its fragment elements as registers and
// unrolls T.Parallel iterations per thread, so a tile too big for its
// block's threads (a 128x128 accumulator over 1 thread, a softmax row of
// 100,000 elements) becomes code that LLVM, ptxas or SPIRV-Cross take
// minutes and gigabytes on. These checks run before anything is emitted,
// on figures that hold for any layout the inference could choose (a
// fragment's elements over the block's threads is the fewest one thread can
// hold), and name the flag that raises each limit.
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/TileToGPU/TileToGPU.h"

#include "Emitter.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilec;

static std::string shapeText(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "1";
  return llvm::join(llvm::map_range(shape, [](int64_t d) { return std::to_string(d); }), "x");
}

static int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= std::max<int64_t>(d, 1);
  return n;
}

static std::string threadsText(int64_t threads) {
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

/// Fragments and local buffers: the elements one thread holds.
static LogicalResult checkBuffer(tile::AllocOp alloc, int64_t threads, const GPULimits &limits) {
  std::optional<tile::Scope> scope = tile::getBufferScope(alloc.getType());
  if (!scope || (*scope != tile::Scope::Fragment && *scope != tile::Scope::Local))
    return success();
  ArrayRef<int64_t> shape = alloc.getType().getShape();
  int64_t numel = product(shape);
  bool fragment = *scope == tile::Scope::Fragment;
  int64_t perThread = fragment ? (numel + threads - 1) / threads : numel;
  if (perThread <= limits.maxFragmentElements)
    return success();
  InFlightDiagnostic d = emitError(alloc.getLoc());
  if (fragment)
    d << "fragment of " << shapeText(shape) << " elements needs " << perThread << " elements per thread ("
      << shapeText(shape) << " over " << threadsText(threads) << ")";
  else
    d << "local buffer of " << shapeText(shape) << " elements needs " << perThread
      << " elements per thread (each thread holds all of it)";
  d << "; the limit is " << limits.maxFragmentElements
    << " (--max-fragment-elements=N raises it; or give the block more threads or make the buffer smaller)";
  return failure();
}

/// T.Parallel: iterations per thread times the operations of the body.
static LogicalResult checkParallel(tile::ParallelOp loop, int64_t threads, const GPULimits &limits) {
  int64_t iterations = product(loop.getExtents());
  int64_t perThread = (iterations + threads - 1) / threads;
  int64_t ops = 0;
  loop.getBody().walk([&](Operation *) { ++ops; });
  if (perThread * ops <= limits.maxUnrolledOps)
    return success();
  return loop.emitError() << "T.Parallel("
                          << llvm::join(llvm::map_range(loop.getExtents(), [](int64_t d) { return std::to_string(d); }),
                                        ", ")
                          << ") unrolls to " << perThread * ops << " operations per thread (" << perThread
                          << " iterations per thread over " << threadsText(threads) << ", " << ops
                          << " operations each); the limit is " << limits.maxUnrolledOps
                          << " (--max-unrolled-ops=N raises it; or give the block more threads or split the loop)";
}

LogicalResult tilec::checkGPULimits(Operation *launch, int64_t threads, const GPULimits &limits) {
  threads = std::max<int64_t>(threads, 1);
  bool ok = true;
  launch->walk([&](Operation *op) {
    if (auto alloc = dyn_cast<tile::AllocOp>(op))
      ok &= succeeded(checkBuffer(alloc, threads, limits));
    else if (auto loop = dyn_cast<tile::ParallelOp>(op))
      ok &= succeeded(checkParallel(loop, threads, limits));
  });
  return success(ok);
}

/// After tile-infer-layouts: the registers each fragment's layout gives a
/// thread (more than the lower bound when a thread count that does not
/// divide the tile leaves threads replicated), and the per-element gemms
/// (no matrix-instruction plan), whose multiply-adds LLVM unrolls.
LogicalResult gpu_lowering::checkPlannedLimits(const LayoutPlan &plan, tile::LaunchOp launch, int64_t threads,
                                               const GPULimits &limits) {
  bool ok = true;
  for (auto &[value, layout] : plan.fragments) {
    if (layout.numRegs <= limits.maxFragmentElements)
      continue;
    auto type = cast<MemRefType>(value.getType());
    emitError(value.getLoc()) << "fragment of " << shapeText(type.getShape()) << " elements takes " << layout.numRegs
                              << " elements per thread in its layout over " << threadsText(threads)
                              << " (distinct elements on " << layout.distinctThreads() << " of them); the limit is "
                              << limits.maxFragmentElements
                              << " (--max-fragment-elements=N raises it; or use a thread count that divides the "
                                 "buffer's elements)";
    ok = false;
  }
  int64_t total = 0;
  for (auto &[value, layout] : plan.fragments)
    total += layout.numRegs;
  // Checked only when each fragment is within its own limit: one mistake, one diagnostic.
  if (ok && total > limits.maxThreadElements) {
    // The diagnostic points at the largest fragment (the first in program order of a tie).
    Value largest;
    int64_t most = -1;
    launch.walk([&](tile::AllocOp alloc) {
      auto it = plan.fragments.find(alloc.getResult());
      if (it != plan.fragments.end() && it->second.numRegs > most)
        largest = alloc.getResult(), most = it->second.numRegs;
    });
    emitError(largest ? largest.getLoc() : launch.getLoc())
        << "the kernel's " << plan.fragments.size() << " fragments take " << total
        << " elements per thread together over " << threadsText(threads) << " (this one " << most << "); the limit is "
        << limits.maxThreadElements
        << " (--max-thread-elements=N raises it; or give the block more threads or "
           "make the tiles smaller)";
    ok = false;
  }
  launch.walk([&](tile::GemmOp g) {
    if (plan.gemms.lookup(g).mma)
      return;
    auto it = plan.fragments.find(g.getC());
    if (it == plan.fragments.end())
      return;
    ArrayRef<int64_t> a = cast<MemRefType>(g.getA().getType()).getShape();
    int64_t k = g.getTransposeA() ? a[0] : a[a.size() - 1];
    // A load of each operand, the multiply and the add per step.
    int64_t ops = it->second.numRegs * k * 4;
    if (ops <= limits.maxUnrolledOps)
      return;
    g.emitError() << "T.gemm runs element by element here (no matrix-instruction plan for this tile over "
                  << threadsText(threads) << "): " << ops << " operations per thread (" << it->second.numRegs
                  << " elements of C per thread x K=" << k << " x 4); the limit is " << limits.maxUnrolledOps
                  << " (--max-unrolled-ops=N raises it; or use a multiple of 32 threads whose warps divide the tile)";
    ok = false;
  });
  return success(ok);
}
