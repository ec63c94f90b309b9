//===- Sema.cpp - Module-level semantic analysis --------------------------===//
//
// 1. Parse every -D value into its own source buffer.
// 2. Walk the module in order: imports (warn on unknown modules), constants
//    (a -D replaces the value), kernels and factories.
// 3. A factory's parameters become constants of a child scope; its one
//    @T.prim_func is the kernel, exported under the factory's name.
// 4. Resolve each kernel's parameters; report -D names that matched nothing.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Sema.h"

#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/TileGen.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace tilec;
using namespace tilec::ast;

bool tilec::isPrimFuncDecorator(const Expr *d) {
  if (auto *c = llvm::dyn_cast<CallExpr>(d))
    d = c->getCallee();
  std::string name = calleeName(d);
  return name == "T.prim_func" || name == "tilelang.language.prim_func" || name == "prim_func";
}

bool tilec::isJitDecorator(const Expr *d) {
  if (auto *c = llvm::dyn_cast<CallExpr>(d))
    d = c->getCallee();
  std::string name = calleeName(d);
  return name == "tilelang.jit" || name == "jit" || name == "tilelang.autotune" || name == "autotune";
}

void Sema::parseDefines(llvm::ArrayRef<Define> defines) {
  for (const Define &d : defines) {
    std::string bufName = "<-D " + d.name + ">";
    unsigned id = srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(d.value, bufName), llvm::SMLoc());
    const llvm::MemoryBuffer *buf = srcMgr.getMemoryBuffer(id);
    PendingDefine p;
    p.name = d.name;
    p.range = llvm::SMRange(llvm::SMLoc::getFromPointer(buf->getBufferStart()),
                            llvm::SMLoc::getFromPointer(buf->getBufferEnd()));
    // A bare dtype spelling (`-D dtype=float16`) means the dtype.
    if (auto t = parseDType(llvm::StringRef(d.value).trim())) {
      (void)t;
      p.value = ctx.create<StrLitExpr>(p.range, llvm::StringRef(d.value).trim().str());
    } else {
      p.value = parseExpression(srcMgr, id, ctx, diags);
      if (p.value && llvm::isa<ErrorExpr>(p.value))
        p.value = nullptr;
    }
    // A later -D of the same name wins, as with compilers' -D.
    if (PendingDefine *old = findDefine(d.name)) {
      *old = p;
      continue;
    }
    pending.push_back(p);
  }
}

Sema::PendingDefine *Sema::findDefine(llvm::StringRef name) {
  for (PendingDefine &p : pending)
    if (p.name == name)
      return &p;
  return nullptr;
}

void Sema::checkImport(const ImportStmt *s) {
  static const char *const known[] = {"tilelang", "torch", "math", "numpy", "itertools", "functools",
                                      "typing", "argparse", "triton"};
  auto isKnown = [](llvm::StringRef module) {
    llvm::StringRef root = module.split('.').first;
    for (const char *k : known)
      if (root == k)
        return true;
    return false;
  };
  if (!s->getFromModule().empty()) {
    if (!isKnown(s->getFromModule()))
      diags.emit(DiagID::sema_import_unknown, s->getRange(), s->getFromModule());
    return;
  }
  for (const ImportName &n : s->getNames())
    if (!isKnown(n.dottedName))
      diags.emit(DiagID::sema_import_unknown, n.range, n.dottedName);
}

void Sema::bindTarget(const Expr *target, ConstValue value, ConstScope &scope, llvm::SMRange valueRange) {
  if (auto *n = llvm::dyn_cast<NameExpr>(target)) {
    if (PendingDefine *d = findDefine(n->getName())) {
      d->used = true;
      // A -D value that did not parse leaves the name bound but invalid, so
      // its uses stay silent.
      value = d->value ? ConstEvaluator(diags, scope).eval(d->value) : ConstValue();
    }
    if (std::find(knownNames.begin(), knownNames.end(), n->getName()) == knownNames.end())
      knownNames.push_back(n->getName().str());
    scope.set(n->getName(), std::move(value), n->getRange());
    return;
  }
  if (llvm::isa<TupleExpr>(target) || llvm::isa<ListExpr>(target)) {
    llvm::ArrayRef<Expr *> elts = llvm::isa<TupleExpr>(target) ? llvm::cast<TupleExpr>(target)->getElts()
                                                               : llvm::cast<ListExpr>(target)->getElts();
    if (value.isValid() && (value.getKind() != ConstValue::Kind::Tuple || value.getElts().size() != elts.size())) {
      size_t n = value.getKind() == ConstValue::Kind::Tuple ? value.getElts().size() : 1;
      diags.emit(DiagID::sema_tuple_unpack_count, valueRange, n, n == 1 ? "" : "s", elts.size(),
                 elts.size() == 1 ? "" : "s");
      value = ConstValue();
    }
    for (size_t k = 0; k < elts.size(); ++k)
      bindTarget(elts[k], value.isValid() ? value.getElts()[k] : ConstValue(), scope, valueRange);
    return;
  }
  diags.emit(DiagID::sema_module_stmt, target->getRange(), "assignment to this target");
}

void Sema::assignConstant(const AssignStmt *s, ConstScope &scope) {
  ConstValue value;
  // A -D on a single name replaces the expression before it is evaluated.
  bool overridden = s->getTargets().size() == 1 && llvm::isa<NameExpr>(s->getTargets()[0]) &&
                    findDefine(llvm::cast<NameExpr>(s->getTargets()[0])->getName());
  if (!overridden) {
    ConstEvaluator eval(diags, scope);
    value = eval.eval(s->getValue());
  }
  for (const Expr *target : s->getTargets())
    bindTarget(target, value, scope, s->getValue() ? s->getValue()->getRange() : s->getRange());
}

void Sema::handleFunction(const FunctionDefStmt *fn, ConstScope &scope, SemaModule &out) {
  for (const Expr *d : fn->getDecorators())
    if (isPrimFuncDecorator(d)) {
      addKernel(fn, fn->getName(), scope, out);
      return;
    }
  for (const Stmt *s : fn->getBody())
    if (auto *inner = llvm::dyn_cast<FunctionDefStmt>(s))
      for (const Expr *d : inner->getDecorators())
        if (isPrimFuncDecorator(d)) {
          handleFactory(fn, scope, out);
          return;
        }
  diags.emit(DiagID::sema_bad_function, fn->getNameRange(), fn->getName());
}

void Sema::handleFactory(const FunctionDefStmt *fn, ConstScope &scope, SemaModule &out) {
  out.factoryScopes.push_back(std::make_unique<ConstScope>(&scope));
  ConstScope &fscope = *out.factoryScopes.back();
  // Parameters act as constants: -D, else the default, else an error.
  for (const Param &p : fn->getParams()) {
    ConstValue value;
    if (PendingDefine *d = findDefine(p.name)) {
      d->used = true;
      if (d->value)
        value = ConstEvaluator(diags, fscope).eval(d->value);
    } else if (p.defaultValue) {
      value = ConstEvaluator(diags, scope).eval(p.defaultValue);
    } else {
      diags.emit(DiagID::sema_factory_param_missing, p.range, p.name, fn->getName());
    }
    if (std::find(knownNames.begin(), knownNames.end(), p.name) == knownNames.end())
      knownNames.push_back(p.name);
    fscope.set(p.name, std::move(value), p.range);
  }
  const FunctionDefStmt *kernel = nullptr;
  const ReturnStmt *ret = nullptr;
  bool shapeOk = true;
  for (const Stmt *s : fn->getBody()) {
    switch (s->getKind()) {
    case Stmt::Kind::Assign:
      assignConstant(llvm::cast<AssignStmt>(s), fscope);
      break;
    case Stmt::Kind::Import:
      checkImport(llvm::cast<ImportStmt>(s));
      break;
    case Stmt::Kind::Pass:
      break;
    case Stmt::Kind::Expr:
      if (!llvm::isa<StrLitExpr>(llvm::cast<ExprStmt>(s)->getExpr()))
        diags.emit(DiagID::sema_module_stmt, s->getRange(), "an expression statement");
      break;
    case Stmt::Kind::FunctionDef: {
      auto *inner = llvm::cast<FunctionDefStmt>(s);
      bool isKernel = llvm::any_of(inner->getDecorators(), isPrimFuncDecorator);
      if (!isKernel) {
        diags.emit(DiagID::sema_bad_function, inner->getNameRange(), inner->getName());
        break;
      }
      if (kernel) {
        shapeOk = false;
        break;
      }
      kernel = inner;
      break;
    }
    case Stmt::Kind::Return:
      ret = llvm::cast<ReturnStmt>(s);
      break;
    case Stmt::Kind::Unsupported:
    case Stmt::Kind::Try:
      reportNewStmt(s);
      break;
    default:
      diags.emit(DiagID::sema_module_stmt, s->getRange(), "this statement");
      break;
    }
  }
  if (kernel && ret) {
    auto *n = llvm::dyn_cast_or_null<NameExpr>(ret->getValue());
    shapeOk &= n && n->getName() == kernel->getName();
  }
  if (!kernel || !ret || !shapeOk) {
    diags.emit(DiagID::sema_factory_shape, fn->getNameRange(), fn->getName());
    return;
  }
  addKernel(kernel, fn->getName(), fscope, out);
}

bool Sema::resolveParam(const Param &p, const ConstScope &scope, KernelParam &out) {
  out.name = p.name;
  out.range = p.range;
  if (!p.annotation) {
    diags.emit(DiagID::sema_bad_param, p.range, p.name);
    return false;
  }
  ConstEvaluator eval(diags, scope);
  // `T.Tensor(shape, dtype)` / `T.Buffer(...)`.
  if (auto *call = llvm::dyn_cast<CallExpr>(p.annotation)) {
    std::string name = calleeName(call->getCallee());
    if (name == "T.Tensor" || name == "T.Buffer") {
      BoundCall bound;
      if (!bindCall(*lookupTBuiltin(llvm::StringRef(name).drop_front(2)), call, diags, bound))
        return false;
      out.kind = KernelParam::Kind::Tensor;
      ConstValue shape = eval.eval(bound.get("shape"));
      if (!shape.isValid())
        return false;
      std::vector<ConstValue> dims;
      if (shape.getKind() == ConstValue::Kind::Tuple)
        dims.assign(shape.getElts().begin(), shape.getElts().end());
      else
        dims.push_back(shape);
      if (dims.empty()) {
        diags.emit(DiagID::sema_wrong_arg_kind, bound.rangeOf("shape"), "shape", name, "a non-empty tuple of dimensions",
                   "an empty tuple");
        return false;
      }
      for (const ConstValue &d : dims) {
        ShapeDim dim;
        if (d.getKind() == ConstValue::Kind::Dynamic) {
          dim.dynamicName = d.getStr().str();
        } else if (d.getKind() == ConstValue::Kind::Int && d.getInt() > 0) {
          dim.size = d.getInt();
        } else {
          diags.emit(DiagID::sema_bad_shape_dim, bound.rangeOf("shape"), d.str());
          return false;
        }
        out.shape.push_back(dim);
      }
      ConstValue dtype = bound.get("dtype") ? eval.eval(bound.get("dtype")) : ConstValue::ofStr("float32");
      if (!dtype.isValid())
        return false;
      std::optional<DType> t = dtype.asDType();
      if (!t) {
        if (dtype.getKind() == ConstValue::Kind::Str)
          diags.emit(DiagID::sema_unknown_dtype, bound.rangeOf("dtype"), dtype.getStr(),
                     didYouMean(dtype.getStr(), allDTypeNames()));
        else
          diags.emit(DiagID::sema_wrong_arg_kind, bound.rangeOf("dtype"), "dtype", name, "a dtype", dtype.describe());
        return false;
      }
      out.dtype = *t;
      return true;
    }
  }
  // A scalar: `x: T.int32` or `x: "int32"`.
  ConstValue v = eval.eval(p.annotation);
  if (!v.isValid())
    return false;
  if (std::optional<DType> t = v.asDType()) {
    out.kind = KernelParam::Kind::Scalar;
    out.dtype = *t;
    return true;
  }
  if (v.getKind() == ConstValue::Kind::Str) {
    diags.emit(DiagID::sema_unknown_dtype, p.annotation->getRange(), v.getStr(), didYouMean(v.getStr(), allDTypeNames()));
    return false;
  }
  diags.emit(DiagID::sema_bad_param, p.annotation->getRange(), p.name);
  return false;
}

void Sema::addKernel(const FunctionDefStmt *fn, llvm::StringRef exportName, const ConstScope &scope,
                     SemaModule &out) {
  for (const KernelInfo &k : out.kernels)
    if (k.exportName == exportName) {
      auto diag = diags.emit(DiagID::sema_duplicate_kernel, fn->getNameRange(), exportName);
      diags.note(diag, DiagID::sema_note_previous_definition, k.def->getNameRange(), exportName);
      return;
    }
  KernelInfo info;
  info.exportName = exportName.str();
  info.def = fn;
  info.scope = &scope;
  bool ok = true;
  llvm::StringSet<> names;
  for (const Param &p : fn->getParams()) {
    if (!names.insert(p.name).second) {
      diags.emit(DiagID::sema_redefinition, p.range, p.name, "a parameter");
      ok = false;
      continue;
    }
    KernelParam kp;
    if (!resolveParam(p, scope, kp)) {
      ok = false;
      continue;
    }
    for (const ShapeDim &d : kp.shape)
      if (d.isDynamic() &&
          std::find(info.dynamicDims.begin(), info.dynamicDims.end(), d.dynamicName) == info.dynamicDims.end())
        info.dynamicDims.push_back(d.dynamicName);
    info.params.push_back(std::move(kp));
  }
  if (ok)
    out.kernels.push_back(std::move(info));
}

void Sema::reportUnusedDefines(const SemaModule &out) {
  (void)out;
  for (const PendingDefine &p : pending) {
    if (p.used)
      continue;
    std::string list;
    for (const std::string &n : knownNames)
      list += (list.empty() ? "" : ", ") + n;
    if (list.empty())
      list = "(none)";
    diags.emit(DiagID::drv_define_unknown, p.range, p.name, list);
  }
}

/// Statements added in spec v1 that this analysis does not handle yet: the
/// unsupported ones get their "not supported in .tile" error, the others a
/// "not supported yet" one, each at the statement.
void Sema::reportNewStmt(const Stmt *s) {
  if (auto *u = llvm::dyn_cast<UnsupportedStmt>(s)) {
    diags.emit(DiagID::unsupported_construct, u->getKeywordRange(), u->getConstruct(), "");
    return;
  }
  if (auto *t = llvm::dyn_cast<TryStmt>(s); t && !t->isImportIdiom()) {
    diags.emit(DiagID::unsupported_construct, t->getKeywordRange(), "try",
               " outside 'try: import ... except ImportError:'");
    return;
  }
  diags.emit(DiagID::not_supported_yet, s->getRange(), describe(s));
}

bool Sema::analyze(const Module &module, llvm::ArrayRef<Define> defines, SemaModule &out) {
  unsigned errorsBefore = diags.getNumErrors();
  parseDefines(defines);
  for (const Stmt *s : module.body) {
    switch (s->getKind()) {
    case Stmt::Kind::Import:
      checkImport(llvm::cast<ImportStmt>(s));
      break;
    case Stmt::Kind::Assign:
      assignConstant(llvm::cast<AssignStmt>(s), out.globals);
      break;
    case Stmt::Kind::FunctionDef:
      handleFunction(llvm::cast<FunctionDefStmt>(s), out.globals, out);
      break;
    case Stmt::Kind::Pass:
      break;
    case Stmt::Kind::Expr:
      // Docstrings are fine; anything else is harness code.
      if (!llvm::isa<StrLitExpr>(llvm::cast<ExprStmt>(s)->getExpr()) &&
          !llvm::isa<ErrorExpr>(llvm::cast<ExprStmt>(s)->getExpr()))
        diags.emit(DiagID::sema_module_stmt, s->getRange(), "an expression statement");
      break;
    case Stmt::Kind::If:
      diags.emit(DiagID::sema_module_stmt, s->getRange(), "an 'if' statement");
      break;
    case Stmt::Kind::For:
      diags.emit(DiagID::sema_module_stmt, s->getRange(), "a 'for' loop");
      break;
    case Stmt::Kind::With:
      diags.emit(DiagID::sema_module_stmt, s->getRange(), "a 'with' statement");
      break;
    case Stmt::Kind::Return:
      diags.emit(DiagID::sema_module_stmt, s->getRange(), "'return'");
      break;
    case Stmt::Kind::AugAssign:
      diags.emit(DiagID::sema_module_stmt, s->getRange(), "an augmented assignment");
      break;
    default:
      reportNewStmt(s);
      break;
    }
  }
  reportUnusedDefines(out);
  return diags.getNumErrors() == errorsBefore;
}
