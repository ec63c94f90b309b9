//===- InterpImpl.h - Private parts of the meta interpreter -----*- C++ -*-===//
//
// Statement execution state and the helpers the interpreter's files share
// (attributes, subscripts, methods, the builtin modules).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_FRONTEND_META_INTERPIMPL_H
#define TILEC_LIB_FRONTEND_META_INTERPIMPL_H

#include "tilec/Frontend/ConstEval.h"
#include "tilec/Frontend/Meta/Interpreter.h"

namespace tilec::meta::detail {

/// How a statement finished.
enum class Flow { Normal, Return, Break, Continue, Error };

/// The state of one function body (or module) being executed.
struct FnState {
  bool inFunction = false;
  Value ret = Value::none();
  /// Eager-style kernels: execution stops at the first `with` (the kernel
  /// body), which is recorded here.
  bool eager = false;
  const ast::Body *stopBody = nullptr;
  size_t stopIndex = 0;
  bool stopped = false;
  /// Tensors declared by `X: T.Tensor(...)` statements (eager style).
  std::vector<std::pair<std::string, Value>> eagerInputs;
  std::vector<llvm::SMRange> eagerInputRanges;
};

Flow execBody(Interpreter &in, const ast::Body &body, Env *env, FnState &st);
Flow execStmt(Interpreter &in, const ast::Stmt *s, Env *env, FnState &st);
/// Binds `v` to an assignment target (names, tuples with a starred element,
/// subscripts of lists and dicts); false after an error.
bool assignTarget(Interpreter &in, const ast::Expr *target, const Value &v, Env *env, llvm::SMRange valueRange);
/// Creates the function value of a `def` (defaults evaluated now) and
/// applies its decorators; Invalid after an error.
Value defineFunction(Interpreter &in, const ast::FunctionDefStmt *fn, Env *env);
/// tilelang.cuda.intrinsics (and tilelang.intrinsics) and their submodules:
/// make_mma_swizzle_layout, the MMA macro emitters (an error naming T.gemm
/// where one is constructed), harness values for the rest (Layouts.cpp).
void fillIntrinsicsModule(ModuleObj &m, llvm::StringRef dotted);

Value getAttribute(Interpreter &in, const Value &base, llvm::StringRef attr, llvm::SMRange attrRange,
                   llvm::SMRange range);
Value subscript(Interpreter &in, const Value &base, const Value &index, llvm::SMRange range);
/// A bound method of a str/list/dict/set/tuple value, or Invalid (no report).
Value methodOf(Interpreter &in, const Value &self, llvm::StringRef name);

void registerPyBuiltins(Interpreter &in, llvm::StringMap<Value> &table);
Value makeTModule(Interpreter &in);
Value makeTilelangModule(Interpreter &in, llvm::StringRef dotted);
/// tilelang.tools and its submodules (Tools.cpp): IKET's profiling events.
Value makeToolsModule(Interpreter &in, llvm::StringRef dotted);
Value makeStdModule(Interpreter &in, llvm::StringRef name);
/// `torch` and its submodules (Torch.cpp): dtypes and device queries, the
/// rest harness values.
Value makeTorchModule(Interpreter &in, llvm::StringRef dotted);

/// Decorators: `@tilelang.jit(...)`, `@autotune(...)`, `@T.prim_func`, `@T.macro`.
Value makeJitDecorator();
Value makeAutotuneDecorator();
Value makePrimFuncDecorator();
Value makeMacroDecorator();

/// `T.Layout(...)` / `T.Fragment(...)` (Layouts.cpp): a "Layout" or
/// "Fragment" object holding the shape and the functions; Invalid after an error.
Value makeLayoutValue(Interpreter &in, CallArgs &a, bool fragment);

/// The number `v` as an int64 (ints and bools), reporting otherwise.
std::optional<int64_t> expectInt(Interpreter &in, const Value &v, llvm::SMRange range, llvm::StringRef what);
/// A `range(start, stop, step)` object.
Value makeRange(int64_t start, int64_t stop, int64_t step);
/// Whether `fn`'s body (not nested defs) defines a @T.prim_func, directly
/// or under if/for/with.
bool definesPrimFunc(const ast::Body &body);
/// True if `d` names T.prim_func (`T.prim_func`, `prim_func`, `tilelang.language.prim_func`, with or without a call).
bool isPrimFuncExpr(const ast::Expr *d);
/// Whether the body has a `with T.Kernel(...)` at its top level.
bool hasKernelWith(const ast::Body &body);
/// The describe-able text of a callee expression (`T.copy`, `f`), or "".
std::string calleeText(const ast::Expr *e);

} // namespace tilec::meta::detail

#endif // TILEC_LIB_FRONTEND_META_INTERPIMPL_H
