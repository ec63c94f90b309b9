//===- AscendCEmitter.cpp - tile-level IR -> Ascend C kernel source -------===//
//
// Prints one Ascend C kernel per tile.kernel, reading the tile-level IR
// directly (no thread mapping: an AI Core's vector unit works on whole rows).
//
// 1. Every tile buffer (fragment, shared, local) becomes a LocalTensor in the
//    Unified Buffer through one TBuf each; the last dimension is padded to a
//    multiple of 32 elements so every row starts 32-byte aligned (the rule of
//    DataCopy and of the vector instructions). Scratch for vector bodies,
//    reductions and copy staging is one more TBuf.
// 2. The T.Kernel grid is walked by `for (block = GetBlockIdx(); block <
//    blocks; block += GetBlockNum())`, so any blockDim is correct.
// 3. tile.copy between global and UB: a row of whole 32-byte blocks inside
//    the tensor moves with DataCopy, a ragged or partly outside row with
//    DataCopyPad (exact bytes) and zero fill; float16 <-> float32 goes
//    through a staging buffer and Cast. Global memory is written only by
//    MTE3 (never by scalar SetValue: its data cache is not coherent across
//    cores).
// 4. tile.parallel: a body of float arithmetic and math over rows (loads and
//    stores indexed [.., j] with j the innermost index, or uniform in j)
//    becomes vector instructions on whole rows; any other body runs on the
//    scalar unit (GetValue/SetValue) if it has no math functions.
// 5. tile.reduce along the last dimension of a float buffer: ReduceSum /
//    ReduceMax / ReduceMin per row; other reductions run on the scalar unit.
// 6. Between tile statements `PipeBarrier<PIPE_ALL>()` orders the pipes
//    (MTE2, V, S, MTE3); inside a vector body `PipeBarrier<PIPE_V>()` follows
//    each instruction.
//
//===----------------------------------------------------------------------===//
#include "AscendEmitter.h"

#include "tilec/Dialect/Tile/IR/TileSIMT.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

using namespace tilec;
using namespace tilec::ascend;

LogicalResult KernelEmitter::emitOp(Operation *op) {
  if (isa<tile::CopyOp, tile::FillOp, tile::ReduceOp, tile::CumsumOp, tile::ParallelOp, tile::AtomicAddOp>(op))
    flushScalar();
  if (auto alloc = dyn_cast<tile::AllocOp>(op))
    return emitAlloc(alloc);
  if (auto copy = dyn_cast<tile::CopyOp>(op))
    return emitCopy(copy);
  if (auto fill = dyn_cast<tile::FillOp>(op))
    return emitFill(fill);
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return emitReduce(reduce);
  if (auto par = dyn_cast<tile::ParallelOp>(op))
    return emitParallel(par);
  if (isa<tile::WarpGroupOp>(op) && op->hasAttr(tile::kThreadRangeAttr))
    return error(op, "does not support tile operations under a condition on the thread index (tile-lang runs "
                     "them on the threads the condition leaves)");
  if (isa<tile::CallExternOp>(op)) {
    (void)tile::reportExternCalls(op, "ascend");
    return failure();
  }
  if (isa<tile::WarpGroupOp, tile::AllocBarrierOp>(op))
    return error(op, "does not support explicit warp specialization (T.ws regions, T.alloc_barrier mbarriers)");
  if (isa<tile::UseSwizzleOp, tile::AnnotateLayoutOp, tile::YieldOp>(op))
    return success(); // block order and shared layouts do not change results
  if (isa<tile::FinalizeReducerOp>(op))
    return success(); // one instruction stream updated the reducer's one copy
  if (auto tid = dyn_cast<tile::ThreadIdOp>(op)) {
    // An AI Core runs one instruction stream: thread 0, as on the host target.
    std::string n = fresh("v");
    names[tid.getResult()] = n;
    line("const int64_t " + n + " = 0;");
    return success();
  }
  if (auto loop = dyn_cast<tile::ForOp>(op)) {
    std::string iv = fresh("k");
    names[loop.getInductionVar()] = iv;
    line("for (int64_t " + iv + " = " + name(loop.getLowerBound()) + "; " + iv + " < " + name(loop.getUpperBound()) +
         "; " + iv + " += " + name(loop.getStep()) + ") {");
    ++indent;
    if (failed(emitBlock(*loop.getBodyBlock())))
      return failure();
    flushScalar();
    --indent;
    line("}");
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    // Results are variables the branches' yields assign.
    SmallVector<std::string> results;
    for (Value r : ifOp.getResults()) {
      std::string t = cxxType(r.getType());
      if (t.empty())
        return error(op, "does not support an 'if' yielding this type");
      std::string n = fresh("v");
      names[r] = n;
      results.push_back(n);
      line(t + " " + n + ";");
    }
    auto branch = [&](Block &block) -> LogicalResult {
      ++indent;
      if (failed(emitBlock(block)))
        return failure();
      if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
        for (auto [n, v] : llvm::zip(results, yield.getOperands()))
          line(n + " = " + name(v) + ";");
      flushScalar();
      --indent;
      return success();
    };
    line("if (" + name(ifOp.getCondition()) + ") {");
    if (failed(branch(ifOp.getThenRegion().front())))
      return failure();
    if (!ifOp.getElseRegion().empty()) {
      line("} else {");
      if (failed(branch(ifOp.getElseRegion().front())))
        return failure();
    }
    line("}");
    return success();
  }
  if (isa<scf::YieldOp>(op))
    return success();
  if (isa<tile::GemmOp>(op))
    return error(op, "does not lower T.gemm yet (it needs the Cube unit: L1/L0A/L0B/L0C buffers and Mmad)");
  if (auto atomic = dyn_cast<tile::AtomicAddOp>(op))
    return emitAtomicAdd(atomic);
  if (auto cumsum = dyn_cast<tile::CumsumOp>(op))
    return emitCumsum(cumsum);
  if (isa<tile::PrintOp>(op))
    return error(op, "does not lower T.print (an AI Core has no printf here)");
  if (isa<memref::LoadOp, memref::StoreOp>(op)) {
    scalarPending |= isa<memref::StoreOp>(op);
    return emitElementAccess(op);
  }
  if (op->getNumRegions() == 0 && op->getNumResults() == 1 &&
      isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return emitScalar(op);
  return error(op, "does not support '" + op->getName().getStringRef() + "'");
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

LogicalResult KernelEmitter::declareUnifiedBuffer(tile::LaunchOp launch, SmallVector<std::string> &decls) {
  int64_t ub = 0;
  auto declare = [&](const LocalBuf &b) {
    int64_t bytes = roundUp(b.elems * elementBytes(b.elt), 32);
    ub += bytes;
    decls.push_back("AscendC::TBuf<AscendC::TPosition::VECCALC> " + b.name + "_buf;");
    decls.push_back("pipe.InitBuffer(" + b.name + "_buf, " + std::to_string(bytes) + ");");
    decls.push_back("AscendC::LocalTensor<" + cxxType(b.elt) + "> " + b.name + " = " + b.name + "_buf.Get<" +
                    cxxType(b.elt) + ">();");
  };
  for (LocalBuf *b : localOrder)
    declare(*b);
  for (auto &s : stageBufs)
    declare(s.second);
  if (scratchBytes) {
    scratchBytes = roundUp(scratchBytes, 32);
    ub += scratchBytes;
    decls.push_back("AscendC::TBuf<AscendC::TPosition::VECCALC> scratch_buf;");
    decls.push_back("pipe.InitBuffer(scratch_buf, " + std::to_string(scratchBytes) + ");");
    for (auto &[type, view] : scratchViews)
      decls.push_back("AscendC::LocalTensor<" + type + "> " + view + " = scratch_buf.Get<" + type + ">();");
  }
  if (tanhBytes) {
    ub += tanhBytes;
    decls.push_back("AscendC::TBuf<AscendC::TPosition::VECCALC> tanh_buf;");
    decls.push_back("pipe.InitBuffer(tanh_buf, " + std::to_string(tanhBytes) + ");");
    decls.push_back("AscendC::LocalTensor<uint8_t> tanh_tmp = tanh_buf.Get<uint8_t>();");
  }
  out.unifiedBufferBytes = ub;
  if (ub > options.unifiedBufferBytes)
    return launch.emitError() << "kernel '" << out.signature.name << "' needs " << ub
                              << " bytes of Unified Buffer (its tile "
                              << "buffers, rows padded to 32 elements, plus staging and scratch), over the AI Core's "
                              << options.unifiedBufferBytes << "; use smaller tiles";
  return success();
}

LogicalResult KernelEmitter::run() {
  if (failed(getKernelSignature(kernel, out.signature)) ||
      failed(rejectDerivedDimensions(kernel->getParentOfType<ModuleOp>(), {out.signature}, "ascend")))
    return failure();
  const KernelSignature &sig = out.signature;
  Block &entry = kernel.getBody().front();
  if (entry.getNumArguments() != sig.args.size())
    return kernel.emitError("kernel arguments and signature disagree");

  // A kernel named `main` or like a C library function is rejected before
  // (lib/Driver/ExportNames.cpp).
  // C++ names of the parameters: a keyword or a name the emitter declares
  // itself gets a '_' suffix (the ABI is positional).
  llvm::StringMap<std::string> cName;
  llvm::StringSet<> used;
  for (const KernelArg &arg : sig.args) {
    std::string c = arg.name + (isReservedName(arg.name) ? "_" : "");
    while (used.contains(c) || used.contains(c + "_gm"))
      c += "_";
    used.insert(c);
    used.insert(c + "_gm");
    cName[arg.name] = c;
    out.cNames.push_back(c);
  }
  // Parameters, GlobalTensors.
  SmallVector<std::string> params, prologue;
  for (auto [i, arg] : llvm::enumerate(sig.args)) {
    Value v = entry.getArgument(i);
    if (arg.kind == KernelArg::Kind::Tensor) {
      auto type = cast<MemRefType>(v.getType());
      Type elt = type.getElementType();
      if (cxxType(elt).empty() || elt.isInteger(1) || arg.dtype == "int4" || arg.dtype == "uint4")
        return kernel.emitError() << "the ascend target does not support tensor '" << arg.name << "' of dtype "
                                  << arg.dtype << " (use float16, float32, int8/uint8, int16, int32 or int64)";
      if (elt.isBF16() || isa<Float8E4M3FNType, Float8E5M2Type>(elt))
        return kernel.emitError() << "the ascend target does not support " << arg.dtype << " tensors yet";
      GlobalBuf g;
      std::string c = cName[arg.name];
      g.name = c + "_gm";
      g.elt = elt;
      for (const std::string &d : arg.shape)
        g.dims.push_back(cName.count(d) ? cName[d] : d);
      globals[v] = g;
      names[v] = g.name;
      params.push_back("GM_ADDR " + c);
      std::string size = g.dims.empty() ? "1" : llvm::join(g.dims, " * ");
      prologue.push_back("AscendC::GlobalTensor<" + cxxType(elt) + "> " + g.name + ";");
      prologue.push_back(g.name + ".SetGlobalBuffer(reinterpret_cast<__gm__ " + cxxType(elt) + " *>(" + c +
                         "), static_cast<uint64_t>(" + size + "));");
    } else {
      std::string t = arg.kind == KernelArg::Kind::DynamicDim ? "int64_t" : cxxType(v.getType());
      if (t.empty())
        return kernel.emitError() << "the ascend target does not support scalar '" << arg.name << "' of dtype "
                                  << arg.dtype;
      params.push_back(t + " " + cName[arg.name]);
      names[v] = cName[arg.name];
    }
  }

  // The body: scalars before the launch, then the block loop.
  tile::LaunchOp launch;
  for (Operation &op : entry) {
    if (auto l = dyn_cast<tile::LaunchOp>(op)) {
      if (launch)
        return l.emitError("the ascend target supports one T.Kernel per kernel");
      launch = l;
      continue;
    }
    if (isa<tile::ReturnOp>(op))
      continue;
    if (failed(emitOp(&op)))
      return failure();
  }
  if (!launch)
    return kernel.emitError("the ascend target needs a T.Kernel launch in the kernel");
  // The grid as C expressions of the dynamic dims, for the header.
  std::function<std::string(Value)> hostExpr = [&](Value v) -> std::string {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return names.lookup(v);
    auto e = scalarExpr(v.getDefiningOp(), hostExpr, "tilec_ascend_h_", /*cStyle=*/true);
    return e ? *e : "0";
  };
  std::string blocks;
  for (Value g : launch.getGrid()) {
    out.gridExprs.push_back(hostExpr(g));
    blocks += (blocks.empty() ? "" : " * ") + name(g);
  }
  line("const int64_t blocks = " + blocks + ";");
  line("for (int64_t block = AscendC::GetBlockIdx(); block < blocks; block += AscendC::GetBlockNum()) {");
  ++indent;
  std::string divisor;
  static const char *axis[] = {"bx", "by", "bz"};
  for (auto [k, idx] : llvm::enumerate(launch.getBlockIndices())) {
    std::string n = std::string(axis[k]);
    std::string expr = divisor.empty() ? "block" : "block / (" + divisor + ")";
    line("const int64_t " + n + " = " + expr + " % " + name(launch.getGrid()[k]) + ";");
    line("(void)" + n + ";");
    names[idx] = n;
    divisor += (divisor.empty() ? "" : " * ") + name(launch.getGrid()[k]);
  }
  if (failed(emitBlock(*launch.getBodyBlock())))
    return failure();
  flushScalar();
  --indent;
  line("}");

  // UB budget: every buffer, staging buffer and the scratch.
  SmallVector<std::string> decls;
  if (failed(declareUnifiedBuffer(launch, decls)))
    return failure();

  std::string text;
  llvm::raw_string_ostream ts(text);
  ts << "extern \"C\" __global__ __aicore__ void " << sig.name << "(" << llvm::join(params, ", ") << ")\n{\n";
  for (const std::string &p : prologue)
    ts << "  " << p << "\n";
  ts << "  AscendC::TPipe pipe;\n";
  for (const std::string &d : decls)
    ts << "  " << d << "\n";
  ts << body << "}\n";
  out.source = std::move(text);
  return success();
}

LogicalResult tilec::emitAscendC(ModuleOp module, const AscendTargetOptions &options,
                                 std::vector<AscendKernel> &kernels) {
  for (auto kernel : module.getOps<tile::KernelOp>())
    if (kernel.isLaunchSequence())
      return tile::rejectLaunchSequence(kernel, "ascend");
  for (auto kernel : module.getOps<tile::KernelOp>()) {
    AscendKernel k;
    KernelEmitter emitter(kernel, options, k);
    if (failed(emitter.run()))
      return failure();
    kernels.push_back(std::move(k));
  }
  return success();
}
