//===- Interp.cpp - The meta interpreter: scopes, stack, iteration --------===//
//
// Environments, the call stack shown as notes, the deterministic step
// budget, iteration over every iterable kind, harness-value checks, and
// running a module.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "llvm/Support/FormatVariadic.h"

#include "tilec/Frontend/Builtins.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

using namespace tilec;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

static constexpr uint64_t kStepBudget = 1'000'000;

const Binding *Env::lookup(llvm::StringRef name) const {
  for (const Env *e = this; e; e = e->parent) {
    auto it = e->table.find(name);
    if (it != e->table.end())
      return &it->second;
  }
  return nullptr;
}

Binding *Env::lookupMutable(llvm::StringRef name) {
  for (Env *e = this; e; e = e->parent) {
    auto it = e->table.find(name);
    if (it != e->table.end())
      return &it->second;
  }
  return nullptr;
}

void Env::collectNames(llvm::SmallVectorImpl<llvm::StringRef> &out) const {
  for (const Env *e = this; e; e = e->parent)
    for (const auto &entry : e->table)
      out.push_back(entry.getKey());
}

const Value *CallArgs::kw(llvm::StringRef name) const {
  for (auto &[k, v] : kwargs)
    if (k == name)
      return &v;
  return nullptr;
}

const Value *CallArgs::get(unsigned i, llvm::StringRef name) const {
  if (i < args.size())
    return &args[i];
  return kw(name);
}

llvm::SMRange CallArgs::rangeOf(unsigned i, llvm::StringRef name) const {
  if (i < args.size() && i < argRanges.size())
    return argRanges[i];
  for (size_t k = 0; k < kwargs.size(); ++k)
    if (kwargs[k].first == name && k < kwRanges.size())
      return kwRanges[k];
  return range;
}

Interpreter::Interpreter(DiagnosticEmitter &diags, llvm::SourceMgr &srcMgr, ast::ASTContext &ctx, MetaOptions &opts)
    : diags(diags), srcMgr(srcMgr), ctx(ctx), opts(opts) {
  registerPyBuiltins(*this, builtins);
  builtins["T"] = getTModule(); // the name T is always in scope (spec §1)
  diags.contextNotes = [this](mlir::InFlightDiagnostic &d) { attachStack(d); };
}

Interpreter::~Interpreter() { diags.contextNotes = nullptr; }

Env *Interpreter::newEnv(Env *parent) {
  envs.push_back(std::make_unique<Env>(parent));
  return envs.back().get();
}

Value Interpreter::lookupBuiltin(llvm::StringRef name) {
  auto it = builtins.find(name);
  return it == builtins.end() ? Value() : it->second;
}

void Interpreter::attachStack(mlir::InFlightDiagnostic &d) {
  // Innermost first; a deep stack shows its 4 innermost and 2 outermost calls.
  size_t n = stack.size();
  for (size_t k = 0; k < n; ++k) {
    const Frame &f = stack[n - 1 - k];
    if (n > 6 && k == 4) {
      diags.note(d, DiagID::meta_note, f.range, "(" + std::to_string(n - 6) + " more calls)");
      k = n - 3;
      continue;
    }
    diags.note(d, DiagID::meta_note_frame, f.range, f.what);
  }
}

bool Interpreter::step(llvm::SMRange range) {
  if (++steps <= kStepBudget)
    return true;
  if (!budgetReported) {
    budgetReported = true;
    error(DiagID::meta_budget, range, kStepBudget);
  }
  return false;
}

// A name bound nowhere tilec runs (tile-lang's scripts assign some globals
// only in their `__main__` block) takes its -D as a module constant.
bool Interpreter::defineForUnboundName(llvm::StringRef name, Value &out) {
  MetaOptions::Define *d = opts.findDefine(name);
  if (!d || !d->value || !mainEnv)
    return false;
  d->used = true;
  out = eval(d->value, mainEnv);
  if (out.isValid())
    mainEnv->set(name, out, d->range);
  return true;
}

std::string Interpreter::unboundNameHint(llvm::StringRef name) const {
  for (const auto &[n, line] : opts.mainOnlyNames)
    if (n == name)
      return llvm::formatv("; the file assigns it only in the `if __name__ == \"__main__\":` block at line {0}, "
                           "which tilec does not run: give it with -D {1}=...",
                           line, name)
          .str();
  return "";
}

void Interpreter::reportHarnessUse(const Value &v, llvm::SMRange use) {
  auto *h = v.as<HarnessObj>();
  bool unknown = h && !h->unknownPrimitive.empty();
  if (harnessTrap) {
    if (!harnessTrap->hit) {
      harnessTrap->hit = true;
      harnessTrap->text = unknown ? "'" + h->text + "', which is not a tilec primitive"
                                  : "harness value '" + (h ? h->text : v.str()) + "'";
      harnessTrap->use = use;
    }
    return;
  }
  if (unknown) {
    // A deferred unknown `T.X` (a default value or decorator argument): the
    // error its evaluation would have given, at the `T.X`.
    auto d = error(DiagID::sema_unknown_primitive, h->origin, h->unknownPrimitive, h->unknownHint);
    diags.note(d, DiagID::meta_note_value_needed, use, h->text);
    return;
  }
  auto d = error(DiagID::meta_harness_used, use, h ? h->text : v.str());
  if (h && h->origin.Start.isValid())
    diags.note(d, DiagID::meta_note_harness_origin, h->origin, h->text);
  if (h && h->need.Start.isValid())
    diags.note(d, DiagID::meta_note_harness_need, h->need, h->needText);
}

bool Interpreter::trapHarness(llvm::StringRef what, llvm::SMRange use) {
  if (!harnessTrap)
    return false;
  if (!harnessTrap->hit) {
    harnessTrap->hit = true;
    harnessTrap->text = what.str();
    harnessTrap->use = use;
  }
  return true;
}

bool Interpreter::requireConcrete(const Value &v, llvm::SMRange use) {
  if (!v.isValid())
    return false;
  if (v.is(K::Harness)) {
    reportHarnessUse(v, use);
    return false;
  }
  return true;
}

Value detail::makeRange(int64_t start, int64_t stop, int64_t step) {
  int64_t n = 0;
  if (step > 0 && stop > start)
    n = int64_t((uint64_t(stop) - uint64_t(start) - 1) / uint64_t(step) + 1);
  else if (step < 0 && stop < start)
    n = int64_t((uint64_t(start) - uint64_t(stop) - 1) / (0 - uint64_t(step)) + 1);
  std::string text = "range(" + std::to_string(start) + ", " + std::to_string(stop) +
                     (step != 1 ? ", " + std::to_string(step) : "") + ")";
  return makeObject("range",
                    {{"start", Value::ofInt(start)}, {"stop", Value::ofInt(stop)}, {"step", Value::ofInt(step)},
                     {"len", Value::ofInt(n)}},
                    text);
}

bool Interpreter::iterate(const Value &v, llvm::SMRange range, const std::function<bool(const Value &)> &body) {
  if (!requireConcrete(v, range))
    return false;
  switch (v.getKind()) {
  case K::Tuple: case K::List: case K::Set: {
    // Iterate over a snapshot: the body may mutate the list.
    std::vector<Value> items(v.getElts().begin(), v.getElts().end());
    for (const Value &x : items) {
      if (!step(range))
        return false;
      if (!body(x))
        break;
    }
    return true;
  }
  case K::Dict: {
    std::vector<Value> keys;
    for (auto &[k, x] : *v.dictItems())
      keys.push_back(k);
    for (const Value &k : keys) {
      if (!step(range))
        return false;
      if (!body(k))
        break;
    }
    return true;
  }
  case K::Str: case K::DType: {
    std::string s = v.is(K::DType) ? dtypeName(v.getDType()).str() : v.getStr().str();
    for (char c : s) {
      if (!step(range))
        return false;
      if (!body(Value::ofStr(std::string(1, c))))
        break;
    }
    return true;
  }
  case K::Object:
    if (NamedObj *r = asObject(v, "range")) {
      int64_t start = r->fields.lookup("start").getInt(), st = r->fields.lookup("step").getInt(),
              n = r->fields.lookup("len").getInt();
      for (int64_t k = 0; k < n; ++k) {
        if (!step(range))
          return false;
        if (!body(Value::ofInt(int64_t(uint64_t(start) + uint64_t(k) * uint64_t(st)))))
          break;
      }
      return true;
    }
    break;
  case K::Dynamic:
    error(DiagID::meta_not_iterable, range,
          "runtime dimension '" + v.getStr().str() + "' (its value is known only at launch)");
    return false;
  default:
    break;
  }
  error(DiagID::meta_not_iterable, range, v.describe());
  return false;
}

std::optional<std::vector<Value>> Interpreter::toList(const Value &v, llvm::SMRange range) {
  std::vector<Value> out;
  if (!iterate(v, range, [&](const Value &x) {
        out.push_back(x);
        return true;
      }))
    return std::nullopt;
  return out;
}

std::optional<int64_t> detail::expectInt(Interpreter &in, const Value &v, llvm::SMRange range, llvm::StringRef what) {
  if (!in.requireConcrete(v, range))
    return std::nullopt;
  if (!v.isIntLike()) {
    in.error(DiagID::meta_error, range, (what + " must be an integer, got " + v.describe()).str());
    return std::nullopt;
  }
  return v.getInt();
}

/// The names a statement binds (assignment targets, defs, imports, and
/// those of the bodies of if/for/while/try), each with its range.
static void collectTargetNames(const ast::Expr *t, std::vector<std::pair<std::string, llvm::SMRange>> &out) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(t))
    out.emplace_back(n->getName().str(), n->getRange());
  else if (auto *tu = llvm::dyn_cast<ast::TupleExpr>(t))
    for (const ast::Expr *e : tu->getElts())
      collectTargetNames(e, out);
  else if (auto *l = llvm::dyn_cast<ast::ListExpr>(t))
    for (const ast::Expr *e : l->getElts())
      collectTargetNames(e, out);
  else if (auto *st = llvm::dyn_cast<ast::StarredExpr>(t))
    collectTargetNames(st->getValue(), out);
}

static void collectBoundNames(const ast::Stmt *s, std::vector<std::pair<std::string, llvm::SMRange>> &out) {
  auto bodies = [&](const ast::Body &b) {
    for (const ast::Stmt *x : b)
      collectBoundNames(x, out);
  };
  using SK = ast::Stmt::Kind;
  switch (s->getKind()) {
  case SK::Assign:
    for (const ast::Expr *t : llvm::cast<ast::AssignStmt>(s)->getTargets())
      collectTargetNames(t, out);
    break;
  case SK::AugAssign:
    collectTargetNames(llvm::cast<ast::AugAssignStmt>(s)->getTarget(), out);
    break;
  case SK::FunctionDef: {
    auto *f = llvm::cast<ast::FunctionDefStmt>(s);
    out.emplace_back(f->getName().str(), f->getNameRange());
    break;
  }
  case SK::Import:
    for (const ast::ImportName &n : llvm::cast<ast::ImportStmt>(s)->getNames()) {
      if (n.dottedName == "*")
        continue;
      bool from = llvm::cast<ast::ImportStmt>(s)->isFrom();
      std::string bound = !n.asName.empty() ? n.asName
                          : from            ? n.dottedName
                                            : llvm::StringRef(n.dottedName).split('.').first.str();
      out.emplace_back(bound, n.range);
    }
    break;
  case SK::If:
    bodies(llvm::cast<ast::IfStmt>(s)->getThen());
    bodies(llvm::cast<ast::IfStmt>(s)->getElse());
    break;
  case SK::For:
    collectTargetNames(llvm::cast<ast::ForStmt>(s)->getTarget(), out);
    bodies(llvm::cast<ast::ForStmt>(s)->getBody());
    bodies(llvm::cast<ast::ForStmt>(s)->getElse());
    break;
  case SK::While:
    bodies(llvm::cast<ast::WhileStmt>(s)->getBody());
    bodies(llvm::cast<ast::WhileStmt>(s)->getElse());
    break;
  case SK::Try:
    bodies(llvm::cast<ast::TryStmt>(s)->getBody());
    break;
  default:
    break;
  }
}

void Interpreter::runModule(const ast::Module &module, Env *env, llvm::StringRef moduleName) {
  env->set("__name__", Value::ofStr(moduleName.str()), {});
  // `__file__`: the path tilec read the module from (`os.path.dirname(__file__)`
  // in sys.path set-up code, which is harness code).
  if (module.bufferId && module.bufferId <= srcMgr.getNumBuffers())
    env->set("__file__", Value::ofStr(srcMgr.getMemoryBuffer(module.bufferId)->getBufferIdentifier().str()), {});
  FnState st;
  for (const ast::Stmt *s : module.body) {
    // A statement that needs a harness value (torch, packaging, os.environ)
    // is harness code: the names it binds become harness values, reported
    // with this statement only where a kernel needs one (spec §3).
    HarnessTrap trap;
    HarnessTrap *outer = harnessTrap;
    harnessTrap = &trap;
    Flow f = execStmt(*this, s, env, st);
    harnessTrap = outer;
    (void)f; // an error in one statement does not stop the next
    if (budgetReported)
      return;
    if (!trap.hit)
      continue;
    std::vector<std::pair<std::string, llvm::SMRange>> names;
    collectBoundNames(s, names);
    llvm::StringSet<> seen;
    for (auto &[name, range] : names) {
      if (!seen.insert(name).second)
        continue; // the first binding of a name (an if's then-branch) locates it
      Value h = makeHarness(name, range);
      h.as<HarnessObj>()->needText = trap.text;
      h.as<HarnessObj>()->need = trap.use;
      env->set(name, h, range);
    }
  }
}

std::string Interpreter::describeCall(llvm::StringRef kind, llvm::StringRef name, const FunctionObj &fn, Env *frame) {
  std::string r = (kind + " '" + name + "'").str();
  std::string args;
  for (const ast::Param &p : fn.params) {
    if (!frame)
      break;
    auto it = frame->getTable().find(p.name);
    if (it == frame->getTable().end() || !it->second.value.isValid())
      continue;
    std::string text = it->second.value.str();
    if (text.size() > 40)
      text = text.substr(0, 37) + "...";
    args += (args.empty() ? "" : ", ") + p.name + "=" + text;
  }
  if (!args.empty())
    r += " called with " + args;
  return r;
}

Value tilec::meta::makeBuiltin(std::string name, BuiltinObj::Fn fn) {
  auto o = std::make_shared<BuiltinObj>();
  o->name = std::move(name);
  o->fn = std::move(fn);
  return Value::ofObject(K::Builtin, o);
}

Value tilec::meta::makePrimitive(const BuiltinInfo *info) {
  auto o = std::make_shared<BuiltinObj>();
  o->name = info->name;
  o->prim = info;
  return Value::ofObject(K::Builtin, o);
}
