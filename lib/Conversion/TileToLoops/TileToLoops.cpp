//===- TileToLoops.cpp - The convert-tile-to-loops pass -------------------===//
//
// 1. Outline each tile.kernel into a grid function (the ops before the
//    launch, returning the grid extents) and a body function (the whole
//    kernel with the launch body inlined; block indices are its last three
//    arguments). Launch sequences go: their launchers call their parts'.
// 2. Wrap the runs of per-thread statements in loops over the block's
//    threads (ThreadLoops.cpp): spec §6's SIMT semantics.
// 3. Guard the kernel's own element accesses of global tensors like copies:
//    a read outside gives 0, a write outside is dropped (as tile-lang's
//    safe-memory legalization does for ragged tiles).
// 4. Lower the tile ops in the functions with the pattern groups (walk
//    driver, post-order: inner bodies are lowered before their loops).
// 5. Give local buffers one copy per thread; legalize the buffers: strip
//    scopes, i4 to bytes.
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/TileToLoops/TileToLoops.h"
#include "tilec/Conversion/Passes.h"

#include "LoweringUtils.h"
#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tilec {
#define GEN_PASS_DEF_CONVERTTILETOLOOPS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

std::string tilec::hostBodyFunctionName(llvm::StringRef kernel) { return ("__tilec_" + kernel + "_body").str(); }
std::string tilec::hostGridFunctionName(llvm::StringRef kernel) { return ("__tilec_" + kernel + "_grid").str(); }

void tilec::populateTileToLoopsPatterns(RewritePatternSet &patterns) {
  loops::populateBufferOpPatterns(patterns);
  loops::populateGemmPatterns(patterns);
  loops::populateReductionPatterns(patterns);
  loops::populateAtomicPrintPatterns(patterns);
  loops::populateLoopPatterns(patterns);
}

/// The body function's thread count (1 for the grid function): its
/// `tile.threads` (the block shape, read by the per-thread steps).
static int64_t numThreadsOf(func::FuncOp fn) {
  int64_t n = 1;
  if (DenseI64ArrayAttr attr = tile::getThreads(fn))
    for (int64_t t : attr.asArrayRef())
      n *= t;
  return n;
}

/// Marks an outlined function internal to the object.
static void makeInternal(func::FuncOp fn) {
  fn.setPrivate();
  fn->setAttr("llvm.linkage", LLVM::LinkageAttr::get(fn.getContext(), LLVM::Linkage::Internal));
}

/// Step 1 for one kernel.
static LogicalResult outlineKernel(tile::KernelOp kernel, int64_t stackLimit) {
  tile::LaunchOp launch = kernel.getLaunchOp();
  if (!launch)
    return kernel.emitOpError("has no tile.launch");
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  Block &kernelEntry = kernel.getBody().front();
  llvm::ArrayRef<Type> inputs = kernel.getFunctionType().getInputs();
  Type indexType = b.getIndexType();

  // The grid function: the ops before the launch, then the extents.
  auto gridFn = func::FuncOp::create(b, loc, hostGridFunctionName(kernel.getSymName()),
                                     FunctionType::get(ctx, inputs, {indexType, indexType, indexType}));
  makeInternal(gridFn);
  {
    Block *entry = gridFn.addEntryBlock();
    OpBuilder gb = OpBuilder::atBlockEnd(entry);
    IRMapping map;
    map.map(kernelEntry.getArguments(), entry->getArguments());
    for (Operation &op : kernelEntry) {
      if (&op == launch.getOperation())
        break;
      gb.clone(op, map);
    }
    llvm::SmallVector<Value> extents;
    for (Value g : launch.getGrid())
      extents.push_back(map.lookupOrDefault(g));
    while (extents.size() < 3)
      extents.push_back(loops::indexConst(gb, loc, 1));
    func::ReturnOp::create(gb, loc, extents);
  }

  // The body function: the kernel with the launch body inlined.
  llvm::SmallVector<Type> bodyInputs(inputs);
  bodyInputs.append(3, indexType);
  auto bodyFn = func::FuncOp::create(b, loc, hostBodyFunctionName(kernel.getSymName()),
                                     FunctionType::get(ctx, bodyInputs, {}));
  makeInternal(bodyFn);
  tile::setStackLimit(bodyFn, stackLimit);
  tile::setThreads(bodyFn, launch.getThreads());
  for (unsigned i = 0; i < inputs.size(); ++i)
    bodyFn.setArgAttrs(i, kernel.getArgAttrDict(i) ? kernel.getArgAttrDict(i).getValue()
                                                   : llvm::ArrayRef<NamedAttribute>{});
  Block *entry = bodyFn.addEntryBlock();
  OpBuilder bb = OpBuilder::atBlockEnd(entry);
  IRMapping map;
  map.map(kernelEntry.getArguments(), entry->getArguments().take_front(inputs.size()));
  map.map(launch.getBlockIndices(), entry->getArguments().slice(inputs.size(), launch.getGrid().size()));
  for (Operation &op : kernelEntry) {
    if (&op == launch.getOperation()) {
      for (Operation &inner : launch.getBodyBlock()->without_terminator())
        bb.clone(inner, map);
    } else if (llvm::isa<tile::ReturnOp>(op)) {
      func::ReturnOp::create(bb, op.getLoc());
    } else {
      bb.clone(op, map);
    }
  }
  kernel.erase();
  return success();
}

/// Removes the `tile.*` attributes the lowering read (argument dtypes and
/// names, its own tile.stack_limit and tile.thread_loop records), so no tile
/// dialect verifier sees the lowered functions.
static void dropTileAttributes(ModuleOp module) {
  auto isTileAttr = [](NamedAttribute attr) { return tile::isTileAttrName(attr.getName()); };
  module.walk([&](Operation *op) {
    for (NamedAttribute attr : llvm::to_vector(op->getDiscardableAttrs()))
      if (isTileAttr(attr))
        op->removeAttr(attr.getName());
    auto fn = llvm::dyn_cast<FunctionOpInterface>(op);
    if (!fn)
      return;
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      for (NamedAttribute attr : llvm::to_vector(fn.getArgAttrs(i)))
        if (isTileAttr(attr))
          fn.removeArgAttr(i, attr.getName());
  });
}

/// Step 3: bounds-checked loads and stores of global tensors.
static void guardGlobalAccesses(ModuleOp module) {
  llvm::SmallVector<Operation *> accesses;
  module.walk([&](Operation *op) {
    if (auto load = llvm::dyn_cast<memref::LoadOp>(op); load && loops::isGlobalBuffer(load.getMemref()))
      accesses.push_back(op);
    if (auto store = llvm::dyn_cast<memref::StoreOp>(op); store && loops::isGlobalBuffer(store.getMemref()))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    OpBuilder b(op);
    if (auto load = llvm::dyn_cast<memref::LoadOp>(op)) {
      Value value = loops::loadElement(b, op->getLoc(), load.getMemref(), load.getIndices());
      load.getResult().replaceAllUsesWith(value);
    } else {
      auto store = llvm::cast<memref::StoreOp>(op);
      loops::storeElement(b, op->getLoc(), store.getValue(), store.getMemref(), store.getIndices());
    }
    op->erase();
  }
}

LogicalResult tilec::convertTileToLoops(ModuleOp module, int64_t stackLimit) {
  // A launch sequence (tile-outline-launches) holds no code of its own: its
  // launcher, built from its signature, calls its parts' launchers.
  for (auto kernel : llvm::make_early_inc_range(module.getOps<tile::KernelOp>()))
    if (kernel.isLaunchSequence())
      kernel.erase();
  // T.import_source's code is CUDA C++: the host compiles none of it.
  if (failed(tile::reportExternCalls(module, "host")))
    return failure();
  // T.ws regions and barriers run in program order (the host takes them all).
  for (auto kernel : module.getOps<tile::KernelOp>())
    if (tile::LaunchOp launch = kernel.getLaunchOp(); launch && failed(tile::lowerWarpGroups(launch, nullptr)))
      return failure();
  for (auto kernel : llvm::make_early_inc_range(module.getOps<tile::KernelOp>()))
    if (failed(outlineKernel(kernel, stackLimit)))
      return failure();
  for (auto fn : module.getOps<func::FuncOp>())
    if (DenseI64ArrayAttr threads = tile::getThreads(fn))
      loops::formThreadLoops(fn, threads.asArrayRef());
  guardGlobalAccesses(module);

  RewritePatternSet patterns(module.getContext());
  populateTileToLoopsPatterns(patterns);
  walkAndApplyPatterns(module, FrozenRewritePatternSet(std::move(patterns)));

  WalkResult leftover = module.walk([](Operation *op) {
    if (!llvm::isa_and_nonnull<tile::TileDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitOpError("cannot be lowered for the host target");
    return WalkResult::interrupt();
  });
  if (leftover.wasInterrupted())
    return failure();

  for (auto fn : module.getOps<func::FuncOp>()) {
    if (failed(loops::expandLocalBuffers(fn, numThreadsOf(fn))))
      return failure();
    tile::removeThreads(fn);
    if (failed(loops::legalizeBuffers(fn)))
      return failure();
  }
  dropTileAttributes(module);
  return success();
}

namespace {
struct ConvertTileToLoopsPass : tilec::impl::ConvertTileToLoopsBase<ConvertTileToLoopsPass> {
  using ConvertTileToLoopsBase::ConvertTileToLoopsBase;
  void runOnOperation() override {
    if (failed(convertTileToLoops(getOperation(), stackLimit)))
      signalPassFailure();
  }
};
} // namespace
