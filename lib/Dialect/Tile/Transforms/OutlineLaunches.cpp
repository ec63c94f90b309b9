//===- OutlineLaunches.cpp - Kernel functions with several launches -------===//
//
// The tile-outline-launches pass: a tile.kernel with several tile.launch ops
// or tile.alloc_global buffers (spec §6: its T.Kernel blocks run in order
// and share the global buffers) becomes a launch sequence.
// 1. Each launch i moves into a private kernel `<k>__k<i>` whose arguments
//    are the kernel's tensors, then the global buffers (as tensors), then
//    its runtime dimensions and scalars; the launch takes along the ops
//    before it that it uses (grid extents, sizes).
// 2. The kernel keeps its tile.alloc_global ops and runs the parts with
//    tile.call in order.
// 3. `__tilec_<k>_workspace(dims...)` gives the workspace's size in bytes and
//    each buffer's offset in it (kWorkspaceAlignment-byte aligned), which
//    the targets' launchers call.
// A kernel with one launch and no global buffer is left as it is.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace tilec {
#define GEN_PASS_DEF_TILEOUTLINELAUNCHES
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {
/// What one kernel splits into: its launches and global buffers, and the
/// values the parts take as arguments, in the parts' argument order.
struct Split {
  KernelOp kernel;
  llvm::SmallVector<LaunchOp> launches;
  llvm::SmallVector<AllocGlobalOp> globals;
  llvm::SmallVector<Value> sources;
  llvm::SmallVector<DictionaryAttr> argAttrs;
};
} // namespace

/// The argument attributes of a global buffer as a part's tensor argument:
/// its name, dtype and each dimension (a number or a runtime dimension's
/// name).
static FailureOr<DictionaryAttr> globalArgAttrs(KernelOp kernel, AllocGlobalOp alloc) {
  MLIRContext *ctx = kernel.getContext();
  MemRefType type = alloc.getType();
  llvm::SmallVector<Attribute> dims;
  unsigned next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      dims.push_back(StringAttr::get(ctx, std::to_string(type.getDimSize(d))));
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(alloc.getDynamicSizes()[next++]);
    if (!arg || arg.getOwner() != &kernel.getBody().front() || !isArgDynamic(kernel, arg.getArgNumber()) ||
        !getArgName(kernel, arg.getArgNumber()))
      return alloc.emitOpError("sizes dimension ")
             << d << " with a value that is not a runtime dimension of the kernel; the workspace layout "
             << "is computed from the kernel's runtime dimensions";
    dims.push_back(getArgName(kernel, arg.getArgNumber()));
  }
  StringAttr dtype = getDtype(alloc);
  StringRef spelling = dtype ? dtype.getValue() : getDtypeSpelling(type.getElementType());
  std::string name = alloc.getName() ? alloc.getName()->str() : "global" + std::to_string(next);
  return makeArgAttrs(ctx, name, spelling, false, ArrayAttr::get(ctx, dims));
}

/// Step 1's argument list: tensors, global buffers, dimensions, scalars.
static LogicalResult collectSources(Split &s) {
  Block &entry = s.kernel.getBody().front();
  auto attrsOf = [&](unsigned i) {
    DictionaryAttr d = s.kernel.getArgAttrDict(i);
    return d ? d : DictionaryAttr::get(s.kernel.getContext());
  };
  for (BlockArgument arg : entry.getArguments())
    if (isa<MemRefType>(arg.getType()))
      s.sources.push_back(arg), s.argAttrs.push_back(attrsOf(arg.getArgNumber()));
  for (AllocGlobalOp g : s.globals) {
    FailureOr<DictionaryAttr> attrs = globalArgAttrs(s.kernel, g);
    if (failed(attrs))
      return failure();
    s.sources.push_back(g.getResult());
    s.argAttrs.push_back(*attrs);
  }
  for (BlockArgument arg : entry.getArguments())
    if (!isa<MemRefType>(arg.getType()))
      s.sources.push_back(arg), s.argAttrs.push_back(attrsOf(arg.getArgNumber()));
  return success();
}

/// The ops of the kernel's body that `launch` uses (directly or through
/// others), in body order; global buffers and launches excluded.
static llvm::SmallVector<Operation *> usedOps(KernelOp kernel, LaunchOp launch) {
  Block &entry = kernel.getBody().front();
  llvm::SetVector<Value> worklist;
  for (Value v : launch->getOperands())
    worklist.insert(v);
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  worklist.insert(captured.begin(), captured.end());
  llvm::DenseSet<Operation *> needed;
  for (unsigned i = 0; i < worklist.size(); ++i) {
    Operation *def = worklist[i].getDefiningOp();
    if (!def || def->getBlock() != &entry || isa<AllocGlobalOp, LaunchOp>(def) || !needed.insert(def).second)
      continue;
    for (Value v : def->getOperands())
      worklist.insert(v);
    llvm::SetVector<Value> inner;
    for (Region &r : def->getRegions())
      getUsedValuesDefinedAbove(r, inner);
    worklist.insert(inner.begin(), inner.end());
  }
  llvm::SmallVector<Operation *> ordered;
  for (Operation &op : entry)
    if (needed.contains(&op))
      ordered.push_back(&op);
  return ordered;
}

/// Step 1 for launch `index`: the private kernel that runs it.
static void outlineLaunch(Split &s, unsigned index) {
  KernelOp kernel = s.kernel;
  LaunchOp launch = s.launches[index];
  OpBuilder b(kernel);
  llvm::SmallVector<Type> types;
  for (Value v : s.sources)
    types.push_back(v.getType());
  auto part = KernelOp::create(b, launch.getLoc(), launchKernelName(kernel.getSymName(), index),
                               b.getFunctionType(types, {}), {}, s.argAttrs);
  part.setPrivate();
  Block *entry = part.addEntryBlock();
  IRMapping map;
  map.map(s.sources, entry->getArguments());
  OpBuilder pb = OpBuilder::atBlockEnd(entry);
  for (Operation *op : usedOps(kernel, launch))
    pb.clone(*op, map);
  pb.clone(*launch, map);
  ReturnOp::create(pb, kernel.getLoc());
}

/// Step 3: `__tilec_<k>_workspace(dims...) -> (bytes, offset of each buffer)`.
static void buildWorkspaceFunction(Split &s) {
  KernelOp kernel = s.kernel;
  Location loc = kernel.getLoc();
  Block &kernelEntry = kernel.getBody().front();
  OpBuilder b(kernel);
  Type index = b.getIndexType();
  llvm::SmallVector<BlockArgument> dims;
  for (BlockArgument arg : kernelEntry.getArguments())
    if (isArgDynamic(kernel, arg.getArgNumber()))
      dims.push_back(arg);
  llvm::SmallVector<Type> inputs(dims.size(), index), results(s.globals.size() + 1, index);
  auto fn =
      func::FuncOp::create(b, loc, workspaceFunctionName(kernel.getSymName()), b.getFunctionType(inputs, results));
  Block *entry = fn.addEntryBlock();
  OpBuilder fb = OpBuilder::atBlockEnd(entry);
  IRMapping map;
  for (auto [arg, inner] : llvm::zip(dims, entry->getArguments()))
    map.map(arg, inner);
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(fb, loc, v).getResult(); };
  Value offset = cst(0);
  llvm::SmallVector<Value> out{Value()};
  for (AllocGlobalOp g : s.globals) {
    out.push_back(offset);
    MemRefType type = g.getType();
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    // Elements as stored: bools in bytes, 4-bit integers two per byte.
    int64_t staticCount = 1;
    for (int64_t d : type.getShape())
      if (!ShapedType::isDynamic(d))
        staticCount *= d;
    Value count = cst(staticCount);
    for (Value size : g.getDynamicSizes())
      count = arith::MulIOp::create(fb, loc, count, map.lookup(size));
    Value bytes =
        bits == 4 ? arith::DivUIOp::create(fb, loc, arith::AddIOp::create(fb, loc, count, cst(1)), cst(2)).getResult()
                  : arith::MulIOp::create(fb, loc, count, cst(std::max(1u, bits / 8))).getResult();
    Value end = arith::AddIOp::create(fb, loc, offset, bytes);
    offset = arith::AndIOp::create(fb, loc, arith::AddIOp::create(fb, loc, end, cst(kWorkspaceAlignment - 1)),
                                   cst(-kWorkspaceAlignment));
  }
  out[0] = offset;
  func::ReturnOp::create(fb, loc, out);
}

/// Steps 1-3 for one kernel.
static LogicalResult outlineKernel(KernelOp kernel) {
  if (kernel.getBody().empty() || kernel.isLaunchSequence())
    return success();
  Split s{kernel, {}, {}, {}, {}};
  for (Operation &op : kernel.getBody().front()) {
    if (auto launch = dyn_cast<LaunchOp>(op))
      s.launches.push_back(launch);
    else if (auto g = dyn_cast<AllocGlobalOp>(op))
      s.globals.push_back(g);
  }
  if (s.globals.empty() && s.launches.size() <= 1)
    return success();
  if (s.launches.empty())
    return kernel.emitOpError("allocates global buffers but has no tile.launch to use them");
  if (failed(collectSources(s)))
    return failure();
  for (unsigned i = 0; i < s.launches.size(); ++i)
    outlineLaunch(s, i);
  if (!s.globals.empty())
    buildWorkspaceFunction(s);

  // Step 2: the calls replace the launches; what only they used goes.
  Block &entry = kernel.getBody().front();
  OpBuilder b(entry.getTerminator());
  for (unsigned i = 0; i < s.launches.size(); ++i) {
    CallOp::create(b, s.launches[i].getLoc(), launchKernelName(kernel.getSymName(), i), s.sources);
    s.launches[i].erase();
  }
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(entry)))
    if (!isa<AllocGlobalOp, CallOp, ReturnOp>(op) && op.use_empty())
      op.erase();
  return success();
}

namespace {
struct TileOutlineLaunchesPass : tilec::impl::TileOutlineLaunchesBase<TileOutlineLaunchesPass> {
  using TileOutlineLaunchesBase::TileOutlineLaunchesBase;
  void runOnOperation() override {
    bool ok = true;
    for (KernelOp kernel : llvm::to_vector(getOperation().getOps<KernelOp>()))
      ok &= succeeded(outlineKernel(kernel));
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
