//===- Builtins.h - The one table of T.* primitives and Python builtins -*- C++ -*-===//
//
// Every callable a .tile file may name (`T.copy`, `range`, ...) with its
// positional and keyword parameters, their defaults and what each accepts.
// Sema binds each call against this table before anything else looks at it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_BUILTINS_H
#define TILEC_FRONTEND_BUILTINS_H

#include "tilec/Frontend/AST.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace tilec {

class DiagnosticEmitter;

enum class BuiltinID {
  // module level
  Dynamic,
  Symbolic,
  Tensor,
  Buffer,
  DTypeCtor,
  PrimFunc,
  // constant-foldable
  CeilDiv,
  Min,
  Max,
  PyMin,
  PyMax,
  PyInt,
  PyFloat,
  // launch and allocation
  Kernel,
  AllocShared,
  AllocFragment,
  AllocLocal,
  AllocVar,
  AllocGlobal,
  AllocBuffer,
  AllocReducer,
  // tile operations
  Copy,
  Gemm,
  Fill,
  Clear,
  ReduceMax,
  ReduceMin,
  ReduceSum,
  ReduceAbsSum,
  ReduceAbsMax,
  CumSum,
  FinalizeReducer,
  AtomicAdd,
  AtomicAddX2,
  AtomicAddX4,
  Print,
  UseSwizzle,
  AnnotateLayout,
  MakeSwizzledLayout,
  // loops
  Parallel,
  Pipelined,
  Serial,
  Unroll,
  Range,
  Vectorized,
  ThreadBindingLoop,
  Persistent,
  // views
  View,
  Reshape,
  // scalar expressions
  Abs,
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Rsqrt,
  Tanh,
  Sigmoid,
  IfThenElse,
  Infinity,
  Cast,
  ThreadBinding,
  PyAbs,
  // the rest of spec §5 (TileGenMath.cpp)
  CastDT,
  Reinterpret,
  Clamp,
  FloorDiv,
  FloorMod,
  TruncDiv,
  TruncMod,
  Pow,
  ShiftLeft,
  ShiftRight,
  BitwiseAnd,
  BitwiseOr,
  BitwiseXor,
  BitwiseNot,
  MaxValue,
  MinValue,
  IsNan,
  IsInf,
  IsFinite,
  Ceil,
  Floor,
  Round,
  NearbyInt,
  Trunc,
  Sin,
  Cos,
  Tan,
  Log10,
  Log1p,
  Dp4a,
  Assume,
  AlignUp,
  LaneIdx,
  WarpIdx,
  WarpGroupIdx,
  BlockBinding,
  BlockRankInCluster,
  // layouts (TileGenLayouts.cpp)
  LayoutCtor,
  FragmentCtor,
  // explicit warp specialization and its hints (TileGenWarpSpec.cpp)
  WarpSpecialize,
  AllocBarrier,
  BarrierArrive,
  BarrierWait,
  TmaCopy,
  WgmmaGemm,
  WaitWgmma,
  SetMaxNReg,
  IncMaxNReg,
  DecMaxNReg,
  NoSetMaxNReg,
  AnnotateRegAlloc,
  AnnotateL2HitRatio,
  FenceProxyAsync,
  // explicit barriers and tile-lang's other copy forms (TileGenCollectives.cpp)
  SyncThreads,
  SyncWarp,
  Im2Col,
  MakeMmaSwizzleLayout,
  RngInit,
  RngRand,
  GemmSp,
  // device primitives tile-lang kernels call directly (TileGenDevicePrims.cpp)
  IketRange,
  IketMark,
  IketPayload,
  DeviceAssert,
  AsyncCommitGroup,
  AsyncWaitGroup,
  PtxCpAsync,
  CpAsyncBarrier,
  AccessPtr,
  SyncGrid,
  ImportSource,
  CallExtern,
  WarpShuffle,
  WarpShuffleDown,
  WarpShuffleUp,
  AtomicMax,
  AtomicMin,
  Grid,
  // Warp votes, matches, block syncs with a predicate, bit scans (TileGenWarpVote.cpp).
  AnySync,
  AllSync,
  BallotSync,
  Ballot,
  ActiveMask,
  SyncThreadsCount,
  SyncThreadsAnd,
  SyncThreadsOr,
  MatchAnySync,
  MatchAllSync,
  Ffs,
  Fns,
};

/// What an argument must be; checked where the argument is evaluated.
enum class ArgKind {
  Any,       // anything
  Scalar,    // a scalar expression (runtime or constant)
  ConstInt,  // a compile-time integer
  ConstBool, // a compile-time bool
  ConstStr,  // a compile-time string
  DType,     // a dtype (`T.float16`, "float16", `T.dtype(...)`)
  Shape,     // a tuple of dimensions (or one dimension)
  Buffer,    // a whole buffer
  Region,    // a buffer, a slice of one or an element of one
  Policy,    // `T.GemmWarpPolicy.X`
  Extents,   // an int or a tuple of ints (threads, cluster)
  Dict,      // `{buf: layout}`
  Value,     // a scalar or a buffer (T.print)
};

/// The default of an optional parameter.
struct ArgDefault {
  enum Kind { Required, None, Int, Bool, Str, Policy } kind = Required;
  int64_t intValue = 0;
  const char *strValue = "";
};

struct BuiltinParam {
  const char *name;
  ArgKind kind;
  ArgDefault def;
  bool keywordOnly = false;
};

/// Where a builtin may be used.
enum class BuiltinContext {
  Const,  // anywhere, folded at compile time when possible (ceildiv, min)
  Module, // module level only (dynamic, Tensor)
  Stmt,   // a statement inside T.Kernel (copy, gemm)
  Expr,   // an expression inside a kernel (exp, cast)
  Iter,   // the iterable of a `for` (Parallel, Pipelined, range)
  With,   // the context of a `with` (Kernel)
  Alloc,  // the value of an assignment (inside T.Kernel, or before it for global buffers)
};

struct BuiltinInfo {
  BuiltinID id;
  /// The spelled name: "T.copy", "range".
  const char *name;
  BuiltinContext context;
  llvm::ArrayRef<BuiltinParam> params;
  /// Extra positional arguments beyond `params` are accepted (T.Parallel,
  /// T.Kernel's grid, min/max); they take `variadicKind` and count from
  /// `minVariadic`.
  bool variadic = false;
  ArgKind variadicKind = ArgKind::Any;
  unsigned minVariadic = 0;
};

/// The builtin `T.<attr>` or nullptr.
const BuiltinInfo *lookupTBuiltin(llvm::StringRef attr);
/// The Python builtin `name` (range, min, max, ...) or nullptr.
const BuiltinInfo *lookupPyBuiltin(llvm::StringRef name);
const BuiltinInfo &getBuiltin(BuiltinID id);
/// Every `T.` primitive's name without the prefix (for suggestions).
void getTBuiltinNames(llvm::SmallVectorImpl<llvm::StringRef> &out);
/// For a tile-lang `T.` name tilec knows and does not implement, why and
/// what to write instead (the tail of sema_unsupported_primitive); else "".
llvm::StringRef unsupportedTPrimitive(llvm::StringRef attr);
/// Names that are `T.` attributes but not callables (dtypes, GemmWarpPolicy).
bool isTAttributeName(llvm::StringRef attr);

/// A call bound to a builtin's parameters.
struct BoundCall {
  const BuiltinInfo *info = nullptr;
  const ast::CallExpr *call = nullptr;
  /// One entry per declared parameter; nullptr where the default applies.
  llvm::SmallVector<const ast::Expr *, 6> args;
  /// The positional arguments beyond the declared ones (variadic builtins).
  llvm::SmallVector<const ast::Expr *, 4> extra;

  /// The argument for parameter `name` (nullptr when defaulted).
  const ast::Expr *get(llvm::StringRef name) const;
  const ArgDefault &getDefault(llvm::StringRef name) const;
  /// The range to point at for parameter `name`: the argument, else the call.
  llvm::SMRange rangeOf(llvm::StringRef name) const;
};

/// Binds `call` to `info`: too many/few positional arguments, unknown,
/// duplicate or doubly given keywords are reported; returns false then.
bool bindCall(const BuiltinInfo &info, const ast::CallExpr *call, DiagnosticEmitter &diags, BoundCall &out);

/// The textual name of an expression used as a callee, e.g. "T.copy",
/// "x.astype"; "" for anything else.
std::string calleeName(const ast::Expr *callee);

} // namespace tilec

#endif // TILEC_FRONTEND_BUILTINS_H
