//===- Imports.cpp - import statements and user helper modules ------------===//
//
// `import a.b [as c]`, `from m import x [as y]`, `from m import *`, relative
// imports; tilelang's and the standard modules, user modules found as .tile
// or .py files on the -I path (evaluated as meta modules), and harness
// modules (torch, einops, ...), which are accepted until a name is used.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/Lexer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace tilec;
using namespace tilec::ast;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

/// The file of user module `dotted` on the search path, or "".
static std::string findUserModule(MetaOptions &opts, llvm::StringRef dotted) {
  std::string rel = dotted.str();
  std::replace(rel.begin(), rel.end(), '.', '/');
  std::vector<std::string> dirs;
  if (!opts.mainDir.empty())
    dirs.push_back(opts.mainDir);
  dirs.insert(dirs.end(), opts.includeDirs.begin(), opts.includeDirs.end());
  for (const std::string &d : dirs)
    for (const char *suffix : {".tile", ".py", "/__init__.tile", "/__init__.py"}) {
      llvm::SmallString<256> p(d);
      llvm::sys::path::append(p, rel + suffix);
      if (llvm::sys::fs::is_regular_file(p))
        return std::string(p);
    }
  return "";
}

Value Interpreter::importModule(llvm::StringRef dotted, llvm::SMRange range, bool fromImport) {
  (void)fromImport;
  auto it = modules.find(dotted);
  if (it != modules.end())
    return it->second;
  Value m;
  if (dotted == "tilelang.tools" || dotted.starts_with("tilelang.tools."))
    m = makeToolsModule(*this, dotted);
  else if (dotted == "tilelang" || dotted.starts_with("tilelang."))
    m = makeTilelangModule(*this, dotted);
  else
    m = makeStdModule(*this, dotted);
  if (!m.isValid()) {
    std::string file = findUserModule(opts, dotted);
    if (!file.empty()) {
      auto buf = llvm::MemoryBuffer::getFile(file);
      if (buf) {
        unsigned id = srcMgr.AddNewSourceBuffer(normalizeLineEnds(std::move(*buf)), range.Start);
        userModules.push_back(std::make_unique<ast::Module>(parseModule(srcMgr, id, ctx, diags)));
        auto mod = std::make_shared<ModuleObj>();
        mod->name = dotted.str();
        mod->env = newEnv(nullptr);
        // The package its relative imports start from (Python's __package__).
        bool isPackage = llvm::sys::path::stem(file) == "__init__";
        size_t dot = dotted.rfind('.');
        std::string package = isPackage                      ? dotted.str()
                              : dot == llvm::StringRef::npos ? ""
                                                             : dotted.substr(0, dot).str();
        mod->env->set("__package__", Value::ofStr(package), {});
        m = Value::ofObject(K::Module, mod);
        modules[dotted] = m; // before running: cyclic imports see it
        runModule(*userModules.back(), mod->env, dotted);
        return m;
      }
    }
    // Harness modules (torch, einops, triton, numpy, ...): accepted and
    // ignored until a kernel needs one of their values.
    m = makeHarness(dotted.str(), range);
  }
  modules[dotted] = m;
  return m;
}

/// Binds every public name of module `m` (`from m import *`).
static void bindStar(const Value &m, Env *env, llvm::SMRange range) {
  auto *mod = m.as<ModuleObj>();
  if (!m.is(K::Module) || !mod)
    return;
  for (const auto &e : mod->attrs)
    if (!e.getKey().starts_with("_"))
      env->set(e.getKey(), e.getValue(), range);
  if (mod->env)
    for (const auto &e : mod->env->getTable())
      if (!e.getKey().starts_with("_"))
        env->set(e.getKey(), e.getValue().value, range);
}

/// The absolute name of `from <level dots><from> import ...` in the module of
/// `env`: relative to that module's package. In the main file (no package)
/// the name stays as written and is looked up beside the file and on -I.
static std::string resolveRelative(Env *env, unsigned level, const std::string &from) {
  const Binding *b = env->lookup("__package__");
  if (!b || !b->value.is(Value::Kind::Str))
    return from;
  llvm::StringRef base = b->value.getStr();
  for (unsigned k = 1; k < level && !base.empty(); ++k) {
    size_t dot = base.rfind('.');
    base = dot == llvm::StringRef::npos ? llvm::StringRef() : base.take_front(dot);
  }
  if (base.empty())
    return from;
  return from.empty() ? base.str() : (base + "." + from).str();
}

bool Interpreter::importStatement(const ImportStmt *s, Env *env) {
  if (!s->isFrom()) {
    for (const ImportName &n : s->getNames()) {
      Value full = importModule(n.dottedName, n.range, false);
      if (!full.isValid())
        return false;
      if (!n.asName.empty()) {
        env->set(n.asName, full, n.range);
        continue;
      }
      llvm::StringRef root = llvm::StringRef(n.dottedName).split('.').first;
      Value r = importModule(root, n.range, false);
      env->set(root, r, n.range);
    }
    return true;
  }
  std::string from = s->getFromModule().str();
  if (s->getLevel() > 0)
    from = resolveRelative(env, s->getLevel(), from);
  for (const ImportName &n : s->getNames()) {
    if (n.dottedName == "*") {
      Value m = importModule(from, n.range, true);
      if (!m.isValid())
        return false;
      bindStar(m, env, n.range);
      continue;
    }
    std::string bindAs = n.asName.empty() ? n.dottedName : n.asName;
    Value v;
    if (!from.empty()) {
      Value m = importModule(from, n.range, true);
      if (!m.isValid())
        return false;
      if (m.is(K::Harness)) {
        v = makeHarness(from + "." + n.dottedName, n.range);
      } else if (auto *mod = m.as<ModuleObj>()) {
        auto a = mod->attrs.find(n.dottedName);
        if (a != mod->attrs.end())
          v = a->second;
        else if (mod->env && mod->env->getTable().count(n.dottedName))
          v = mod->env->getTable().find(n.dottedName)->second.value;
        else if (mod->lazy)
          v = mod->lazy(n.dottedName);
        if (!v.isValid()) {
          // A submodule of a package.
          Value sub = importModule(from + "." + n.dottedName, n.range, true);
          if (sub.is(K::Harness) && !findUserModule(opts, from).empty()) {
            llvm::SmallVector<llvm::StringRef, 16> names;
            for (const auto &e : mod->attrs)
              names.push_back(e.getKey());
            if (mod->env)
              mod->env->collectNames(names);
            error(DiagID::meta_import_name, n.range, from, n.dottedName, didYouMean(n.dottedName, names));
            env->set(bindAs, Value(), n.range);
            return false;
          }
          v = sub;
        }
        if (v.is(K::Harness) && !v.as<HarnessObj>()->origin.Start.isValid())
          v = makeHarness(v.str(), n.range);
      }
    } else {
      v = importModule(n.dottedName, n.range, true);
    }
    if (!v.isValid())
      return false;
    env->set(bindAs, v, n.range);
  }
  return true;
}
