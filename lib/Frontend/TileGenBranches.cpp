//===- TileGenBranches.cpp - Names assigned in the branches of an if -----===//
//
// Python has no block scope: a name assigned inside an `if` is visible after
// it. A runtime `if` generates each branch in a scope of its own; afterwards
// every name either branch assigned is merged into the enclosing scope:
//  - assigned on both paths (in both branches, or before the `if` and in one
//    branch) to scalars or constants: the scf.if is rebuilt with one result
//    per such name, each branch yielding its value converted to one common
//    dtype (equal constants stay constants, one buffer stays that buffer);
//  - assigned on one path only, or to values that cannot be merged (two
//    buffers, scalars of different dtypes): the name becomes a marker that
//    reports why at its first read; assigning it again rebinds it.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

using namespace tilec;
using namespace tilec::detail;

void KernelGen::reportUnusable(const LocalVar &var, llvm::StringRef name, llvm::SMRange use) {
  if (var.state == LocalVar::State::Failed)
    return; // its assignment has reported the error
  if (var.state == LocalVar::State::BeforeGridSync) {
    auto diag = diags.emit(DiagID::sema_before_sync_grid, use, name);
    diags.note(diag, DiagID::sema_note_assigned_here, var.declRange, name);
    return;
  }
  if (var.state == LocalVar::State::MaybeUnbound) {
    auto diag = diags.emit(DiagID::sema_maybe_unbound, use, name);
    diags.note(diag, DiagID::sema_note_assigned_here, var.declRange, name);
    return;
  }
  auto diag = diags.emit(DiagID::sema_branch_conflict, use, name, var.thenDesc, var.elseDesc);
  diags.note(diag, DiagID::sema_note_assigned_here, var.declRange, name);
  if (var.otherRange.Start != var.declRange.Start)
    diags.note(diag, DiagID::sema_note_assigned_here, var.otherRange, name);
}

void KernelGen::bindFailed(const ast::Expr *target) {
  if (auto *t = llvm::dyn_cast<ast::TupleExpr>(target)) {
    for (const ast::Expr *e : t->getElts())
      bindFailed(e);
    return;
  }
  auto *n = llvm::dyn_cast<ast::NameExpr>(target);
  if (!n || lookupLocal(n->getName()) || params.count(n->getName()))
    return;
  LocalVar failed;
  failed.state = LocalVar::State::Failed;
  failed.declRange = n->getRange();
  failed.depth = depth();
  scopes.back().names[n->getName()] = failed;
}

namespace {
/// A name whose two paths give scalars or constants of one dtype.
struct Merged {
  llvm::StringRef name;
  TValue thenValue, elseValue;
  DType dtype;
  llvm::SMRange range;
};
} // namespace

/// The binding one path through the `if` leaves: the branch's own, else the
/// one from before the `if` (null when there is none).
static const LocalVar *pathBinding(const LocalScope &branch, llvm::StringRef name, const LocalVar *before) {
  auto it = branch.names.find(name);
  return it != branch.names.end() ? &it->second : before;
}

static bool constFits(const ConstValue &c, DType t) {
  return c.isNumber() && (isFloatDType(t) || c.getKind() != ConstValue::Kind::Float);
}

/// The dtype both values convert to without a cast, as one operator's operands
/// would (a literal adopts the other side's type; index acts as any integer).
static std::optional<DType> mergeType(const TValue &a, const TValue &b) {
  if (a.isScalar() && b.isScalar()) {
    if (a.dtype == b.dtype)
      return a.dtype;
    auto anyInt = [](DType t) { return isIntegerDType(t) && t != DType::Bool; };
    if (a.dtype == DType::Index && anyInt(b.dtype))
      return b.dtype;
    if (b.dtype == DType::Index && anyInt(a.dtype))
      return a.dtype;
    return std::nullopt;
  }
  if (a.isScalar() && b.isConst())
    return constFits(b.cst, a.dtype) ? std::optional<DType>(a.dtype) : std::nullopt;
  if (b.isScalar() && a.isConst())
    return constFits(a.cst, b.dtype) ? std::optional<DType>(b.dtype) : std::nullopt;
  if (!a.isConst() || !b.isConst() || !a.cst.isNumber() || !b.cst.isNumber())
    return std::nullopt;
  if (a.cst.getKind() == ConstValue::Kind::Float || b.cst.getKind() == ConstValue::Kind::Float)
    return DType::Float32;
  if (a.cst.getKind() == ConstValue::Kind::Bool && b.cst.getKind() == ConstValue::Kind::Bool)
    return DType::Bool;
  return DType::Int32;
}

void KernelGen::mergeBranches(mlir::scf::IfOp ifOp, const ast::IfStmt *s, const LocalScope &thenScope,
                              const LocalScope &elseScope) {
  llvm::SmallVector<llvm::StringRef, 8> names;
  for (const LocalScope *scope : {&thenScope, &elseScope})
    for (const auto &entry : scope->names)
      names.push_back(entry.getKey());
  llvm::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());

  auto bindAfter = [&](llvm::StringRef name, LocalVar var) {
    var.depth = depth();
    scopes.back().names[name] = std::move(var);
  };
  llvm::SmallVector<Merged, 4> merged;
  for (llvm::StringRef name : names) {
    const LocalVar *before = lookupLocal(name);
    if (before && !before->isBound())
      before = nullptr;
    const LocalVar *t = pathBinding(thenScope, name, before);
    const LocalVar *e = pathBinding(elseScope, name, before);
    // A path that leaves the name unusable (a nested `if`'s conflict, a
    // failed assignment) passes that on; one that leaves it unbound makes it maybe-unbound.
    for (const LocalVar *v : {t, e})
      if (v && (v->state == LocalVar::State::Conflict || v->state == LocalVar::State::Failed)) {
        bindAfter(name, *v);
        t = e = nullptr;
        break;
      }
    if (!t && !e)
      continue;
    if (!t || !e || !t->isBound() || !e->isBound()) {
      LocalVar marker;
      marker.state = LocalVar::State::MaybeUnbound;
      const LocalVar *bound = t && t->isBound() ? t : e && e->isBound() ? e : (t ? t : e);
      marker.declRange = bound->declRange;
      bindAfter(name, marker);
      continue;
    }
    const TValue &tv = t->value, &ev = e->value;
    bool tScalarLike = tv.isScalar() || tv.isConst(), eScalarLike = ev.isScalar() || ev.isConst();
    if (!tScalarLike || !eScalarLike) {
      if (tv.kind == ev.kind && tv.buffer == ev.buffer) {
        bindAfter(name, *t); // the same buffer on both paths
        continue;
      }
    } else if (tv.isConst() && ev.isConst() && tv.cst.getKind() == ev.cst.getKind() &&
               tv.cst.str() == ev.cst.str()) {
      bindAfter(name, *t); // the same constant on both paths
      continue;
    } else if (std::optional<DType> type = mergeType(tv, ev)) {
      merged.push_back({name, tv, ev, *type, t->declRange});
      continue;
    }
    LocalVar marker;
    marker.state = LocalVar::State::Conflict;
    marker.declRange = t->declRange;
    marker.otherRange = e->declRange;
    marker.thenDesc = tv.describe();
    marker.elseDesc = ev.describe();
    bindAfter(name, marker);
  }
  if (merged.empty())
    return;

  // Rebuild the scf.if with a result per merged name; its regions move over.
  llvm::SmallVector<mlir::Type, 4> types;
  for (const Merged &m : merged)
    types.push_back(elementType(m.dtype));
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp);
  auto newIf = mlir::scf::IfOp::create(b, ifOp.getLoc(), types, ifOp.getCondition(), /*withElseRegion=*/true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  if (!ifOp.getElseRegion().empty())
    newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  auto yield = [&](mlir::Block *block, bool thenSide) {
    mlir::Operation *old = block->empty() ? nullptr : &block->back();
    if (old && llvm::isa<mlir::scf::YieldOp>(old))
      b.setInsertionPoint(old);
    else
      b.setInsertionPointToEnd(block), old = nullptr;
    llvm::SmallVector<mlir::Value, 4> values;
    for (const Merged &m : merged) {
      TValue v = convert(thenSide ? m.thenValue : m.elseValue, m.dtype, m.range);
      if (!v.isValid()) // reported; keep the IR well formed
        v = materialize(ConstValue::ofInt(0), m.dtype, m.range);
      values.push_back(v.value);
    }
    mlir::scf::YieldOp::create(b, loc(s->getRange()), values);
    if (old)
      old->erase();
  };
  yield(newIf.thenBlock(), true);
  yield(newIf.elseBlock(), false);
  ifOp.erase();
  for (auto [k, m] : llvm::enumerate(merged))
    bindAfter(m.name, LocalVar{TValue::ofScalar(newIf.getResult(k), m.dtype), m.range, depth()});
}
