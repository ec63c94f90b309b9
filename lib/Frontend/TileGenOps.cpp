//===- TileGenOps.cpp - Launch, allocation, loops and tile operations ----===//
//
// T.Kernel, T.alloc_*, the for-loop forms and the block-collective tile
// operations. Every operand, shape and scope is checked before its op is
// built, so the verifier only ever sees well-formed IR.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/ScopeExit.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

static llvm::StringRef sourceText(llvm::SMRange r) {
  if (!r.Start.isValid() || !r.End.isValid() || r.End.getPointer() < r.Start.getPointer())
    return "";
  return llvm::StringRef(r.Start.getPointer(), r.End.getPointer() - r.Start.getPointer());
}

bool KernelGen::checkScope(BufferInfo *buf, std::initializer_list<tile::Scope> allowed, llvm::StringRef what,
                           llvm::SMRange range) {
  for (tile::Scope s : allowed)
    if (buf->scope == s)
      return true;
  std::string list;
  size_t k = 0;
  for (tile::Scope s : allowed) {
    list += (k == 0 ? "" : k + 1 == allowed.size() ? " or " : ", ") + tile::stringifyScope(s).str();
    ++k;
  }
  diags.emit(DiagID::sema_bad_scope, range, what, list, buf->name, tile::stringifyScope(buf->scope));
  return false;
}

//===----------------------------------------------------------------------===//
// Launch and allocation
//===----------------------------------------------------------------------===//

/// The names a `for`/`with` target binds, or false if it is not names.
static bool targetNames(const Expr *target, llvm::SmallVectorImpl<const NameExpr *> &out) {
  if (auto *n = llvm::dyn_cast<NameExpr>(target)) {
    out.push_back(n);
    return true;
  }
  llvm::ArrayRef<Expr *> elts;
  if (auto *t = llvm::dyn_cast<TupleExpr>(target))
    elts = t->getElts();
  else if (auto *l = llvm::dyn_cast<ListExpr>(target))
    elts = l->getElts();
  else
    return false;
  for (const Expr *e : elts) {
    auto *n = llvm::dyn_cast<NameExpr>(e);
    if (!n)
      return false;
    out.push_back(n);
  }
  return true;
}

void KernelGen::genLaunch(const BoundCall &call, const WithStmt *s) {
  if (call.extra.size() > 3) {
    diags.emit(DiagID::sema_too_many_args, call.extra[3]->getRange(), "T.Kernel", 3, "s", call.extra.size());
    return;
  }
  llvm::SmallVector<mlir::Value, 3> grid;
  for (const Expr *e : call.extra) {
    TValue v = eval(e);
    if (!v.isValid())
      return;
    if (v.isConst() && (!v.cst.isInt() || v.cst.getInt() <= 0)) {
      diags.emit(DiagID::sema_positive_const, e->getRange(), "grid size", v.cst.str());
      return;
    }
    mlir::Value idx = toIndex(v, e->getRange());
    if (!idx)
      return;
    grid.push_back(idx);
  }
  argFailed = false;
  std::optional<llvm::SmallVector<int64_t, 3>> threads = extentsArg(call, "threads");
  std::optional<llvm::SmallVector<int64_t, 3>> cluster;
  // T.Kernel(..., cluster=...) or tile-lang's T.ClusterKernel(..., cluster_dims=...).
  for (llvm::StringRef name : {"cluster", "cluster_dims"})
    if (call.get(name))
      cluster = extentsArg(call, name);
  if (call.get("prelude"))
    constStrArg(call, "prelude");
  if (argFailed || !threads)
    return;
  llvm::SmallVector<const NameExpr *, 3> names;
  if (s->getTarget()) {
    if (!targetNames(s->getTarget(), names)) {
      diags.emit(DiagID::sema_bad_target, s->getTarget()->getRange(), "this 'as' target (expected names)");
      return;
    }
    if (names.size() != grid.size()) {
      diags.emit(DiagID::sema_bind_count, s->getTarget()->getRange(), "'as' target", names.size(),
                 names.size() == 1 ? "" : "s", llvm::formatv("{0} grid dimension{1}", grid.size(), grid.size() == 1 ? "" : "s").str());
      return;
    }
  }
  rngState = nullptr;
  launch = tile::LaunchOp::create(b, loc(call.call->getRange()), grid, *threads,
                                  cluster ? llvm::ArrayRef<int64_t>(*cluster) : llvm::ArrayRef<int64_t>());
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(launch.getBodyBlock()->getTerminator());
  pushScope(false);
  for (size_t k = 0; k < names.size(); ++k) {
    mlir::Value idx = launch.getBlockIndices()[k];
    LocalVar var;
    var.value = TValue::ofScalar(idx, DType::Index, LinearForm::ofSymbol(symbolFor(idx)));
    var.declRange = names[k]->getRange();
    var.depth = depth();
    scopes.back().names[names[k]->getName()] = var;
  }
  genBody(s->getBody());
  popScope();
  // The kernel function may go on with another T.Kernel (spec §6: they run
  // in order).
  launches.push_back(launch);
  launch = nullptr;
}

/// The buffer scope a tile-lang scope string names.
static std::optional<tile::Scope> allocScope(llvm::StringRef name) {
  if (name == "shared" || name == "shared.dyn")
    return tile::Scope::Shared;
  if (name == "local.fragment")
    return tile::Scope::Fragment;
  if (name == "local")
    return tile::Scope::Local;
  return std::nullopt;
}

void KernelGen::genAlloc(const BoundCall &call, const NameExpr *target) {
  llvm::StringRef name = target->getName();
  if (LocalVar *var = lookupLocal(name); var && var->isBound()) {
    auto diag = diags.emit(DiagID::sema_redefinition, target->getRange(), name, var->value.describe());
    diags.note(diag, DiagID::sema_note_previous_definition, var->declRange, name);
    return;
  }
  if (auto it = params.find(name); it != params.end()) {
    diags.emit(DiagID::sema_redefinition, target->getRange(), name, "a kernel parameter");
    return;
  }
  argFailed = false;
  BuiltinID id = call.info->id;
  // The buffer's name rides on its allocation's location (`--emit=layout`
  // titles its pictures with it; diagnostics look through it).
  mlir::Location l = mlir::NameLoc::get(b.getStringAttr(name), loc(call.call->getRange()));
  if (id == BuiltinID::AllocBarrier)
    return genAllocBarrier(call, target);
  if (id == BuiltinID::AllocVar) {
    std::optional<DType> t = dtypeArg(call, "dtype");
    if (!t)
      return;
    TValue init;
    // `T.alloc_var(dtype, "local.var")`: a lone string is the scope.
    const Expr *initE = call.get("init"), *scopeE = call.get("scope");
    if (initE && !scopeE && llvm::isa<StrLitExpr>(initE))
      std::swap(initE, scopeE);
    if (scopeE) {
      TValue v = eval(scopeE);
      if (!v.isValid())
        return;
      if (!v.isConst() || !v.cst.is(meta::Value::Kind::Str) ||
          (v.cst.getStr() != "local.var" && v.cst.getStr() != "local")) {
        diags.emit(DiagID::sema_unknown_alloc_scope, scopeE->getRange(),
                   v.isConst() && v.cst.is(meta::Value::Kind::Str) ? v.cst.getStr().str() : v.describe(),
                   call.info->name, "'local.var' or 'local'");
        return;
      }
    }
    if (const Expr *e = initE) {
      init = eval(e);
      if (!init.isValid())
        return;
      init = implicitCast(init, *t, "variable '" + name.str() + "'", e->getRange());
      if (!init.isValid())
        return;
    }
    BufferInfo *buf = newBuffer();
    buf->name = name.str();
    buf->dtype = *t;
    buf->scope = tile::Scope::Local;
    buf->declRange = target->getRange();
    buf->isVar = true;
    buf->value = createAlloc(l, {}, *t, tile::Scope::Local);
    if (init.isValid())
      mlir::memref::StoreOp::create(b, l, init.value, buf->value, mlir::ValueRange{});
    LocalVar var{TValue::ofBuffer(buf), target->getRange(), depth()};
    scopes.back().names[name] = var;
    return;
  }
  std::optional<llvm::SmallVector<int64_t, 4>> shape = shapeArg(call, "shape");
  std::optional<DType> t = dtypeArg(call, "dtype");
  tile::Scope scope = id == BuiltinID::AllocShared                                      ? tile::Scope::Shared
                      : id == BuiltinID::AllocFragment || id == BuiltinID::AllocReducer ? tile::Scope::Fragment
                                                                                        : tile::Scope::Local;
  std::optional<tile::ReduceKind> reducer;
  if (id == BuiltinID::AllocReducer && !(reducer = reducerKindArg(call)))
    return;
  // tile-lang's scope argument wins over the allocator's name
  // (`T.alloc_fragment((1,), T.int32, "local")` is a per-thread array).
  if (call.get("scope"))
    if (std::optional<std::string> name = constStrArg(call, "scope")) {
      std::optional<tile::Scope> given = allocScope(*name);
      if (!given) {
        diags.emit(DiagID::sema_unknown_alloc_scope, call.rangeOf("scope"), *name, call.info->name,
                   "'shared', 'shared.dyn', 'local.fragment' or 'local'");
        return;
      }
      scope = *given;
    }
  if (argFailed || !shape || !t)
    return;
  BufferInfo *buf = newBuffer();
  buf->name = name.str();
  buf->dtype = *t;
  buf->scope = scope;
  buf->shape = *shape;
  buf->dimNames.assign(shape->size(), "");
  buf->declRange = target->getRange();
  buf->value = createAlloc(l, *shape, *t, scope);
  if (reducer) {
    buf->reducer = reducer;
    buf->value.getDefiningOp<tile::AllocOp>().setReducer(*reducer);
  }
  LocalVar var{TValue::ofBuffer(buf), target->getRange(), depth()};
  scopes.back().names[name] = var;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

void KernelGen::genFor(const ForStmt *s) {
  if (!s->getElse().empty()) {
    diags.emit(DiagID::not_supported_yet, s->getElse().front()->getRange(), "'else' after a kernel 'for' loop");
    return;
  }
  auto *call = llvm::dyn_cast<CallExpr>(s->getIter());
  const BuiltinInfo *bi = nullptr;
  if (call) {
    std::string name = calleeName(call->getCallee());
    if (llvm::StringRef(name).starts_with("T.") || name == "range") {
      bi = resolveCallee(call, true);
      if (!bi)
        return;
    }
  }
  if (!bi || bi->context != BuiltinContext::Iter) {
    std::string text = sourceText(call ? call->getCallee()->getRange() : s->getIter()->getRange()).str();
    diags.emit(DiagID::sema_bad_iterable, s->getIter()->getRange(), text);
    return;
  }
  BoundCall bound;
  if (!bindCall(*bi, call, diags, bound))
    return;
  llvm::SmallVector<const NameExpr *, 4> names;
  if (!targetNames(s->getTarget(), names)) {
    diags.emit(DiagID::sema_bad_target, s->getTarget()->getRange(), "this loop target (expected names)");
    return;
  }
  // The loop's `break` flag: none unless genRangeFor makes one.
  breakFlags.push_back(nullptr);
  auto popFlag = llvm::make_scope_exit([&] { breakFlags.pop_back(); });
  if (bi->id == BuiltinID::Persistent)
    return genPersistentFor(s, bound, names);
  mlir::OpBuilder::InsertionGuard guard(b);
  if (bi->id == BuiltinID::Parallel)
    return genParallelFor(s, bound, names);
  if (bi->id == BuiltinID::Grid)
    return genGridFor(s, bound, names);
  if (names.size() != 1) {
    diags.emit(DiagID::sema_bind_count, s->getTarget()->getRange(), "the loop target", names.size(),
               names.size() == 1 ? "" : "s", "1 loop variable");
    return;
  }
  if (bi->id == BuiltinID::ThreadBindingLoop)
    return genThreadBindingFor(s, bound, names[0]);
  genRangeFor(s, bound, names[0]);
}

/// T.Parallel's async-copy hints: `prefer_async=` and the annotations
/// `parallel_prefer_async` / `parallel_async_without_async_commit_wait`.
/// tilec checks them and ignores them (docs/differences.md); false after an
/// error.
bool KernelGen::checkParallelHints(const BoundCall &bound) {
  if (bound.get("prefer_async") && !constBoolArg(bound, "prefer_async"))
    return false;
  auto *dict = llvm::dyn_cast_or_null<DictExpr>(bound.get("annotations"));
  if (!dict)
    return true;
  for (const Expr *k : dict->getKeys()) {
    TValue key = eval(k);
    if (!key.isValid())
      return false;
    llvm::StringRef name = key.isConst() && key.cst.is(meta::Value::Kind::Str) ? key.cst.getStr() : "";
    if (name != "parallel_prefer_async" && name != "parallel_async_without_async_commit_wait") {
      diags.emit(DiagID::meta_error, k->getRange(),
                 "T.Parallel annotation " + (name.empty() ? key.describe() : "'" + name.str() + "'") +
                     " is not supported: tilec takes only the async-copy hints 'parallel_prefer_async' and "
                     "'parallel_async_without_async_commit_wait' (drop it)");
      return false;
    }
  }
  return true;
}

/// `for i, j in T.Parallel(M, N)`: one tile.parallel over constant extents.
void KernelGen::genParallelFor(const ForStmt *s, const BoundCall &bound, llvm::ArrayRef<const NameExpr *> names) {
  mlir::Location l = loc(s->getRange());
  if (llvm::StringRef(bound.info->name) == "T.parallel" && bound.extra.size() != 1) {
    diags.emit(DiagID::sema_const_error, bound.call->getRange(),
               "T.parallel takes one extent here (TIR's T.parallel(start, stop) is not supported); write "
               "T.parallel(stop - start) and add start to the index, or T.Parallel(e0, e1, ...) for a nest");
    return;
  }
  if (!checkParallelHints(bound))
    return;
  llvm::SmallVector<int64_t, 4> extents;
  for (const Expr *e : bound.extra) {
    TValue v = eval(e);
    if (!v.isValid())
      return;
    if (!v.isConst() || !v.cst.isInt() || v.cst.getInt() <= 0) {
      diags.emit(DiagID::sema_parallel_extent, e->getRange(), v.isConst() ? v.cst.str() : v.describe());
      return;
    }
    extents.push_back(v.cst.getInt());
  }
  if (names.size() != extents.size()) {
    diags.emit(DiagID::sema_bind_count, s->getTarget()->getRange(), "the loop target", names.size(),
               names.size() == 1 ? "" : "s",
               llvm::formatv("{0} extent{1}", extents.size(), extents.size() == 1 ? "" : "s").str());
    return;
  }
  auto par = tile::ParallelOp::create(b, l, extents);
  b.setInsertionPoint(par.getBodyBlock()->getTerminator());
  pushScope(true);
  llvm::SmallVector<unsigned, 4> symbolIds;
  for (size_t k = 0; k < names.size(); ++k) {
    mlir::Value iv = par.getInductionVars()[k];
    unsigned id = symbolFor(iv);
    symbolIds.push_back(id);
    parallelVars[id] = ParallelVar{extents[k], bound.extra[k]->getRange(), names[k]->getName().str()};
    scopes.back().names[names[k]->getName()] =
        LocalVar{TValue::ofScalar(iv, DType::Index, LinearForm::ofSymbol(id)), names[k]->getRange(), depth()};
  }
  ++parallelDepth;
  genBody(s->getBody());
  --parallelDepth;
  for (unsigned id : symbolIds)
    parallelVars.erase(id);
  popScope();
}

/// T.Pipelined's `order`, `stage` and `group` lists, one (empty when not
/// given) per key; false after an error.
bool KernelGen::pipelineAnnotations(const BoundCall &bound,
                                    llvm::SmallVectorImpl<llvm::SmallVector<int64_t, 4>> &annotations) {
  for (llvm::StringRef key : {"order", "stage", "group"}) {
    annotations.emplace_back();
    const Expr *e = bound.get(key);
    if (!e)
      continue;
    TValue v = eval(e);
    bool ok = v.isConst() && v.cst.getKind() == ConstValue::Kind::Tuple;
    if (ok)
      for (const ConstValue &c : v.cst.getElts()) {
        ok &= c.isInt();
        annotations.back().push_back(c.getInt());
      }
    if (!ok) {
      if (v.isValid())
        diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), key, bound.info->name, "a list of integer constants",
                   v.describe());
      return false;
    }
  }
  return true;
}

/// `for i in T.serial/T.Pipelined/T.unroll/T.vectorized/range(...)`: one
/// tile.for (genNegativeStepFor for a negative step).
void KernelGen::genRangeFor(const ForStmt *s, const BoundCall &bound, const NameExpr *name) {
  const BuiltinInfo *bi = bound.info;
  mlir::Location l = loc(s->getRange());
  // Bounds: (stop) or (start, stop).
  TValue start = eval(bound.get("start"));
  TValue stop;
  if (bound.get("stop"))
    stop = eval(bound.get("stop"));
  if (!start.isValid() || (bound.get("stop") && !stop.isValid()))
    return;
  argFailed = false;
  bool noStep = bi->id == BuiltinID::Pipelined || bi->id == BuiltinID::Vectorized;
  std::optional<int64_t> step = noStep ? std::optional<int64_t>(1) : constIntArg(bound, "step");
  if (bi->id == BuiltinID::Unroll) { // hints: every unroll is complete here
    constBoolArg(bound, "explicit");
    if (bound.get("unroll_factor"))
      constIntArg(bound, "unroll_factor");
  }
  std::optional<int64_t> stages;
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 3> annotations;
  if (bi->id == BuiltinID::Pipelined) {
    stages = constIntArg(bound, "num_stages");
    if (!pipelineAnnotations(bound, annotations))
      return;
  }
  if (argFailed || !step)
    return;
  if (*step == 0) {
    diags.emit(DiagID::sema_positive_const, bound.rangeOf("step"), "the loop step", *step);
    return;
  }
  if (stages && *stages < 0) {
    diags.emit(DiagID::sema_positive_const, bound.rangeOf("num_stages"), "num_stages", *stages);
    return;
  }
  mlir::Value lb, ub;
  if (bound.get("stop")) {
    lb = toIndex(start, bound.rangeOf("start"));
    ub = toIndex(stop, bound.rangeOf("stop"));
  } else {
    lb = indexConst(0, s->getIter()->getRange());
    ub = toIndex(start, bound.rangeOf("start"));
  }
  if (!lb || !ub)
    return;
  if (*step < 0)
    return genNegativeStepFor(s, name, bound.get("stop") ? start : TValue::ofConst(ConstValue::ofInt(0)), lb, ub,
                              *step);
  mlir::Value stepV = indexConst(*step, s->getIter()->getRange());
  tile::LoopKind kind = bi->id == BuiltinID::Pipelined ? tile::LoopKind::Pipelined
                      : bi->id == BuiltinID::Unroll    ? tile::LoopKind::Unroll
                                                       : tile::LoopKind::Serial;
  std::optional<int64_t> numStages;
  if (kind == tile::LoopKind::Pipelined)
    numStages = std::max<int64_t>(1, stages.value_or(1));
  mlir::Value flag = kind == tile::LoopKind::Pipelined ? nullptr : newBreakFlag(s);
  auto loop = tile::ForOp::create(b, l, lb, ub, stepV, kind, numStages);
  if (kind == tile::LoopKind::Pipelined) {
    if (!annotations[0].empty()) loop.setOrderAttr(b.getDenseI64ArrayAttr(annotations[0]));
    if (!annotations[1].empty()) loop.setStageAttr(b.getDenseI64ArrayAttr(annotations[1]));
    if (!annotations[2].empty()) loop.setGroupAttr(b.getDenseI64ArrayAttr(annotations[2]));
  }
  b.setInsertionPoint(loop.getBodyBlock()->getTerminator());
  pushScope(true);
  mlir::Value iv = loop.getInductionVar();
  scopes.back().names[name->getName()] =
      LocalVar{TValue::ofScalar(iv, DType::Index, LinearForm::ofSymbol(symbolFor(iv))), name->getRange(), depth()};
  ++loopDepth;
  breakFlags.back() = flag;
  if (flag) // the iterations after a `break` do nothing
    guardNotBroken(l);
  genBody(s->getBody());
  --loopDepth;
  popScope();
}
