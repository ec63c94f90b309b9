//===- TileGen.cpp - Kernels and statements to the tile dialect ----------===//
//
// 1. Sema resolves the module (constants, -D, factories, kernel parameters).
// 2. Each kernel becomes a tile.kernel whose arguments are its tensors, then
//    runtime dimensions, then scalars; its body is checked and built
//    statement by statement (every op gets its construct's source range).
// 3. The module is verified; any error makes the result null.
//
//===----------------------------------------------------------------------===//
#include "TileGenImpl.h"

#include "tilec/Frontend/TileGen.h"

#include "tilec/Dialect/Tile/IR/TileSIMT.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"

using namespace tilec;
using namespace tilec::detail;
using namespace tilec::ast;

//===----------------------------------------------------------------------===//
// Descriptions for messages
//===----------------------------------------------------------------------===//

std::string BufferInfo::shapeStr() const {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d)
      s += ", ";
    s += mlir::ShapedType::isDynamic(shape[d]) ? dimNames[d] : std::to_string(shape[d]);
  }
  return s + "]";
}

static llvm::StringRef scopeName(tile::Scope s) {
  switch (s) {
  case tile::Scope::Global:
    return "global";
  case tile::Scope::Shared:
    return "shared";
  case tile::Scope::Fragment:
    return "fragment";
  case tile::Scope::Local:
    return "local";
  }
  return "?";
}

std::string TValue::describe() const {
  switch (kind) {
  case Kind::Invalid:
    return "an invalid value";
  case Kind::Const:
    return cst.describe();
  case Kind::Scalar:
    return ("a " + dtypeName(dtype) + " scalar").str();
  case Kind::Buffer:
    return ((buffer->isVar ? "variable '" : scopeName(buffer->scope) + " buffer '") + buffer->name + "'").str();
  case Kind::Layout:
    return "a layout";
  }
  return "a value";
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

mlir::Type KernelGen::elementType(DType t) {
  mlir::MLIRContext *ctx = b.getContext();
  switch (t) {
  case DType::Float16:
    return b.getF16Type();
  case DType::BFloat16:
    return b.getBF16Type();
  case DType::Float32:
    return b.getF32Type();
  case DType::Float64:
    return b.getF64Type();
  case DType::Float8E4M3:
    return mlir::Float8E4M3FNType::get(ctx);
  case DType::Float8E5M2:
    return mlir::Float8E5M2Type::get(ctx);
  case DType::Float4E2M1:
    return mlir::Float4E2M1FNType::get(ctx);
  case DType::Int8:
  case DType::UInt8:
    return b.getI8Type();
  case DType::Int16:
  case DType::UInt16:
    return b.getI16Type();
  case DType::Int32:
  case DType::UInt32:
    return b.getI32Type();
  case DType::Int64:
  case DType::UInt64:
    return b.getI64Type();
  case DType::Bool:
    return b.getI1Type();
  case DType::Int4:
  case DType::UInt4:
    return b.getIntegerType(4);
  case DType::Index:
    return b.getIndexType();
  }
  return b.getI32Type();
}

mlir::Value KernelGen::createAlloc(mlir::Location l, llvm::ArrayRef<int64_t> shape, DType dtype, tile::Scope scope) {
  // A buffer allocated inside a loop or branch lives for the whole launch, as
  // in tile-lang: the allocation moves to the start of the launch body (it has
  // no operands); its uses, and T.alloc_var's initial store, stay in place.
  mlir::OpBuilder::InsertionGuard guard(b);
  if (launch && b.getInsertionBlock() != launch.getBodyBlock() &&
      launch->isAncestor(b.getInsertionBlock()->getParentOp())) {
    mlir::Block *body = launch.getBodyBlock();
    auto it = body->begin(); // after the allocations that open the body, in source order
    while (it != body->end() && mlir::isa<tile::AllocOp>(*it))
      ++it;
    b.setInsertionPoint(body, it);
  }
  auto alloc = tile::AllocOp::create(b, l, tile::getBufferType(shape, elementType(dtype), scope));
  if (isUnsignedDType(dtype))
    tile::setDtype(alloc, b.getStringAttr(dtypeName(dtype)));
  return alloc;
}

unsigned KernelGen::symbolFor(mlir::Value v) {
  auto it = symbols.find(v);
  if (it != symbols.end())
    return it->second;
  // Two reads of a T.alloc_var with nothing but pure operations between them
  // are one value (`x[v + a:v + b]` has the constant extent b - a).
  if (auto ld = v.getDefiningOp<mlir::memref::LoadOp>();
      ld && ld.getIndices().empty() && tile::getBufferScope(ld.getMemRefType()) == tile::Scope::Local)
    for (mlir::Operation *op = ld->getPrevNode(); op; op = op->getPrevNode()) {
      auto prev = mlir::dyn_cast<mlir::memref::LoadOp>(op);
      if (prev && prev.getMemRef() == ld.getMemRef()) {
        auto found = symbols.find(prev.getResult());
        if (found == symbols.end())
          break;
        symbols[v] = found->second;
        return found->second;
      }
      if (!prev && !mlir::isPure(op))
        break;
    }
  unsigned id = symbols.size();
  symbols[v] = id;
  return id;
}

LocalVar *KernelGen::lookupLocal(llvm::StringRef name) {
  // A macro body sees its own scopes only (hygiene): not the caller's.
  for (size_t k = scopes.size(); k > scopeFloor; --k) {
    auto found = scopes[k - 1].names.find(name);
    if (found != scopes[k - 1].names.end())
      return &found->second;
  }
  return nullptr;
}

bool KernelGen::build(mlir::ModuleOp module) {
  errorsAtStart = diags.getNumErrors();
  const FunctionDefStmt *fn = info.def;
  mlir::MLIRContext *ctx = b.getContext();

  // Arguments: tensors, runtime dimensions, scalars.
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<mlir::DictionaryAttr> argAttrs;
  auto attrs = [&](llvm::StringRef name, llvm::StringRef dtype, bool dynamic) {
    return tile::makeArgAttrs(ctx, name, dtype, dynamic);
  };
  for (const KernelParam &p : info.params) {
    if (p.kind != KernelParam::Kind::Tensor)
      continue;
    llvm::SmallVector<int64_t, 4> shape;
    for (const ShapeDim &d : p.shape)
      shape.push_back(d.isDynamic() ? mlir::ShapedType::kDynamic : d.size);
    types.push_back(tile::getBufferType(shape, elementType(p.dtype), tile::Scope::Global));
    // The ABI documents each dimension by value or by its runtime name.
    llvm::SmallVector<mlir::Attribute, 4> dimNames;
    for (const ShapeDim &d : p.shape)
      dimNames.push_back(b.getStringAttr(d.isDynamic() ? d.dynamicName : std::to_string(d.size)));
    argAttrs.push_back(tile::makeArgAttrs(ctx, p.name, dtypeName(p.dtype), false, b.getArrayAttr(dimNames)));
  }
  for (const std::string &d : info.dynamicDims) {
    types.push_back(b.getIndexType());
    argAttrs.push_back(attrs(d, "", true));
  }
  for (const KernelParam &p : info.params) {
    if (p.kind != KernelParam::Kind::Scalar)
      continue;
    types.push_back(elementType(p.dtype));
    argAttrs.push_back(attrs(p.name, dtypeName(p.dtype), false));
  }

  b.setInsertionPointToEnd(module.getBody());
  auto kernel =
      tile::KernelOp::create(b, loc(fn->getNameRange()), info.exportName, b.getFunctionType(types, {}), {}, argAttrs);
  mlir::Block *entry = kernel.addEntryBlock();
  b.setInsertionPointToStart(entry);

  // Bind the arguments by name.
  unsigned argNo = 0;
  for (const KernelParam &p : info.params) {
    if (p.kind != KernelParam::Kind::Tensor)
      continue;
    BufferInfo *buf = newBuffer();
    buf->name = p.name;
    buf->value = entry->getArgument(argNo++);
    buf->dtype = p.dtype;
    buf->scope = tile::Scope::Global;
    buf->declRange = p.range;
    buf->isParam = true;
    buf->value.setLoc(loc(p.range)); // where target diagnostics about the tensor point
    for (const ShapeDim &d : p.shape) {
      buf->shape.push_back(d.isDynamic() ? mlir::ShapedType::kDynamic : d.size);
      buf->dimNames.push_back(d.dynamicName);
    }
    params[p.name] = TValue::ofBuffer(buf);
  }
  for (const std::string &d : info.dynamicDims) {
    mlir::Value v = entry->getArgument(argNo++);
    dynamicDims[d] = v;
  }
  for (const KernelParam &p : info.params) {
    if (p.kind != KernelParam::Kind::Scalar)
      continue;
    mlir::Value v = entry->getArgument(argNo++);
    params[p.name] = TValue::ofScalar(v, p.dtype);
  }
  (void)ctx;

  pushScope(false);
  for (const Stmt *s : info.body)
    genStmt(s);
  popScope();
  if (launches.empty() && diags.getNumErrors() == errorsAtStart)
    diags.emit(DiagID::sema_kernel_missing, fn->getNameRange(), fn->getName());

  b.setInsertionPointToEnd(entry);
  tile::ReturnOp::create(b, loc(fn->getRange()));
  attachExternSources();
  if (diags.getNumErrors() != errorsAtStart)
    return false;
  // Spec §6: every thread reaches each tile operation.
  for (tile::LaunchOp l : launches) {
    if (mlir::failed(tile::structureThreadRangeIfs(l)) || mlir::failed(tile::checkUniformControl(l)))
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

// genBody: TileGenLoops.cpp (a body after a statement that may `break`).

void KernelGen::genStmt(const Stmt *s) {
  switch (s->getKind()) {
  case Stmt::Kind::Assign: {
    // One mistake, one diagnostic: the names a failed assignment binds are
    // silent where they are used (bindFailed).
    unsigned errors = diags.getNumErrors();
    genAssign(llvm::cast<AssignStmt>(s));
    if (diags.getNumErrors() > errors && scopes.size())
      for (const Expr *t : llvm::cast<AssignStmt>(s)->getTargets())
        bindFailed(t);
    return;
  }
  case Stmt::Kind::AugAssign:
    return genAugAssign(llvm::cast<AugAssignStmt>(s));
  case Stmt::Kind::Expr:
    return genExprStmt(llvm::cast<ExprStmt>(s));
  case Stmt::Kind::Pass:
    return;
  case Stmt::Kind::If:
    return genIf(llvm::cast<IfStmt>(s));
  case Stmt::Kind::For:
    if (!launch) {
      diags.emit(DiagID::sema_outside_launch, s->getRange(), "a 'for' loop");
      return;
    }
    return genFor(llvm::cast<ForStmt>(s));
  case Stmt::Kind::While:
    return genWhile(llvm::cast<WhileStmt>(s));
  case Stmt::Kind::With:
    return genWith(llvm::cast<WithStmt>(s));
  case Stmt::Kind::Return:
    diags.emit(DiagID::sema_bad_stmt, s->getRange(), "'return'");
    return;
  case Stmt::Kind::Import:
    diags.emit(DiagID::sema_bad_stmt, s->getRange(), "'import'");
    return;
  case Stmt::Kind::FunctionDef:
    return genNestedDef(llvm::cast<FunctionDefStmt>(s));
  case Stmt::Kind::Assert:
    return genAssert(llvm::cast<AssertStmt>(s));
  case Stmt::Kind::Break: // in a loop that takes it (TileGenLoops.cpp)
    if (!breakFlags.empty() && breakFlags.back())
      return genBreak(s);
    [[fallthrough]];
  default: // statements of spec v1 kernel code generation does not know
    diags.emit(DiagID::not_supported_yet, s->getRange(), describe(s));
    return;
  }
}

/// `assert cond, msg` in kernel code (a macro or an inlined helper checking
/// its arguments): checked at compile time, as tile-lang checks it while it
/// traces; a condition on a runtime value has no compile-time truth.
void KernelGen::genAssert(const AssertStmt *s) {
  TValue c = eval(s->getTest());
  if (!c.isValid())
    return;
  if (!c.isConst()) {
    diags.emit(DiagID::meta_error, s->getTest()->getRange(),
               "this assert's condition is " + c.describe() +
                   ", not a compile-time value; an assert in kernel code checks compile-time conditions "
                   "(use an 'if' for a runtime check)");
    return;
  }
  if (c.cst.truthy())
    return;
  std::string msg;
  if (s->getMsg()) {
    TValue m = eval(s->getMsg());
    if (m.isValid() && m.isConst())
      msg = ": " + m.cst.toDisplay();
  }
  diags.emit(DiagID::meta_assert_failed, s->getRange(), msg);
}

void KernelGen::genWith(const WithStmt *s) {
  auto *call = llvm::dyn_cast<CallExpr>(s->getContext());
  if (call && calleeName(call->getCallee()) == "T.attr")
    return genAllReduce(call, s);
  const BuiltinInfo *info = call ? resolveCallee(call, true) : nullptr;
  if (info && (info->id == BuiltinID::WarpSpecialize || info->id == BuiltinID::IketRange)) {
    BoundCall bound;
    if (bindCall(*info, call, diags, bound))
      info->id == BuiltinID::IketRange ? genProfileRange(bound, s) : genWarpGroup(bound, s);
    return;
  }
  if (!call || (info && info->id != BuiltinID::Kernel)) {
    if (call && !info)
      return;
    diags.emit(DiagID::sema_bad_stmt, s->getContext()->getRange(), "this 'with' context (only T.Kernel and T.ws)");
    return;
  }
  if (!info)
    return;
  if (launch) {
    diags.emit(DiagID::sema_kernel_nested, call->getRange());
    return;
  }
  if (depth() != 1 || constBranchDepth) {
    diags.emit(DiagID::sema_kernel_outside_body, call->getRange(), "inside a loop or branch");
    return;
  }
  BoundCall bound;
  if (!bindCall(*info, call, diags, bound))
    return;
  genLaunch(bound, s);
}

/// The primitive `mod.name` names when `mod` is a module bound at the meta
/// level (`iket.mark`); nullptr otherwise (nothing is evaluated or reported).
const BuiltinInfo *KernelGen::modulePrimitive(const Expr *callee) {
  auto *a = llvm::dyn_cast<AttributeExpr>(callee);
  auto *n = a ? llvm::dyn_cast<NameExpr>(a->getValue()) : nullptr;
  if (!n || lookupLocal(n->getName()) || params.count(n->getName()))
    return nullptr;
  const meta::Binding *bnd = metaEnv->lookup(n->getName());
  if (!bnd || !bnd->value.is(meta::Value::Kind::Module))
    return nullptr;
  const auto &attrs = bnd->value.as<meta::ModuleObj>()->attrs;
  auto it = attrs.find(a->getAttr());
  if (it == attrs.end() || !it->second.is(meta::Value::Kind::Builtin))
    return nullptr;
  return it->second.as<meta::BuiltinObj>()->prim;
}

void KernelGen::genExprStmt(const ExprStmt *s) {
  const Expr *e = s->getExpr();
  if (llvm::isa<StrLitExpr>(e) || llvm::isa<ErrorExpr>(e))
    return; // docstring, or already reported
  auto *call = llvm::dyn_cast<CallExpr>(e);
  const BuiltinInfo *info = nullptr;
  if (call && llvm::StringRef(calleeName(call->getCallee())).starts_with("T.")) {
    if (!(info = resolveCallee(call, true)))
      return;
  } else if (call) {
    info = modulePrimitive(call->getCallee());
  }
  if (info) {
    if (info->context == BuiltinContext::Stmt) {
      if (!launch) {
        diags.emit(DiagID::sema_outside_launch, call->getCallee()->getRange(), info->name);
        return;
      }
      BoundCall bound;
      if (bindCall(*info, call, diags, bound))
        genTileStmt(bound);
      return;
    }
  }
  TValue v = eval(e);
  // A macro or helper call used as a statement returns None: nothing unused.
  if (v.isValid() && !(v.isConst() && v.cst.is(meta::Value::Kind::None)))
    diags.emit(DiagID::sema_expr_unused, e->getRange());
}

void KernelGen::bindName(const NameExpr *target, TValue value, llvm::SMRange valueRange) {
  llvm::StringRef name = target->getName();
  if (!value.isValid()) {
    bindFailed(target); // the value's error is reported; its uses stay silent
    return;
  }
  if (auto it = params.find(name); it != params.end()) {
    diags.emit(DiagID::sema_store_global_scalar, target->getRange(), name);
    return;
  }
  LocalVar *var = lookupLocal(name);
  if (var && !var->isBound())
    var = nullptr; // left unusable by an `if`: a fresh binding
  if (var) {
    // An alloc_var is stored to.
    if (var->value.isBuffer() && var->value.buffer->isVar) {
      BufferInfo *buf = var->value.buffer;
      if (value.isBuffer()) {
        diags.emit(DiagID::sema_not_scalar, valueRange, value.describe());
        return;
      }
      TValue v = implicitCast(value, buf->dtype, "variable '" + name.str() + "'", valueRange);
      if (!v.isValid())
        return;
      mlir::memref::StoreOp::create(b, loc(target->getRange()), v.value, buf->value, mlir::ValueRange{});
      return;
    }
    if (var->value.isBuffer() || value.isBuffer()) {
      auto diag = diags.emit(DiagID::sema_redefinition, target->getRange(), name, var->value.describe());
      diags.note(diag, DiagID::sema_note_previous_definition, var->declRange, name);
      return;
    }
    if (var->depth < depth()) {
      // Scalars are SSA values: a loop cannot carry them, but a branch can
      // (its new value is merged after the `if`, see mergeBranches).
      bool inLoop = false;
      for (unsigned d = var->depth; d < depth(); ++d)
        inLoop |= scopes[d].isLoop;
      if (inLoop) {
        auto diag = diags.emit(DiagID::sema_reassign_in_loop, target->getRange(), name);
        diags.note(diag, DiagID::sema_note_declared_here, var->declRange, name);
        return;
      }
      LocalVar shadow{value, target->getRange(), depth()};
      scopes.back().names[name] = shadow;
      return;
    }
    var->value = value;
    return;
  }
  LocalVar fresh;
  fresh.value = value;
  fresh.declRange = target->getRange();
  fresh.depth = depth();
  if (value.isBuffer() && !value.buffer->isParam && value.buffer->name.empty())
    value.buffer->name = name.str();
  scopes.back().names[name] = fresh;
}

void KernelGen::genAssign(const AssignStmt *s) {
  llvm::ArrayRef<Expr *> targets = s->getTargets();
  const Expr *valueExpr = s->getValue();
  if (!valueExpr)
    return;
  // `X = T.alloc_*(...)`.
  // (also through a meta value: `alloc = T.alloc_fragment if c else T.alloc_shared`).
  if (auto *call = llvm::dyn_cast<CallExpr>(valueExpr)) {
    bool spelled = llvm::StringRef(calleeName(call->getCallee())).starts_with("T.alloc_");
    const BuiltinInfo *info = resolveCallee(call, spelled);
    if (spelled && !info)
      return;
    if (info && (info->id == BuiltinID::AllocGlobal || info->id == BuiltinID::AllocBuffer)) {
      if (targets.size() != 1 || !llvm::isa<NameExpr>(targets[0])) {
        diags.emit(DiagID::sema_bad_target, targets[0]->getRange(), "this target (an allocation binds one name)");
        return;
      }
      BoundCall bound;
      if (bindCall(*info, call, diags, bound))
        genGlobalAlloc(bound, llvm::cast<NameExpr>(targets[0]));
      return;
    }
    if (info && info->context == BuiltinContext::Alloc) {
      if (!launch) {
        diags.emit(DiagID::sema_outside_launch, call->getCallee()->getRange(), info->name);
        return;
      }
      if (targets.size() != 1 || !llvm::isa<NameExpr>(targets[0])) {
        diags.emit(DiagID::sema_bad_target, targets[0]->getRange(), "this target (an allocation binds one name)");
        return;
      }
      BoundCall bound;
      if (bindCall(*info, call, diags, bound))
        genAlloc(bound, llvm::cast<NameExpr>(targets[0]));
      return;
    }
  }
  for (const Expr *target : targets) {
    if (auto *sub = llvm::dyn_cast<SubscriptExpr>(target)) {
      TValue v = eval(valueExpr);
      if (v.isValid())
        storeElement(sub, v);
      continue;
    }
    if (auto *n = llvm::dyn_cast<NameExpr>(target)) {
      TValue v = eval(valueExpr);
      bindName(n, v, valueExpr->getRange());
      continue;
    }
    if (auto *t = llvm::dyn_cast<TupleExpr>(target)) {
      // `a, b = x, y` element-wise, or unpacking a constant tuple.
      llvm::ArrayRef<Expr *> names = t->getElts();
      if (auto *vt = llvm::dyn_cast<TupleExpr>(valueExpr); vt && vt->getElts().size() == names.size()) {
        llvm::SmallVector<TValue, 4> values;
        for (const Expr *e : vt->getElts())
          values.push_back(eval(e));
        // Every value is read before any target is written (`a[0], a[1] = a[1], a[0]` swaps).
        for (size_t k = 0; k < names.size(); ++k) {
          if (auto *n = llvm::dyn_cast<NameExpr>(names[k]))
            bindName(n, values[k], vt->getElts()[k]->getRange());
          else if (auto *sub = llvm::dyn_cast<SubscriptExpr>(names[k]); sub && values[k].isValid())
            storeElement(sub, values[k]);
          else if (!sub)
            diags.emit(DiagID::sema_bad_target, names[k]->getRange(), "this tuple element");
        }
        continue;
      }
      TValue v = eval(valueExpr);
      if (!v.isValid())
        continue;
      if (!v.isConst() || v.cst.getKind() != ConstValue::Kind::Tuple || v.cst.getElts().size() != names.size()) {
        size_t n = v.isConst() && v.cst.getKind() == ConstValue::Kind::Tuple ? v.cst.getElts().size() : 1;
        diags.emit(DiagID::sema_tuple_unpack_count, valueExpr->getRange(), n, n == 1 ? "" : "s", names.size(),
                   names.size() == 1 ? "" : "s");
        continue;
      }
      for (size_t k = 0; k < names.size(); ++k) {
        if (auto *n = llvm::dyn_cast<NameExpr>(names[k]))
          bindName(n, TValue::ofConst(v.cst.getElts()[k]), valueExpr->getRange());
        else
          diags.emit(DiagID::sema_bad_target, names[k]->getRange(), "this tuple element");
      }
      continue;
    }
    diags.emit(DiagID::sema_bad_target, target->getRange(), "this expression");
  }
}

void KernelGen::storeElement(const SubscriptExpr *target, TValue value) {
  TValue base = eval(target->getValue());
  if (!base.isValid())
    return;
  if (!base.isBuffer()) {
    diags.emit(DiagID::sema_not_buffer, target->getValue()->getRange(), base.describe());
    return;
  }
  BufferInfo *buf = base.buffer;
  llvm::SmallVector<mlir::Value, 4> idx;
  if (!elementIndices(buf, target->getIndices(), target->getRange(), idx))
    return;
  if (value.isBuffer()) {
    diags.emit(DiagID::sema_not_scalar, target->getRange(), value.describe());
    return;
  }
  // A store converts to the buffer's element type, as T.copy does.
  TValue v = implicitCast(value, buf->dtype, "buffer '" + buf->name + "'", target->getRange());
  if (!v.isValid())
    return;
  guardedForLayout(buf, idx, target->getRange(),
                   [&] { mlir::memref::StoreOp::create(b, loc(target->getRange()), v.value, buf->value, idx); });
}

void KernelGen::genAugAssign(const AugAssignStmt *s) {
  const Expr *target = s->getTarget();
  TValue cur = eval(target);
  TValue rhs = eval(s->getValue());
  if (!cur.isValid() || !rhs.isValid())
    return;
  TValue result = binaryOp(s->getOp(), cur, rhs, s->getOpRange(), s->getRange());
  if (!result.isValid())
    return;
  if (auto *sub = llvm::dyn_cast<SubscriptExpr>(target))
    return storeElement(sub, result);
  if (auto *n = llvm::dyn_cast<NameExpr>(target))
    return bindName(n, result, s->getRange());
  diags.emit(DiagID::sema_bad_target, target->getRange(), "this expression");
}

void KernelGen::genIf(const IfStmt *s) {
  TValue cond = eval(s->getCond());
  if (!cond.isValid())
    return;
  if (cond.isBuffer()) {
    diags.emit(DiagID::sema_not_scalar, s->getCond()->getRange(), cond.describe());
    return;
  }
  // A constant condition selects its branch at compile time; as in Python,
  // the names it binds stay visible after the `if`.
  if (cond.isConst()) {
    ++constBranchDepth;
    genBody(cond.cst.truthy() ? s->getThen() : s->getElse());
    --constBranchDepth;
    return;
  }
  if (!launch) {
    diags.emit(DiagID::sema_outside_launch, s->getCond()->getRange(), "a runtime 'if'");
    return;
  }
  TValue c = toBool(cond, s->getCond()->getRange());
  if (!c.isValid())
    return;
  auto ifOp = mlir::scf::IfOp::create(b, loc(s->getRange()), c.value, !s->getElse().empty());
  LocalScope thenScope, elseScope;
  {
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    pushScope(false);
    genBody(s->getThen());
    thenScope = std::move(scopes.back());
    popScope();
    if (!s->getElse().empty()) {
      b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      pushScope(false);
      genBody(s->getElse());
      elseScope = std::move(scopes.back());
      popScope();
    }
  }
  mergeBranches(ifOp, s, thenScope, elseScope);
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

mlir::OwningOpRef<mlir::ModuleOp> tilec::generateTileModule(const Module &module, llvm::SourceMgr &srcMgr,
                                                            ASTContext &ctx, DiagnosticEmitter &diags,
                                                            mlir::MLIRContext &mlirCtx, const FrontendOptions &opts) {
  mlirCtx.loadDialect<tile::TileDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::memref::MemRefDialect, mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect>();
  unsigned errorsBefore = diags.getNumErrors();
  Sema sema(diags, srcMgr, ctx);
  SemaModule sm;
  bool semaOk = sema.analyze(module, opts, sm);

  llvm::SMRange fileRange;
  if (module.bufferId && module.bufferId <= srcMgr.getNumBuffers())
    fileRange.Start = llvm::SMLoc::getFromPointer(srcMgr.getMemoryBuffer(module.bufferId)->getBufferStart());
  mlir::OpBuilder builder(&mlirCtx);
  mlir::OwningOpRef<mlir::ModuleOp> result = mlir::ModuleOp::create(diags.getLoc(fileRange));
  bool built = true;
  for (const KernelInfo &k : sm.kernels) {
    // Errors in the body show the meta call stack that defined the kernel.
    auto &stack = sm.interp->getStack();
    stack.clear();
    for (auto &[what, range] : k.frames)
      stack.push_back({what, range});
    KernelGen gen(diags, builder, k);
    built &= gen.build(*result);
    stack.clear();
  }
  if (!semaOk || !built || diags.getNumErrors() != errorsBefore)
    return nullptr;
  if (mlir::failed(mlir::verify(*result)))
    return nullptr;
  return result;
}

mlir::OwningOpRef<mlir::ModuleOp> tilec::generateTileModule(const Module &module, llvm::SourceMgr &srcMgr,
                                                            ASTContext &ctx, DiagnosticEmitter &diags,
                                                            mlir::MLIRContext &mlirCtx,
                                                            llvm::ArrayRef<Define> defines) {
  FrontendOptions opts;
  opts.defines.assign(defines.begin(), defines.end());
  return generateTileModule(module, srcMgr, ctx, diags, mlirCtx, opts);
}
