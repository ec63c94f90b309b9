//===- Interpreter.h - The compile-time interpreter of .tile modules -*- C++ -*-===//
//
// Evaluates module code, factories, helper functions and decorators: a
// deterministic Python subset (Starlark is the model, spec §3). Kernel code
// generation looks names up in the environment a kernel closes over and
// folds meta expressions through the same operators (ConstEval.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_META_INTERPRETER_H
#define TILEC_FRONTEND_META_INTERPRETER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Meta/Value.h"

#include "llvm/ADT/StringMap.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec::meta {

/// One binding: its value and where it was defined.
struct Binding {
  Value value;
  llvm::SMRange defRange;
};

/// A scope: a module's globals or one function call's locals. Owned by the
/// Interpreter (closures hold plain pointers).
class Env {
public:
  explicit Env(Env *parent = nullptr) : parent(parent) {}
  /// The innermost binding of `name` (this scope, then enclosing ones);
  /// Python's builtins are not in any Env (see Interpreter::lookupBuiltin).
  const Binding *lookup(llvm::StringRef name) const;
  Binding *lookupMutable(llvm::StringRef name);
  void set(llvm::StringRef name, Value v, llvm::SMRange range) { table[name] = Binding{std::move(v), range}; }
  bool erase(llvm::StringRef name) { return table.erase(name); }
  Env *getParent() const { return parent; }
  const llvm::StringMap<Binding> &getTable() const { return table; }
  /// Every visible name, for suggestions.
  void collectNames(llvm::SmallVectorImpl<llvm::StringRef> &out) const;

private:
  Env *parent;
  llvm::StringMap<Binding> table;
};

/// Evaluated arguments of one call.
struct CallArgs {
  std::vector<Value> args;
  std::vector<llvm::SMRange> argRanges;
  std::vector<std::pair<std::string, Value>> kwargs;
  std::vector<llvm::SMRange> kwRanges;
  llvm::SMRange range; // the whole call
  llvm::SMRange calleeRange;
  /// The keyword `name`'s value or nullptr.
  const Value *kw(llvm::StringRef name) const;
  /// Positional `i`, else keyword `name`, else nullptr.
  const Value *get(unsigned i, llvm::StringRef name) const;
  llvm::SMRange rangeOf(unsigned i, llvm::StringRef name) const;
};

/// Where each parameter of a function gets its value (see matchArgs).
struct ParamSlot {
  int positional = -1; // index into the call's positional arguments
  int keyword = -1;    // index into the call's keywords
  bool useDefault = false;
  /// `*args`: the positional indices it collects; `**kwargs`: the keywords.
  std::vector<unsigned> rest;
};

/// What the driver asks of the interpreter.
struct MetaOptions {
  /// `-D NAME=VALUE` (parsed by the caller into an expression each).
  struct Define {
    std::string name;
    const ast::Expr *value = nullptr; // null when the value did not parse
    llvm::SMRange range;
    bool used = false;
  };
  std::vector<Define> defines;
  /// `-I DIR` search path for the user's helper modules.
  std::vector<std::string> includeDirs;
  /// The directory of the main file (relative imports, sibling modules).
  std::string mainDir;
  /// The device torch.cuda describes (FrontendOptions::deviceMajor).
  int deviceMajor = 9, deviceMinor = 0;
  /// Names a -D may set, collected while evaluating (module constants,
  /// factory parameters, T.const sizes), for the unknown -D message.
  std::vector<std::string> knownNames;
  void addKnown(llvm::StringRef n) {
    if (std::find(knownNames.begin(), knownNames.end(), n) == knownNames.end())
      knownNames.push_back(n.str());
  }
  /// Module-level names assigned only inside an `if __name__ == "__main__":`
  /// block (which tilec does not run), with the block's line.
  std::vector<std::pair<std::string, unsigned>> mainOnlyNames;
  /// The -D for `name`, or nullptr.
  Define *findDefine(llvm::StringRef name) {
    for (Define &d : defines)
      if (d.name == name)
        return &d;
    return nullptr;
  }
};

/// The interpreter. One per compilation; owns every Env, and values refer
/// into it, so it outlives kernel code generation.
class Interpreter {
public:
  Interpreter(DiagnosticEmitter &diags, llvm::SourceMgr &srcMgr, ast::ASTContext &ctx, MetaOptions &opts);
  ~Interpreter();

  DiagnosticEmitter &getDiags() { return diags; }
  llvm::SourceMgr &getSourceMgr() { return srcMgr; }
  MetaOptions &getOptions() { return opts; }

  /// A fresh scope (a module's globals when `parent` is null).
  Env *newEnv(Env *parent);
  /// Runs a module's statements in `env` (`__name__` is `moduleName`).
  void runModule(const ast::Module &module, Env *env, llvm::StringRef moduleName);

  /// The value of `e` in `env`, or Invalid after reporting an error.
  Value eval(const ast::Expr *e, Env *env);
  /// `base.attr` / `base[index]` with Python's rules; Invalid after reporting.
  Value getAttr(const Value &base, llvm::StringRef attr, llvm::SMRange attrRange, llvm::SMRange range);
  Value getItem(const Value &base, const Value &index, llvm::SMRange range);
  /// The function a `def` statement defines in `env` (its defaults and
  /// decorators evaluated there); Invalid after reporting an error.
  Value define(const ast::FunctionDefStmt *def, Env *env);
  /// Calls `callee`; Invalid after reporting an error.
  Value call(const Value &callee, CallArgs &args);
  /// Matches a call's positional count and keyword names against `fn`'s
  /// parameters, reporting mismatches at `callRange`; nullopt on error.
  std::optional<std::vector<ParamSlot>> matchArgs(const FunctionObj &fn, unsigned numPositional,
                                                  llvm::ArrayRef<std::string> keywords, llvm::SMRange callRange);

  /// Python's builtin `name` (len, range, ...), or Invalid.
  Value lookupBuiltin(llvm::StringRef name);
  /// Reports `v` (a Harness value) used where a real value is needed; while
  /// a module-level statement runs, records the first such use instead.
  void reportHarnessUse(const Value &v, llvm::SMRange use);
  /// A module-level statement's first use of a harness value (spec §3: the
  /// names it binds become harness values, an error only where used).
  struct HarnessTrap {
    bool hit = false;
    std::string text;
    llvm::SMRange use;
  };
  /// Records `what` at `use` as the active trap's harness use; false (and
  /// nothing recorded) when no module-level statement is running.
  bool trapHarness(llvm::StringRef what, llvm::SMRange use);
  /// For a name bound nowhere: its -D, bound in the main module (true), or false.
  bool defineForUnboundName(llvm::StringRef name, Value &out);
  /// For a name bound nowhere that the file assigns only in its `__main__`
  /// block: the unknown-name message's suffix saying so; else "".
  std::string unboundNameHint(llvm::StringRef name) const;
  /// Reports unless `v` is valid and concrete (not harness); true when usable.
  bool requireConcrete(const Value &v, llvm::SMRange use);

  /// Iterates `v` (tuple, list, range, dict keys, str, set); false after an
  /// error. `body` returns false to stop.
  bool iterate(const Value &v, llvm::SMRange range, const std::function<bool(const Value &)> &body);
  /// The items of an iterable as a vector; nullopt after an error.
  std::optional<std::vector<Value>> toList(const Value &v, llvm::SMRange range);

  /// Emits an error; the emitter attaches the meta call stack as notes
  /// (the interpreter installs DiagnosticEmitter::contextNotes).
  template <typename... Args> mlir::InFlightDiagnostic error(DiagID id, llvm::SMRange range, Args &&...args) {
    return diags.emit(id, range, std::forward<Args>(args)...);
  }
  /// "note: in factory 'matmul' called with block_M=128" for every active frame.
  void attachStack(mlir::InFlightDiagnostic &d);

  /// One active call, for backtraces.
  struct Frame {
    std::string what; // "factory 'matmul' called with block_M=128"
    llvm::SMRange range;
  };
  std::vector<Frame> &getStack() { return stack; }

  /// Kernel values created so far, in creation order (for export).
  std::vector<Value> &getKernels() { return kernels; }

  /// Evaluation budget (deterministic: counts steps, not time).
  bool step(llvm::SMRange range);

  /// The main file's module scope (-D applies there only).
  Env *mainEnv = nullptr;

  /// The `T` (tilelang.language) module.
  Value getTModule();
  /// The module `dotted` (tilelang..., math, a harness module, a user module
  /// on the -I path), or Invalid after reporting.
  Value importModule(llvm::StringRef dotted, llvm::SMRange range, bool fromImport);

  /// Executes an import statement in `env`; false after an error.
  bool importStatement(const ast::ImportStmt *s, Env *env);

  /// Runs the statements of a function body; the return value (None when it
  /// falls off the end), or Invalid after an error.
  Value callFunction(const Value &fnValue, CallArgs &args);

  /// A factory-call description, e.g. "factory 'matmul' called with M=1024".
  static std::string describeCall(llvm::StringRef kind, llvm::StringRef name, const FunctionObj &fn, Env *frame);

private:
  friend class StmtExec;
  friend class ExprEval;
  void attachHarnessOrigin(mlir::InFlightDiagnostic &d, const Value &v);

  DiagnosticEmitter &diags;
  llvm::SourceMgr &srcMgr;
  ast::ASTContext &ctx;
  MetaOptions &opts;
  std::deque<std::unique_ptr<Env>> envs;
  std::vector<Frame> stack;
  std::vector<Value> kernels;
  llvm::StringMap<Value> builtins;
  llvm::StringMap<Value> modules; // imported modules by dotted name
  /// Parsed user helper modules, kept alive with their AST.
  std::deque<std::unique_ptr<ast::Module>> userModules;
  Value tModule;
  HarnessTrap *harnessTrap = nullptr;
  uint64_t steps = 0;
  bool budgetReported = false;
  unsigned depth = 0;

public:
  /// Internal: statement execution state of the current function.
  ast::ASTContext &getASTContext() { return ctx; }
  unsigned &callDepth() { return depth; }
  llvm::StringMap<Value> &getBuiltinTable() { return builtins; }
  llvm::StringMap<Value> &getModuleTable() { return modules; }
  std::deque<std::unique_ptr<ast::Module>> &getUserModules() { return userModules; }
  /// Set while a def's default values and decorators are evaluated: an
  /// unknown `T.X` there is a deferred value, an error only where it is used
  /// (a test's `@pytest.mark.parametrize(..., [T.float32x2])`).
  bool deferUnknownPrimitives = false;
  /// The active harness trap (null outside module-level statements), for a
  /// nested one that catches what a part of a statement needs.
  HarnessTrap *&activeHarnessTrap() { return harnessTrap; }
};

/// Whether `fn` is a factory: it defines a @T.prim_func in its body, or is
/// decorated with @tilelang.jit / @autotune.
bool isFactoryFunction(const FunctionObj &fn);
/// Whether `fn` is an eager-style kernel (@tilelang.jit, no inner
/// @T.prim_func, a `with T.Kernel` in its body).
bool isEagerFunction(const FunctionObj &fn);
/// The parameters of an eager kernel declared as tensors in its body.
std::vector<std::string> eagerTensorParams(const FunctionObj &fn);

/// Native-function helpers for builtin tables.
Value makeBuiltin(std::string name, BuiltinObj::Fn fn);
/// A kernel-level T.* primitive as a value.
Value makePrimitive(const BuiltinInfo *info);

} // namespace tilec::meta

#endif // TILEC_FRONTEND_META_INTERPRETER_H
