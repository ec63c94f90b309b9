//===- Builtins.cpp - The table of T.* primitives and call binding --------===//
//
// One row per callable: its parameters, defaults and argument kinds. bindCall
// maps a call's positional and keyword arguments onto the row.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Builtins.h"

#include "tilec/Frontend/ConstEval.h"
#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/StringSet.h"

using namespace tilec;
using AK = ArgKind;
using BC = BuiltinContext;

namespace {
constexpr ArgDefault req() { return {}; }
constexpr ArgDefault none() { return {ArgDefault::None, 0, ""}; }
constexpr ArgDefault dInt(int64_t v) { return {ArgDefault::Int, v, ""}; }
constexpr ArgDefault dBool(bool v) { return {ArgDefault::Bool, v, ""}; }
constexpr ArgDefault dStr(const char *v) { return {ArgDefault::Str, 0, v}; }
constexpr ArgDefault dPolicy(const char *v) { return {ArgDefault::Policy, 0, v}; }

const BuiltinParam pName[] = {{"name", AK::ConstStr, req()}, {"dtype", AK::Any, none()}};
const BuiltinParam pTensor[] = {{"shape", AK::Shape, req()}, {"dtype", AK::DType, dStr("float32")}};
const BuiltinParam pDTypeCtor[] = {{"name", AK::DType, req()}};
const BuiltinParam pAB[] = {{"a", AK::Scalar, req()}, {"b", AK::Scalar, req()}};
const BuiltinParam pX[] = {{"x", AK::Scalar, req()}};
const BuiltinParam pKernel[] = {{"threads", AK::Extents, dInt(128), true},
                                {"cluster", AK::Extents, none(), true},
                                {"prelude", AK::ConstStr, none(), true}};
const BuiltinParam pClusterKernel[] = {{"cluster_dims", AK::Extents, req(), true},
                                       {"threads", AK::Extents, dInt(128), true},
                                       {"prelude", AK::ConstStr, none(), true}};
const BuiltinParam pAlloc[] = {{"shape", AK::Shape, req()}, {"dtype", AK::DType, req()},
                               {"scope", AK::ConstStr, none()}};
const BuiltinParam pAllocGlobal[] = {
    {"shape", AK::Shape, req()}, {"dtype", AK::DType, req()}, {"scope", AK::ConstStr, dStr("global")}};
const BuiltinParam pAllocBuffer[] = {
    {"shape", AK::Shape, req()}, {"dtype", AK::DType, dStr("float32")}, {"scope", AK::ConstStr, dStr("global")}};
const BuiltinParam pAllocReducer[] = {{"shape", AK::Shape, req()},
                                      {"dtype", AK::DType, req()},
                                      {"op", AK::ConstStr, dStr("sum")},
                                      {"replication", AK::Any, none()}};
const BuiltinParam pFinalizeReducer[] = {{"reducer", AK::Buffer, req()},
                                         {"dst", AK::Buffer, none()},
                                         {"batch", AK::ConstInt, dInt(1)},
                                         {"annotations", AK::Any, none()}};
const BuiltinParam pAllocVar[] = {
    {"dtype", AK::DType, req()}, {"init", AK::Value, none()}, {"scope", AK::ConstStr, none()}};
const BuiltinParam pCopy[] = {{"src", AK::Region, req()},
                              {"dst", AK::Region, req()},
                              {"coalesced_width", AK::ConstInt, none()},
                              {"disable_tma", AK::ConstBool, dBool(false)}};
const BuiltinParam pGemm[] = {{"A", AK::Buffer, req()},
                              {"B", AK::Buffer, req()},
                              {"C", AK::Buffer, req()},
                              {"transpose_A", AK::ConstBool, dBool(false)},
                              {"transpose_B", AK::ConstBool, dBool(false)},
                              {"policy", AK::Policy, dPolicy("Square")},
                              {"clear_accum", AK::Scalar, dBool(false)},
                              {"k_pack", AK::ConstInt, dInt(1)},
                              {"wg_wait", AK::ConstInt, dInt(0)}};
const BuiltinParam pFill[] = {{"buffer", AK::Region, req()}, {"value", AK::Scalar, req()}};
const BuiltinParam pClear[] = {{"buffer", AK::Region, req()}};
const BuiltinParam pReduce[] = {{"buffer", AK::Buffer, req()},
                                {"out", AK::Buffer, req()},
                                {"dim", AK::ConstInt, dInt(-1)},
                                {"clear", AK::ConstBool, dBool(true)}};
const BuiltinParam pCumSum[] = {{"src", AK::Buffer, req()},
                                {"dst", AK::Buffer, none()},
                                {"dim", AK::ConstInt, dInt(0)},
                                {"reverse", AK::ConstBool, dBool(false)}};
const BuiltinParam pAtomicAdd[] = {{"dst", AK::Region, req()},
                                   {"value", AK::Value, req()},
                                   {"memory_order", AK::ConstStr, dStr("relaxed")},
                                   {"return_prev", AK::ConstBool, dBool(false)},
                                   {"use_tma", AK::ConstBool, dBool(false)}};
const BuiltinParam pAtomicMaxMin[] = {{"dst", AK::Region, req()},
                                      {"value", AK::Value, req()},
                                      {"memory_order", AK::ConstStr, dStr("relaxed")},
                                      {"return_prev", AK::ConstBool, dBool(false)}};
const BuiltinParam pAtomicAddVec[] = {
    {"dst", AK::Region, req()}, {"value", AK::Region, req()}, {"return_prev", AK::ConstBool, dBool(false)}};
const BuiltinParam pParallel[] = {{"prefer_async", AK::ConstBool, none(), true},
                                  {"annotations", AK::Dict, none(), true}};
const BuiltinParam pPrint[] = {{"obj", AK::Value, req()}, {"msg", AK::ConstStr, dStr("")}};
const BuiltinParam pSwizzle[] = {{"panel_size", AK::ConstInt, dInt(8)},
                                 {"order", AK::ConstStr, dStr("row")},
                                 {"enable", AK::ConstBool, dBool(true)}};
const BuiltinParam pAnnotate[] = {{"layout_map", AK::Dict, req()}};
const BuiltinParam pMakeSwizzled[] = {{"buffer", AK::Buffer, req()}};
const BuiltinParam pMakeMmaSwizzle[] = {{"shared_buf", AK::Buffer, req()}, {"is_smooth", AK::ConstBool, dBool(false)}};
const BuiltinParam pRngInit[] = {{"seed", AK::Scalar, req()},
                                 {"seq", AK::Scalar, none()},
                                 {"off", AK::Scalar, none()},
                                 {"generator", AK::ConstStr, dStr("curandStatePhilox4_32_10_t")}};
const BuiltinParam pGemmSp[] = {{"A", AK::Buffer, req()},
                                {"E", AK::Buffer, req()},
                                {"B", AK::Buffer, req()},
                                {"C", AK::Buffer, req()},
                                {"transpose_A", AK::ConstBool, dBool(false)},
                                {"transpose_E", AK::ConstBool, dBool(false)},
                                {"transpose_B", AK::ConstBool, dBool(false)},
                                {"policy", AK::Policy, dPolicy("Square")},
                                {"clear_accum", AK::ConstBool, dBool(false)},
                                {"k_pack", AK::ConstInt, dInt(1)},
                                {"wg_wait", AK::ConstInt, dInt(0)}};
const BuiltinParam pPipelined[] = {{"start", AK::Scalar, req()},
                                   {"stop", AK::Scalar, none()},
                                   {"num_stages", AK::ConstInt, dInt(0)},
                                   {"order", AK::Any, none()},
                                   {"stage", AK::Any, none()},
                                   {"group", AK::Any, none()}};
const BuiltinParam pSerial[] = {{"start", AK::Scalar, req()},
                                {"stop", AK::Scalar, none()},
                                {"step", AK::ConstInt, dInt(1)},
                                {"annotations", AK::Any, none(), true}};
const BuiltinParam pRange[] = {
    {"start", AK::Scalar, req()}, {"stop", AK::Scalar, none()}, {"step", AK::ConstInt, dInt(1)}};
const BuiltinParam pUnroll[] = {{"start", AK::Scalar, req()},
                                {"stop", AK::Scalar, none()},
                                {"step", AK::ConstInt, dInt(1)},
                                {"explicit", AK::ConstBool, dBool(false), true},
                                {"unroll_factor", AK::ConstInt, none(), true},
                                {"annotations", AK::Any, none(), true}};
const BuiltinParam pVectorized[] = {
    {"start", AK::Scalar, req()}, {"stop", AK::Scalar, none()}, {"annotations", AK::Any, none(), true}};
const BuiltinParam pThreadBindingLoop[] = {{"start", AK::Scalar, req()},
                                           {"stop", AK::Any, none()},
                                           {"thread", AK::ConstStr, none()},
                                           {"annotations", AK::Any, none(), true}};
const BuiltinParam pView[] = {{"src", AK::Buffer, req()}, {"shape", AK::Shape, none()}, {"dtype", AK::DType, none()}};
const BuiltinParam pReshape[] = {{"src", AK::Buffer, req()}, {"shape", AK::Shape, req()}};
const BuiltinParam pPersistent[] = {{"domain", AK::Any, req()},
                                    {"wave_size", AK::Scalar, req()},
                                    {"index", AK::Scalar, req()},
                                    {"group_size", AK::ConstInt, dInt(8)}};
const BuiltinParam pIfThenElse[] = {{"cond", AK::Scalar, req()}, {"then_expr", AK::Scalar, req()},
                                    {"else_expr", AK::Scalar, req()}};
const BuiltinParam pInfinity[] = {{"dtype", AK::DType, req()}};
const BuiltinParam pCast[] = {{"value", AK::Scalar, req()}, {"dtype", AK::DType, req()}};
const BuiltinParam pThreadBinding[] = {{"dim", AK::ConstInt, dInt(0)}};
const BuiltinParam pPyConv[] = {{"x", AK::Scalar, req()}};
// The rest of spec §5 (TileGenMath.cpp); parameter names are tile-lang's.
const BuiltinParam pCastDT[] = {{"dtype", AK::DType, req()}, {"value", AK::Scalar, req()}};
const BuiltinParam pReinterpret[] = {{"value", AK::Scalar, req()}, {"dtype", AK::DType, req()}};
const BuiltinParam pClamp[] = {
    {"dst", AK::Scalar, req()}, {"min_val", AK::Scalar, req()}, {"max_val", AK::Scalar, req()}};
const BuiltinParam pXY[] = {{"x", AK::Scalar, req()}, {"y", AK::Scalar, req()}};
const BuiltinParam pAssume[] = {{"cond", AK::Scalar, req()}};
const BuiltinParam pLane[] = {{"warp_size", AK::ConstInt, dInt(32)}};
const BuiltinParam pWarpGroup[] = {{"warp_size", AK::ConstInt, dInt(32)}, {"warps_per_group", AK::ConstInt, dInt(4)}};
const BuiltinParam pDp4a[] = {{"A", AK::Region, req()}, {"B", AK::Region, req()}, {"C", AK::Region, req()}};
const BuiltinParam pLayout[] = {{"shape", AK::Any, req()}, {"forward_fn", AK::Any, req()}};
const BuiltinParam pFragment[] = {{"shape", AK::Any, req()},
                                  {"forward_fn", AK::Any, none()},
                                  {"forward_thread_fn", AK::Any, none()},
                                  {"replicate", AK::Any, dInt(1)},
                                  {"forward_index_fn", AK::Any, none()}};
const BuiltinParam pAllocBarrier[] = {{"arrive_count", AK::Any, req()}};
const BuiltinParam pBarrier[] = {{"mbarrier", AK::Any, req()}};
const BuiltinParam pMBarrierArrive[] = {{"mbarrier", AK::Any, req()}, {"cta_id", AK::Any, none()}};
const BuiltinParam pBarrierWait[] = {{"mbarrier", AK::Any, req()}, {"parity", AK::Scalar, req()}};
const BuiltinParam pTmaCopy[] = {{"src", AK::Region, req()},
                                 {"dst", AK::Region, req()},
                                 {"barrier", AK::Any, none(), true},
                                 {"cluster_mask", AK::Any, none(), true},
                                 {"leader_scope_threads", AK::Any, none(), true},
                                 {"eviction_policy", AK::Any, none(), true},
                                 {"annotations", AK::Any, none(), true}};
const BuiltinParam pRegCount[] = {{"reg_count", AK::ConstInt, req()}};
const BuiltinParam pSetMaxNReg[] = {{"reg_count", AK::ConstInt, req()}, {"is_inc", AK::ConstInt, req()}};
const BuiltinParam pProducerRegs[] = {{"reg_count", AK::ConstInt, dInt(24)}};
const BuiltinParam pConsumerRegs[] = {{"reg_count", AK::ConstInt, dInt(240)}};
const BuiltinParam pWaitWgmma[] = {{"id", AK::ConstInt, req()}};
const BuiltinParam pSyncThreads[] = {{"barrier_id", AK::Scalar, none()}, {"arrive_count", AK::Scalar, none()}};
const BuiltinParam pSyncWarp[] = {{"mask", AK::Scalar, none()}};
const BuiltinParam pIm2Col[] = {
    {"img", AK::Region, req()},        {"col", AK::Region, req()},      {"nhw_step", AK::Scalar, req()},
    {"c_step", AK::Scalar, req()},     {"kernel", AK::ConstInt, req()}, {"stride", AK::ConstInt, req()},
    {"dilation", AK::ConstInt, req()}, {"pad", AK::ConstInt, req()},    {"eviction_policy", AK::ConstStr, none()},
    {"annotations", AK::Any, none()}};
const BuiltinParam pL2HitRatio[] = {{"l2_hit_ratio_map", AK::Dict, req()}};
const BuiltinParam pIketEvent[] = {{"name", AK::ConstStr, req()}, {"payload", AK::Any, none()}};
const BuiltinParam pIketPop[] = {{"name", AK::ConstStr, none()}};
const BuiltinParam pDeviceAssert[] = {
    {"condition", AK::Scalar, req()}, {"msg", AK::ConstStr, dStr("")}, {"no_stack_info", AK::Any, none()}};
const BuiltinParam pWaitGroup[] = {{"num", AK::Scalar, req()}};
const BuiltinParam pCpAsync[] = {{"dst_access_ptr", AK::Any, req()},
                                 {"src_access_ptr", AK::Any, req()},
                                 {"num_elems", AK::ConstInt, req()},
                                 {"predicate", AK::Scalar, none()}};
const BuiltinParam pCpAsyncBarrier[] = {{"barrier", AK::Any, req()}};
const BuiltinParam pImportSource[] = {{"source", AK::Any, req()}};
const BuiltinParam pCallExtern[] = {{"dtype", AK::Any, none(), true}};
// T.access_ptr(base, access_type="r", *extents, offset=0, extent=None, ignore_last_ndim=0): the
// positional arguments are the variadic ones (base, access type, extents).
const BuiltinParam pAccessPtr[] = {{"base", AK::Region, none(), true},
                                   {"access_type", AK::Any, none(), true},
                                   {"offset", AK::Scalar, dInt(0), true},
                                   {"extent", AK::Scalar, none(), true},
                                   {"ignore_last_ndim", AK::ConstInt, dInt(0), true}};
const BuiltinParam pWarpShuffle[] = {{"mask", AK::Scalar, req()},
                                     {"value", AK::Scalar, req()},
                                     {"lane", AK::Scalar, req()},
                                     {"width", AK::Scalar, dInt(32)},
                                     {"warp_size", AK::Scalar, dInt(32)}};
// T.any_sync(predicate, mask=0xFFFFFFFF) and the other votes; T.match_*_sync(value, mask).
const BuiltinParam pVote[] = {{"predicate", AK::Scalar, req()}, {"mask", AK::Scalar, dInt(0xFFFFFFFF)}};
const BuiltinParam pPredicate[] = {{"predicate", AK::Scalar, req()}};
const BuiltinParam pMatch[] = {{"value", AK::Scalar, req()}, {"mask", AK::Scalar, dInt(0xFFFFFFFF)}};
const BuiltinParam pFfs[] = {{"value", AK::Scalar, req()}};
const BuiltinParam pFns[] = {{"mask", AK::Scalar, req()}, {"base", AK::Scalar, req()}, {"offset", AK::Scalar, req()}};
const BuiltinParam pIketPayload[] = {{"expr", AK::Scalar, req()}, {"dtype", AK::Any, none()}};

struct Row {
  BuiltinInfo info;
  bool isT; // spelled `T.name` (else a Python builtin)
};

#define ROW(ID, NAME, CTX, PARAMS, ISTHE) {{BuiltinID::ID, NAME, BC::CTX, PARAMS}, ISTHE}
#define VROW(ID, NAME, CTX, PARAMS, VK, MINV, ISTHE) {{BuiltinID::ID, NAME, BC::CTX, PARAMS, true, AK::VK, MINV}, ISTHE}
const Row rows[] = {
    ROW(Dynamic, "T.dynamic", Module, pName, true),
    ROW(Symbolic, "T.symbolic", Module, pName, true),
    ROW(Tensor, "T.Tensor", Module, pTensor, true),
    ROW(Buffer, "T.Buffer", Module, pTensor, true),
    ROW(DTypeCtor, "T.dtype", Const, pDTypeCtor, true),
    ROW(PrimFunc, "T.prim_func", Module, {}, true),
    ROW(CeilDiv, "T.ceildiv", Const, pAB, true),
    ROW(Min, "T.min", Const, pAB, true),
    ROW(Max, "T.max", Const, pAB, true),
    VROW(PyMin, "min", Const, {}, Scalar, 2, false),
    VROW(PyMax, "max", Const, {}, Scalar, 2, false),
    ROW(PyInt, "int", Const, pPyConv, false),
    ROW(PyFloat, "float", Const, pPyConv, false),
    VROW(Kernel, "T.Kernel", With, pKernel, Scalar, 1, true),
    VROW(Kernel, "T.ClusterKernel", With, pClusterKernel, Scalar, 1, true),
    ROW(AllocShared, "T.alloc_shared", Alloc, pAlloc, true),
    ROW(AllocFragment, "T.alloc_fragment", Alloc, pAlloc, true),
    ROW(AllocLocal, "T.alloc_local", Alloc, pAlloc, true),
    ROW(AllocVar, "T.alloc_var", Alloc, pAllocVar, true),
    ROW(AllocGlobal, "T.alloc_global", Alloc, pAllocGlobal, true),
    ROW(AllocBuffer, "T.alloc_buffer", Alloc, pAllocBuffer, true),
    ROW(AllocReducer, "T.alloc_reducer", Alloc, pAllocReducer, true),
    ROW(FinalizeReducer, "T.finalize_reducer", Stmt, pFinalizeReducer, true),
    ROW(Copy, "T.copy", Stmt, pCopy, true),
    ROW(Gemm, "T.gemm", Stmt, pGemm, true),
    ROW(Fill, "T.fill", Stmt, pFill, true),
    ROW(Clear, "T.clear", Stmt, pClear, true),
    ROW(ReduceMax, "T.reduce_max", Stmt, pReduce, true),
    ROW(ReduceMin, "T.reduce_min", Stmt, pReduce, true),
    ROW(ReduceSum, "T.reduce_sum", Stmt, pReduce, true),
    ROW(ReduceAbsSum, "T.reduce_abssum", Stmt, pReduce, true),
    ROW(ReduceAbsMax, "T.reduce_absmax", Stmt, pReduce, true),
    ROW(CumSum, "T.cumsum", Stmt, pCumSum, true),
    ROW(AtomicAdd, "T.atomic_add", Stmt, pAtomicAdd, true),
    ROW(AtomicAddX2, "T.atomic_addx2", Stmt, pAtomicAddVec, true),
    // One element's atomic maximum / minimum (a value with return_prev=True).
    ROW(AtomicMax, "T.atomic_max", Stmt, pAtomicMaxMin, true),
    ROW(AtomicMin, "T.atomic_min", Stmt, pAtomicMaxMin, true),
    ROW(AtomicAddX4, "T.atomic_addx4", Stmt, pAtomicAddVec, true),
    ROW(Print, "T.print", Stmt, pPrint, true),
    ROW(UseSwizzle, "T.use_swizzle", Stmt, pSwizzle, true),
    ROW(AnnotateLayout, "T.annotate_layout", Stmt, pAnnotate, true),
    ROW(MakeSwizzledLayout, "T.make_swizzled_layout", Expr, pMakeSwizzled, true),
    VROW(Parallel, "T.Parallel", Iter, pParallel, ConstInt, 1, true),
    // TIR's lowercase form tile-lang re-exports: one parallel loop; nested
    // ones make one nest, as T.Parallel's several extents do.
    VROW(Parallel, "T.parallel", Iter, pParallel, ConstInt, 1, true),
    ROW(Pipelined, "T.Pipelined", Iter, pPipelined, true),
    ROW(Serial, "T.serial", Iter, pSerial, true),
    // TIR's T.grid(m, n, ...): a nest of serial loops, one variable per extent.
    VROW(Grid, "T.grid", Iter, {}, Scalar, 1, true),
    ROW(Serial, "T.Serial", Iter, pSerial, true),
    ROW(Unroll, "T.unroll", Iter, pUnroll, true),
    ROW(Unroll, "T.Unroll", Iter, pUnroll, true),
    ROW(Range, "range", Iter, pRange, false),
    ROW(Vectorized, "T.vectorized", Iter, pVectorized, true),
    ROW(Vectorized, "T.Vectorized", Iter, pVectorized, true),
    ROW(ThreadBindingLoop, "T.thread_binding", Iter, pThreadBindingLoop, true),
    ROW(Persistent, "T.Persistent", Iter, pPersistent, true),
    ROW(View, "T.view", Expr, pView, true),
    ROW(Reshape, "T.reshape", Expr, pReshape, true),
    ROW(Abs, "T.abs", Expr, pX, true),
    ROW(Exp, "T.exp", Expr, pX, true),
    ROW(Exp2, "T.exp2", Expr, pX, true),
    ROW(Log, "T.log", Expr, pX, true),
    ROW(Log2, "T.log2", Expr, pX, true),
    ROW(Sqrt, "T.sqrt", Expr, pX, true),
    ROW(Rsqrt, "T.rsqrt", Expr, pX, true),
    ROW(Tanh, "T.tanh", Expr, pX, true),
    ROW(Sigmoid, "T.sigmoid", Expr, pX, true),
    ROW(IfThenElse, "T.if_then_else", Expr, pIfThenElse, true),
    ROW(Infinity, "T.infinity", Expr, pInfinity, true),
    ROW(Cast, "T.cast", Expr, pCast, true),
    ROW(ThreadBinding, "T.get_thread_binding", Expr, pThreadBinding, true),
    ROW(PyAbs, "abs", Expr, pX, false),
    // The rest of spec §5 (TileGenMath.cpp).
    ROW(CastDT, "T.Cast", Expr, pCastDT, true),
    ROW(Reinterpret, "T.reinterpret", Expr, pReinterpret, true),
    ROW(Clamp, "T.clamp", Expr, pClamp, true),
    ROW(FloorDiv, "T.floordiv", Expr, pAB, true),
    ROW(FloorMod, "T.floormod", Expr, pAB, true),
    ROW(TruncDiv, "T.truncdiv", Expr, pAB, true),
    ROW(TruncMod, "T.truncmod", Expr, pAB, true),
    ROW(Pow, "T.pow", Expr, pXY, true),
    ROW(ShiftLeft, "T.shift_left", Expr, pXY, true),
    ROW(ShiftRight, "T.shift_right", Expr, pXY, true),
    ROW(BitwiseAnd, "T.bitwise_and", Expr, pXY, true),
    ROW(BitwiseOr, "T.bitwise_or", Expr, pXY, true),
    ROW(BitwiseXor, "T.bitwise_xor", Expr, pXY, true),
    ROW(BitwiseNot, "T.bitwise_not", Expr, pX, true),
    ROW(MaxValue, "T.max_value", Expr, pInfinity, true),
    ROW(MinValue, "T.min_value", Expr, pInfinity, true),
    ROW(IsNan, "T.isnan", Expr, pX, true),
    ROW(IsInf, "T.isinf", Expr, pX, true),
    ROW(IsFinite, "T.isfinite", Expr, pX, true),
    ROW(Ceil, "T.ceil", Expr, pX, true),
    ROW(Floor, "T.floor", Expr, pX, true),
    ROW(Round, "T.round", Expr, pX, true),
    ROW(NearbyInt, "T.nearbyint", Expr, pX, true),
    ROW(Trunc, "T.trunc", Expr, pX, true),
    ROW(Sin, "T.sin", Expr, pX, true),
    ROW(Cos, "T.cos", Expr, pX, true),
    ROW(Tan, "T.tan", Expr, pX, true),
    ROW(Log10, "T.log10", Expr, pX, true),
    ROW(Log1p, "T.log1p", Expr, pX, true),
    ROW(Dp4a, "T.dp4a", Stmt, pDp4a, true),
    ROW(Assume, "T.assume", Stmt, pAssume, true),
    ROW(AlignUp, "T.align_up", Expr, pAB, true),
    ROW(LaneIdx, "T.get_lane_idx", Expr, pLane, true),
    ROW(WarpIdx, "T.get_warp_idx", Expr, pLane, true),
    ROW(WarpIdx, "T.get_warp_idx_sync", Expr, pLane, true),
    ROW(WarpGroupIdx, "T.get_warp_group_idx", Expr, pWarpGroup, true),
    ROW(BlockBinding, "T.get_block_binding", Expr, pThreadBinding, true),
    ROW(BlockRankInCluster, "T.block_rank_in_cluster", Expr, {}, true),
    ROW(LayoutCtor, "T.Layout", Expr, pLayout, true),
    ROW(FragmentCtor, "T.Fragment", Expr, pFragment, true),
    VROW(WarpSpecialize, "T.ws", With, {}, ConstInt, 1, true),
    VROW(WarpSpecialize, "T.WarpSpecialize", With, {}, ConstInt, 1, true),
    ROW(AllocBarrier, "T.alloc_barrier", Alloc, pAllocBarrier, true),
    ROW(BarrierArrive, "T.barrier_arrive", Stmt, pBarrier, true),
    ROW(BarrierArrive, "T.mbarrier_arrive", Stmt, pMBarrierArrive, true),
    ROW(BarrierWait, "T.barrier_wait", Stmt, pBarrierWait, true),
    ROW(BarrierWait, "T.mbarrier_wait_parity", Stmt, pBarrierWait, true),
    ROW(TmaCopy, "T.tma_copy", Stmt, pTmaCopy, true),
    ROW(WgmmaGemm, "T.wgmma_gemm", Stmt, pGemm, true),
    ROW(WaitWgmma, "T.wait_wgmma", Stmt, pWaitWgmma, true),
    ROW(SetMaxNReg, "T.set_max_nreg", Stmt, pSetMaxNReg, true),
    ROW(IncMaxNReg, "T.inc_max_nreg", Stmt, pRegCount, true),
    ROW(DecMaxNReg, "T.dec_max_nreg", Stmt, pRegCount, true),
    ROW(NoSetMaxNReg, "T.no_set_max_nreg", Stmt, {}, true),
    ROW(NoSetMaxNReg, "T.disable_warp_group_reg_alloc", Stmt, {}, true),
    ROW(AnnotateRegAlloc, "T.annotate_producer_reg_dealloc", Stmt, pProducerRegs, true),
    ROW(AnnotateRegAlloc, "T.annotate_consumer_reg_alloc", Stmt, pConsumerRegs, true),
    ROW(AnnotateL2HitRatio, "T.annotate_l2_hit_ratio", Stmt, pL2HitRatio, true),
    ROW(FenceProxyAsync, "T.fence_proxy_async", Stmt, {}, true),
    ROW(SyncThreads, "T.sync_threads", Stmt, pSyncThreads, true),
    ROW(SyncWarp, "T.sync_warp", Stmt, pSyncWarp, true),
    ROW(Im2Col, "T.im2col", Stmt, pIm2Col, true),
    ROW(Im2Col, "T.c2d_im2col", Stmt, pIm2Col, true),
    ROW(GemmSp, "T.gemm_sp", Stmt, pGemmSp, true),
    ROW(RngInit, "T.rng_init", Stmt, pRngInit, true),
    ROW(RngRand, "T.rng_rand", Expr, {}, true),
    ROW(MakeMmaSwizzleLayout, "T.make_mma_swizzle_layout", Expr, pMakeMmaSwizzle, true),
    // tilelang.tools.cuda.iket's profiling events (reached through that module,
    // never as T.*): accepted and dropped.
    ROW(IketRange, "iket.range", With, pIketEvent, false),
    ROW(IketMark, "iket.mark", Stmt, pIketEvent, false),
    ROW(IketMark, "iket.range_push", Stmt, pIketEvent, false),
    ROW(IketMark, "iket.range_start", Stmt, pIketEvent, false),
    ROW(IketMark, "iket.range_pop", Stmt, pIketPop, false),
    ROW(IketMark, "iket.range_end", Stmt, pIketPop, false),
    ROW(IketPayload, "iket.payload", Expr, pIketPayload, false),
    ROW(DeviceAssert, "T.device_assert", Stmt, pDeviceAssert, true),
    // tilec's copies complete before the next statement: commit and wait have nothing to order.
    ROW(AsyncCommitGroup, "T.ptx_commit_group", Stmt, {}, true),
    ROW(AsyncWaitGroup, "T.ptx_wait_group", Stmt, pWaitGroup, true),
    // A per-thread copy of num_elems elements, complete before the next statement (TileGenAsyncCopy.cpp).
    ROW(PtxCpAsync, "T.ptx_cp_async", Stmt, pCpAsync, true),
    ROW(CpAsyncBarrier, "T.cp_async_barrier_noinc", Stmt, pCpAsyncBarrier, true),
    VROW(AccessPtr, "T.access_ptr", Expr, pAccessPtr, Scalar, 0, true),
    // A grid-wide barrier: the end of one launch and the start of the next (TileGenGridSync.cpp).
    ROW(SyncGrid, "T.sync_grid", Stmt, {}, true),
    // Device source code and calls into it: compiled on CUDA only (TileGenAsyncCopy.cpp).
    ROW(ImportSource, "T.import_source", Stmt, pImportSource, true),
    VROW(CallExtern, "T.call_extern", Stmt, pCallExtern, Any, 1, true),
    ROW(WarpShuffle, "T.tvm_warp_shuffle", Expr, pWarpShuffle, true),
    ROW(WarpShuffleDown, "T.tvm_warp_shuffle_down", Expr, pWarpShuffle, true),
    ROW(WarpShuffleUp, "T.tvm_warp_shuffle_up", Expr, pWarpShuffle, true),
    ROW(AnySync, "T.any_sync", Expr, pVote, true),
    ROW(AllSync, "T.all_sync", Expr, pVote, true),
    ROW(BallotSync, "T.ballot_sync", Expr, pVote, true),
    ROW(Ballot, "T.ballot", Expr, pPredicate, true),
    ROW(ActiveMask, "T.activemask", Expr, {}, true),
    ROW(SyncThreadsCount, "T.syncthreads_count", Expr, pPredicate, true),
    ROW(SyncThreadsAnd, "T.syncthreads_and", Expr, pPredicate, true),
    ROW(SyncThreadsOr, "T.syncthreads_or", Expr, pPredicate, true),
    ROW(MatchAnySync, "T.match_any_sync", Expr, pMatch, true),
    ROW(MatchAllSync, "T.match_all_sync", Expr, pMatch, true),
    ROW(Ffs, "T.__ffs", Expr, pFfs, true),
    ROW(Fns, "T.__fns", Expr, pFns, true),
};
#undef ROW
#undef VROW

const Row *findRow(llvm::StringRef name, bool isT) {
  for (const Row &r : rows) {
    llvm::StringRef n = r.info.name;
    if (r.isT != isT)
      continue;
    if (isT ? n.drop_front(2) == name : n == name)
      return &r;
  }
  return nullptr;
}
} // namespace

const BuiltinInfo *tilec::lookupTBuiltin(llvm::StringRef attr) {
  const Row *r = findRow(attr, true);
  return r ? &r->info : nullptr;
}

const BuiltinInfo *tilec::lookupPyBuiltin(llvm::StringRef name) {
  const Row *r = findRow(name, false);
  return r ? &r->info : nullptr;
}

const BuiltinInfo &tilec::getBuiltin(BuiltinID id) {
  for (const Row &r : rows)
    if (r.info.id == id)
      return r.info;
  llvm_unreachable("every BuiltinID has a row");
}

void tilec::getTBuiltinNames(llvm::SmallVectorImpl<llvm::StringRef> &out) {
  for (const Row &r : rows)
    if (r.isT)
      out.push_back(llvm::StringRef(r.info.name).drop_front(2));
}

llvm::StringRef tilec::unsupportedTPrimitive(llvm::StringRef attr) {
  static constexpr const char *shuffle =
      "a warp shuffle reads another thread's register; pass the values through a T.alloc_shared buffer "
      "(tilec places the barrier), or reduce a fragment with T.reduce_*";
  static constexpr const char *pointer =
      "tilec kernels take no raw pointers; pass each tensor as a T.Tensor parameter (one launch per group, or "
      "one concatenated tensor with offsets)";
  static const std::pair<const char *, const char *> table[] = {
      {"address_of", "tilec has no addresses of buffers outside T.call_extern's arguments; name the buffer or "
                     "region itself"},
      {"sync_global", "a grid-wide barrier; split the kernel function into two T.Kernel blocks, which run one "
                      "after another (spec §6)"},
      {"shfl_sync", shuffle},
      {"shfl_xor", shuffle},
      {"shfl_down", shuffle},
      {"shfl_up", shuffle},
      {"ptr", pointer},
      {"make_tensor", pointer},
      {"float4_e2m1fn_x2", "tilec has T.float4_e2m1fn (tensors of it are packed two per byte) but not its "
                           "two-element vector; use T.float4_e2m1fn elements"},
      {"rng_rand_float", "tilec has T.rng_rand (32-bit integers) but not its float forms yet; convert: "
                         "T.cast(T.rng_rand(), T.float32) * 2.3283064e-10"},
      {"ptx_ldmatrix", "tilec picks the matrix instructions itself; write the product as T.gemm(A, B, C)"},
      {"ptx_mma", "tilec picks the matrix instructions itself; write the product as T.gemm(A, B, C)"},
      {"mma_gemm_blockscaled", "tilec picks the matrix instructions itself; write the product as T.gemm(A, B, C) "
                               "and apply the scales in a T.Parallel"},
  };
  for (auto [name, why] : table)
    if (attr == name)
      return why;
  return "";
}

bool tilec::isTAttributeName(llvm::StringRef attr) {
  return parseDType(attr).has_value() || attr == "GemmWarpPolicy";
}

const ast::Expr *BoundCall::get(llvm::StringRef name) const {
  for (size_t i = 0; i < info->params.size(); ++i)
    if (name == info->params[i].name)
      return args[i];
  return nullptr;
}

const ArgDefault &BoundCall::getDefault(llvm::StringRef name) const {
  for (const BuiltinParam &p : info->params)
    if (name == p.name)
      return p.def;
  llvm_unreachable("unknown parameter name");
}

llvm::SMRange BoundCall::rangeOf(llvm::StringRef name) const {
  if (const ast::Expr *e = get(name))
    return e->getRange();
  return call->getRange();
}

std::string tilec::calleeName(const ast::Expr *callee) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(callee))
    return n->getName().str();
  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(callee)) {
    std::string base = calleeName(a->getValue());
    if (base.empty())
      return "";
    return base + "." + a->getAttr().str();
  }
  return "";
}

bool tilec::bindCall(const BuiltinInfo &info, const ast::CallExpr *call, DiagnosticEmitter &diags, BoundCall &out) {
  out.info = &info;
  out.call = call;
  out.args.assign(info.params.size(), nullptr);
  out.extra.clear();
  bool ok = true;

  // 1. Positional arguments fill the non-keyword-only parameters in order.
  unsigned numPositional = 0;
  for (const BuiltinParam &p : info.params)
    if (!p.keywordOnly)
      ++numPositional;
  llvm::ArrayRef<ast::Expr *> args = call->getArgs();
  if (info.variadic) {
    // Variadic builtins take their extra positional arguments first (grid
    // sizes, extents); the declared parameters are keyword-only.
    for (const ast::Expr *a : args)
      out.extra.push_back(a);
    if (out.extra.size() < info.minVariadic) {
      diags.emit(DiagID::sema_too_few_args, call->getRange(), info.name, info.minVariadic,
                 info.minVariadic == 1 ? "" : "s", out.extra.size());
      ok = false;
    }
  } else {
    for (size_t i = 0; i < args.size(); ++i) {
      if (i >= numPositional) {
        diags.emit(DiagID::sema_too_many_args, args[i]->getRange(), info.name, numPositional,
                   numPositional == 1 ? "" : "s", args.size());
        return false;
      }
      out.args[i] = args[i];
    }
  }

  // 2. Keywords: known, not repeated, not also given positionally.
  llvm::StringSet<> seen;
  for (const ast::Keyword &kw : call->getKeywords()) {
    if (kw.isDoubleStar()) {
      diags.emit(DiagID::not_supported_yet, kw.nameRange, "'**' unpacking in a primitive's arguments");
      return false;
    }
    int index = -1;
    for (size_t i = 0; i < info.params.size(); ++i)
      if (kw.name == info.params[i].name)
        index = int(i);
    if (index < 0) {
      llvm::SmallVector<llvm::StringRef, 8> names;
      for (const BuiltinParam &p : info.params)
        names.push_back(p.name);
      diags.emit(DiagID::sema_unknown_keyword, kw.nameRange, info.name, kw.name, didYouMean(kw.name, names));
      ok = false;
      continue;
    }
    if (!seen.insert(kw.name).second) {
      diags.emit(DiagID::sema_duplicate_keyword, kw.nameRange, kw.name, info.name);
      ok = false;
      continue;
    }
    if (out.args[index]) {
      diags.emit(DiagID::sema_keyword_and_positional, kw.nameRange, kw.name, info.name);
      ok = false;
      continue;
    }
    out.args[index] = kw.value;
  }
  if (!ok)
    return false;

  // 3. Required parameters must be present.
  for (size_t i = 0; i < info.params.size(); ++i) {
    if (!out.args[i] && info.params[i].def.kind == ArgDefault::Required) {
      diags.emit(DiagID::sema_missing_arg, call->getRange(), info.name, info.params[i].name);
      return false;
    }
  }
  return true;
}
