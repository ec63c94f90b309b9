//===- Sema.cpp - Module-level analysis through the meta interpreter ------===//
//
// 1. Parse every -D value into its own source buffer (a meta expression).
// 2. Run the module in the meta interpreter (functions are defined, never
//    called unless a factory; `if __name__ == "__main__":` is not taken).
// 3. Pick what to build: every kernel and factory of the module, or the one
//    --kernel names; call factories with -D values and defaults.
// 4. Resolve each kernel's parameters; report -D names that matched nothing.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Sema.h"

#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Target/CWriter.h"

#include "llvm/ADT/StringSet.h"

#include <functional>
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace tilec;
using namespace tilec::ast;
using meta::Value;
using K = meta::Value::Kind;

void Sema::parseDefines(llvm::ArrayRef<Define> defines, meta::MetaOptions &mo) {
  for (const Define &d : defines) {
    std::string bufName = "<-D " + d.name + ">";
    unsigned id = srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(d.value, bufName), llvm::SMLoc());
    const llvm::MemoryBuffer *buf = srcMgr.getMemoryBuffer(id);
    meta::MetaOptions::Define p;
    p.name = d.name;
    p.range = llvm::SMRange(llvm::SMLoc::getFromPointer(buf->getBufferStart()),
                            llvm::SMLoc::getFromPointer(buf->getBufferEnd()));
    // A bare dtype spelling (`-D dtype=float16`) means the dtype.
    llvm::StringRef text = llvm::StringRef(d.value).trim();
    if (parseDType(text)) {
      p.value = ctx.create<StrLitExpr>(p.range, text.str());
    } else {
      p.value = parseExpression(srcMgr, id, ctx, diags);
      if (p.value && llvm::isa<ErrorExpr>(p.value))
        p.value = nullptr;
    }
    // A later -D of the same name wins, as with compilers' -D.
    if (meta::MetaOptions::Define *old = mo.findDefine(d.name)) {
      *old = p;
      continue;
    }
    mo.defines.push_back(p);
  }
}

/// One thing the module can export: a kernel value or a factory.
struct Candidate {
  std::string name;
  Value value;
  llvm::SMRange range;
};

Value Sema::instantiate(const Value &fnValue, SemaModule &out) {
  meta::Interpreter &in = *out.interp;
  auto *fn = fnValue.as<meta::FunctionObj>();
  meta::CallArgs args;
  args.range = fn->range;
  args.calleeRange = fn->range;
  std::vector<std::string> tensors;
  if (meta::isEagerFunction(*fn))
    tensors = meta::eagerTensorParams(*fn);
  bool ok = true;
  for (size_t k = 0; k < fn->params.size(); ++k) {
    const Param &p = fn->params[k];
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword ||
        std::find(tensors.begin(), tensors.end(), p.name) != tensors.end())
      continue;
    out.metaOptions.addKnown(p.name);
    if (meta::MetaOptions::Define *d = out.metaOptions.findDefine(p.name)) {
      d->used = true;
      Value v = d->value ? in.eval(d->value, in.mainEnv) : Value();
      if (v.is(K::Harness)) // `-D in_dtype=T.int8` where the file's T is another package's
        in.reportHarnessUse(v, d->value->getRange());
      if (!v.isValid() || v.is(K::Harness)) {
        ok = false;
        continue;
      }
      args.kwargs.emplace_back(p.name, v);
      args.kwRanges.push_back(d->range);
      continue;
    }
    if (k < fn->defaults.size() && fn->defaults[k].isValid())
      continue;
    diags.emit(DiagID::sema_factory_param_missing, p.range, p.name, fn->name);
    ok = false;
  }
  if (!ok)
    return Value();
  Value result = in.call(fnValue, args);
  if (!result.isValid())
    return result;
  if (!result.is(K::Kernel)) {
    diags.emit(DiagID::meta_factory_result, fn->range, fn->name, result.describe());
    return Value();
  }
  return result;
}

bool Sema::resolveTensor(const Value &type, llvm::SMRange range, KernelParam &out) {
  meta::NamedObj *t = meta::asObject(type, "TensorType");
  out.kind = KernelParam::Kind::Tensor;
  out.dtype = t->fields.lookup("dtype").getDType();
  out.isOutput = t->fields.lookup("output").truthy();
  Value shape = t->fields.lookup("shape");
  llvm::ArrayRef<Value> dims = shape.getElts();
  if (dims.empty()) {
    diags.emit(DiagID::sema_wrong_arg_kind, range, "shape", "T.Tensor", "a non-empty tuple of dimensions",
               "an empty tuple");
    return false;
  }
  for (const Value &d : dims) {
    ShapeDim dim;
    if (d.is(K::Dynamic) && d.isPlainDim()) {
      dim.dynamicName = d.getStr().str();
      dim.uses.push_back(dim.dynamicName);
    } else if (d.is(K::Dynamic) && d.getSize()) {
      // A derived dimension: the launchers compute it (KernelABI.h, DimExpr),
      // floored `//` and `%` by positive constants only.
      const meta::SizeExpr *bad = nullptr;
      std::function<void(const meta::SizeExpr &)> check = [&](const meta::SizeExpr &e) {
        if (bad || !e.lhs || !e.rhs)
          return;
        using Op = meta::SizeExpr::Op;
        if ((e.op == Op::FloorDiv || e.op == Op::Mod) && !(e.rhs->op == Op::Const && e.rhs->constant > 0))
          bad = &e;
        check(*e.lhs);
        check(*e.rhs);
      };
      check(*d.getSize());
      if (bad) {
        diags.emit(DiagID::sema_derived_dim_division, range, d.getStr(),
                   bad->op == meta::SizeExpr::Op::Mod ? "takes a remainder" : "divides", bad->rhs->str());
        return false;
      }
      dim.dynamicName = d.getStr().str();
      d.getSize()->collectDims(dim.uses);
    } else if (d.is(K::Int) && d.getInt() > 0) {
      dim.size = d.getInt();
    } else {
      diags.emit(DiagID::sema_bad_shape_dim, range, d.isBigInt() ? d.describe() : d.str());
      return false;
    }
    out.shape.push_back(dim);
  }
  return true;
}

bool Sema::resolveParam(const Param &p, meta::Env *env, KernelParam &out, SemaModule &sm) {
  out.name = p.name;
  out.range = p.range;
  if (!p.annotation) {
    diags.emit(DiagID::sema_bad_param, p.range, p.name);
    return false;
  }
  Value v = sm.interp->eval(p.annotation, env);
  if (!v.isValid())
    return false;
  if (v.is(K::Harness)) {
    sm.interp->reportHarnessUse(v, p.annotation->getRange());
    return false;
  }
  if (meta::asObject(v, "TensorType"))
    return resolveTensor(v, p.annotation->getRange(), out);
  // A scalar: `x: T.int32` or `x: "int32"`.
  if (std::optional<DType> t = v.asDType()) {
    out.kind = KernelParam::Kind::Scalar;
    out.dtype = *t;
    return true;
  }
  if (v.is(K::Str)) {
    diags.emit(DiagID::sema_unknown_dtype, p.annotation->getRange(), v.getStr(),
               didYouMean(v.getStr(), allDTypeNames()));
    return false;
  }
  diags.emit(DiagID::sema_bad_param, p.annotation->getRange(), p.name);
  return false;
}

void Sema::addKernel(const Value &kernel, const FrontendOptions &opts, SemaModule &out) {
  auto *k = kernel.as<meta::KernelObj>();
  std::string exportName = !opts.kernelName.empty() ? opts.kernelName : k->exportName;
  // `grid` is reserved for parameters only (the launchers' grid argument).
  if (isReservedCName(exportName) && exportName != "grid") {
    diags.emit(DiagID::sema_reserved_kernel_name, k->def->getNameRange(), exportName,
               opts.kernelName.empty() ? "" : " (--kernel-name)");
    return;
  }
  for (const KernelInfo &other : out.kernels)
    if (other.exportName == exportName) {
      auto diag = diags.emit(DiagID::sema_duplicate_kernel, k->def->getNameRange(), exportName);
      diags.note(diag, DiagID::sema_note_previous_definition, other.def->getNameRange(), exportName);
      return;
    }
  KernelInfo info;
  info.exportName = exportName;
  info.def = k->def;
  info.body = k->body;
  info.env = k->closure;
  info.interp = out.interp.get();
  info.kernel = kernel;
  info.frames = k->frames;
  bool ok = true;
  // The kernel's parameters are resolved in the scope it closes over, with
  // its defining call stack shown under errors.
  auto &stack = out.interp->getStack();
  for (auto &[what, range] : k->frames)
    stack.push_back({what, range});
  if (k->eager) {
    for (size_t i = 0; i < k->eagerInputs.size(); ++i) {
      KernelParam kp;
      kp.name = k->eagerInputs[i].first;
      kp.range = k->eagerInputRanges[i];
      ok &= resolveTensor(k->eagerInputs[i].second, kp.range, kp);
      info.params.push_back(std::move(kp));
    }
    for (size_t i = 0; i < k->eagerOutputs.size(); ++i) {
      KernelParam kp;
      kp.name = k->eagerOutputs[i].first;
      kp.range = k->eagerOutputRanges[i];
      ok &= resolveTensor(k->eagerOutputs[i].second, kp.range, kp);
      info.params.push_back(std::move(kp));
    }
  } else {
    llvm::StringSet<> names;
    for (const Param &p : k->def->getParams()) {
      if (!names.insert(p.name).second) {
        diags.emit(DiagID::sema_redefinition, p.range, p.name, "a parameter");
        ok = false;
        continue;
      }
      KernelParam kp;
      if (!resolveParam(p, k->closure, kp, out)) {
        ok = false;
        continue;
      }
      info.params.push_back(std::move(kp));
    }
  }
  stack.clear();
  for (const KernelParam &kp : info.params)
    for (const ShapeDim &d : kp.shape)
      for (const std::string &u : d.uses)
        if (std::find(info.dynamicDims.begin(), info.dynamicDims.end(), u) == info.dynamicDims.end())
          info.dynamicDims.push_back(u);
  if (ok)
    out.kernels.push_back(std::move(info));
}

void Sema::reportUnusedDefines(SemaModule &out) {
  for (const meta::MetaOptions::Define &p : out.metaOptions.defines) {
    if (p.used)
      continue;
    // A name the file assigns only in its __main__ block is one of its constants: an eager
    // kernel reads it (and takes this -D) only when it is generated, after this check.
    if (llvm::any_of(out.metaOptions.mainOnlyNames, [&](const auto &m) { return m.first == p.name; }))
      continue;
    std::string list;
    for (const std::string &n : out.metaOptions.knownNames)
      list += (list.empty() ? "" : ", ") + n;
    if (list.empty())
      list = "(none)";
    diags.emit(DiagID::drv_define_unknown, p.range, p.name, list);
  }
}

/// What the module exports, in order: module-level kernels and factories
/// (a factory that an outer factory returns a call of is its helper, not a
/// kernel of its own; one whose kernel the module built is not called again).
static std::vector<Candidate> collectCandidates(const Module &module, meta::Env *env, DiagnosticEmitter &diags) {
  // Two module-level kernels of one name: the second would silently replace
  // the first, as in Python; a kernel file means two kernels.
  llvm::StringMap<llvm::SMRange> kernelDefs;
  for (const Stmt *s : module.body)
    if (auto *f = llvm::dyn_cast<FunctionDefStmt>(s))
      if (llvm::any_of(f->getDecorators(), [](const Expr *d) {
            std::string n = calleeName(llvm::isa<CallExpr>(d) ? llvm::cast<CallExpr>(d)->getCallee() : d);
            return n == "T.prim_func" || n == "prim_func";
          })) {
        auto [it, fresh] = kernelDefs.try_emplace(f->getName(), f->getNameRange());
        if (!fresh) {
          auto diag = diags.emit(DiagID::sema_duplicate_kernel, f->getNameRange(), f->getName());
          diags.note(diag, DiagID::sema_note_previous_definition, it->second, f->getName());
        }
      }

  std::vector<Candidate> candidates;
  llvm::StringSet<> instantiated;
  auto consider = [&](llvm::StringRef name, llvm::SMRange range) {
    const meta::Binding *b = env->getTable().count(name) ? &env->getTable().find(name)->second : nullptr;
    if (!b || !b->value.isValid())
      return;
    for (const Candidate &c : candidates)
      if (c.name == name)
        return;
    if (b->value.is(K::Kernel)) {
      instantiated.insert(b->value.as<meta::KernelObj>()->exportName);
      candidates.push_back({name.str(), b->value, range});
    } else if (b->value.is(K::Function) && meta::isFactoryFunction(*b->value.as<meta::FunctionObj>())) {
      candidates.push_back({name.str(), b->value, range});
    }
  };
  for (const Stmt *s : module.body) {
    if (auto *f = llvm::dyn_cast<FunctionDefStmt>(s))
      consider(f->getName(), f->getNameRange());
    else if (auto *a = llvm::dyn_cast<AssignStmt>(s))
      for (const Expr *t : a->getTargets())
        if (auto *n = llvm::dyn_cast<NameExpr>(t))
          consider(n->getName(), n->getRange());
  }
  // Factories nest: a function that returns a call to a factory is the
  // outer factory, and the inner one is its helper, not a kernel of its own.
  llvm::StringMap<const FunctionDefStmt *> defs;
  for (const Stmt *s : module.body)
    if (auto *f = llvm::dyn_cast<FunctionDefStmt>(s))
      defs[f->getName()] = f;
  llvm::StringSet<> factoryNames, helpers;
  for (const Candidate &c : candidates)
    if (c.value.is(K::Function))
      factoryNames.insert(c.name);
  std::function<void(const Body &, llvm::SmallVectorImpl<std::string> &)> returnedCalls =
      [&](const Body &body, llvm::SmallVectorImpl<std::string> &out) {
        for (const Stmt *s : body) {
          if (auto *r = llvm::dyn_cast<ReturnStmt>(s)) {
            if (auto *c = llvm::dyn_cast_or_null<CallExpr>(r->getValue()))
              if (auto *n = llvm::dyn_cast<NameExpr>(c->getCallee()))
                out.push_back(n->getName().str());
          } else if (auto *i = llvm::dyn_cast<IfStmt>(s)) {
            returnedCalls(i->getThen(), out);
            returnedCalls(i->getElse(), out);
          }
        }
      };
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto &entry : defs) {
      llvm::SmallVector<std::string, 2> called;
      returnedCalls(entry.second->getBody(), called);
      for (const std::string &callee : called) {
        if (!factoryNames.count(callee) || callee == entry.getKey())
          continue;
        helpers.insert(callee);
        if (!factoryNames.count(entry.getKey())) {
          factoryNames.insert(entry.getKey());
          const meta::Binding *b = env->getTable().count(entry.getKey()) ? &env->getTable().find(entry.getKey())->second
                                                                         : nullptr;
          if (b && b->value.is(K::Function)) {
            candidates.push_back({entry.getKey().str(), b->value, entry.second->getNameRange()});
            changed = true;
          }
        }
      }
    }
  }
  candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                  [&](const Candidate &c) { return c.value.is(K::Function) && helpers.count(c.name); }),
                   candidates.end());

  // A factory whose kernel the module already built is not called again.
  candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                  [&](const Candidate &c) {
                                    return c.value.is(K::Function) && instantiated.count(c.name);
                                  }),
                   candidates.end());
  return candidates;
}

/// Whether calling factory `fn` needs a -D that is not given.
static bool needsArguments(const meta::FunctionObj &fn, meta::MetaOptions &mo) {
  std::vector<std::string> tensors;
  if (meta::isEagerFunction(fn))
    tensors = meta::eagerTensorParams(fn);
  for (size_t k = 0; k < fn.params.size(); ++k) {
    const Param &p = fn.params[k];
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword ||
        std::find(tensors.begin(), tensors.end(), p.name) != tensors.end())
      continue;
    if (!(k < fn.defaults.size() && fn.defaults[k].isValid()) && !mo.findDefine(p.name))
      return true;
  }
  return false;
}

/// True for `__name__ == "__main__"`.
static bool isMainGuard(const Expr *e) {
  auto *c = llvm::dyn_cast<CompareExpr>(e);
  if (!c || c->getOps().size() != 1 || c->getOps()[0] != CompareOp::Eq)
    return false;
  auto *n = llvm::dyn_cast<NameExpr>(c->getOperands()[0]);
  auto *s = llvm::dyn_cast<StrLitExpr>(c->getOperands()[1]);
  return n && s && n->getName() == "__name__" && s->getValue() == "__main__";
}

/// The names `body` assigns (plain and tuple targets, in nested blocks).
static void collectAssigned(const Body &body, llvm::SmallVectorImpl<const NameExpr *> &out) {
  std::function<void(const Expr *)> target = [&](const Expr *t) {
    if (auto *n = llvm::dyn_cast<NameExpr>(t))
      out.push_back(n);
    else if (auto *tu = llvm::dyn_cast<TupleExpr>(t))
      llvm::for_each(tu->getElts(), target);
    else if (auto *li = llvm::dyn_cast<ListExpr>(t))
      llvm::for_each(li->getElts(), target);
  };
  for (const Stmt *s : body) {
    if (auto *a = llvm::dyn_cast<AssignStmt>(s))
      llvm::for_each(a->getTargets(), target);
    else if (auto *i = llvm::dyn_cast<IfStmt>(s)) {
      collectAssigned(i->getThen(), out);
      collectAssigned(i->getElse(), out);
    } else if (auto *f = llvm::dyn_cast<ForStmt>(s)) {
      collectAssigned(f->getBody(), out);
      collectAssigned(f->getElse(), out);
    } else if (auto *w = llvm::dyn_cast<WithStmt>(s)) {
      collectAssigned(w->getBody(), out);
    }
  }
}

/// tile-lang's examples run as scripts, and some factories read globals that
/// only the file's `if __name__ == "__main__":` block assigns (tilec does not
/// run it). Such a name the module leaves unbound takes its -D where it is read (the
/// interpreter's name lookup); these are recorded so that a read without a -D
/// says where the name is assigned.
void Sema::collectMainOnlyNames(const Module &module, SemaModule &out) {
  for (const Stmt *s : module.body) {
    auto *i = llvm::dyn_cast<IfStmt>(s);
    if (!i || !isMainGuard(i->getCond()))
      continue;
    unsigned line = srcMgr.getLineAndColumn(i->getRange().Start).first;
    llvm::SmallVector<const NameExpr *, 16> names;
    collectAssigned(i->getThen(), names);
    meta::MetaOptions &mo = out.metaOptions;
    for (const NameExpr *n : names) {
      mo.addKnown(n->getName());
      if (llvm::none_of(mo.mainOnlyNames, [&](const auto &p) { return p.first == n->getName(); }))
        mo.mainOnlyNames.push_back({n->getName().str(), line});
    }
  }
}

bool Sema::analyze(const Module &module, const FrontendOptions &opts, SemaModule &out) {
  unsigned errorsBefore = diags.getNumErrors();
  parseDefines(opts.defines, out.metaOptions);
  out.metaOptions.includeDirs = opts.includeDirs;
  out.metaOptions.deviceMajor = opts.deviceMajor;
  out.metaOptions.deviceMinor = opts.deviceMinor;
  llvm::StringRef file;
  if (module.bufferId && module.bufferId <= srcMgr.getNumBuffers())
    file = srcMgr.getMemoryBuffer(module.bufferId)->getBufferIdentifier();
  out.metaOptions.mainDir = llvm::sys::path::parent_path(file).str();
  if (out.metaOptions.mainDir.empty())
    out.metaOptions.mainDir = ".";
  out.interp = std::make_unique<meta::Interpreter>(diags, srcMgr, ctx, out.metaOptions);
  meta::Interpreter &in = *out.interp;
  meta::Env *env = in.newEnv(nullptr);
  in.mainEnv = env;
  llvm::StringRef stem = llvm::sys::path::stem(file);
  collectMainOnlyNames(module, out);
  in.runModule(module, env, stem.empty() ? "main" : stem);
  // A definition that failed (a factory whose decorator raised) would have
  // used the -D names it declares: do not call them unknown as well.
  bool moduleFailed = diags.getNumErrors() != errorsBefore;

  std::vector<Candidate> candidates = collectCandidates(module, env, diags);
  auto listCandidates = [&] {
    std::string list;
    for (const Candidate &c : candidates)
      list += (list.empty() ? "" : ", ") + c.name;
    return list.empty() ? std::string("(none)") : list;
  };

  std::vector<Value> chosen;
  if (!opts.kernel.empty()) {
    const meta::Binding *b = env->getTable().count(opts.kernel) ? &env->getTable().find(opts.kernel)->second : nullptr;
    if (!b || !(b->value.is(K::Kernel) || b->value.is(K::Function))) {
      if (b && b->value.is(K::Harness))
        // The definition needed harness code (a class, torch): say where, not "no such kernel".
        in.reportHarnessUse(b->value, b->defRange);
      else if (!b || b->value.isValid())
        diags.emit(DiagID::meta_kernel_unknown, llvm::SMRange(), opts.kernel, listCandidates());
      for (meta::MetaOptions::Define &d : out.metaOptions.defines)
        d.used = true; // not knowing the kernel, nothing can say a -D is unknown
    } else {
      chosen.push_back(b->value);
    }
  } else {
    unsigned factoriesNeedingArgs = 0;
    for (const Candidate &c : candidates)
      if (c.value.is(K::Function) && needsArguments(*c.value.as<meta::FunctionObj>(), out.metaOptions))
        ++factoriesNeedingArgs;
    if (candidates.size() > 1 && factoriesNeedingArgs) {
      diags.emit(DiagID::meta_kernel_choice, llvm::SMRange(),
                 "this file has several kernels and factories, and some factories need arguments", listCandidates());
    } else {
      for (const Candidate &c : candidates)
        chosen.push_back(c.value);
    }
  }
  if (!opts.kernelName.empty() && chosen.size() > 1) {
    diags.emit(DiagID::meta_kernel_choice, llvm::SMRange(), "--kernel-name names one kernel but the file has several",
               listCandidates());
    // Building them all under the one name would only add "defined more
    // than once" errors.
    chosen.clear();
    for (meta::MetaOptions::Define &d : out.metaOptions.defines)
      d.used = true;
  }
  for (const Value &v : chosen) {
    Value k = v.is(K::Function) ? instantiate(v, out) : v;
    if (k.isValid())
      addKernel(k, opts, out);
  }
  if (!moduleFailed)
    reportUnusedDefines(out);
  return diags.getNumErrors() == errorsBefore;
}
