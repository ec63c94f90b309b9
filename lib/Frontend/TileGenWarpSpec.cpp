//===- TileGenWarpSpec.cpp - T.ws regions, mbarriers and their hints ------===//
//
// tile-lang's explicit warp specialization: `with T.ws(g...)` regions
// (tile.warp_group), T.alloc_barrier / T.barrier_arrive / T.barrier_wait
// (tile.alloc_barrier, tile.barrier_*), T.tma_copy (a T.copy whose completion
// the barrier reports), T.wgmma_gemm (a T.gemm that must use wgmma), and the
// register-allocation and cache hints, which are checked and dropped
// (tile-lower-warp-groups explains why; docs/cuda.md).
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

/// What the user wrote, for messages: a constant's value, else its kind.
static std::string shown(const TValue &v) { return v.isConst() ? v.cst.str() : v.describe(); }

/// tile-lang's warp group on CUDA.
static constexpr int64_t kWarpGroupSize = 128;

void KernelGen::genWarpGroup(const BoundCall &call, const WithStmt *s) {
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return;
  }
  if (s->getTarget()) {
    diags.emit(DiagID::sema_bad_stmt, s->getTarget()->getRange(), "an 'as' target on T.ws");
    return;
  }
  llvm::SmallVector<int64_t> groups;
  for (const Expr *e : call.extra) {
    TValue v = eval(e);
    if (!v.isValid())
      return;
    if (!v.isConst() || !v.cst.isIntLike() || v.cst.getInt() < 0) {
      diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), "warp_group_idx", call.info->name,
                 "a non-negative integer constant", shown(v));
      return;
    }
    groups.push_back(v.cst.getInt());
  }
  auto ws = tile::WarpGroupOp::create(b, loc(call.call->getRange()), groups, kWarpGroupSize);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ws.getBody().emplaceBlock());
  auto yield = tile::YieldOp::create(b, ws.getLoc());
  b.setInsertionPoint(yield);
  pushScope(false);
  genBody(s->getBody());
  popScope();
}

void KernelGen::genAllocBarrier(const BoundCall &call, const NameExpr *target) {
  const Expr *e = call.get("arrive_count");
  TValue v = eval(e);
  if (!v.isValid())
    return;
  llvm::SmallVector<int64_t> counts;
  bool ok = v.isConst();
  if (ok && v.cst.isIntLike())
    counts.push_back(v.cst.getInt());
  else if (ok && v.cst.isSequence())
    for (const ConstValue &c : v.cst.getElts())
      c.isIntLike() ? counts.push_back(c.getInt()) : void(ok = false);
  else
    ok = false;
  ok &= !counts.empty() && llvm::all_of(counts, [](int64_t c) { return c > 0; });
  if (!ok) {
    diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), "arrive_count", call.info->name,
               "a positive integer or a list of them", shown(v));
    return;
  }
  mlir::Location l = loc(call.call->getRange());
  auto type = tile::getBufferType({int64_t(counts.size())}, b.getI64Type(), tile::Scope::Shared);
  BufferInfo *buf = newBuffer();
  buf->name = target->getName().str();
  buf->dtype = DType::Int64;
  buf->scope = tile::Scope::Shared;
  buf->shape = {int64_t(counts.size())};
  buf->dimNames.assign(1, "");
  buf->declRange = target->getRange();
  buf->isBarrier = true;
  buf->value = tile::AllocBarrierOp::create(b, l, type, counts);
  scopes.back().names[target->getName()] = LocalVar{TValue::ofBuffer(buf), target->getRange(), depth()};
}

bool KernelGen::barrierArg(const BoundCall &call, llvm::StringRef param, BufferInfo *&buf, mlir::Value &index) {
  const Expr *e = call.get(param);
  const Expr *base = e, *indexExpr = nullptr;
  if (auto *sub = llvm::dyn_cast<SubscriptExpr>(e); sub && sub->getIndices().size() == 1)
    base = sub->getValue(), indexExpr = sub->getIndices()[0];
  TValue v = eval(base);
  if (!v.isValid())
    return false;
  if (!v.isBuffer() || !v.buffer->isBarrier) {
    diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), param, call.info->name,
               "a barrier from T.alloc_barrier (or one element of one)", v.describe());
    return false;
  }
  buf = v.buffer;
  if (!indexExpr) {
    index = indexConst(0, e->getRange());
    return true;
  }
  TValue i = eval(indexExpr);
  if (!i.isValid())
    return false;
  if (i.isConst() && i.cst.isIntLike() && (i.cst.getInt() < 0 || i.cst.getInt() >= buf->shape[0])) {
    diags.emit(DiagID::sema_index_out_of_bounds, indexExpr->getRange(), i.cst.getInt(), 0, buf->name, buf->shape[0]);
    return false;
  }
  index = toIndex(i, indexExpr->getRange());
  return bool(index);
}

/// The tile.gemm genGemm just built, or null.
static tile::GemmOp lastGemm(mlir::OpBuilder &b) {
  mlir::Block *block = b.getInsertionBlock();
  if (!block || b.getInsertionPoint() == block->begin())
    return {};
  return llvm::dyn_cast<tile::GemmOp>(&*std::prev(b.getInsertionPoint()));
}

void KernelGen::genWarpSpecStmt(const BoundCall &call) {
  mlir::Location l = loc(call.call->getRange());
  argFailed = false;
  switch (call.info->id) {
  case BuiltinID::BarrierArrive: {
    BufferInfo *buf = nullptr;
    mlir::Value index;
    if (call.get("cta_id")) {
      diags.emit(DiagID::not_supported_yet, call.rangeOf("cta_id"), "arriving at another CTA's barrier (cta_id)");
      return;
    }
    if (barrierArg(call, "mbarrier", buf, index))
      tile::BarrierArriveOp::create(b, l, buf->value, index);
    return;
  }
  case BuiltinID::BarrierWait: {
    BufferInfo *buf = nullptr;
    mlir::Value index;
    if (!barrierArg(call, "mbarrier", buf, index))
      return;
    TValue p = eval(call.get("parity"));
    if (!p.isValid())
      return;
    if (p.isConst() && (!p.cst.isIntLike() || (p.cst.getInt() != 0 && p.cst.getInt() != 1))) {
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("parity"), "parity", call.info->name, "0 or 1", shown(p));
      return;
    }
    if (mlir::Value parity = toIndex(p, call.rangeOf("parity")))
      tile::BarrierWaitOp::create(b, l, buf->value, index, parity);
    return;
  }
  case BuiltinID::TmaCopy: {
    for (llvm::StringRef unsupported : {"cluster_mask", "annotations"})
      if (call.get(unsupported)) {
        diags.emit(DiagID::not_supported_yet, call.rangeOf(unsupported), ("T.tma_copy's '" + unsupported + "'").str());
        return;
      }
    BufferInfo *bar = nullptr;
    mlir::Value index;
    if (call.get("barrier") && !barrierArg(call, "barrier", bar, index))
      return;
    Region src, dst;
    if (!evalRegion(call.get("src"), src) || !evalRegion(call.get("dst"), dst))
      return;
    // The copy completes before the next statement (program order), so the
    // transaction bytes the barrier would count have arrived.
    emitCopy(src, dst, call.call->getRange());
    return;
  }
  case BuiltinID::WgmmaGemm:
    genGemm(call);
    if (tile::GemmOp g = lastGemm(b))
      g.setWgmma(true);
    return;
  case BuiltinID::WaitWgmma: // gemms complete in program order
    constIntArg(call, "id");
    return;
  case BuiltinID::SetMaxNReg: {
    std::optional<int64_t> regs = constIntArg(call, "reg_count");
    std::optional<int64_t> inc = constIntArg(call, "is_inc");
    if (!regs || !inc)
      return;
    if (*inc != 0 && *inc != 1)
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("is_inc"), "is_inc", call.info->name, "0 or 1",
                 std::to_string(*inc));
    else if (*regs < 24 || *regs > 256 || *regs % 8 != 0)
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("reg_count"), "reg_count", call.info->name,
                 "a multiple of 8 in [24, 256]", std::to_string(*regs));
    return;
  }
  case BuiltinID::IncMaxNReg:
  case BuiltinID::DecMaxNReg:
  case BuiltinID::AnnotateRegAlloc: {
    std::optional<int64_t> regs = constIntArg(call, "reg_count");
    if (regs && (*regs < 24 || *regs > 256 || *regs % 8 != 0))
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("reg_count"), "reg_count", call.info->name,
                 "a multiple of 8 in [24, 256]", std::to_string(*regs));
    return;
  }
  case BuiltinID::NoSetMaxNReg:
  case BuiltinID::FenceProxyAsync:
    return;
  case BuiltinID::AnnotateL2HitRatio: {
    auto *dict = llvm::dyn_cast<DictExpr>(call.get("l2_hit_ratio_map"));
    if (!dict) {
      diags.emit(DiagID::sema_wrong_arg_kind, call.rangeOf("l2_hit_ratio_map"), "l2_hit_ratio_map", call.info->name,
                 "a dict {tensor: ratio}", "something else");
      return;
    }
    for (size_t k = 0; k < dict->getKeys().size() && k < dict->getValues().size(); ++k) {
      TValue key = eval(dict->getKeys()[k]);
      TValue ratio = eval(dict->getValues()[k]);
      if (!key.isValid() || !ratio.isValid())
        return;
      if (!key.isBuffer() || key.buffer->scope != tile::Scope::Global) {
        diags.emit(DiagID::sema_wrong_arg_kind, dict->getKeys()[k]->getRange(), "l2_hit_ratio_map", call.info->name,
                   "keyed by global tensors", key.describe());
        return;
      }
      if (!ratio.isConst() || !ratio.cst.isNumber() || ratio.cst.getFloat() < 0 || ratio.cst.getFloat() > 1) {
        diags.emit(DiagID::sema_wrong_arg_kind, dict->getValues()[k]->getRange(), "l2_hit_ratio_map", call.info->name,
                   "ratios in [0, 1]", shown(ratio));
        return;
      }
    }
    return;
  }
  default:
    diags.emit(DiagID::sema_wrong_context, call.call->getCallee()->getRange(), call.info->name, "as a statement");
    return;
  }
}
