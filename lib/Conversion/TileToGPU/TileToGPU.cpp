//===- TileToGPU.cpp - The convert-tile-to-gpu pass -----------------------===//
//
// 1. Per tile.kernel: outline the grid computation (the ops before the
//    launch) into a host function, create the gpu.func with the kernel's
//    arguments in global memory.
// 2. Plan (tile-infer-layouts: layouts and gemm plans; tile-plan-pipelines:
//    staged copies and their engine; tile-plan-shared-memory: the shared
//    window), then let KernelEmitter write the thread-level body from those
//    attributes; with narrow-type emulation, make fp8 values and packed
//    tensors bytes.
// 3. Erase the tile.kernel.
// Launch sequences (tile-outline-launches) are erased first: the target's
// launchers run their parts, or a diagnostic says the target cannot.
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/TileToGPU/TileToGPU.h"
#include "tilec/Conversion/TileToGPU/Passes.h"

#include "Emitter.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FormatVariadic.h"

namespace tilec {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "tilec/Conversion/TileToGPU/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

std::string tilec::gpuGridFunctionName(llvm::StringRef kernel) { return ("__tilec_" + kernel + "_grid").str(); }

/// The kernel argument types as the gpu.func takes them.
static Type deviceType(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  if (!m)
    return t;
  auto global = gpu::AddressSpaceAttr::get(t.getContext(), gpu::AddressSpace::Global);
  return MemRefType::get(m.getShape(), m.getElementType(), AffineMap(), global);
}

/// The cluster shape of `launch` (empty: none, or one block per cluster, as
/// tile-lang drops cluster (1, 1, 1)); a diagnostic when the target has no
/// clusters, the cluster is larger than it allows or a constant grid
/// dimension is not a multiple of the cluster's.
static FailureOr<llvm::SmallVector<int32_t>> checkCluster(tile::LaunchOp launch, const TargetInfo &target) {
  std::optional<llvm::ArrayRef<int64_t>> cluster = launch.getCluster();
  if (!cluster || cluster->size() != 3)
    return llvm::SmallVector<int32_t>();
  int64_t size = (*cluster)[0] * (*cluster)[1] * (*cluster)[2];
  if (size == 1)
    return llvm::SmallVector<int32_t>();
  std::string shape = llvm::formatv("cluster=({0}, {1}, {2})", (*cluster)[0], (*cluster)[1], (*cluster)[2]).str();
  int64_t max = target.getMaxClusterSize();
  if (max == 0)
    return launch.emitError() << shape << " asks for clusters of " << size << " thread blocks; " << target.getName()
                              << " has no thread-block clusters";
  if (size > max)
    return launch.emitError() << shape << " asks for clusters of " << size << " thread blocks; " << target.getName()
                              << " allows at most " << max << " (the portable cluster size)";
  for (unsigned d = 0; d < 3; ++d) {
    // A dimension the grid does not name has one block.
    IntegerAttr c;
    int64_t blocks = 1;
    if (d < launch.getGrid().size() && !matchPattern(launch.getGrid()[d], m_Constant(&c)))
      continue; // checked by the launcher
    if (c)
      blocks = c.getInt();
    if (blocks % (*cluster)[d] != 0)
      return launch.emitError() << "grid dimension " << d << " has " << blocks << " block" << (blocks == 1 ? "" : "s")
                                << ", not a multiple of " << shape << "'s " << (*cluster)[d];
  }
  return llvm::SmallVector<int32_t>{int32_t((*cluster)[0]), int32_t((*cluster)[1]), int32_t((*cluster)[2])};
}

static LogicalResult lowerKernel(tile::KernelOp kernel, gpu::GPUModuleOp gpuModule, const TargetInfo &target,
                                 const GPULoweringOptions &options) {
  tile::LaunchOp launch = kernel.getLaunchOp();
  if (!launch)
    return kernel.emitOpError("has no tile.launch");
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  Block &kernelEntry = kernel.getBody().front();
  llvm::ArrayRef<Type> inputs = kernel.getFunctionType().getInputs();
  int64_t threads = 1;
  for (int64_t t : launch.getThreads())
    threads *= t;
  if (threads > target.getMaxThreadsPerBlock())
    return launch.emitError() << "the block has " << threads << " threads; " << target.getName()
                              << " allows at most " << target.getMaxThreadsPerBlock();
  if (failed(checkGPULimits(launch, threads, options.limits)))
    return failure();

  // Packed 4-bit tensors need byte emulation (no result beats a wrong one).
  for (Type t : inputs)
    if (auto m = dyn_cast<MemRefType>(t))
      if (unsigned w = m.getElementType().isIntOrFloat() ? m.getElementType().getIntOrFloatBitWidth() : 0;
          w > 1 && w < 8)
        if (!options.emulateNarrowTypes || 8 % w != 0)
          return kernel.emitError() << "takes a packed " << w << "-bit tensor, which the " << target.getName()
                                    << " target does not support";

  // Hand-written warp specialization (T.ws, barriers) runs in program order.
  if (failed(tile::lowerWarpGroups(launch, &target)))
    return failure();

  // 1. The grid function on the host.
  OpBuilder b(kernel);
  Type indexType = b.getIndexType();
  // It takes the arguments that are not tensors (dimensions, scalars).
  llvm::SmallVector<Type> hostInputs;
  for (Type t : inputs)
    if (!isa<MemRefType>(t))
      hostInputs.push_back(t);
  auto gridFn = func::FuncOp::create(b, loc, gpuGridFunctionName(kernel.getSymName()),
                                     FunctionType::get(ctx, hostInputs, {indexType, indexType, indexType}));
  {
    Block *entry = gridFn.addEntryBlock();
    OpBuilder gb = OpBuilder::atBlockEnd(entry);
    IRMapping map;
    unsigned next = 0;
    for (BlockArgument arg : kernelEntry.getArguments())
      if (!isa<MemRefType>(arg.getType()))
        map.map(arg, entry->getArgument(next++));
    for (Operation &op : kernelEntry) {
      if (&op == launch.getOperation())
        break;
      for (Value operand : op.getOperands())
        if (isa<MemRefType>(operand.getType()))
          return op.emitOpError("computes the grid from a tensor; the grid may use only dimensions and scalars");
      gb.clone(op, map);
    }
    llvm::SmallVector<Value> extents;
    for (Value g : launch.getGrid())
      extents.push_back(map.lookupOrDefault(g));
    while (extents.size() < 3)
      extents.push_back(arith::ConstantIndexOp::create(gb, loc, 1));
    func::ReturnOp::create(gb, loc, extents);
  }

  // The device function.
  llvm::SmallVector<Type> argTypes;
  for (Type t : inputs)
    argTypes.push_back(deviceType(t));
  OpBuilder mb = OpBuilder::atBlockEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(mb, loc, kernel.getSymName(), FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
  llvm::SmallVector<int32_t> block;
  for (int64_t t : launch.getThreads())
    block.push_back(t);
  while (block.size() < 3)
    block.push_back(1);
  func.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(ctx, block));
  tile::setThreads(func, {block[0], block[1], block[2]});
  FailureOr<llvm::SmallVector<int32_t>> cluster = checkCluster(launch, target);
  if (failed(cluster))
    return failure();
  if (!cluster->empty()) // becomes nvvm.cluster_dim; the launcher reads it
    func.setKnownClusterSizeAttr(DenseI32ArrayAttr::get(ctx, *cluster));

  // A path of the target's own for this kernel's shape (CUDA: gemm
  // loops through TMA + mbarrier + WGMMA where it has warpgroup MMA).
  FailureOr<bool> targetDone = target.lowerKernel(kernel, launch, func);
  if (failed(targetDone))
    return failure();
  if (*targetDone) {
    if (options.emulateNarrowTypes && failed(gpu_lowering::legalizeNarrowStorage(func)))
      return failure();
    kernel.erase();
    return success();
  }

  // 2. The plans (tile-infer-layouts, tile-plan-pipelines,
  // tile-plan-shared-memory), then the body, which reads them.
  if (failed(tile::inferLayouts(launch, target)) || failed(tile::planPipelines(launch, target)) ||
      failed(tile::planSharedMemory(launch, target)))
    return failure();
  gpu_lowering::LayoutPlan plan = gpu_lowering::readLayoutPlan(launch);
  if (failed(gpu_lowering::checkPlannedLimits(plan, launch, threads, options.limits)))
    return failure();
  gpu_lowering::KernelEmitter emitter(kernel, launch, func, target, std::move(plan));
  if (failed(emitter.run()))
    return failure();
  tile::setSharedBytes(func, emitter.getSharedBytes());
  if (options.emulateNarrowTypes && failed(gpu_lowering::legalizeNarrowStorage(func)))
    return failure();
  // 3. The tile kernel is gone.
  kernel.erase();
  return success();
}

LogicalResult tilec::lowerTileToGPU(ModuleOp module, const TargetInfo &target, const GPULoweringOptions &options) {
  MLIRContext *ctx = module.getContext();
  // Launch sequences: the launchers run them from the signatures (or the
  // target cannot).
  bool sequencesOk = true;
  for (tile::KernelOp kernel : llvm::make_early_inc_range(module.getOps<tile::KernelOp>())) {
    if (!kernel.isLaunchSequence())
      continue;
    if (!options.launchSequences)
      sequencesOk &= succeeded(tile::rejectLaunchSequence(kernel, target.getName()));
    else
      kernel.erase();
  }
  if (!sequencesOk)
    return failure();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), UnitAttr::get(ctx));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), kGPUModuleName);
  // Every kernel, so that one run reports the problems of all of them.
  bool ok = true;
  for (tile::KernelOp kernel : llvm::make_early_inc_range(module.getOps<tile::KernelOp>()))
    ok &= succeeded(lowerKernel(kernel, gpuModule, target, options));
  if (!ok)
    return failure();
  if (!target.hasDeviceAssert())
    gpuModule.walk([](cf::AssertOp a) { a.erase(); });
  return verify(module);
}

namespace {
struct ConvertTileToGPUPass : tilec::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  using ConvertTileToGPUBase::ConvertTileToGPUBase;
  void getDependentDialects(DialectRegistry &registry) const override {
    ConvertTileToGPUBase::getDependentDialects(registry);
    if (std::unique_ptr<TargetInfo> info = createTargetInfo(target))
      info->getDependentDialects(registry);
  }
  void runOnOperation() override {
    std::unique_ptr<TargetInfo> info = createTargetInfo(target);
    if (!info) {
      getOperation().emitError() << "convert-tile-to-gpu: no registered target is named '" << target << "'";
      return signalPassFailure();
    }
    GPULoweringOptions options;
    options.emulateNarrowTypes = info->emulatesNarrowTypes();
    if (failed(lowerTileToGPU(getOperation(), *info, options)))
      signalPassFailure();
  }
};
} // namespace
