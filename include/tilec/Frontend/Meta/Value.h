//===- Value.h - Values of the compile-time (meta) level --------*- C++ -*-===//
//
// One value type for everything a .tile/.py module computes at compile time
// (spec §3): numbers, strings, containers, functions, modules, dtypes,
// runtime-dimension size expressions, kernels, macros and harness values.
// Kernel code generation folds meta expressions with the same type.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_META_VALUE_H
#define TILEC_FRONTEND_META_VALUE_H

#include "tilec/Frontend/Meta/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tilec {
struct BuiltinInfo;
namespace ast {
class Expr;
class Stmt;
class FunctionDefStmt;
struct Param;
} // namespace ast
} // namespace tilec

namespace tilec::meta {

class Value;
class Env;
class Interpreter;
struct CallArgs;

/// Heap payload of the reference kinds (list, dict, function, ...).
struct Object {
  virtual ~Object();
};

/// A size expression over runtime dimensions (`M`, `M * 2`, `ceildiv(M, 64)`).
struct SizeExpr : Object {
  enum class Op { Const, Dim, Add, Sub, Mul, FloorDiv, Mod, Min, Max };
  Op op = Op::Const;
  int64_t constant = 0;     // Const
  std::string name;         // Dim
  std::shared_ptr<const SizeExpr> lhs, rhs;
  /// Python-like text: `M`, `(M + 1) // 2`.
  std::string str() const;
  /// Every Dim name, in first-use order.
  void collectDims(std::vector<std::string> &out) const;
};
using SizeRef = std::shared_ptr<const SizeExpr>;

/// A compile-time value. Copying is cheap for scalars; lists, dicts, sets,
/// functions and modules are shared references as in Python.
class Value {
public:
  enum class Kind {
    Invalid, // an error was already reported; uses stay silent
    None, Int, Float, Bool, Str, DType, Tuple,
    BigInt,  // an int outside int64 (Meta/BigInt.h); never one that fits
    Dynamic, // a runtime dimension or a size expression over them
    Policy,  // `T.GemmWarpPolicy.X`: the string holds X
    List, Dict, Set, Slice, Ellipsis,
    Function, // a `def` or `lambda` evaluated at the meta level
    Macro,    // a `@T.macro` function: inlined by kernel code generation
    Builtin,  // a native callable (Python builtin, T.* primitive, method)
    Module,   // a namespace: T, tilelang, math, a user module
    Kernel,   // a `@T.prim_func` (or eager `@tilelang.jit`) closed over its environment
    Harness,  // from torch/einops/...: accepted, an error only where used
    Object,   // another named object (tensor types, layouts, ranges...)
  };

  Value() = default;
  static Value none() { return Value(Kind::None); }
  static Value ellipsis() { return Value(Kind::Ellipsis); }
  static Value ofInt(int64_t v) { Value c(Kind::Int); c.i = v; return c; }
  static Value ofFloat(double v) { Value c(Kind::Float); c.f = v; return c; }
  static Value ofBool(bool v) { Value c(Kind::Bool); c.i = v; return c; }
  static Value ofStr(std::string s) { Value c(Kind::Str); c.s = std::move(s); return c; }
  static Value ofDType(DType t) { Value c(Kind::DType); c.dt = t; return c; }
  static Value ofTuple(std::vector<Value> e) { Value c(Kind::Tuple); c.elts = std::move(e); return c; }
  /// A runtime dimension named `name`.
  static Value ofDynamic(std::string name);
  static Value ofSize(SizeRef size);
  static Value ofPolicy(std::string name) { Value c(Kind::Policy); c.s = std::move(name); return c; }
  static Value ofList(std::vector<Value> items);
  static Value ofSet(std::vector<Value> items);
  static Value ofDict(std::vector<std::pair<Value, Value>> items = {});
  static Value ofSlice(Value lower, Value upper, Value step);
  static Value ofObject(Kind k, std::shared_ptr<Object> obj) { Value c(k); c.obj = std::move(obj); return c; }
  /// A BigInt (a BigIntObj, made by meta::fromAPInt) and its nearest double
  /// (+-inf when too large), which getFloat returns.
  static Value ofBigInt(std::shared_ptr<Object> big, double approx) {
    Value c(Kind::BigInt);
    c.obj = std::move(big);
    c.f = approx;
    return c;
  }

  Kind getKind() const { return kind; }
  bool isValid() const { return kind != Kind::Invalid; }
  bool is(Kind k) const { return kind == k; }
  bool isInt() const { return kind == Kind::Int; }
  /// Int or Bool (Python's bool is an int).
  bool isIntLike() const { return kind == Kind::Int || kind == Kind::Bool; }
  bool isNumber() const { return isIntLike() || kind == Kind::Float; }
  /// An int beyond int64. It is not isIntLike (code that needs a machine
  /// integer reports it with describe()); Python-level code checks isInteger.
  bool isBigInt() const { return kind == Kind::BigInt; }
  /// Any Python int: Int, Bool or BigInt.
  bool isInteger() const { return isIntLike() || kind == Kind::BigInt; }
  /// A sequence the program can index and iterate: tuple or list.
  bool isSequence() const { return kind == Kind::Tuple || kind == Kind::List; }
  int64_t getInt() const { return i; }
  bool getBool() const { return i != 0; }
  double getFloat() const { return kind == Kind::Float || kind == Kind::BigInt ? f : double(i); }
  /// The string; for Dynamic the size expression's text (the name of a plain dimension).
  llvm::StringRef getStr() const { return s; }
  DType getDType() const { return dt; }
  /// Tuple and Slice elements; List and Set items.
  llvm::ArrayRef<Value> getElts() const;
  /// Dynamic: the size expression; null for other kinds.
  const SizeExpr *getSize() const;
  /// Dynamic: true when this is one dimension (not an expression).
  bool isPlainDim() const;
  /// List/Set storage (shared; mutations are visible through every copy).
  std::vector<Value> *listItems() const;
  /// Dict storage (insertion order).
  std::vector<std::pair<Value, Value>> *dictItems() const;
  Object *getObject() const { return obj.get(); }
  const std::shared_ptr<Object> &getObjectRef() const { return obj; }
  template <typename T> T *as() const { return dynamic_cast<T *>(obj.get()); }

  /// Python truthiness (Dynamic and Harness values have none: check first).
  bool truthy() const;
  /// The value as a dtype: a DType, or a string that names one.
  std::optional<DType> asDType() const;

  /// Python-like source text (repr), e.g. `(128, 64)`, `T.float16`, `'row'`.
  std::string str() const;
  /// str() of Python: strings without quotes.
  std::string toDisplay() const;
  /// What kind of thing this is, for messages: "an integer", "a dtype", ...
  std::string describe() const;

private:
  explicit Value(Kind k) : kind(k) {}
  Kind kind = Kind::Invalid;
  int64_t i = 0;
  double f = 0;
  DType dt = DType::Int32;
  std::string s;
  std::vector<Value> elts;
  std::shared_ptr<Object> obj;
};

/// Python `==` (1 == 1.0 == True, a dtype equals its spelling).
bool equals(const Value &a, const Value &b);
/// Whether `v` may be a dict key or set element.
bool isHashable(const Value &v);

/// List and set storage.
struct ListObj : Object {
  std::vector<Value> items;
};

struct DictObj : Object {
  std::vector<std::pair<Value, Value>> items;
  /// The entry for `key` or nullptr.
  Value *find(const Value &key);
};

struct SizeObj : Object {
  SizeRef size;
};

/// A `def`/`lambda` closed over its environment.
struct FunctionObj : Object {
  std::string name;
  const ast::FunctionDefStmt *def = nullptr; // a def
  const ast::Expr *lambda = nullptr;         // or a lambda (the LambdaExpr)
  llvm::ArrayRef<ast::Param> params;
  /// The evaluated default of each parameter (Invalid where none).
  std::vector<Value> defaults;
  Env *closure = nullptr;
  llvm::SMRange range; // the name
  /// Decorator arguments: `@tilelang.jit(...)` keywords (a Dict, or None
  /// when not jitted) and `@autotune(configs=...)` configs.
  Value jit, autotune;
  /// The parameter named `name`, or -1.
  int paramIndex(llvm::StringRef name) const;
};

/// A native function. `fn` is null for kernel-level T.* primitives, which
/// only kernel code generation can apply (`prim` names them).
struct BuiltinObj : Object {
  using Fn = std::function<Value(Interpreter &, CallArgs &)>;
  std::string name;
  Fn fn;
  const BuiltinInfo *prim = nullptr;
  /// Bound arguments prepended to every call (methods, partials).
  std::vector<Value> bound;
};

/// A namespace. Attributes are looked up in `attrs`, then `lazy`.
struct ModuleObj : Object {
  std::string name;
  llvm::StringMap<Value> attrs;
  std::function<Value(llvm::StringRef)> lazy;
  /// The module's own environment (user helper modules).
  Env *env = nullptr;
};

/// A kernel: its def, the environment its body sees, decorator values.
struct KernelObj : Object {
  std::string name;       // the def's name
  std::string exportName; // the outermost factory's name, or the def's
  const ast::FunctionDefStmt *def = nullptr;
  Env *closure = nullptr;
  Value jit, autotune;
  bool eager = false;
  /// The statements kernel code generation builds: the def's body, or for
  /// the eager style those from the first `with` on (without the `return`).
  std::vector<const ast::Stmt *> body;
  /// Eager style: input tensors (`X: T.Tensor(...)`, in order) and outputs
  /// (`Y = T.empty(...)`, in `return` order), each a TensorType object.
  std::vector<std::pair<std::string, Value>> eagerInputs, eagerOutputs;
  std::vector<llvm::SMRange> eagerInputRanges, eagerOutputRanges;
  /// The meta call stack where the kernel was defined ("factory 'matmul'
  /// called with block_M=128"), innermost last, for notes.
  std::vector<std::pair<std::string, llvm::SMRange>> frames;
};

/// Anything computed from harness modules (torch, einops, triton, ...).
struct HarnessObj : Object {
  std::string text;      // e.g. "torch.float16"
  llvm::SMRange origin;  // the harness line it came from
  /// A name bound by a module-level statement that needed a harness value:
  /// that value's text and where the statement needed it.
  std::string needText;
  llvm::SMRange need;
  /// An unknown `T.X` whose error was deferred (Interpreter::
  /// deferUnknownPrimitives): X and the did-you-mean text, reported at
  /// `origin` where the value is used.
  std::string unknownPrimitive, unknownHint;
};

/// Another object: `typeName` plus named fields (e.g. a tensor type with
/// `shape` and `dtype`, a `range`).
struct NamedObj : Object {
  std::string typeName;
  llvm::StringMap<Value> fields;
  std::string text; // repr
};

/// Makes a NamedObj value.
Value makeObject(std::string typeName, std::vector<std::pair<std::string, Value>> fields, std::string text = "");
/// The NamedObj of `v` when its type is `typeName`, else nullptr.
NamedObj *asObject(const Value &v, llvm::StringRef typeName);
Value makeHarness(std::string text, llvm::SMRange origin);
/// Whether `v` is a deferred unknown `T.X` (HarnessObj::unknownPrimitive).
bool deferredHarness(const Value &v);

//===----------------------------------------------------------------------===//
// Formatting (f-strings, str.format, `%`); the operators are in ConstEval.h
//===----------------------------------------------------------------------===//

/// `format(v, spec)` for a format spec such as `>8`, `.3f`, `d`, `x`; sets
/// `error` and returns "" when the spec does not apply to the value.
std::string formatWithSpec(const Value &v, llvm::StringRef spec, std::string &error);
/// `fmt % args` (printf-style); sets `error` on a bad conversion or count.
std::string formatPercent(llvm::StringRef fmt, const Value &args, std::string &error);

/// Builds `lhs op rhs` over sizes (ints and runtime dimensions), folding
/// constants; `op` is one of Add, Sub, Mul, FloorDiv, Mod, Min, Max.
Value sizeOp(SizeExpr::Op op, const Value &lhs, const Value &rhs);
/// The size expression of an int or Dynamic value.
SizeRef toSize(const Value &v);

} // namespace tilec::meta

#endif // TILEC_FRONTEND_META_VALUE_H
