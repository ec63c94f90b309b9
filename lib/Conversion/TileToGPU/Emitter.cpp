//===- Emitter.cpp - Kernel structure, buffers, barriers, generic ops -----===//
//
// 1. Buffers: shared buffers become views of dynamic shared memory where
//    tile-plan-shared-memory placed them (tile.shared_buffer), fragments
//    register arrays shaped by their layouts (tile.layout), locals allocas.
// 2. Walk the launch body in order, emitting each op for one thread; tile
//    ops go to their Emit*.cpp function, other ops are cloned (regions
//    walked recursively so that nested tile ops and buffer accesses are
//    translated too).
// 3. Barriers (EmitBarriers.cpp): a shared (or global) buffer written by one
//    op and accessed by a later one, or read and then written, gets one
//    gpu.barrier between.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Dialect/Tile/IR/TileSIMT.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

KernelEmitter::KernelEmitter(tile::KernelOp kernel, tile::LaunchOp launch, gpu::GPUFuncOp func,
                             const TargetInfo &target, LayoutPlan plan)
    : b(func.getContext()), loc(launch.getLoc()), target(target), plan(std::move(plan)), kernel(kernel),
      launch(launch), func(func) {
  for (int64_t t : launch.getThreads())
    numThreads *= t;
}

LayoutPlan tilec::gpu_lowering::readLayoutPlan(tile::LaunchOp launch) {
  LayoutPlan plan;
  auto *dialect = launch->getContext()->getLoadedDialect<tile::TileDialect>();
  auto layoutAttr = dialect->getLayoutAttrHelper();
  auto planAttr = dialect->getGemmPlanAttrHelper();
  launch.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<tile::AllocOp>(op)) {
      if (tile::FragmentLayoutAttr l = layoutAttr.getAttr(op))
        plan.fragments[alloc.getResult()] = l.getLayout();
    } else if (isa<tile::ParallelOp>(op)) {
      if (tile::FragmentLayoutAttr l = layoutAttr.getAttr(op))
        plan.parallels[op] = l.getLayout();
    } else if (auto view = dyn_cast<memref::ReinterpretCastOp>(op)) {
      if (tile::FragmentLayoutAttr l = layoutAttr.getAttr(op))
        plan.fragments[view.getResult()] = l.getLayout();
    } else if (isa<tile::GemmOp>(op)) {
      if (tile::GemmPlanAttr g = planAttr.getAttr(op))
        plan.gemms[op] = GemmPlan{true, g.getWarpsM(), g.getWarpsN(), g.getAInRegisters()};
    }
  });
  plan.threadVariant = tile::threadVariantValues(launch.getOperation());
  return plan;
}

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

Value KernelEmitter::cIdx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
Value KernelEmitter::add(Value a, Value c) { return arith::AddIOp::create(b, loc, a, c); }
Value KernelEmitter::mul(Value a, int64_t c) {
  if (c == 1)
    return a;
  return arith::MulIOp::create(b, loc, a, cIdx(c));
}
Value KernelEmitter::addc(Value a, int64_t c) { return c == 0 ? a : add(a, cIdx(c)); }

Value KernelEmitter::zeroOf(Type t) { return arith::ConstantOp::create(b, loc, b.getZeroAttr(t)); }

Value KernelEmitter::identityOf(tile::ReduceKind kind, Type t) {
  if (auto ft = dyn_cast<FloatType>(t)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (kind) {
    case tile::ReduceKind::Max:
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, llvm::APFloat::getInf(sem, true)));
    case tile::ReduceKind::Min:
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, llvm::APFloat::getInf(sem, false)));
    default:
      return zeroOf(t);
    }
  }
  unsigned w = t.getIntOrFloatBitWidth();
  switch (kind) {
  case tile::ReduceKind::Max:
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, llvm::APInt::getSignedMinValue(w)));
  case tile::ReduceKind::Min:
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, llvm::APInt::getSignedMaxValue(w)));
  default:
    return zeroOf(t);
  }
}

Value KernelEmitter::combine(tile::ReduceKind kind, Value acc, Value v) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(v.getType()));
  switch (kind) {
  case tile::ReduceKind::Sum:
  case tile::ReduceKind::AbsSum:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, acc, v) : (Value)arith::AddIOp::create(b, loc, acc, v);
  case tile::ReduceKind::Max:
  case tile::ReduceKind::AbsMax:
    return isFloat ? (Value)arith::MaximumFOp::create(b, loc, acc, v) : (Value)arith::MaxSIOp::create(b, loc, acc, v);
  case tile::ReduceKind::Min:
    return isFloat ? (Value)arith::MinimumFOp::create(b, loc, acc, v) : (Value)arith::MinSIOp::create(b, loc, acc, v);
  }
  return acc;
}

bool KernelEmitter::isUnsignedBuffer(Value buffer) { return tile::isUnsignedBuffer(buffer); }

Value KernelEmitter::convert(Value v, Type to, bool fromUnsigned, bool toUnsigned) {
  Type from = getElementTypeOrSelf(v.getType());
  if (from == to)
    return v;
  Type target = to;
  if (auto vt = dyn_cast<VectorType>(v.getType()))
    target = VectorType::get(vt.getShape(), to);
  bool fromF = isa<FloatType>(from), toF = isa<FloatType>(to);
  // bool is "!= 0", not the low bit.
  if (to.isInteger(1) && !from.isInteger(1))
    return fromF ? (Value)arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zeroOf(v.getType()))
                 : (Value)arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zeroOf(v.getType()));
  if (fromF && toF) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, target, v);
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      return arith::TruncFOp::create(b, loc, target, v);
    // f16 <-> bf16: through f32.
    Type f32 = b.getF32Type();
    Type mid = isa<VectorType>(v.getType()) ? (Type)VectorType::get(cast<VectorType>(v.getType()).getShape(), f32) : f32;
    return arith::TruncFOp::create(b, loc, target, arith::ExtFOp::create(b, loc, mid, v));
  }
  if (fromF && !toF)
    return toUnsigned ? (Value)arith::FPToUIOp::create(b, loc, target, v) : (Value)arith::FPToSIOp::create(b, loc, target, v);
  if (!fromF && toF)
    return fromUnsigned ? (Value)arith::UIToFPOp::create(b, loc, target, v)
                        : (Value)arith::SIToFPOp::create(b, loc, target, v);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return fromUnsigned ? (Value)arith::ExtUIOp::create(b, loc, target, v) : (Value)arith::ExtSIOp::create(b, loc, target, v);
  return arith::TruncIOp::create(b, loc, target, v);
}

Value KernelEmitter::threadPart(const FragmentLayout &layout, unsigned d) {
  std::string key = layout.str() + "#" + std::to_string(d);
  auto it = threadPartCache.find(key);
  if (it != threadPartCache.end())
    return it->second;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(entryAnchor);
  Value v = cIdx(0);
  for (const LayoutField &f : layout.dims[d]) {
    if (!f.onThread || f.count == 1)
      continue;
    Value digit = arith::DivUIOp::create(b, loc, tid, cIdx(f.stride));
    digit = arith::RemUIOp::create(b, loc, digit, cIdx(f.count));
    v = add(v, mul(digit, f.scale));
  }
  threadPartCache[key] = v;
  return v;
}

Value KernelEmitter::isFirstReplica(const FragmentLayout &layout) {
  std::string key = layout.str() + "#owner";
  auto it = threadPartCache.find(key);
  if (it != threadPartCache.end())
    return it->second;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(entryAnchor);
  Value owner = cIdx(0);
  for (const auto &fields : layout.dims)
    for (const LayoutField &f : fields) {
      if (!f.onThread || f.count == 1)
        continue;
      Value digit = arith::DivUIOp::create(b, loc, tid, cIdx(f.stride));
      digit = arith::RemUIOp::create(b, loc, digit, cIdx(f.count));
      owner = add(owner, mul(digit, f.stride));
    }
  Value v = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, owner, tid);
  threadPartCache[key] = v;
  return v;
}

OpBuilder::InsertPoint KernelEmitter::beginIf(Value cond) {
  OpBuilder::InsertPoint after = b.saveInsertionPoint();
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  return after;
}

Value KernelEmitter::inBounds(Value globalBuf, ArrayRef<Value> idx, int64_t innerExtra) {
  auto type = cast<MemRefType>(globalBuf.getType());
  Value ok;
  for (unsigned d = 0; d < idx.size(); ++d) {
    Value size;
    if (type.isDynamicDim(d))
      size = memref::DimOp::create(b, loc, globalBuf, d);
    else
      size = cIdx(type.getDimSize(d));
    Value i = d + 1 == idx.size() ? addc(idx[d], innerExtra) : idx[d];
    // Unsigned comparison also rejects negative indices.
    Value c = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i, size);
    ok = ok ? (Value)arith::AndIOp::create(b, loc, ok, c) : c;
  }
  if (!ok)
    ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  return ok;
}

int64_t KernelEmitter::knownMultiple(Value v) {
  if (auto c = getConstantIntValue(v))
    return *c == 0 ? (1 << 20) : std::abs(*c);
  Operation *def = v.getDefiningOp();
  if (!def)
    return 1;
  if (auto m = dyn_cast<arith::MulIOp>(def))
    return std::min<int64_t>(knownMultiple(m.getLhs()) * knownMultiple(m.getRhs()), 1 << 20);
  if (auto a = dyn_cast<arith::AddIOp>(def))
    return std::gcd(knownMultiple(a.getLhs()), knownMultiple(a.getRhs()));
  if (auto s = dyn_cast<arith::SubIOp>(def))
    return std::gcd(knownMultiple(s.getLhs()), knownMultiple(s.getRhs()));
  return 1;
}

Value KernelEmitter::sharedIndex(Value buf, ArrayRef<Value> idx) {
  SharedBuffer &sb = shared[buf];
  Value lin = cIdx(0);
  int64_t inner = sb.shape.empty() ? 1 : sb.shape.back();
  if (sb.swizzled && sb.shape.size() >= 2) {
    // row = all leading dims linearized; 16-byte chunk XOR the row's term.
    Value row = cIdx(0);
    for (unsigned d = 0; d + 1 < idx.size(); ++d)
      row = add(mul(row, sb.shape[d]), idx[d]);
    int64_t chunkElems = 128 / sb.elementType.getIntOrFloatBitWidth();
    Value col = idx.back();
    Value boxBase;
    if (sb.boxCols) {
      int64_t rows = sb.numel / inner;
      boxBase = mul(arith::DivUIOp::create(b, loc, col, cIdx(sb.boxCols)), rows * sb.boxCols);
      col = arith::RemUIOp::create(b, loc, col, cIdx(sb.boxCols));
      inner = sb.boxCols;
    }
    Value chunk = arith::DivUIOp::create(b, loc, col, cIdx(chunkElems));
    Value within = arith::RemUIOp::create(b, loc, col, cIdx(chunkElems));
    Value sw = arith::XOrIOp::create(b, loc, chunk, emitSwizzleXor(sb, row));
    lin = add(add(mul(row, inner), mul(sw, chunkElems)), within);
    if (boxBase)
      lin = add(lin, boxBase);
  } else {
    for (unsigned d = 0; d < idx.size(); ++d)
      lin = add(mul(lin, sb.shape[d]), idx[d]);
  }
  auto it = stageBase.find(buf);
  if (it != stageBase.end())
    lin = add(lin, it->second);
  return lin;
}

Value KernelEmitter::emitSwizzleXor(const SharedBuffer &sb, Value row) {
  assert(sb.swizzled && sb.swizzleBytes && "the XOR term of an unswizzled buffer");
  SwizzleAtom atom = swizzleAtom(sb.swizzleBytes);
  if (atom.rowDiv > 1)
    row = arith::DivUIOp::create(b, loc, row, cIdx(atom.rowDiv));
  return arith::RemUIOp::create(b, loc, row, cIdx(atom.chunks));
}

scf::ForOp KernelEmitter::loopWithIterArgs(Value lb, Value ub, Value step, ValueRange inits) {
  return scf::ForOp::create(b, loc, lb, ub, step, inits, [](OpBuilder &nb, Location l, Value, ValueRange iter) {
    scf::YieldOp::create(nb, l, iter);
  });
}

//===----------------------------------------------------------------------===//
// Buffers and the walk
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::createBuffers() {
  MLIRContext *ctx = b.getContext();
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto *dialect = ctx->getLoadedDialect<tile::TileDialect>();
  window = dialect->getSharedMemoryAttrHelper().getAttr(launch);
  if (!window)
    return launch.emitOpError("has no shared memory plan (tile-plan-shared-memory writes one)");
  // Views in allocation order (the map's order varies between runs).
  llvm::SmallVector<Value> sharedOrder;
  // Per-thread arrays left in local memory take vector loads and stores of up to 16 bytes.
  IntegerAttr align16 = b.getI64IntegerAttr(16);
  for (Operation &op : *launch.getBodyBlock()) {
    auto alloc = dyn_cast<tile::AllocOp>(op);
    if (!alloc)
      continue;
    MemRefType type = alloc.getType();
    Type elem = type.getElementType();
    switch (alloc.getScope()) {
    case tile::Scope::Shared: {
      tile::SharedBufferAttr placed = dialect->getSharedBufferAttrHelper().getAttr(alloc);
      if (!placed)
        return alloc.emitOpError("has no shared buffer plan (tile-plan-shared-memory writes one)");
      SharedBuffer sb;
      sb.shape.assign(type.getShape().begin(), type.getShape().end());
      sb.elementType = elem;
      sb.numel = type.getNumElements();
      sb.stages = placed.getStages();
      sb.swizzled = placed.getSwizzle() != 0;
      sb.swizzleBytes = placed.getSwizzle();
      sb.boxCols = placed.getBoxCols();
      sb.byteOffset = placed.getOffset();
      shared[alloc.getResult()] = sb;
      sharedOrder.push_back(alloc.getResult());
      break;
    }
    case tile::Scope::Fragment: {
      auto it = plan.fragments.find(alloc.getResult());
      if (it == plan.fragments.end())
        return alloc.emitOpError("has no fragment layout (tile-infer-layouts writes one)");
      Value regs = memref::AllocaOp::create(b, loc, MemRefType::get({it->second.numRegs}, elem), align16);
      fragments[alloc.getResult()] = Fragment{it->second, elem, regs};
      break;
    }
    case tile::Scope::Local:
      locals[alloc.getResult()] = memref::AllocaOp::create(b, loc, MemRefType::get(type.getShape(), elem), align16);
      break;
    case tile::Scope::Global:
      return alloc.emitOpError("cannot allocate global memory in a kernel");
    }
  }
  // Buffers that share bytes (tile-plan-shared-memory reuses them when the
  // window would not fit otherwise) conflict with each other.
  for (Value v : sharedOrder)
    for (Value o : sharedOrder) {
      const SharedBuffer &x = shared[v], &y = shared[o];
      int64_t xb = x.stages * x.numel * std::max(1u, x.elementType.getIntOrFloatBitWidth() / 8);
      int64_t yb = y.stages * y.numel * std::max(1u, y.elementType.getIntOrFloatBitWidth() / 8);
      if (v != o && x.byteOffset < y.byteOffset + yb && y.byteOffset < x.byteOffset + xb)
        sharedAliases[v].push_back(o);
    }
  if (window.getSize() == 0)
    return success();
  // The window: the dynamic shared memory, or from its first 1 KB boundary
  // (tensor copies with 128-byte swizzle need their tiles on one).
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(), wg);
  scratchBase = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  if (window.getAlignedWindow()) {
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, b.getIndexType(), scratchBase);
    Value pad = arith::AndIOp::create(
        b, loc, arith::SubIOp::create(b, loc, cIdx(1024), arith::AndIOp::create(b, loc, base, cIdx(1023))),
        cIdx(1023));
    scratchBase = memref::ViewOp::create(b, loc, bytesType, scratchBase, pad, ValueRange{cIdx(window.getSize())});
  }
  for (Value v : sharedOrder) {
    SharedBuffer &sb = shared[v];
    auto flatType = MemRefType::get({sb.stages * sb.numel}, sb.elementType, AffineMap(), wg);
    sb.flat = memref::ViewOp::create(b, loc, flatType, scratchBase, cIdx(sb.byteOffset), ValueRange{});
  }
  return success();
}

/// Remaps (bx, by) in panels for L2 locality (a bijection of the grid).
static std::pair<Value, Value> swizzleBlocks(KernelEmitter &e, Value bx, Value by, Value nx, Value ny,
                                             int64_t panel, bool rowOrder) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  if (!rowOrder) {
    auto [y, x] = swizzleBlocks(e, by, bx, ny, nx, panel, true);
    return {x, y};
  }
  Value lin = e.add(bx, arith::MulIOp::create(b, loc, by, nx));
  Value panelSize = e.mul(nx, panel);
  Value pidx = arith::DivUIOp::create(b, loc, lin, panelSize);
  Value poff = arith::RemUIOp::create(b, loc, lin, panelSize);
  Value rowsLeft = arith::SubIOp::create(b, loc, ny, e.mul(pidx, panel));
  Value rows = arith::MinUIOp::create(b, loc, rowsLeft, e.cIdx(panel));
  Value newBy = e.add(e.mul(pidx, panel), arith::RemUIOp::create(b, loc, poff, rows));
  Value newBx = arith::DivUIOp::create(b, loc, poff, rows);
  return {newBx, newBy};
}

LogicalResult KernelEmitter::run() {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  // Thread id, linearized.
  auto tids = launch.getThreads();
  Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tid = tx;
  if (tids.size() > 1 && tids[1] > 1)
    tid = add(tid, mul(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y), tids[0]));
  if (tids.size() > 2 && tids[2] > 1)
    tid = add(tid, mul(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z), tids[0] * tids[1]));
  entryAnchor = cIdx(0).getDefiningOp();
  // Kernel arguments and the ops before the launch.
  Block &kernelEntry = kernel.getBody().front();
  for (auto [src, dst] : llvm::zip(kernelEntry.getArguments(), entry.getArguments())) {
    map.map(src, dst);
    if (isa<MemRefType>(src.getType()))
      globals[src] = dst;
  }
  for (Operation &op : kernelEntry) {
    if (&op == launch.getOperation())
      break;
    b.clone(op, map);
  }
  // Block indices, optionally rasterized.
  gpu::Dimension dimsXYZ[3] = {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z};
  llvm::SmallVector<Value> blockIds;
  for (unsigned i = 0; i < launch.getBlockIndices().size(); ++i)
    blockIds.push_back(gpu::BlockIdOp::create(b, loc, dimsXYZ[i]));
  for (Operation &op : *launch.getBodyBlock())
    if (auto sw = dyn_cast<tile::UseSwizzleOp>(op); sw && blockIds.size() >= 2) {
      Value nx = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
      Value ny = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
      auto [x, y] = swizzleBlocks(*this, blockIds[0], blockIds[1], nx, ny, sw.getPanelSize(),
                                  sw.getOrder() != "col");
      blockIds[0] = x;
      blockIds[1] = y;
    }
  for (auto [src, dst] : llvm::zip(launch.getBlockIndices(), blockIds))
    map.map(src, dst);
  if (failed(createBuffers()))
    return failure();
  if (failed(emitBlock(*launch.getBodyBlock())))
    return failure();
  gpu::ReturnOp::create(b, loc);
  return success();
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>() && isa<tile::YieldOp>(op))
      continue;
    if (failed(emitOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult KernelEmitter::emitOp(Operation *op) {
  // Control flow and scans leave the scratch area's state unknown (a loop
  // body's first reduction meets the previous iteration's last one).
  bool resetsScratch = (op->getNumRegions() > 0 && !isa<tile::ParallelOp>(op)) || isa<tile::CumsumOp>(op);
  if (resetsScratch)
    scratchPendingHalf = -2;
  LogicalResult result = emitOpImpl(op);
  if (resetsScratch)
    scratchPendingHalf = -2;
  return result;
}

LogicalResult KernelEmitter::emitOpImpl(Operation *op) {
  loc = op->getLoc();
  if (isa<tile::AllocOp, tile::UseSwizzleOp, tile::AnnotateLayoutOp>(op))
    return success();
  if (auto t = dyn_cast<tile::ThreadIdOp>(op)) {
    gpu::Dimension d = t.getDim() == 0 ? gpu::Dimension::x : t.getDim() == 1 ? gpu::Dimension::y : gpu::Dimension::z;
    map.map(t.getResult(), gpu::ThreadIdOp::create(b, loc, d));
    return success();
  }
  if (auto c = dyn_cast<tile::CopyOp>(op))
    return emitCopy(c);
  if (auto f = dyn_cast<tile::FillOp>(op))
    return emitFill(f);
  if (auto g = dyn_cast<tile::GemmOp>(op))
    return emitGemm(g);
  if (auto r = dyn_cast<tile::ReduceOp>(op))
    return emitReduce(r);
  if (auto c = dyn_cast<tile::CumsumOp>(op))
    return emitCumsum(c);
  if (auto r = dyn_cast<tile::FinalizeReducerOp>(op))
    return emitFinalizeReducer(r);
  if (auto a = dyn_cast<tile::AtomicAddOp>(op))
    return emitAtomicAdd(a);
  if (isa<tile::PrintOp, tile::CallExternOp>(op))
    return emitThreadCall(op);
  if (auto p = dyn_cast<tile::ParallelOp>(op))
    return emitParallel(p);
  if (auto f = dyn_cast<tile::ForOp>(op)) {
    if (f.getKind() == tile::LoopKind::Pipelined && f.getNumStages().value_or(1) > 1)
      return emitPipelined(f);
    return emitFor(f);
  }
  if (auto w = dyn_cast<scf::WhileOp>(op))
    return emitWhile(w);
  if (auto l = dyn_cast<memref::LoadOp>(op))
    return emitLoad(l);
  if (auto s = dyn_cast<memref::StoreOp>(op))
    return emitStore(s);
  if (auto r = dyn_cast<memref::AtomicRMWOp>(op))
    return emitFetchAdd(r);
  if (op->getDialect() && op->getDialect()->getNamespace() == "tile")
    return op->emitOpError("is not supported by the GPU lowering yet");
  // A view of a fragment (T.reshape): its registers under the view's layout.
  if (auto view = dyn_cast<memref::ReinterpretCastOp>(op); view && fragments.count(view.getSource())) {
    auto it = plan.fragments.find(view.getResult());
    if (it == plan.fragments.end())
      return view.emitOpError("has no fragment layout (tile-infer-layouts writes one)");
    Fragment f = fragments[view.getSource()];
    f.layout = it->second;
    fragments[view.getResult()] = f;
    return success();
  }
  if (op->getNumRegions() == 0) {
    Operation *copy = b.clone(*op, map);
    // A view of a global tensor (T.Tensor(shape, dtype, buf.data)) is global memory too.
    if (auto view = dyn_cast<memref::ReinterpretCastOp>(op); view && globals.count(view.getSource())) {
      auto from = cast<MemRefType>(copy->getOperand(0).getType());
      auto to = cast<MemRefType>(view.getType());
      copy->getResult(0).setType(
          MemRefType::get(to.getShape(), to.getElementType(), to.getLayout(), from.getMemorySpace()));
      globals[view.getResult()] = copy->getResult(0);
    }
    return success();
  }
  // A condition that differs between threads: each thread takes its own branch (only per-thread
  // statements can be under it: the frontend rejects tile operations there); one range of warps
  // (rangeRegionThreads) keeps barriers among them.
  bool divergent = isDivergent(op);
  int64_t range = divergent && !divergentDepth && !rangeThreads ? rangeRegionThreads(op) : 0;
  if (range && (!pendingReads.empty() || !pendingWrites.empty()))
    barrier(); // what other threads did before must be complete
  if (range ? (rangeThreads = range, divergent = false) : divergent)
    enterDivergent();
  Operation *copy = b.cloneWithoutRegions(*op, map);
  // Each region starts from the accesses pending before the op, and they
  // stay pending after it unless one region surely runs (an scf.if with an
  // else block): a barrier inside a branch the block skips, or in a loop of
  // zero trips, orders nothing.
  AccessState before = saveAccessState();
  auto ifOp = dyn_cast<scf::IfOp>(op);
  AccessState after;
  if (!ifOp || ifOp.getElseRegion().empty())
    after = before;
  for (auto [src, dst] : llvm::zip(op->getRegions(), copy->getRegions())) {
    restoreAccessState(before);
    for (Block &blk : src) {
      Block *nb = new Block();
      dst.push_back(nb);
      for (BlockArgument arg : blk.getArguments())
        map.map(arg, nb->addArgument(arg.getType(), arg.getLoc()));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(nb);
      for (Operation &inner : blk)
        if (failed(emitOp(&inner)))
          return failure();
    }
    after.reads.insert(pendingReads.begin(), pendingReads.end());
    after.writes.insert(pendingWrites.begin(), pendingWrites.end());
  }
  if (op->getNumRegions())
    pendingReads = std::move(after.reads), pendingWrites = std::move(after.writes);
  if (divergent)
    exitDivergent();
  if (range)
    rangeThreads = 0;
  for (auto [r, nr] : llvm::zip(op->getResults(), copy->getResults()))
    map.map(r, nr);
  return success();
}
