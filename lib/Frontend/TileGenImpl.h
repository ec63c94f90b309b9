//===- TileGenImpl.h - Private state of TileGen -----------------*- C++ -*-===//
//
// The kernel-body generator: checks each construct with Sema's rules and
// builds the tile-dialect ops for it. Split over TileGen.cpp (kernels,
// statements), TileGenExpr.cpp (scalar expressions) and TileGenOps.cpp (tile
// operations, regions, loops).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_FRONTEND_TILEGENIMPL_H
#define TILEC_LIB_FRONTEND_TILEGENIMPL_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/ConstEval.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Sema.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <memory>
#include <optional>

namespace tilec::detail {

struct GlobalLayout;

/// A buffer visible in a kernel body: a tensor parameter or an allocation.
struct BufferInfo {
  std::string name;
  mlir::Value value;
  DType dtype = DType::Float32;
  tile::Scope scope = tile::Scope::Global;
  /// Static sizes; mlir::ShapedType::kDynamic for runtime dimensions.
  llvm::SmallVector<int64_t, 4> shape;
  /// The runtime dimension's name where shape[d] is dynamic.
  llvm::SmallVector<std::string, 4> dimNames;
  llvm::SMRange declRange;
  bool isVar = false; // T.alloc_var: a rank-0 local read and written by name
  bool isParam = false;
  bool isBarrier = false; // T.alloc_barrier: mbarriers, used only by the barrier statements
  /// T.alloc_reducer: the combiner of its partial results.
  std::optional<tile::ReduceKind> reducer;
  /// A global tensor's T.Layout (T.annotate_layout): element accesses go to
  /// the element at the layout's physical offset (TileGenLayouts.cpp).
  std::shared_ptr<const GlobalLayout> layout;
  unsigned rank() const { return shape.size(); }
  /// `[128, 64]` or `[M, 64]`.
  std::string shapeStr() const;
};

/// A global tensor's T.Layout: the physical index of each output dimension
/// as a size expression of the logical indices (dimensions named by
/// globalLayoutIndexName), and the output extents; an element's memory is
/// at the row-major offset of its physical index (TileGenGlobalLayout.cpp).
struct GlobalLayout {
  std::vector<meta::SizeRef> outputs;
  llvm::SmallVector<int64_t> extents;
};
/// The size-expression dimension that stands for logical index `k`.
std::string globalLayoutIndexName(unsigned k);

/// The result of evaluating an expression in a kernel.
struct TValue {
  enum class Kind { Invalid, Const, Scalar, Buffer, Layout };
  Kind kind = Kind::Invalid;
  ConstValue cst;                // Const
  mlir::Value value;             // Scalar
  DType dtype = DType::Int32;    // Scalar
  std::optional<LinearForm> lin; // Scalar integers: known linear form
  BufferInfo *buffer = nullptr;  // Buffer, Layout (the layout's buffer)
  bool layoutHint = false;       // Layout: a hint that changes nothing (T.make_mma_swizzle_layout)

  static TValue ofConst(ConstValue c) {
    TValue v;
    v.kind = Kind::Const;
    v.cst = std::move(c);
    return v;
  }
  static TValue ofScalar(mlir::Value val, DType t, std::optional<LinearForm> lin = std::nullopt) {
    TValue v;
    v.kind = Kind::Scalar;
    v.value = val;
    v.dtype = t;
    v.lin = std::move(lin);
    return v;
  }
  static TValue ofBuffer(BufferInfo *b) {
    TValue v;
    v.kind = Kind::Buffer;
    v.buffer = b;
    return v;
  }
  bool isValid() const { return kind != Kind::Invalid; }
  bool isConst() const { return kind == Kind::Const; }
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isBuffer() const { return kind == Kind::Buffer; }
  /// "a float16 scalar", "shared buffer 'A_s'", "an integer constant", ...
  std::string describe() const;
};

/// A region of a buffer named by a T.copy / T.atomic_add argument.
struct Region {
  BufferInfo *buffer = nullptr;
  llvm::SmallVector<mlir::Value, 4> offsets;
  /// Extent per dimension; nullopt for an element region (the other side's extent).
  std::optional<llvm::SmallVector<int64_t, 4>> sizes;
  llvm::SMRange range;
};

/// How a tile operation uses a region operand (TileGenRegions.cpp).
enum class RegionUse { Read, Write, ReadWrite };
/// A region operand's buffer copied back into the region after the operation.
struct RegionWriteBack {
  Region from, to;
};

/// The shape of a global allocation: static sizes (kDynamic for runtime
/// dimensions), the runtime dimensions' names and their index values.
struct GlobalShape {
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<std::string, 4> dimNames;
  llvm::SmallVector<mlir::Value, 4> sizes;
};

/// A name bound inside a kernel body.
struct LocalVar {
  TValue value;
  llvm::SMRange declRange;
  unsigned depth = 0; // the region depth where it was bound
  /// After a runtime `if`, a name that cannot be read: bound on only one path
  /// (MaybeUnbound) or to values of the two branches that cannot be merged into
  /// one scalar (Conflict), or bound by an assignment that failed with an
  /// error (Failed: reading it is silent, one mistake gives one diagnostic).
  /// Reading it reports why; assigning it rebinds it.
  /// BeforeGridSync: bound to a value computed before a T.sync_grid that
  /// cannot be recomputed after it (TileGenGridSync.cpp).
  enum class State { Bound, MaybeUnbound, Conflict, Failed, BeforeGridSync } state = State::Bound;
  llvm::SMRange otherRange = {};            // Conflict: the other path's assignment
  std::string thenDesc = {}, elseDesc = {}; // Conflict: what each path gives
  bool isBound() const { return state == State::Bound; }
};

/// One lexical region (launch body, loop body, branch).
struct LocalScope {
  llvm::StringMap<LocalVar> names;
  bool isLoop = false;
};

/// A T.Parallel loop variable: the range it takes and where that was given.
struct ParallelVar {
  int64_t extent = 0;
  llvm::SMRange extentRange;
  std::string name;
};

class KernelGen {
public:
  KernelGen(DiagnosticEmitter &diags, mlir::OpBuilder &builder, const KernelInfo &info)
      : diags(diags), b(builder), info(info), metaEnv(info.env) {}

  /// Builds `tile.kernel` for the kernel into `module`; false on errors.
  bool build(mlir::ModuleOp module);

  // Statements (TileGen.cpp).
  void genBody(const ast::Body &body);
  void genAssert(const ast::AssertStmt *s);
  void genStmt(const ast::Stmt *s);
  void genAssign(const ast::AssignStmt *s);
  void genAugAssign(const ast::AugAssignStmt *s);
  void genWith(const ast::WithStmt *s);
  void genIf(const ast::IfStmt *s);
  /// Makes the names the branches of a runtime `if` assigned visible after it:
  /// scalars become results of the scf.if (which is rebuilt with them).
  void mergeBranches(mlir::scf::IfOp ifOp, const ast::IfStmt *s, const LocalScope &thenScope,
                     const LocalScope &elseScope);
  /// Reports a read of a name that a runtime `if` left unusable.
  void reportUnusable(const LocalVar &var, llvm::StringRef name, llvm::SMRange use);
  /// After an assignment that reported an error: its target names that have
  /// no binding become Failed, so that their uses add no diagnostics.
  void bindFailed(const ast::Expr *target);
  void genExprStmt(const ast::ExprStmt *s);
  const BuiltinInfo *modulePrimitive(const ast::Expr *callee);
  void bindName(const ast::NameExpr *target, TValue value, llvm::SMRange valueRange);
  void storeElement(const ast::SubscriptExpr *target, TValue value);

  // Expressions (TileGenExpr.cpp).
  TValue eval(const ast::Expr *e);
  TValue evalName(const ast::NameExpr *e);
  TValue evalAttribute(const ast::AttributeExpr *e);
  TValue evalBinary(const ast::BinaryExpr *e);
  TValue evalUnary(const ast::UnaryExpr *e);
  TValue evalCompare(const ast::CompareExpr *e);
  TValue evalBoolOp(const ast::BoolOpExpr *e);
  TValue evalSelect(const ast::Expr *cond, const ast::Expr *thenE, const ast::Expr *elseE, llvm::SMRange range);
  TValue evalSubscript(const ast::SubscriptExpr *e);
  TValue evalCall(const ast::CallExpr *e);
  /// A call of a meta function (a helper `def`, math.ceil, ...) inside a
  /// kernel, run at compile time; nullopt when the callee is not one.
  std::optional<TValue> callMetaFunction(const ast::CallExpr *e);
  /// The meta value a callee names when its root is a meta-level name (not
  /// a kernel local, parameter or `T`); Invalid otherwise.
  meta::Value metaCallee(const ast::Expr *callee);
  /// Inlines a @T.macro (or a helper function called with kernel values) at
  /// `call`: arguments bound in a scope of its own, free names resolved in
  /// the function's closure; the value of its `return` (None without one).
  TValue inlineFunction(const meta::FunctionObj &fn, const ast::CallExpr *call);
  /// A call's arguments, evaluated once in the caller.
  struct CallValues {
    std::vector<TValue> pos;
    std::vector<std::string> kwNames;
    std::vector<TValue> kwValues;
  };
  bool evalCallArgs(const ast::CallExpr *call, CallValues &cv);
  TValue inlineFunction(const meta::FunctionObj &fn, const ast::CallExpr *call, const CallValues &cv);
  // Expression builtins of scalars (TileGenScalarBuiltins.cpp).
  TValue evalExprBuiltin(const BoundCall &call);
  TValue evalAbs(const BoundCall &call);
  TValue evalFloatMath(const BoundCall &call);
  TValue evalThreadIndex(const BoundCall &call);
  TValue evalMinMax(const BoundCall &call);
  TValue evalPyNumber(const BoundCall &call);
  // The rest of spec §5's builtins (TileGenMath.cpp).
  /// `T.float32(x)`, `accum_dtype(x)`: nullopt when the callee is not a dtype.
  std::optional<TValue> evalDTypeCall(const ast::CallExpr *e);
  /// T.Cast, T.clamp, T.floordiv, ...: nullopt when `call` is none of them.
  std::optional<TValue> evalMathBuiltin(const BoundCall &call);
  TValue evalReinterpret(const BoundCall &call);
  TValue evalAlignUp(const BoundCall &call);
  /// T.floordiv, T.truncmod, T.pow, T.shift_left, T.bitwise_and, ...
  TValue evalBinaryBuiltin(const BoundCall &call);
  TValue evalBitwiseNot(const BoundCall &call);
  TValue minMaxOp(bool isMin, TValue x, TValue y, llvm::StringRef name, llvm::SMRange range);
  TValue truncDivMod(bool isMod, TValue x, TValue y, llvm::StringRef name, llvm::SMRange range);
  void genDp4a(const BoundCall &call);
  /// T.dp4a and T.assume.
  void genMathStmt(const BoundCall &call);
  TValue binaryOp(ast::BinaryOp op, TValue lhs, TValue rhs, llvm::SMRange opRange, llvm::SMRange range);
  /// Converts `v` to a scalar of `to` (T.cast semantics).
  TValue convert(TValue v, DType to, llvm::SMRange range);
  /// An explicit cast: convert, but a float constant to an integer truncates (castValue).
  TValue castValue(TValue v, DType to, llvm::SMRange range);
  /// Makes two operands agree on a dtype: a literal takes the other side's
  /// (literalDType), then both promote (promoteDTypes) (TileGenPromote.cpp).
  bool unify(TValue &lhs, TValue &rhs, llvm::StringRef opName, llvm::SMRange range);
  /// The dtype a number literal takes next to an operand of dtype `other`.
  static DType literalDType(const ConstValue &c, DType other);
  /// The dtype two literals take together (float32, else int32, or bool).
  static DType literalPairDType(const ConstValue &a, const ConstValue &b);
  /// The dtype two scalars promote to; nullopt after reporting that they do not.
  std::optional<DType> commonDType(const TValue &lhs, const TValue &rhs, llvm::StringRef opName, llvm::SMRange range);
  /// `v` converted to `to` for operator `opName`, warning where that can change it.
  TValue promoteTo(TValue v, DType to, llvm::StringRef opName, llvm::SMRange range);
  /// `v` (a scalar or literal) converted to the dtype of the buffer it is
  /// stored into (`what`: "buffer 'A'"), as tile-lang's stores convert;
  /// a float into an integer buffer warns.
  TValue implicitCast(TValue v, DType to, llvm::StringRef what, llvm::SMRange range);
  /// A scalar from a constant of the given dtype.
  TValue materialize(const ConstValue &c, DType t, llvm::SMRange range);
  /// Materializes with a default dtype (int32, float32, bool).
  TValue toScalar(TValue v, llvm::SMRange range);
  TValue toBool(TValue v, llvm::SMRange range);
  /// An `index` value for `v` (an integer), or null after an error.
  mlir::Value toIndex(TValue v, llvm::SMRange range);
  mlir::Value indexConst(int64_t v, llvm::SMRange range);
  /// Builds a size expression over runtime dimensions as an `index` value.
  TValue lowerSize(const meta::SizeExpr &e, llvm::SMRange range);
  std::optional<LinearForm> linOf(const TValue &v);
  /// The element indices of `buf[indices]`, checked; false after an error.
  bool elementIndices(BufferInfo *buf, llvm::ArrayRef<ast::Expr *> indices, llvm::SMRange range,
                      llvm::SmallVectorImpl<mlir::Value> &out);
  /// Checks that a fragment index, linear in enclosing T.Parallel variables,
  /// stays inside dimension `d` of `buf` for every iteration; false after an error.
  bool checkParallelIndex(BufferInfo *buf, unsigned d, const TValue &index, llvm::SMRange range);
  mlir::Value loadElement(BufferInfo *buf, llvm::ArrayRef<mlir::Value> idx, llvm::SMRange range);

  // Argument helpers.
  std::optional<int64_t> constIntArg(const BoundCall &call, llvm::StringRef name);
  std::optional<bool> constBoolArg(const BoundCall &call, llvm::StringRef name);
  /// The `policy=` argument of a gemm (T.GemmWarpPolicy; Square when absent).
  std::optional<tile::GemmPolicy> gemmPolicyArg(const BoundCall &call);
  std::optional<std::string> constStrArg(const BoundCall &call, llvm::StringRef name);
  std::optional<DType> dtypeArg(const BoundCall &call, llvm::StringRef name);
  BufferInfo *bufferArg(const BoundCall &call, llvm::StringRef name);
  std::optional<llvm::SmallVector<int64_t, 4>> shapeArg(const BoundCall &call, llvm::StringRef name);
  std::optional<llvm::SmallVector<int64_t, 3>> extentsArg(const BoundCall &call, llvm::StringRef name);
  /// The builtin a call names, or nullptr after reporting an unknown one.
  const BuiltinInfo *resolveCallee(const ast::CallExpr *call, bool report);

  // Tile operations and loops (TileGenOps.cpp).
  void genTileStmt(const BoundCall &call);
  void genLaunch(const BoundCall &call, const ast::WithStmt *s);
  void genFor(const ast::ForStmt *s);
  void genWhile(const ast::WhileStmt *s);
  // `break` in T.serial / T.unroll / range loops (TileGenLoops.cpp).
  /// Whether `s` may run a `break` of the loop around it (not of a nested loop).
  static bool stmtBreaks(const ast::Stmt *s);
  /// The flag of a loop whose body breaks (false before it), null otherwise.
  mlir::Value newBreakFlag(const ast::ForStmt *s);
  /// Sets the innermost loop's flag.
  void genBreak(const ast::Stmt *s);
  /// An scf.if on "the innermost loop's flag is clear", the insertion point in its then block.
  void guardNotBroken(mlir::Location l);
  /// The enclosing loops' `break` flags, innermost last; null for a loop without one.
  llvm::SmallVector<mlir::Value, 4> breakFlags;
  void genParallelFor(const ast::ForStmt *s, const BoundCall &bound, llvm::ArrayRef<const ast::NameExpr *> names);
  /// T.serial, T.Pipelined, T.unroll, T.vectorized and range loops.
  void genRangeFor(const ast::ForStmt *s, const BoundCall &bound, const ast::NameExpr *name);
  bool pipelineAnnotations(const BoundCall &bound, llvm::SmallVectorImpl<llvm::SmallVector<int64_t, 4>> &annotations);
  // tile-lang's other loop forms (TileGenLoops.cpp).
  /// The index T.thread_binding names (a thread or block index).
  TValue threadBindingValue(const BoundCall &call);
  void genThreadBindingFor(const ast::ForStmt *s, const BoundCall &call, const ast::NameExpr *name);
  /// `for i, j in T.grid(m, n)`: nested serial loops (TileGenLoops.cpp).
  void genGridFor(const ast::ForStmt *s, const BoundCall &bound, llvm::ArrayRef<const ast::NameExpr *> names);
  void genPersistentFor(const ast::ForStmt *s, const BoundCall &call, llvm::ArrayRef<const ast::NameExpr *> names);
  // Views (TileGenViews.cpp).
  /// `T.Tensor(shape, dtype, buf.data)`: a call with a data argument.
  static bool isTensorView(const ast::CallExpr *call);
  TValue genTensorView(const ast::CallExpr *e);
  /// T.view / T.reshape.
  TValue genViewBuiltin(const BoundCall &call);
  TValue makeView(BufferInfo *base, llvm::ArrayRef<int64_t> shape, DType t, llvm::SMRange range);
  void genNegativeStepFor(const ast::ForStmt *s, const ast::NameExpr *name, TValue start, mlir::Value lb,
                          mlir::Value ub, int64_t step);
  void genAlloc(const BoundCall &call, const ast::NameExpr *target);
  // Global intermediates and reducers (TileGenWorkspace.cpp).
  /// T.alloc_global / T.alloc_buffer: a global buffer of the kernel function
  /// (outside T.Kernel), or for alloc_buffer in another scope genAlloc.
  void genGlobalAlloc(const BoundCall &call, const ast::NameExpr *target);
  bool globalShapeArg(const BoundCall &call, GlobalShape &out);
  bool globalShapeDim(const TValue &v, llvm::SMRange range, GlobalShape &out);
  std::optional<TValue> globalDimByName(const ast::Expr *e);
  /// T.alloc_reducer's `op` (and its checked `replication`).
  std::optional<tile::ReduceKind> reducerKindArg(const BoundCall &call);
  void genFinalizeReducer(const BoundCall &call);
  bool evalRegion(const ast::Expr *e, Region &out);
  void genCopy(const BoundCall &call);
  void genGemm(const BoundCall &call);
  /// `dim` made non-negative (Python style) and checked against `rank`.
  std::optional<int64_t> normalizeDim(const BoundCall &call, int64_t dim, int64_t rank);
  void genReduce(const BoundCall &call);
  void genCumSum(const BoundCall &call);
  void genAtomicAdd(const BoundCall &call);
  /// T.atomic_add's memory_order (relaxed only); false after an error.
  bool atomicOrderArg(const BoundCall &call);
  /// `T.atomic_add(dst[i], v, return_prev=True)` as a value (TileGenRegions.cpp).
  /// Element fetch-and-op: T.atomic_add(..., return_prev=True), T.atomic_max, T.atomic_min (TileGenRegions.cpp).
  TValue evalAtomicAddPrev(const BoundCall &call, bool asValue = true);
  bool checkParallelHints(const BoundCall &bound);
  void genAtomicAddVec(const BoundCall &call, unsigned lanes);
  void genAnnotateLayout(const BoundCall &call);
  // Region operands (TileGenRegions.cpp).
  /// Argument `name` as a buffer: a buffer, or a region `buf[i, a:b]`, which
  /// is copied into a buffer of its own (when `use` reads it) and back after
  /// the operation (when it writes it: flushWriteBacks); null after an error.
  BufferInfo *regionArg(const BoundCall &call, llvm::StringRef name, RegionUse use,
                        llvm::SmallVectorImpl<RegionWriteBack> &writeBacks);
  void flushWriteBacks(llvm::SmallVectorImpl<RegionWriteBack> &writeBacks);
  void copyRegion(Region &src, Region &dst, Region &whole);
  /// A region T.atomic_add of `value` whose dimensions are the region's
  /// non-unit ones: a T.Parallel of element atomic adds; false after an error.
  bool emitSpreadAtomicAdd(Region &dst, BufferInfo *value, llvm::SMRange range);
  /// The copy of two evaluated regions (shapes checked here); element loops
  /// where a global side carries a T.Layout.
  void emitCopy(Region &src, Region &dst, llvm::SMRange range);
  /// A copy one of whose sides is a global tensor with a T.Layout: a
  /// T.Parallel of element moves over the copy's (squeezed) shape.
  void emitLayoutCopy(Region &src, Region &dst, llvm::SMRange range);

  // Explicit warp specialization (TileGenWarpSpec.cpp).
  void genWarpGroup(const BoundCall &call, const ast::WithStmt *s);
  void genAllocBarrier(const BoundCall &call, const ast::NameExpr *target);
  /// The barrier argument `param` (`bars` or `bars[i]`); false after an error.
  bool barrierArg(const BoundCall &call, llvm::StringRef param, BufferInfo *&buf, mlir::Value &index);
  void genWarpSpecStmt(const BoundCall &call);
  // Explicit barriers and T.im2col (TileGenCollectives.cpp).
  void genSyncStmt(const BoundCall &call);
  void genIm2Col(const BoundCall &call);
  void genGemmSp(const BoundCall &call);
  // Device primitives tile-lang kernels call directly (TileGenDevicePrims.cpp).
  /// A statement primitive of that file; false when `call` is none of them.
  bool genDevicePrimStmt(const BoundCall &call);
  /// An expression primitive of that file; nullopt when `call` is none of them.
  std::optional<TValue> evalDevicePrim(const BoundCall &call);
  /// `with iket.range("name"):` runs its body in place (the event is dropped).
  void genProfileRange(const BoundCall &call, const ast::WithStmt *s);
  TValue evalWarpShuffle(const BoundCall &call);
  /// T.any_sync, T.ballot_sync, T.syncthreads_count, T.match_any_sync, T.__ffs, ... (TileGenWarpVote.cpp).
  TValue evalWarpVote(const BoundCall &call);
  /// The caller's linear index in the block (x fastest); `threads` gets the block's thread count.
  mlir::Value linearThreadId(mlir::Location l, int64_t &threads);
  /// T.ptx_cp_async and T.cp_async_barrier_noinc (TileGenAsyncCopy.cpp).
  void genCpAsync(const BoundCall &call);
  /// T.import_source (recorded in externSources) and T.call_extern (a
  /// tile.call_extern; its value, invalid for "handle" or after an error).
  TValue genExternSource(const BoundCall &call, bool asValue);
  /// Gives every tile.call_extern of the kernel function its sources.
  void attachExternSources();
  /// T.sync_grid: ends the launch, the rest of the body a second one (TileGenGridSync.cpp).
  void genSyncGrid(const BoundCall &call);
  // T.rng_init / T.rng_rand (TileGenRandom.cpp).
  void genRngInit(const BoundCall &call);
  TValue evalRngRand(const BoundCall &call);
  /// The launch's Philox state (seed, subsequence, position): a local buffer, null before T.rng_init.
  mlir::Value rngState;
  /// `with T.attr(T.comm_reducer(...), "reduce_scope", ...)`: the thread all-reduce in its body.
  void genAllReduce(const ast::CallExpr *attr, const ast::WithStmt *s);

  // Layouts (TileGenLayouts.cpp).
  /// A meta scope over the kernel's compile-time locals (for lambdas and nested defs).
  meta::Env *constLocalsEnv();
  /// A kernel-level `lambda`: a meta function closed over the kernel's
  /// compile-time locals (and its buffers, as layout helpers need them).
  TValue evalLambda(const ast::Expr *e);
  /// A `def` in kernel code: bound to a meta function closed over the compile-time locals.
  void genNestedDef(const ast::FunctionDefStmt *def);
  TValue evalLayoutCtor(const BoundCall &call);
  /// Annotates `buf` with the layout value `layout` (a T.Layout/T.Fragment
  /// object or a function of the indices); false after an error.
  bool annotateWithObject(BufferInfo *buf, const ConstValue &layout, llvm::SMRange range);
  /// `idx` (a global tensor's logical indices) replaced by the indices of
  /// the element its T.Layout places them at; returns the i1 "idx is inside
  /// the tensor" (null when `buf` has no layout).
  mlir::Value remapIndices(BufferInfo *buf, llvm::SmallVectorImpl<mlir::Value> &idx, llvm::SMRange range);
  /// Checks a shared or local buffer's T.Layout function (a permutation);
  /// false after an error.
  bool checkPermutation(BufferInfo *buf, const ConstValue &fn, llvm::SMRange range);
  /// Gives the global tensor `buf` the T.Layout function `fn`; false after an error.
  bool annotateGlobal(BufferInfo *buf, const ConstValue &fn, llvm::SMRange range);
  /// i1: every index is inside `buf`.
  mlir::Value inBounds(BufferInfo *buf, llvm::ArrayRef<mlir::Value> idx, llvm::SMRange range);
  /// The element `idx` of a global tensor with a T.Layout (0 outside it).
  mlir::Value loadRemapped(BufferInfo *buf, llvm::ArrayRef<mlir::Value> idx, llvm::SMRange range);
  /// Runs `emit` (a write of element `idx`) with `idx` remapped through the
  /// buffer's T.Layout and only when the logical index is inside; plainly
  /// when it has none.
  void guardedForLayout(BufferInfo *buf, llvm::SmallVectorImpl<mlir::Value> &idx, llvm::SMRange range,
                        llvm::function_ref<void()> emit);
  bool checkScope(BufferInfo *buf, std::initializer_list<tile::Scope> allowed, llvm::StringRef what,
                  llvm::SMRange range);

  // Scopes.
  LocalVar *lookupLocal(llvm::StringRef name);
  void pushScope(bool isLoop) {
    scopes.emplace_back();
    scopes.back().isLoop = isLoop;
  }
  void popScope() { scopes.pop_back(); }
  unsigned depth() const { return scopes.size(); }
  BufferInfo *newBuffer() { return &buffers.emplace_back(); }
  unsigned symbolFor(mlir::Value v);
  mlir::Location loc(llvm::SMRange r) const { return diags.getLoc(r); }
  mlir::Type elementType(DType t);
  /// A tile.alloc of `dtype`; unsigned dtypes, which share a signless element
  /// type with the signed ones, are recorded in a `tile.dtype` attribute.
  mlir::Value createAlloc(mlir::Location l, llvm::ArrayRef<int64_t> shape, DType dtype, tile::Scope scope);

  DiagnosticEmitter &diags;
  mlir::OpBuilder &b;
  const KernelInfo &info;
  /// Where free names resolve: the kernel's environment, or inside an
  /// inlined macro, the macro's closure.
  meta::Env *metaEnv;
  /// Scopes below this index belong to the caller of the macro being inlined.
  size_t scopeFloor = 0;
  unsigned inlineDepth = 0;
  std::deque<BufferInfo> buffers;
  std::vector<LocalScope> scopes;
  llvm::StringMap<TValue> params; // parameter and runtime-dimension names
  llvm::StringMap<mlir::Value> dynamicDims;
  llvm::DenseMap<mlir::Value, unsigned> symbols;
  /// The T.Kernel being generated (null between them).
  tile::LaunchOp launch;
  /// Every T.Kernel of the kernel function, in order.
  llvm::SmallVector<tile::LaunchOp, 2> launches;
  /// T.import_source's strings, in order (each once), with where each was
  /// first imported; every T.call_extern of the function sees all of them.
  llvm::SmallVector<std::pair<std::string, mlir::Location>, 2> externSources;
  llvm::SmallVector<tile::CallExternOp, 2> externCalls;
  unsigned parallelDepth = 0;
  /// The enclosing T.Parallel loops' variables, by LinearForm symbol.
  llvm::DenseMap<unsigned, ParallelVar> parallelVars;
  unsigned loopDepth = 0;
  /// Nesting of compile-time `if` bodies (generated in the enclosing scope).
  unsigned constBranchDepth = 0;
  unsigned errorsAtStart = 0;
  /// Set by the argument helpers when they reported an error.
  bool argFailed = false;
};

} // namespace tilec::detail

#endif // TILEC_LIB_FRONTEND_TILEGENIMPL_H
