//===- TileGenCollectives.cpp - Explicit barriers and T.im2col ------------===//
//
// T.sync_threads / T.sync_warp: tile-lang's explicit barriers. tilec places
// the block's barriers itself wherever a thread reads shared memory another
// thread may have written since the last one (spec §6: tile operations
// complete before the next statement; per-thread stretches are cut at such
// reads on every target), so an explicit barrier orders nothing more; its
// arguments are checked and it is dropped (docs/differences.md).
//
// T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad): the
// im2col gather of a 2-D convolution, as a T.Parallel over col's last two
// dimensions (tile-lang's SIMT lowering of the same operation):
//   m = nhw_step * block_m + i,  k = c_step * block_k + j,
//   col[i, j] = img[m / (OH*OW), (m % (OH*OW)) / OW * stride + k / (kernel*C) * dilation - pad,
//                   m % OW * stride + (k / C) % kernel * dilation - pad, k % C]
// with 0 where the image index falls outside img (padding, and rows past
// the last output pixel).
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;

void KernelGen::genSyncStmt(const BoundCall &call) {
  for (const BuiltinParam &p : call.info->params) {
    const Expr *e = call.get(p.name);
    if (!e)
      continue;
    TValue v = eval(e);
    if (!v.isValid())
      return;
    if (v.isBuffer() || (v.isScalar() && !isIntegerDType(v.dtype)) || (v.isConst() && !v.cst.isInt())) {
      diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), p.name, call.info->name, "an integer", v.describe());
      return;
    }
  }
}

void KernelGen::genIm2Col(const BoundCall &call) {
  argFailed = false;
  std::optional<int64_t> kernel = constIntArg(call, "kernel"), stride = constIntArg(call, "stride");
  std::optional<int64_t> dilation = constIntArg(call, "dilation"), pad = constIntArg(call, "pad");
  if (argFailed || !kernel || !stride || !dilation || !pad)
    return;
  for (auto [name, v, min] : {std::tuple{"kernel", *kernel, 1}, std::tuple{"stride", *stride, 1},
                              std::tuple{"dilation", *dilation, 1}, std::tuple{"pad", *pad, 0}})
    if (v < min) {
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf(name), name, call.info->name,
                 min ? "a positive integer" : "a non-negative integer", std::to_string(v));
      return;
    }
  if (const Expr *e = call.get("eviction_policy")) {
    std::optional<std::string> p = constStrArg(call, "eviction_policy");
    if (!p)
      return;
    if (*p != "evict_normal" && *p != "evict_first" && *p != "evict_last") {
      diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), "eviction_policy", call.info->name,
                 "\"evict_normal\", \"evict_first\" or \"evict_last\"", "\"" + *p + "\"");
      return;
    }
  }
  BufferInfo *img = bufferArg(call, "img");
  if (!img || !checkScope(img, {tile::Scope::Global}, "T.im2col's image", call.rangeOf("img")))
    return;
  if (img->rank() != 4 || img->layout) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("img"), "img", call.info->name,
               "a 4-D (N, H, W, C) tensor without a T.Layout", "'" + img->name + "' " + img->shapeStr());
    return;
  }
  Region col;
  if (!evalRegion(call.get("col"), col))
    return;
  if (!checkScope(col.buffer, {tile::Scope::Shared, tile::Scope::Fragment, tile::Scope::Local},
                  "T.im2col's column tile", call.rangeOf("col")))
    return;
  if (!col.sizes || col.buffer->rank() < 2) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("col"), "col", call.info->name,
               "a buffer or slice of rank >= 2 (its last two extents are the tile's rows and columns)",
               "'" + col.buffer->name + "' " + col.buffer->shapeStr());
    return;
  }
  TValue nhw = eval(call.get("nhw_step")), cstep = eval(call.get("c_step"));
  if (!nhw.isValid() || !cstep.isValid())
    return;
  llvm::SMRange range = call.call->getRange();
  mlir::Value nhwIdx = toIndex(nhw, call.rangeOf("nhw_step")), cIdx = toIndex(cstep, call.rangeOf("c_step"));
  if (!nhwIdx || !cIdx)
    return;
  mlir::Location l = loc(range);
  auto c = [&](int64_t v) { return indexConst(v, range); };
  auto dim = [&](unsigned d) -> mlir::Value {
    if (mlir::ShapedType::isDynamic(img->shape[d]))
      return mlir::memref::DimOp::create(b, l, img->value, d);
    return c(img->shape[d]);
  };
  auto add = [&](mlir::Value x, mlir::Value y) { return arith::AddIOp::create(b, l, x, y).getResult(); };
  auto sub = [&](mlir::Value x, mlir::Value y) { return arith::SubIOp::create(b, l, x, y).getResult(); };
  auto mul = [&](mlir::Value x, mlir::Value y) { return arith::MulIOp::create(b, l, x, y).getResult(); };
  auto div = [&](mlir::Value x, mlir::Value y) { return arith::DivUIOp::create(b, l, x, y).getResult(); };
  auto rem = [&](mlir::Value x, mlir::Value y) { return arith::RemUIOp::create(b, l, x, y).getResult(); };
  // Output extents: (H + 2 pad - (kernel - 1) dilation - 1) / stride + 1,
  // computed in signed arithmetic (an image smaller than the kernel gives
  // no output pixel).
  auto outDim = [&](mlir::Value size) {
    mlir::Value num = add(size, c(2 * *pad - (*kernel - 1) * *dilation - 1));
    return add(arith::FloorDivSIOp::create(b, l, num, c(*stride)).getResult(), c(1));
  };
  mlir::Value h = dim(1), w = dim(2), ch = dim(3);
  mlir::Value outH = outDim(h), outW = outDim(w);
  mlir::Value outHW = mul(outH, outW);
  unsigned rank = col.buffer->rank();
  int64_t blockM = (*col.sizes)[rank - 2], blockK = (*col.sizes)[rank - 1];
  auto par = tile::ParallelOp::create(b, l, llvm::ArrayRef<int64_t>{blockM, blockK});
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(par.getBodyBlock()->getTerminator());
  mlir::Value i = par.getInductionVars()[0], j = par.getInductionVars()[1];
  mlir::Value m = add(mul(nhwIdx, c(blockM)), i), k = add(mul(cIdx, c(blockK)), j);
  mlir::Value ih = add(mul(div(rem(m, outHW), outW), c(*stride)), mul(div(k, mul(c(*kernel), ch)), c(*dilation)));
  mlir::Value iw = add(mul(rem(m, outW), c(*stride)), mul(rem(div(k, ch), c(*kernel)), c(*dilation)));
  // A negative index wraps to a huge unsigned one, which inBounds rejects.
  llvm::SmallVector<mlir::Value, 4> si = {div(m, outHW), sub(ih, c(*pad)), sub(iw, c(*pad)), rem(k, ch)};
  mlir::Value ok = inBounds(img, si, range);
  for (mlir::Value &x : si)
    x = arith::SelectOp::create(b, l, ok, x, c(0));
  mlir::Value x = mlir::memref::LoadOp::create(b, l, img->value, si);
  auto zero = arith::ConstantOp::create(b, l, llvm::cast<mlir::TypedAttr>(b.getZeroAttr(x.getType())));
  TValue v = TValue::ofScalar(arith::SelectOp::create(b, l, ok, x, zero), img->dtype);
  v = convert(v, col.buffer->dtype, range);
  if (!v.isValid())
    return;
  // The loop index alone where the offset is 0, so that layout inference
  // sees a fragment accessed at the loop's indices.
  llvm::SmallVector<mlir::Value, 4> di(col.offsets.begin(), col.offsets.end());
  auto offsetBy = [&](mlir::Value off, mlir::Value iv) {
    auto cst = off.getDefiningOp<arith::ConstantIndexOp>();
    return cst && cst.value() == 0 ? iv : add(off, iv);
  };
  di[rank - 2] = offsetBy(di[rank - 2], i);
  di[rank - 1] = offsetBy(di[rank - 1], j);
  mlir::memref::StoreOp::create(b, l, v.value, col.buffer->value, di);
}

//===----------------------------------------------------------------------===//
// The thread all-reduce: `with T.attr(T.comm_reducer(f, [identity]),
// "reduce_scope", ...): T.evaluate(T.tvm_thread_allreduce(1, value, True,
// out[i], t...))`. Every thread stores its value into a shared slot of its
// own; then each folds, with f from the identity, the slots of the threads
// that differ from it only along the reduced thread indices t, in order,
// and writes the result into out[i]. The shared read after the other
// threads' stores is where tilec places the block's barrier.
//===----------------------------------------------------------------------===//

static const CallExpr *callNamed(const Expr *e, llvm::StringRef name) {
  auto *call = llvm::dyn_cast_or_null<CallExpr>(e);
  return call && calleeName(call->getCallee()) == name ? call : nullptr;
}

void KernelGen::genAllReduce(const CallExpr *attr, const WithStmt *s) {
  auto fail = [&](llvm::SMRange r, llvm::StringRef why) { diags.emit(DiagID::sema_allreduce_form, r, why); };
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, attr->getCallee()->getRange(), "T.attr");
    return;
  }
  const CallExpr *reducer = attr->getArgs().size() == 3 ? callNamed(attr->getArgs()[0], "T.comm_reducer") : nullptr;
  if (!reducer || reducer->getArgs().size() != 2 || !reducer->getKeywords().empty())
    return fail(attr->getRange(), "its first argument must be T.comm_reducer(combiner, [identity])");
  auto *ids = llvm::dyn_cast<ListExpr>(reducer->getArgs()[1]);
  if (!ids || ids->getElts().size() != 1)
    return fail(reducer->getArgs()[1]->getRange(), "the identity must be a list of one value (one reduced value)");
  ConstValue key = info.interp->eval(attr->getArgs()[1], metaEnv);
  if (!key.isValid())
    return;
  if (!key.is(meta::Value::Kind::Str) || key.getStr() != "reduce_scope")
    return fail(attr->getArgs()[1]->getRange(), "its key must be \"reduce_scope\"");
  auto *stmt = s->getBody().size() == 1 ? llvm::dyn_cast<ExprStmt>(s->getBody()[0]) : nullptr;
  const CallExpr *eval0 = stmt ? callNamed(stmt->getExpr(), "T.evaluate") : nullptr;
  const CallExpr *ar =
      eval0 && eval0->getArgs().size() == 1 ? callNamed(eval0->getArgs()[0], "T.tvm_thread_allreduce") : nullptr;
  if (!ar)
    return fail(s->getRange(), "its body must be the one statement T.evaluate(T.tvm_thread_allreduce(...))");
  llvm::ArrayRef<Expr *> args = ar->getArgs();
  if (args.size() < 5)
    return fail(ar->getRange(), "T.tvm_thread_allreduce takes (1, value, True, out[i], thread_index, ...)");
  ConstValue count = info.interp->eval(args[0], metaEnv);
  if (!count.isValid())
    return;
  // `T.uint32(1)` evaluates to a typed constant or to 1.
  TValue countV = count.isInt() ? TValue::ofConst(count) : eval(args[0]);
  if (!countV.isConst() || !countV.cst.isInt() || countV.cst.getInt() != 1)
    return fail(args[0]->getRange(), "it reduces one value at a time (its first argument must be 1)");
  TValue cond = eval(args[2]);
  if (!cond.isValid())
    return;
  if (!cond.isConst() || !cond.cst.truthy())
    return fail(args[2]->getRange(), "its condition must be True");
  Region out;
  if (!evalRegion(args[3], out))
    return;
  if (out.sizes || out.buffer->scope != tile::Scope::Local)
    return fail(args[3]->getRange(), "its result must be an element of a T.alloc_local buffer (out[i])");
  llvm::ArrayRef<int64_t> threads = launch.getThreads();
  llvm::SmallVector<bool, 3> reduced(threads.size(), false);
  for (const Expr *t : args.drop_front(4)) {
    TValue v = eval(t);
    if (!v.isValid())
      return;
    auto tid = v.isScalar() ? v.value.getDefiningOp<tile::ThreadIdOp>() : nullptr;
    if (!tid)
      return fail(t->getRange(), "the reduced indices must be thread indices (T.get_thread_binding(d))");
    reduced[tid.getDim()] = true;
  }
  TValue value = eval(args[1]), identity = eval(ids->getElts()[0]), fn = evalLambda(reducer->getArgs()[0]);
  if (!value.isValid() || !identity.isValid() || !fn.isValid())
    return;
  auto *combiner = fn.isConst() ? fn.cst.as<meta::FunctionObj>() : nullptr;
  if (!combiner)
    return fail(reducer->getArgs()[0]->getRange(), "the combiner must be a function of two values");
  DType t = out.buffer->dtype;
  llvm::SMRange range = ar->getRange();
  mlir::Location l = loc(range);
  value = convert(toScalar(value, args[1]->getRange()), t, args[1]->getRange());
  TValue acc = convert(toScalar(identity, ids->getRange()), t, ids->getRange());
  if (!value.isValid() || !acc.isValid())
    return;
  int64_t total = 1, slots = 1;
  for (size_t d = 0; d < threads.size(); ++d)
    total *= threads[d], slots *= reduced[d] ? threads[d] : 1;
  mlir::Value slotsBuf;
  {
    mlir::OpBuilder::InsertionGuard top(b);
    b.setInsertionPointToStart(launch.getBodyBlock());
    slotsBuf = createAlloc(l, {total}, t, tile::Scope::Shared);
  }
  // The linear index of thread (c0, c1, c2): c0 + T0 (c1 + T1 c2).
  mlir::Value own[3];
  for (size_t d = 0; d < threads.size(); ++d)
    own[d] = tile::ThreadIdOp::create(b, l, b.getIndexType(), uint64_t(d));
  auto linear = [&](llvm::ArrayRef<mlir::Value> c) {
    mlir::Value lin = c.back();
    for (size_t d = c.size() - 1; d-- > 0;)
      lin = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, lin, indexConst(threads[d], range)), c[d]);
    return lin;
  };
  mlir::memref::StoreOp::create(b, l, value.value, slotsBuf, mlir::ValueRange{linear({own, threads.size()})});
  for (int64_t r = 0; r < slots; ++r) {
    llvm::SmallVector<mlir::Value, 3> c;
    int64_t rest = r;
    for (size_t d = 0; d < threads.size(); ++d) {
      if (!reduced[d]) {
        c.push_back(own[d]);
        continue;
      }
      c.push_back(indexConst(rest % threads[d], range));
      rest /= threads[d];
    }
    TValue x = TValue::ofScalar(mlir::memref::LoadOp::create(b, l, slotsBuf, mlir::ValueRange{linear(c)}), t);
    CallValues cv;
    cv.pos = {acc, x};
    acc = inlineFunction(*combiner, reducer, cv);
    if (!acc.isValid())
      return;
    acc = convert(toScalar(acc, reducer->getRange()), t, reducer->getRange());
    if (!acc.isValid())
      return;
  }
  mlir::memref::StoreOp::create(b, l, acc.value, out.buffer->value, out.offsets);
}

//===----------------------------------------------------------------------===//
// T.gemm_sp(A, E, B, C): C += dense(A, E) @ op(B) for a 2:4-sparse A of
// shape (M, K / 2) with metadata E (M, K / (4 * bits(E) / 4)): group g of
// four dense columns holds A[:, 2g] and A[:, 2g + 1] at the columns named by
// the two 2-bit fields at bits 4 (g % (bits(E) / 4)) and + 2 of
// E[:, g / (bits(E) / 4)] (tile-lang's ordered metadata, as its compressor
// writes it). A T.Parallel expands A into a dense shared tile, then T.gemm.
//===----------------------------------------------------------------------===//

void KernelGen::genGemmSp(const BoundCall &call) {
  argFailed = false;
  BufferInfo *A = bufferArg(call, "A"), *E = bufferArg(call, "E"), *B = bufferArg(call, "B"), *C = bufferArg(call, "C");
  std::optional<bool> ta = constBoolArg(call, "transpose_A"), te = constBoolArg(call, "transpose_E");
  std::optional<bool> tb = constBoolArg(call, "transpose_B"), clear = constBoolArg(call, "clear_accum");
  if (argFailed || !A || !E || !B || !C || !ta || !te || !tb || !clear)
    return;
  std::optional<tile::GemmPolicy> policy = gemmPolicyArg(call);
  if (!policy)
    return;
  for (auto [name, set] : {std::pair{"transpose_A", *ta}, std::pair{"transpose_E", *te}})
    if (set) {
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf(name), name, call.info->name,
                 "False (tilec takes A and E row-major)", "True");
      return;
    }
  using S = tile::Scope;
  if (!checkScope(A, {S::Shared, S::Fragment}, "T.gemm_sp operand A", call.rangeOf("A")) ||
      !checkScope(E, {S::Shared, S::Fragment, S::Local}, "T.gemm_sp operand E", call.rangeOf("E")) ||
      !checkScope(B, {S::Shared, S::Fragment}, "T.gemm_sp operand B", call.rangeOf("B")) ||
      !checkScope(C, {S::Fragment}, "T.gemm_sp operand C", call.rangeOf("C")))
    return;
  unsigned ebits = dtypeBits(E->dtype);
  if (!isIntegerDType(E->dtype) || ebits < 8 || dtypeBits(A->dtype) > 16) {
    diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("E"), "E", call.info->name,
               "8-, 16- or 32-bit integer metadata for a 2:4-sparse A of 8- or 16-bit elements",
               "'" + E->name + "' of " + dtypeName(E->dtype).str() + " for A of " + dtypeName(A->dtype).str());
    return;
  }
  int64_t per = ebits / 4; // groups of four columns per metadata element
  if (A->rank() != 2 || E->rank() != 2 || B->rank() != 2 || C->rank() != 2 || E->shape[0] != A->shape[0] ||
      E->shape[1] * per * 2 != A->shape[1]) {
    diags.emit(DiagID::sema_gemm_shape_mismatch, call.call->getRange(), A->shapeStr(), B->shapeStr(), C->shapeStr(),
               "T.gemm_sp takes A (M, K / 2), E (M, K / " + std::to_string(4 * per) + ") and B (K, N), got E " +
                   E->shapeStr());
    return;
  }
  int64_t M = A->shape[0], K = 2 * A->shape[1];
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  mlir::Value dense;
  {
    mlir::OpBuilder::InsertionGuard top(b);
    b.setInsertionPointToStart(launch.getBodyBlock());
    dense = createAlloc(l, {M, K}, A->dtype, S::Shared);
  }
  {
    auto par = tile::ParallelOp::create(b, l, llvm::ArrayRef<int64_t>{M, K});
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(par.getBodyBlock()->getTerminator());
    mlir::Value m = par.getInductionVars()[0], k = par.getInductionVars()[1];
    auto c = [&](int64_t v) { return indexConst(v, range); };
    mlir::Value g = arith::DivUIOp::create(b, l, k, c(4)), col = arith::RemUIOp::create(b, l, k, c(4));
    mlir::Value word =
        mlir::memref::LoadOp::create(b, l, E->value, mlir::ValueRange{m, arith::DivUIOp::create(b, l, g, c(per))});
    mlir::Value w = arith::IndexCastUIOp::create(b, l, b.getIndexType(), word);
    mlir::Value shift = arith::MulIOp::create(b, l, arith::RemUIOp::create(b, l, g, c(per)), c(4));
    mlir::Value f = arith::ShRUIOp::create(b, l, w, shift);
    mlir::Value i0 = arith::AndIOp::create(b, l, f, c(3));
    mlir::Value i1 = arith::AndIOp::create(b, l, arith::ShRUIOp::create(b, l, f, c(2)), c(3));
    mlir::Value g2 = arith::MulIOp::create(b, l, g, c(2));
    mlir::Value v0 = mlir::memref::LoadOp::create(b, l, A->value, mlir::ValueRange{m, g2});
    mlir::Value v1 =
        mlir::memref::LoadOp::create(b, l, A->value, mlir::ValueRange{m, arith::AddIOp::create(b, l, g2, c(1))});
    auto zero = arith::ConstantOp::create(b, l, llvm::cast<mlir::TypedAttr>(b.getZeroAttr(v0.getType())));
    mlir::Value is0 = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, col, i0);
    mlir::Value is1 = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, col, i1);
    mlir::Value v = arith::SelectOp::create(b, l, is0, v0, arith::SelectOp::create(b, l, is1, v1, zero));
    mlir::memref::StoreOp::create(b, l, v, dense, mlir::ValueRange{m, k});
  }
  int64_t Kb = *tb ? B->shape[1] : B->shape[0], N = *tb ? B->shape[0] : B->shape[1];
  if (Kb != K || C->shape[0] != M || C->shape[1] != N) {
    diags.emit(DiagID::sema_gemm_shape_mismatch, range, A->shapeStr(), B->shapeStr(), C->shapeStr(),
               llvm::formatv("the dense A is [{0}, {1}]: B must give K = {1} and C be [{0}, N]", M, K).str());
    return;
  }
  tile::GemmOp::create(b, l, dense, B->value, C->value, false, *tb, *policy, *clear, uint64_t(1));
}
