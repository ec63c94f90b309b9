//===- LayoutAccess.h - Fragment accesses of T.Parallel loops ---*- C++ -*-===//
//
// Internal to tile-infer-layouts (LayoutInference.cpp): one fragment access
// of a T.Parallel and the layouts that follow from it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_DIALECT_TILE_TRANSFORMS_LAYOUTACCESS_H
#define TILEC_LIB_DIALECT_TILE_TRANSFORMS_LAYOUTACCESS_H

#include "tilec/Dialect/Tile/IR/FragmentLayout.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace tilec::tile::layout_access {

/// One fragment access inside a T.Parallel: which induction variable each
/// index is (-1 when the index is something else).
struct Access {
  mlir::Value buffer;
  llvm::SmallVector<int> dims;
  llvm::SmallVector<bool> constant; ///< the index is a compile-time constant
  /// The index is the induction variable `dims[i]` divided by div[i]
  /// (`x[i, j // 2]`); empty or 1: the variable itself.
  llvm::SmallVector<int64_t> div = {};
  /// The index is `dims[i] + offset`, the offset invariant and a multiple
  /// of align[i] (`x[i + s * 16, j]`); empty or 0: no offset.
  llvm::SmallVector<int64_t> align = {};
  int64_t divOf(unsigned i) const { return i < div.size() ? div[i] : 1; }
  int64_t alignOf(unsigned i) const { return i < align.size() ? align[i] : 0; }
  bool offset() const {
    return llvm::any_of(align, [](int64_t a) { return a != 0; });
  }
  bool divided() const {
    return llvm::any_of(div, [](int64_t c) { return c != 1; });
  }
};

/// The layout of a fragment accessed as `a` (induction variables in
/// increasing order, some divided) in a loop of layout `driver`.
std::optional<FragmentLayout> dividedProjection(const FragmentLayout &driver, const Access &a);

/// The fragment accesses of one T.Parallel.
struct ParallelInfo {
  ParallelOp op;
  llvm::SmallVector<Access, 0> accesses;
  /// Fragment stores.
  llvm::SmallVector<mlir::memref::StoreOp> writes;
};

/// A copy between a whole fragment and a slice of another (`T.copy(x[k, :],
/// row)`): the slice as an access whose unit dimensions are constants, its
/// other dimensions `kept` (whole, in order: the whole fragment's shape).
struct SliceCopy {
  mlir::Value whole;
  Access access;
  llvm::SmallVector<int64_t> partShape;
  llvm::SmallVector<unsigned> kept;
};
/// `c` as such a copy, if it is one.
std::optional<SliceCopy> sliceCopy(CopyOp c);

/// Whether `a` indexes a fragment of shape `extents` at exactly the loop's
/// induction variables, in order.
bool isIdentity(const Access &a, llvm::ArrayRef<int64_t> extents);
/// Whether every index is a constant or an induction variable, the latter
/// increasing, with at least one constant.
bool isConstantAndIncreasing(const Access &a);
/// `sub` (the layout of the induction-variable dimensions of `a`) with the
/// constant-index dimensions of `a` added as register-only dimensions.
FragmentLayout extendWithConstantDims(const FragmentLayout &sub, const Access &a, llvm::ArrayRef<int64_t> shape);
/// Whether every index is a distinct induction variable (in any order: a
/// transposed access `x[j, i]` takes the loop's layout with its dimensions
/// permuted).
bool isDistinctSubset(const Access &a);
/// The iteration layout of a loop that accesses a fragment of layout `l` at
/// a permutation `a` of all its induction variables: `l` with its
/// dimensions put back in the loop's order.
std::optional<FragmentLayout> unpermute(const FragmentLayout &l, const Access &a, llvm::ArrayRef<int64_t> extents);

/// Whether the thread that runs an iteration of a loop of layout `driver`
/// holds the element `a` reads of a fragment of layout `frag` (as the GPU
/// lowering needs): replicated, or each index an induction variable spread
/// over the same thread digits, or a constant on a dimension held in
/// registers only.
bool reaches(const FragmentLayout &frag, const FragmentLayout &driver, const Access &a);

/// A loop that indexes no fragment at all its induction variables but a
/// distributed one at some of them, in order (`S_shared[h, k] = ... /
/// sum[h]`), adopts that fragment's layout (`layoutOf`: the placed ones),
/// the other dimensions in registers: each thread runs the iterations whose
/// elements it holds (tile-lang's loop layout from its source buffer), where
/// a blocked layout of the loop would not reach them. So does a loop that
/// indexes one at offsets (`acc[i + s * 16, j]`, `x[i, jj * 4 + j]`) whose
/// threads stay below the offsets' multiples; `offsetsOnly`: only such.
std::optional<FragmentLayout> adoptSubsetLayout(const ParallelInfo &p,
                                                llvm::function_ref<const FragmentLayout *(mlir::Value)> layoutOf,
                                                bool offsetsOnly);
/// The layout of fragment `frag` whose dimensions with a split `aligns[d]`
/// (1 < a < extent, from `x[i, jj * 4 + j]`) keep their threads below that
/// multiple: `place` (shape, register dimensions) lays out the shape with
/// each such dimension split in two, the upper part in registers, and the
/// parts are joined again.
FragmentLayout placeSplit(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> aligns, llvm::ArrayRef<bool> regDims,
                          llvm::function_ref<FragmentLayout(llvm::ArrayRef<int64_t>, llvm::ArrayRef<bool>)> place);
/// The splits of `frag` for placeSplit: the multiple of the offset of a
/// T.Parallel access `frag[.., iv + offset, ..]` (or of a fragment copied
/// whole to or from `frag`) where it divides the extent; 0 elsewhere.
llvm::SmallVector<int64_t> splitAligns(mlir::Value frag, llvm::ArrayRef<ParallelInfo> loops);

/// Whether `frag` is written only by copies from memory and fills (so that
/// any layout of it can be loaded whole).
bool isLoadedOnly(mlir::Value frag);
/// Collects the fragments of `launch` in `frags` and the vector width each
/// is placed with in `vecOf` (16 bytes for those copied to or from global
/// memory, else up to 4 elements).
void noteVectors(LaunchOp launch, llvm::SmallVectorImpl<mlir::Value> &frags,
                 llvm::DenseMap<mlir::Value, int64_t> &vecOf);

/// Merges each T.Parallel whose body is one T.Parallel (`for i in
/// T.Parallel(n): for j in T.Parallel(m):`) into one loop over both, as
/// tile-lang's loop nests are: the inner loop's fragments then see both
/// variables.
void fuseParallelNests(LaunchOp launch);

/// The layout of a source whose reduction along `dim` (of `extent`) gives
/// a fragment of layout `dst`: `dst` with `dim` inserted, spread over the
/// thread digits that replicate `dst` (lowest first), the rest in
/// registers; nullopt when those digits are not a mixed radix.
std::optional<FragmentLayout> liftReduced(const FragmentLayout &dst, int64_t dim, int64_t extent);

/// Picks the warp split `wm` x `wn` of an mma gemm of an `m` x `n` tile over
/// `warps` warps for `policy`; false when none divides the tile.
bool chooseWarps(int64_t m, int64_t n, int64_t warps, GemmPolicy policy, int64_t &wm, int64_t &wn);
/// The layout of fragment `frag` placed with no other constraint than its
/// dimensions `regDims` held in registers only (LayoutPlacement.cpp).
FragmentLayout placeFragment(mlir::Value frag, llvm::ArrayRef<int64_t> shape, int64_t threads, int64_t vector,
                             int64_t warp, llvm::ArrayRef<bool> regDims);
/// The dimensions of fragment `f` to hold in registers only: those some
/// loop of `loops` indexes with a constant or a loop-invariant value, or a
/// slice copy with a unit extent, directly or through a fragment accessed
/// at the induction variables of a loop that accesses `f` so.
llvm::SmallVector<bool> registerDims(mlir::Value f, llvm::ArrayRef<ParallelInfo> loops);
/// Gives gemm `g` a shared copy of its fragment operand `operand`: the
/// shared buffer the fragment was just copied from, when nothing wrote
/// either since; else a shared buffer of its shape in the launch body (one
/// per fragment, remembered in `stagedCopies`) and a tile.copy into it right
/// before the gemm.
void stageGemmOperand(LaunchOp launch, GemmOp g, mlir::OpOperand &operand,
                      llvm::DenseMap<mlir::Value, mlir::Value> &stagedCopies);

/// Views of fragments (memref.reinterpret_cast: T.reshape, T.view) hold
/// their base's registers: whichever of the two is placed first gives the
/// other its layout reshaped (FragmentLayout::reshape). Whether any changed.
bool propagateThroughViews(llvm::ArrayRef<mlir::memref::ReinterpretCastOp> views,
                           llvm::DenseMap<mlir::Value, FragmentLayout> &fragments);
/// Every placed view agrees with its base; a diagnostic at the view if not.
mlir::LogicalResult checkViews(llvm::ArrayRef<mlir::memref::ReinterpretCastOp> views,
                               const llvm::DenseMap<mlir::Value, FragmentLayout> &fragments);

} // namespace tilec::tile::layout_access

#endif // TILEC_LIB_DIALECT_TILE_TRANSFORMS_LAYOUTACCESS_H
