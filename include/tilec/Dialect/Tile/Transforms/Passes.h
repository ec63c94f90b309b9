//===- Passes.h - Planning passes of the tile dialect -----------*- C++ -*-===//
//
// The planning passes of Passes.td, the functions they run (which the GPU
// lowering also calls per kernel) and their registration.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace tilec {

#define GEN_PASS_DECL
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"

namespace tile {

/// Chooses the gemm plans and fragment layouts of `launch` for `target` and
/// writes them as `tile.gemm_plan` / `tile.layout` attributes (see
/// Passes.td); fails with a diagnostic on a conflict.
mlir::LogicalResult inferLayouts(LaunchOp launch, const TargetInfo &target);

/// Chooses, per T.Pipelined loop of `launch`, the copies that are staged,
/// the depth, the copy engine for `target` and the hand-off to a gemm, and
/// writes them as `tile.pipeline` / `tile.staged` attributes (Passes.td).
mlir::LogicalResult planPipelines(LaunchOp launch, const TargetInfo &target);

/// Places the shared buffers of `launch` in one window (offsets, stages,
/// swizzles, the scratch area, tensor-copy alignment) and writes them as
/// `tile.shared_buffer` / `tile.shared_memory` attributes (Passes.td); fails
/// with a diagnostic when the window exceeds the target's shared memory.
mlir::LogicalResult planSharedMemory(LaunchOp launch, const TargetInfo &target);

/// Adds to `needed` the ops of `loop`'s body that the offsets of `copies`
/// (staged copies) are computed from; false when a copy cannot be issued
/// ahead (an offset from impure or tile work, or an earlier op of the body
/// touching its destination).
bool collectStagedCopyDependencies(ForOp loop, llvm::ArrayRef<CopyOp> copies,
                                   llvm::DenseSet<mlir::Operation *> &needed);

/// The swizzle span (bytes; 0: none) of shared allocation `alloc`: 2-byte
/// elements in rows of 32, 64 or n * 128 bytes used only by copies and
/// matrix-instruction gemms (tile.gemm_plan).
int64_t chooseSharedSwizzle(AllocOp alloc);

/// Runs the T.ws regions of `launch` in program order and drops its
/// barriers (tile-lower-warp-groups, Passes.td); `target` null means the
/// host, which takes every construct. Fails after a diagnostic.
mlir::LogicalResult lowerWarpGroups(LaunchOp launch, const TargetInfo *target);

/// A T.Parallel index `iv + offset` (`x[i + s * 16, j]`, `x[i, jj * 4 + j]`)
/// whose offset is the same in every iteration and a known multiple of
/// `multiple` (> 1).
struct OffsetIndex {
  unsigned iv = 0; ///< which induction variable
  int64_t multiple = 1;
};
/// `idx` as such an index of a loop with induction variables `ivs` and body
/// `body`, if it is one.
std::optional<OffsetIndex> matchOffsetIndex(mlir::Value idx, mlir::ValueRange ivs, mlir::Region &body);

/// Registers the planning passes; their `target` option names a TargetInfo
/// of the registry (createTargetInfo).
void registerTilePasses();

} // namespace tile
} // namespace tilec

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
