//===- TileGenLoops.cpp - tile-lang's other loop forms -------------------===//
//
// T.thread_binding (a loop or a value: the thread's index along one axis),
// T.Persistent (the tiles of a domain spread over a fixed grid, wave by
// wave), T.grid (a nest of serial loops) and serial loops with a negative
// step, built from the tile dialect's
// loops and thread indices; kernel `while` loops and `break`.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;
namespace arith = mlir::arith;

/// 1. Normalizes tile-lang's argument forms: (stop, "tag"), (stop, thread=),
///    (start, stop, thread=).
/// 2. Maps the tag to a thread index (threadIdx.*) or a block index
///    (blockIdx.*), checking a constant extent against the launch.
TValue KernelGen::threadBindingValue(const BoundCall &call) {
  llvm::SMRange range = call.call->getRange();
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, call.call->getCallee()->getRange(), call.info->name);
    return TValue();
  }
  const Expr *startE = call.get("start"), *stopE = call.get("stop"), *threadE = call.get("thread");
  if (!threadE && stopE && llvm::isa<StrLitExpr>(stopE))
    std::swap(stopE, threadE);
  if (!threadE) {
    diags.emit(DiagID::sema_missing_arg, range, call.info->name, "thread");
    return TValue();
  }
  ConstValue tag = info.interp->eval(threadE, metaEnv);
  if (!tag.isValid())
    return TValue();
  llvm::StringRef t = tag.is(meta::Value::Kind::Str) ? tag.getStr() : "";
  bool isThread = t.consume_front("threadIdx."), isBlock = !isThread && t.consume_front("blockIdx.");
  int axis = t == "x" ? 0 : t == "y" ? 1 : t == "z" ? 2 : -1;
  if ((!isThread && !isBlock) || axis < 0) {
    diags.emit(DiagID::sema_thread_tag, threadE->getRange(), tag.str());
    return TValue();
  }
  TValue start = stopE ? eval(startE) : TValue::ofConst(ConstValue::ofInt(0));
  TValue stop = eval(stopE ? stopE : startE);
  if (!start.isValid() || !stop.isValid())
    return TValue();
  std::optional<LinearForm> lo = linOf(start), hi = linOf(stop);
  std::optional<LinearForm> extent = lo && hi ? hi->sub(*lo) : std::nullopt;
  mlir::Location l = loc(range);
  mlir::Value index;
  if (isThread) {
    int64_t threads = launch.getThreads()[axis];
    if (extent && extent->isConstant() && extent->constant != threads) {
      diags.emit(DiagID::sema_thread_extent, (stopE ? stopE : startE)->getRange(), extent->constant, tag.getStr(),
                 threads);
      return TValue();
    }
    index = tile::ThreadIdOp::create(b, l, b.getIndexType(), uint64_t(axis));
  } else {
    if (axis >= (int)launch.getBlockIndices().size()) {
      diags.emit(DiagID::sema_dim_out_of_range, threadE->getRange(), axis, launch.getBlockIndices().size());
      return TValue();
    }
    index = launch.getBlockIndices()[axis];
  }
  TValue idx = TValue::ofScalar(index, DType::Index);
  if (isBlock)
    idx.lin = LinearForm::ofSymbol(symbolFor(index));
  if (start.isConst() && start.cst.isInt() && start.cst.getInt() == 0)
    return idx;
  return binaryOp(BinaryOp::Add, start, idx, range, range);
}

void KernelGen::genThreadBindingFor(const ForStmt *s, const BoundCall &call, const NameExpr *name) {
  TValue v = threadBindingValue(call);
  if (!v.isValid())
    return;
  // The body runs once on every thread, with the loop variable its index:
  // no loop is built.
  pushScope(false);
  scopes.back().names[name->getName()] = LocalVar{v, name->getRange(), depth()};
  genBody(s->getBody());
  popScope();
}

/// `for bx, by in T.Persistent([d0, d1], wave_size, index, group_size)`:
/// 1. tile t = w * wave_size + index for w in [0, ceildiv(d0 * d1, wave_size));
/// 2. skip t >= d0 * d1;
/// 3. map t to coordinates, panels of group_size columns of the last
///    dimension taken row by row (the last panel may be narrower), the
///    leading dimensions row-major; every tile is visited exactly once.
void KernelGen::genPersistentFor(const ForStmt *s, const BoundCall &call, llvm::ArrayRef<const NameExpr *> names) {
  llvm::SMRange range = call.call->getRange();
  mlir::Location l = loc(range);
  const Expr *domainE = call.get("domain");
  llvm::ArrayRef<Expr *> dims;
  if (auto *t = llvm::dyn_cast<TupleExpr>(domainE))
    dims = t->getElts();
  else if (auto *li = llvm::dyn_cast<ListExpr>(domainE))
    dims = li->getElts();
  if (dims.empty()) {
    diags.emit(DiagID::sema_wrong_arg_kind, domainE->getRange(), "domain", call.info->name, "a list of tile counts",
               "this expression");
    return;
  }
  if (names.size() != dims.size()) {
    diags.emit(DiagID::sema_bind_count, s->getTarget()->getRange(), "the loop target", names.size(),
               names.size() == 1 ? "" : "s",
               llvm::formatv("{0} domain dimension{1}", dims.size(), dims.size() == 1 ? "" : "s").str());
    return;
  }
  argFailed = false;
  std::optional<int64_t> group = constIntArg(call, "group_size");
  if (argFailed || !group)
    return;
  if (*group <= 0) {
    diags.emit(DiagID::sema_positive_const, call.rangeOf("group_size"), "group_size", *group);
    return;
  }
  llvm::SmallVector<mlir::Value, 3> extents;
  for (const Expr *e : dims) {
    TValue v = eval(e);
    mlir::Value idx = v.isValid() ? toIndex(v, e->getRange()) : mlir::Value();
    if (!idx)
      return;
    extents.push_back(idx);
  }
  TValue waveV = eval(call.get("wave_size")), indexV = eval(call.get("index"));
  if (!waveV.isValid() || !indexV.isValid())
    return;
  mlir::Value wave = toIndex(waveV, call.rangeOf("wave_size")), index = toIndex(indexV, call.rangeOf("index"));
  if (!wave || !index)
    return;
  auto cst = [&](int64_t v) { return indexConst(v, range); };
  mlir::Value total = extents[0];
  for (size_t k = 1; k < extents.size(); ++k)
    total = arith::MulIOp::create(b, l, total, extents[k]);
  mlir::Value waves = arith::CeilDivSIOp::create(b, l, total, wave);
  mlir::OpBuilder::InsertionGuard guard(b);
  auto loop = tile::ForOp::create(b, l, cst(0), waves, cst(1), tile::LoopKind::Serial, std::nullopt);
  b.setInsertionPoint(loop.getBodyBlock()->getTerminator());
  mlir::Value tileId = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, loop.getInductionVar(), wave), index);
  mlir::Value inRange = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, tileId, total);
  auto ifOp = mlir::scf::IfOp::create(b, l, inRange, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  // Coordinates: the last dimension in panels of `group` columns.
  llvm::SmallVector<mlir::Value, 3> coords(extents.size());
  mlir::Value g = cst(*group), last = extents.back();
  mlir::Value rows = cst(1);
  for (size_t k = 0; k + 1 < extents.size(); ++k)
    rows = arith::MulIOp::create(b, l, rows, extents[k]);
  mlir::Value panelTiles = arith::MulIOp::create(b, l, rows, g);
  mlir::Value panel = arith::DivSIOp::create(b, l, tileId, panelTiles);
  mlir::Value inPanel = arith::RemSIOp::create(b, l, tileId, panelTiles);
  mlir::Value first = arith::MulIOp::create(b, l, panel, g);
  mlir::Value width = arith::MinSIOp::create(b, l, g, arith::SubIOp::create(b, l, last, first));
  coords.back() = arith::AddIOp::create(b, l, first, arith::RemSIOp::create(b, l, inPanel, width));
  mlir::Value row = arith::DivSIOp::create(b, l, inPanel, width);
  for (size_t k = extents.size() - 1; k-- > 0;) {
    coords[k] = k == 0 ? row : arith::RemSIOp::create(b, l, row, extents[k]).getResult();
    if (k > 0)
      row = arith::DivSIOp::create(b, l, row, extents[k]);
  }
  pushScope(true);
  for (size_t k = 0; k < names.size(); ++k)
    scopes.back().names[names[k]->getName()] =
        LocalVar{TValue::ofScalar(coords[k], DType::Index, LinearForm::ofSymbol(symbolFor(coords[k]))),
                 names[k]->getRange(), depth()};
  ++loopDepth;
  genBody(s->getBody());
  --loopDepth;
  popScope();
}

/// `for i in T.serial(start, stop, -k)`: i = start - j * k for
/// j in [0, ceildiv(max(start - stop, 0), k)).
void KernelGen::genNegativeStepFor(const ForStmt *s, const NameExpr *name, TValue start, mlir::Value lb, mlir::Value ub,
                                   int64_t step) {
  llvm::SMRange range = s->getIter()->getRange();
  mlir::Location l = loc(s->getRange());
  mlir::Value zero = indexConst(0, range);
  mlir::Value diff = arith::MaxSIOp::create(b, l, arith::SubIOp::create(b, l, lb, ub), zero);
  mlir::Value count = arith::CeilDivSIOp::create(b, l, diff, indexConst(-step, range));
  mlir::OpBuilder::InsertionGuard guard(b);
  auto loop = tile::ForOp::create(b, l, zero, count, indexConst(1, range), tile::LoopKind::Serial, std::nullopt);
  b.setInsertionPoint(loop.getBodyBlock()->getTerminator());
  mlir::Value j = loop.getInductionVar();
  unsigned jSym = symbolFor(j);
  mlir::Value iv = arith::AddIOp::create(b, l, lb, arith::MulIOp::create(b, l, j, indexConst(step, range)));
  std::optional<LinearForm> lin;
  if (std::optional<LinearForm> lf = linOf(start))
    if (std::optional<LinearForm> sj = LinearForm::ofSymbol(jSym).scale(step))
      lin = lf->add(*sj);
  pushScope(true);
  scopes.back().names[name->getName()] = LocalVar{TValue::ofScalar(iv, DType::Index, lin), name->getRange(), depth()};
  ++loopDepth;
  genBody(s->getBody());
  --loopDepth;
  popScope();
}

/// `while cond: body` in a kernel: an scf.while whose before region
/// evaluates the condition each trip (SIMT: each thread runs its own trips;
/// the condition of a loop with tile operations must be the same for the
/// whole block). State the loop changes lives in T.alloc_var / local buffers:
/// scalars are SSA values a loop cannot carry (sema_reassign_in_loop).
void KernelGen::genWhile(const WhileStmt *s) {
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, s->getRange(), "a 'while' loop");
    return;
  }
  if (!s->getElse().empty()) {
    diags.emit(DiagID::not_supported_yet, s->getRange(), "the 'else' block of a 'while' loop");
    return;
  }
  mlir::Location l = loc(s->getRange());
  auto loop = mlir::scf::WhileOp::create(b, l, mlir::TypeRange{}, mlir::ValueRange{});
  mlir::OpBuilder::InsertionGuard guard(b);
  b.createBlock(&loop.getBefore());
  pushScope(true);
  TValue cond = eval(s->getCond());
  if (cond.isValid() && cond.isConst()) {
    diags.emit(DiagID::not_supported_yet, s->getCond()->getRange(),
               "a 'while' loop with a compile-time condition (" + cond.cst.toDisplay() +
                   "; write a condition on runtime state, or a T.serial loop)");
    cond = TValue();
  }
  if (cond.isValid() && cond.isBuffer()) {
    diags.emit(DiagID::sema_not_scalar, s->getCond()->getRange(), cond.describe());
    cond = TValue();
  }
  TValue c = cond.isValid() ? toBool(cond, s->getCond()->getRange()) : TValue();
  mlir::Value flag = c.isValid() ? c.value : mlir::arith::ConstantIntOp::create(b, l, 0, 1).getResult();
  mlir::scf::ConditionOp::create(b, l, flag, mlir::ValueRange{});
  popScope();
  b.createBlock(&loop.getAfter());
  pushScope(true);
  ++loopDepth;
  breakFlags.push_back(nullptr); // a `break` here is not supported yet
  genBody(s->getBody());
  breakFlags.pop_back();
  --loopDepth;
  popScope();
  mlir::scf::YieldOp::create(b, l);
}

void KernelGen::genBody(const Body &body) {
  // After a statement that may run the loop's `break`, the rest runs only while its flag is clear.
  std::optional<mlir::OpBuilder::InsertionGuard> guard;
  for (size_t i = 0; i < body.size(); ++i) {
    genStmt(body[i]);
    if (i + 1 < body.size() && !breakFlags.empty() && breakFlags.back() && stmtBreaks(body[i])) {
      if (!guard)
        guard.emplace(b);
      guardNotBroken(loc(body[i + 1]->getRange()));
    }
  }
}

bool KernelGen::stmtBreaks(const Stmt *s) {
  auto any = [](const Body &body) { return llvm::any_of(body, [](const Stmt *t) { return stmtBreaks(t); }); };
  if (llvm::isa<BreakStmt>(s))
    return true;
  if (auto *i = llvm::dyn_cast<IfStmt>(s))
    return any(i->getThen()) || any(i->getElse());
  if (auto *w = llvm::dyn_cast<WithStmt>(s))
    return any(w->getBody());
  return false; // a nested loop's breaks are its own
}

/// A `break` sets a per-thread flag (a local i1, cleared before the loop);
/// every iteration's body, and the rest of a body after a statement that may
/// break, run only while it is clear. The threads agree on a flag set under
/// a condition they agree on (spec §6), so tile operations after it stay
/// collective; a flag set under a thread-dependent condition makes what it
/// guards per-thread (TileSIMT rejects tile operations there).
mlir::Value KernelGen::newBreakFlag(const ForStmt *s) {
  if (!llvm::any_of(s->getBody(), [](const Stmt *t) { return stmtBreaks(t); }))
    return nullptr;
  mlir::Location l = loc(s->getRange());
  mlir::Value flag = createAlloc(l, {}, DType::Bool, tile::Scope::Local);
  mlir::Value clear = mlir::arith::ConstantIntOp::create(b, l, 0, 1);
  mlir::memref::StoreOp::create(b, l, clear, flag, mlir::ValueRange{});
  return flag;
}

void KernelGen::genBreak(const Stmt *s) {
  mlir::Location l = loc(s->getRange());
  mlir::Value set = mlir::arith::ConstantIntOp::create(b, l, 1, 1);
  mlir::memref::StoreOp::create(b, l, set, breakFlags.back(), mlir::ValueRange{});
}

void KernelGen::guardNotBroken(mlir::Location l) {
  mlir::Value broken = mlir::memref::LoadOp::create(b, l, breakFlags.back(), mlir::ValueRange{});
  mlir::Value one = mlir::arith::ConstantIntOp::create(b, l, 1, 1);
  mlir::Value clear = mlir::arith::XOrIOp::create(b, l, broken, one);
  auto ifOp = mlir::scf::IfOp::create(b, l, clear, /*withElseRegion=*/false);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
}

/// `for i, j in T.grid(m, n)`: TIR's nest of serial loops, i outermost, one
/// loop variable per extent (constant or runtime).
void KernelGen::genGridFor(const ForStmt *s, const BoundCall &bound, llvm::ArrayRef<const NameExpr *> names) {
  mlir::Location l = loc(s->getRange());
  if (names.size() != bound.extra.size()) {
    diags.emit(DiagID::sema_bind_count, s->getTarget()->getRange(), "the loop target", names.size(),
               names.size() == 1 ? "" : "s",
               llvm::formatv("{0} extent{1}", bound.extra.size(), bound.extra.size() == 1 ? "" : "s").str());
    return;
  }
  llvm::SmallVector<mlir::Value, 4> extents;
  for (const Expr *e : bound.extra) {
    TValue v = eval(e);
    if (!v.isValid())
      return;
    if (v.isBuffer() || (v.isConst() && !v.cst.isInt()) || (v.isScalar() && !isIntegerDType(v.dtype))) {
      diags.emit(DiagID::sema_wrong_arg_kind, e->getRange(), "extent", bound.info->name, "an integer", v.describe());
      return;
    }
    mlir::Value ub = toIndex(v, e->getRange());
    if (!ub)
      return;
    extents.push_back(ub);
  }
  pushScope(true);
  for (size_t k = 0; k < names.size(); ++k) {
    llvm::SMRange range = bound.extra[k]->getRange();
    auto loop = tile::ForOp::create(b, l, indexConst(0, range), extents[k], indexConst(1, range),
                                    tile::LoopKind::Serial, std::nullopt);
    b.setInsertionPoint(loop.getBodyBlock()->getTerminator());
    mlir::Value iv = loop.getInductionVar();
    scopes.back().names[names[k]->getName()] = LocalVar{
        TValue::ofScalar(iv, DType::Index, LinearForm::ofSymbol(symbolFor(iv))), names[k]->getRange(), depth()};
  }
  loopDepth += unsigned(names.size());
  genBody(s->getBody());
  loopDepth -= unsigned(names.size());
  popScope();
}
