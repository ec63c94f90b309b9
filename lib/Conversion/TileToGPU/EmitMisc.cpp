//===- EmitMisc.cpp - cumsum, atomic_add, print, serial loops -------------===//
//
// Scans run one thread per line of the scanned dimension (fragments through a
// row-major copy in the scratch area of shared memory); atomics and prints
// happen once per element (the first replica), or per thread for scalars.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::gpu_lowering;

static tile::Scope scopeOf(Value v) { return *tile::getBufferScope(cast<MemRefType>(v.getType())); }

/// Delinearizes `lin` over `shape` (row-major).
static llvm::SmallVector<Value> delinearize(KernelEmitter &e, Value lin, ArrayRef<int64_t> shape) {
  llvm::SmallVector<Value> idx(shape.size());
  for (int d = shape.size() - 1; d >= 0; --d) {
    idx[d] = arith::RemUIOp::create(e.b, e.loc, lin, e.cIdx(shape[d]));
    lin = arith::DivUIOp::create(e.b, e.loc, lin, e.cIdx(shape[d]));
  }
  return idx;
}

LogicalResult KernelEmitter::emitCumsum(tile::CumsumOp op) {
  Value src = op.getSrc(), dst = op.getDst();
  tile::Scope ss = scopeOf(src), ds = scopeOf(dst);
  if (ss == tile::Scope::Global || ds == tile::Scope::Global)
    return op.emitOpError("scans only shared, fragment and local buffers on the GPU; copy the global tensor "
                          "to or from shared memory or a fragment");
  bool local = ss == tile::Scope::Local && ds == tile::Scope::Local;
  if (!local && (ss == tile::Scope::Local || ds == tile::Scope::Local))
    return op.emitOpError("scans between a local buffer and a shared or fragment one; the GPU lowering scans "
                          "local into local, or between shared buffers and fragments");
  auto shape = llvm::to_vector(cast<MemRefType>(src.getType()).getShape());
  int64_t dim = op.getDim(), ext = shape[dim];
  llvm::SmallVector<int64_t> lineShape(shape);
  lineShape[dim] = 1;
  int64_t lines = 1, numel = 1;
  for (int64_t s : lineShape)
    lines *= s;
  for (int64_t s : shape)
    numel *= s;
  Type et = cast<MemRefType>(dst.getType()).getElementType();
  // Fragments go through a row-major copy in the scratch area of shared memory.
  Value scratch;
  auto linear = [&](ArrayRef<Value> idx) {
    Value lin = cIdx(0);
    for (unsigned d = 0; d < idx.size(); ++d)
      lin = add(mul(lin, shape[d]), idx[d]);
    return lin;
  };
  if (ss == tile::Scope::Fragment || ds == tile::Scope::Fragment) {
    auto wg = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
    scratch = memref::ViewOp::create(b, loc, MemRefType::get({numel}, et, AffineMap(), wg), scratchBase,
                                     cIdx(window.getScratchOffset()), ValueRange{});
    gpu::BarrierOp::create(b, loc);
  }
  if (ss == tile::Scope::Fragment) {
    Fragment &f = fragments[src];
    OpBuilder::InsertionGuard guard(b);
    beginIf(isFirstReplica(f.layout));
    for (int64_t r = 0; r < f.layout.numRegs; ++r) {
      Value v = convert(memref::LoadOp::create(b, loc, f.regs, ValueRange{cIdx(r)}), et);
      memref::StoreOp::create(b, loc, v, scratch, ValueRange{linear(layoutIndex(*this, f.layout, r))});
    }
  }
  if (scratch)
    gpu::BarrierOp::create(b, loc);
  auto access = [&](Value buf, tile::Scope scope, llvm::SmallVector<Value> idx, Value store) -> Value {
    Value mem;
    llvm::SmallVector<Value> at = idx;
    if (scope == tile::Scope::Local) {
      mem = locals.lookup(buf);
    } else if (scope == tile::Scope::Shared) {
      mem = shared[buf].flat;
      at = {sharedIndex(buf, idx)};
    } else {
      mem = scratch;
      at = {linear(idx)};
    }
    if (store)
      return memref::StoreOp::create(b, loc, store, mem, at), Value();
    return memref::LoadOp::create(b, loc, mem, at);
  };
  llvm::SmallVector<Value> reads, writes;
  if (ss == tile::Scope::Shared)
    reads.push_back(src);
  if (ds == tile::Scope::Shared)
    writes.push_back(dst);
  noteAccess(reads, writes);
  // Lines: thread t scans lines t, t + T, ... (every thread all lines if local).
  Value start = local ? cIdx(0) : tid;
  auto lineLoop = scf::ForOp::create(b, loc, start, cIdx(lines), cIdx(local ? 1 : numThreads));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(lineLoop.getBody()->getTerminator());
    llvm::SmallVector<Value> base = delinearize(*this, lineLoop.getInductionVar(), lineShape);
    auto scan = loopWithIterArgs(cIdx(0), cIdx(ext), cIdx(1), ValueRange{zeroOf(et)});
    b.setInsertionPoint(scan.getBody()->getTerminator());
    Value k = scan.getInductionVar();
    if (op.getReverse())
      k = arith::SubIOp::create(b, loc, cIdx(ext - 1), k);
    llvm::SmallVector<Value> idx(base);
    idx[dim] = k;
    Value v = convert(access(src, ss, idx, Value()), et);
    Value sum = isa<FloatType>(et) ? (Value)arith::AddFOp::create(b, loc, scan.getRegionIterArgs()[0], v)
                                   : (Value)arith::AddIOp::create(b, loc, scan.getRegionIterArgs()[0], v);
    access(dst, ds, idx, sum);
    scan.getBody()->getTerminator()->setOperands(ValueRange{sum});
  }
  if (ds == tile::Scope::Fragment) {
    gpu::BarrierOp::create(b, loc);
    Fragment &f = fragments[dst];
    for (int64_t r = 0; r < f.layout.numRegs; ++r) {
      Value v = memref::LoadOp::create(b, loc, scratch, ValueRange{linear(layoutIndex(*this, f.layout, r))});
      memref::StoreOp::create(b, loc, v, f.regs, ValueRange{cIdx(r)});
    }
  }
  return success();
}

/// Threads of one range exchanging through shared memory in per-thread code.
int64_t KernelEmitter::rangeRegionThreads(Operation *op) {
  auto i = dyn_cast<scf::IfOp>(op);
  if (!i || !i.getElseRegion().empty() || !target.hasRangeBarrier() || numThreads != launch.getThreads()[0])
    return 0;
  auto cmp = i.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return 0;
  auto strip = [](Value v) {
    while (Operation *d = v.getDefiningOp())
      if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(d))
        v = d->getOperand(0);
      else
        break;
    return v;
  };
  Value lhs = strip(cmp.getLhs()), rhs = strip(cmp.getRhs());
  arith::CmpIPredicate pred = cmp.getPredicate();
  std::optional<int64_t> c = getConstantIntValue(rhs);
  if (!c) { // `n > tx`: the mirrored compare
    std::swap(lhs, rhs);
    c = getConstantIntValue(rhs);
    using P = arith::CmpIPredicate;
    static const std::pair<P, P> mirrored[] = {{P::slt, P::sgt}, {P::sle, P::sge}, {P::ult, P::ugt}, {P::ule, P::uge},
                                               {P::sgt, P::slt}, {P::sge, P::sle}, {P::ugt, P::ult}, {P::uge, P::ule}};
    for (auto [from, to] : mirrored)
      if (pred == from) {
        pred = to;
        break;
      }
  }
  auto tid = lhs.getDefiningOp<tile::ThreadIdOp>();
  if (!c || !tid || tid.getDim() != 0)
    return 0;
  using P = arith::CmpIPredicate;
  int64_t lo = 0, hi = numThreads;
  if (pred == P::slt || pred == P::ult)
    hi = *c;
  else if (pred == P::sle || pred == P::ule)
    hi = *c + 1;
  else if (pred == P::sgt || pred == P::ugt)
    lo = *c + 1;
  else if (pred == P::sge || pred == P::uge)
    lo = *c;
  else
    return 0;
  int64_t warp = target.getWarpSize();
  if (lo < 0 || hi > numThreads || lo >= hi || lo % warp || hi % warp || hi - lo == numThreads)
    return 0;
  return hi - lo;
}

LogicalResult KernelEmitter::emitFetchAdd(memref::AtomicRMWOp op) {
  Value buf = op.getMemref();
  auto scope = tile::getBufferScope(op.getMemRefType());
  if (par || !scope || (*scope != tile::Scope::Global && *scope != tile::Scope::Shared))
    return op.emitOpError("(T.atomic_add with return_prev=True) is supported on the GPU only outside T.Parallel, "
                          "into global or shared memory");
  llvm::SmallVector<Value> idx;
  for (Value i : op.getIndices())
    idx.push_back(map.lookup(i));
  noteAccess({buf}, {buf});
  Value mem = globals.lookup(buf);
  if (*scope == tile::Scope::Shared) {
    mem = shared[buf].flat;
    idx = {sharedIndex(buf, idx)};
  }
  Value old = memref::AtomicRMWOp::create(b, loc, op.getKind(), map.lookup(op.getValue()), mem, idx);
  map.map(op.getResult(), old);
  return success();
}

LogicalResult KernelEmitter::emitAtomicAdd(tile::AtomicAddOp op) {
  Value dst = op.getDst();
  tile::Scope ds = scopeOf(dst);
  Value mem = ds == tile::Scope::Global ? globals.lookup(dst) : shared[dst].flat;
  llvm::SmallVector<Value> base;
  for (Value i : op.getIndices())
    base.push_back(map.lookup(i));
  Type et = cast<MemRefType>(dst.getType()).getElementType();
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float4E2M1FNType>(et) ||
      (et.isInteger() && et.getIntOrFloatBitWidth() > 1 && et.getIntOrFloatBitWidth() < 8))
    return op.emitOpError("adds atomically into ")
           << et << " elements; the GPU lowering has atomic adds only for 8-bit and wider integers and 16-bit "
           << "and wider floats";
  auto rmw = [&](Value v, llvm::SmallVector<Value> idx) {
    v = convert(v, et);
    llvm::SmallVector<Value> at = idx;
    if (ds == tile::Scope::Shared)
      at = {sharedIndex(dst, idx)};
    OpBuilder::InsertionGuard guard(b);
    if (ds == tile::Scope::Global)
      beginIf(inBounds(mem, idx));
    memref::AtomicRMWOp::create(b, loc, isa<FloatType>(et) ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi,
                                v, mem, at);
  };
  if (!par)
    noteAccess({}, {dst});
  if (!op.isRegionForm()) {
    // Outside T.Parallel every thread adds (spec §6).
    OpBuilder::InsertionGuard guard(b);
    if (par)
      beginIf(isFirstReplica(*par->driver));
    rmw(map.lookup(op.getValue()), base);
    return success();
  }
  Value val = op.getValue();
  tile::Scope vs = scopeOf(val);
  if (vs == tile::Scope::Shared || vs == tile::Scope::Local) {
    // Each element once, spread over the threads, from shared memory; every
    // thread adds its own local buffer whole.
    auto vtype = cast<MemRefType>(val.getType());
    if (vs == tile::Scope::Shared)
      noteAccess({val}, {});
    FragmentLayout l = FragmentLayout::canonical(vtype.getShape(), vs == tile::Scope::Shared ? numThreads : 1, 1);
    l.numThreads = numThreads;
    Value owner = vs == tile::Scope::Shared ? isFirstReplica(l) : Value();
    auto loop = scf::ForOp::create(b, loc, cIdx(0), cIdx(l.numRegs), cIdx(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    llvm::SmallVector<Value> vidx = layoutIndexDyn(*this, l, loop.getInductionVar());
    if (owner)
      beginIf(owner);
    Value v = vs == tile::Scope::Shared
                  ? (Value)memref::LoadOp::create(b, loc, shared[val].flat, ValueRange{sharedIndex(val, vidx)})
                  : (Value)memref::LoadOp::create(b, loc, locals.lookup(val), vidx);
    int64_t lead = base.size() - vidx.size();
    llvm::SmallVector<Value> idx(base);
    for (unsigned d = 0; d < vidx.size(); ++d)
      idx[lead + d] = add(base[lead + d], vidx[d]);
    rmw(v, idx);
    return success();
  }
  if (vs != tile::Scope::Fragment)
    return op.emitOpError("adds a region from a global tensor; copy it to shared memory or a fragment first");
  Fragment &f = fragments[val];
  int64_t lead = base.size() - f.layout.shape.size();
  OpBuilder::InsertionGuard guard(b);
  beginIf(isFirstReplica(f.layout));
  for (int64_t r = 0; r < f.layout.numRegs; ++r) {
    llvm::SmallVector<int64_t> ri = f.layout.regIndex(r);
    llvm::SmallVector<Value> idx(base);
    for (unsigned d = 0; d < ri.size(); ++d)
      idx[lead + d] = add(base[lead + d], addc(threadPart(f.layout, d), ri[d]));
    rmw(memref::LoadOp::create(b, loc, f.regs, ValueRange{cIdx(r)}), idx);
  }
  return success();
}

/// printf one value with a prefix naming the block, thread and element;
/// an unsigned integer (`isUnsigned`) is zero-extended.
static void printOne(KernelEmitter &e, StringRef msg, Value v, ArrayRef<Value> idx, bool isUnsigned) {
  OpBuilder &b = e.b;
  std::string fmt = msg.str() + (msg.empty() ? "" : " ") + "block (%lld, %lld, %lld) thread %lld";
  llvm::SmallVector<Value> args;
  for (gpu::Dimension d : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    args.push_back(arith::IndexCastOp::create(b, e.loc, b.getI64Type(), gpu::BlockIdOp::create(b, e.loc, d)));
  args.push_back(arith::IndexCastOp::create(b, e.loc, b.getI64Type(), e.tid));
  if (!idx.empty()) {
    fmt += " [";
    for (unsigned i = 0; i < idx.size(); ++i) {
      fmt += i ? ", %lld" : "%lld";
      args.push_back(arith::IndexCastOp::create(b, e.loc, b.getI64Type(), idx[i]));
    }
    fmt += "]";
  }
  Type t = v.getType();
  if (isa<FloatType>(t)) {
    fmt += ": %f\n";
    args.push_back(e.convert(v, b.getF64Type()));
  } else if (t.isIndex()) {
    fmt += ": %lld\n";
    args.push_back(arith::IndexCastOp::create(b, e.loc, b.getI64Type(), v));
  } else {
    fmt += ": %lld\n";
    args.push_back(t.getIntOrFloatBitWidth() == 1 ? (Value)arith::ExtUIOp::create(b, e.loc, b.getI64Type(), v)
                                                  : e.convert(v, b.getI64Type(), isUnsigned));
  }
  gpu::PrintfOp::create(b, e.loc, b.getStringAttr(fmt), args);
}

LogicalResult KernelEmitter::emitPrint(tile::PrintOp op) {
  Value v = op.getValue();
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type) {
    // A scalar read from a buffer of unsigned elements (T.print(u[0])) is unsigned.
    auto load = v.getDefiningOp<memref::LoadOp>();
    printOne(*this, op.getMsg(), map.lookup(v), {}, load && isUnsignedBuffer(load.getMemref()));
    return success();
  }
  bool isUnsigned = isUnsignedBuffer(v);
  tile::Scope s = scopeOf(v);
  if (s == tile::Scope::Fragment) {
    Fragment &f = fragments[v];
    for (int64_t r = 0; r < f.layout.numRegs; ++r) {
      llvm::SmallVector<int64_t> ri = f.layout.regIndex(r);
      llvm::SmallVector<Value> idx;
      for (unsigned d = 0; d < ri.size(); ++d)
        idx.push_back(addc(threadPart(f.layout, d), ri[d]));
      printOne(*this, op.getMsg(), memref::LoadOp::create(b, loc, f.regs, ValueRange{cIdx(r)}), idx, isUnsigned);
    }
    return success();
  }
  if (s == tile::Scope::Global)
    return op.emitOpError("prints a global tensor; copy a tile of it first");
  if (s == tile::Scope::Shared)
    noteAccess({v}, {});
  OpBuilder::InsertionGuard guard(b);
  if (s == tile::Scope::Shared)
    beginIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cIdx(0)));
  auto loop = scf::ForOp::create(b, loc, cIdx(0), cIdx(type.getNumElements()), cIdx(1));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  llvm::SmallVector<Value> idx = delinearize(*this, loop.getInductionVar(), type.getShape());
  Value x = s == tile::Scope::Shared
                ? (Value)memref::LoadOp::create(b, loc, shared[v].flat, ValueRange{sharedIndex(v, idx)})
                : (Value)memref::LoadOp::create(b, loc, locals.lookup(v), idx);
  printOne(*this, op.getMsg(), x, idx, isUnsigned);
  return success();
}

/// A kernel-level `while`: the condition region, then the body, as one
/// scf.while. A condition that differs between threads makes each thread run
/// its own trips (per-thread statements only: TileSIMT rejects tile ops
/// there); a uniform one orders the accesses the body leaves pending against
/// the next trip with a barrier at the end of the body, as emitFor does.
LogicalResult KernelEmitter::emitWhile(scf::WhileOp op) {
  bool divergent = plan.threadVariant.contains(op.getConditionOp().getCondition());
  if (divergent)
    enterDivergent();
  AccessState before = saveAccessState();
  auto loop = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  llvm::DenseSet<Value> bodyWrites;
  for (auto [src, dst] : llvm::zip(op->getRegions(), loop->getRegions())) {
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&dst);
    if (failed(emitBlock(src.front())))
      return failure();
  }
  if (divergent)
    exitDivergent();
  if (divergentDepth == 0) {
    for (Value w : buffersWritten(op))
      bodyWrites.insert(w);
    bool needed = !pendingWrites.empty();
    for (Value r : pendingReads)
      needed |= bodyWrites.count(r) > 0;
    if (needed) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getAfter().front().getTerminator());
      barrier();
    }
  }
  // The loop may run no trip: what was pending before it stays pending.
  pendingReads.insert(before.reads.begin(), before.reads.end());
  pendingWrites.insert(before.writes.begin(), before.writes.end());
  return success();
}

LogicalResult KernelEmitter::emitThreadCall(Operation *op) {
  if (auto p = dyn_cast<tile::PrintOp>(op))
    return emitPrint(p);
  return emitCallExtern(cast<tile::CallExternOp>(op));
}

/// T.call_extern: the target calls the extern with pointers to the elements
/// (a local buffer's alloca, a shared buffer's place in the window, a global
/// tensor) and the scalars; a thread's call reads and writes the shared and
/// global buffers it points into, as a per-thread load and store would.
LogicalResult KernelEmitter::emitCallExtern(tile::CallExternOp op) {
  if (!target.hasExternCalls())
    return op.emitOpError("is not available on this target"); // tile-lower-warp-groups reports it first
  llvm::SmallVector<tile::CallExternOp::ExternArg> externArgs = op.getExternArgs();
  llvm::SmallVector<ExternCallArg> args;
  llvm::SmallVector<Value> touched;
  for (tile::CallExternOp::ExternArg &a : externArgs) {
    ExternCallArg out;
    if (!a.buffer) {
      out.value = map.lookup(a.value);
      args.push_back(out);
      continue;
    }
    for (Value i : a.indices)
      out.indices.push_back(map.lookup(i));
    auto scope = tile::getBufferScope(cast<MemRefType>(a.buffer.getType()));
    if (scope == tile::Scope::Local) {
      out.buffer = locals.lookup(a.buffer);
    } else if (scope == tile::Scope::Shared) {
      const SharedBuffer &sb = shared[a.buffer];
      if (sb.swizzled)
        return op.emitOpError() << "T.call_extern of '" << op.getCallee()
                                << "' takes a pointer into a shared buffer that tilec stores swizzled (a T.gemm or "
                                   "tensor copy operand); copy the elements into a buffer of their own first";
      out.indices = {sharedIndex(a.buffer, out.indices)};
      out.buffer = sb.flat;
      touched.push_back(a.buffer);
    } else if (scope == tile::Scope::Global) {
      out.buffer = globals.lookup(a.buffer);
      touched.push_back(a.buffer);
    } else {
      return op.emitOpError() << "T.call_extern of '" << op.getCallee() << "' takes a pointer into a fragment";
    }
    if (!out.buffer)
      return op.emitOpError("has a pointer argument the GPU lowering cannot place");
    args.push_back(std::move(out));
  }
  if (!par && !touched.empty())
    noteAccess(touched, touched);
  FailureOr<Value> result = target.emitExternCall(b, op, args);
  if (failed(result))
    return failure();
  if (op.getResult())
    map.map(op.getResult(), *result);
  return success();
}
