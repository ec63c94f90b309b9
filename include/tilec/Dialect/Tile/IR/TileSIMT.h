//===- TileSIMT.h - Per-thread and block-collective tile IR -----*- C++ -*-===//
//
// The SIMT reading of a kernel body (spec §6) shared by the frontend's
// checks and the lowerings: which ops every thread runs on its own, which
// are block-collective, and which values differ between threads.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECT_TILE_IR_TILESIMT_H
#define TILEC_DIALECT_TILE_IR_TILESIMT_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

namespace tilec::tile {

/// Whether a T.Parallel is run whole by every thread: as in tile-lang, one
/// that stores only into local buffers and touches no fragment.
bool isPerThreadParallel(mlir::Operation *parallel);

/// Whether a leaf op (an element access, T.get_thread_binding, or a tile
/// operation on thread-private buffers: a copy or fill of a local buffer,
/// an element T.atomic_add, a per-thread T.Parallel) runs on every thread
/// on its own.
bool isPerThreadLeaf(mlir::Operation *op);

/// Whether `op` is a block-collective tile operation (T.copy, T.gemm, a
/// T.Parallel spread over the threads, ...); structured ops are not.
bool isCollectiveLeaf(mlir::Operation *op);

/// Whether `op` is or holds a block-collective tile operation.
bool containsCollective(mlir::Operation *op);

/// Values and local buffers in `root` that may differ between the threads
/// of a block: T.get_thread_binding, what is computed from it, local buffers
/// written with such values or under such control, and what is loaded from
/// them (to a fixed point).
llvm::DenseSet<mlir::Value> threadVariantValues(mlir::Operation *root);

/// Reports every block-collective tile operation in `launch` that sits
/// under a condition or loop bound that differs between threads (spec §6:
/// every thread must reach it), with a note at the condition. Fails when
/// it reported one.
mlir::LogicalResult checkUniformControl(mlir::Operation *launch);

/// Marks a tile.warp_group made from a branch of a thread-range `if`.
inline constexpr llvm::StringLiteral kThreadRangeAttr = "tilec.thread_range";

/// tile-lang runs tile operations under `if tx < 128:` (a condition that
/// leaves one range of thread ids) on that range of threads: each scf.if in
/// `launch` that holds a block-collective op and whose condition, computed
/// from T.get_thread_binding and constants alone, holds on one range of
/// linear thread ids becomes a tile.warp_group of those threads (its else
/// branch one of the others), marked kThreadRangeAttr, which
/// tile-lower-warp-groups runs in program order (TileThreadRanges.cpp).
/// Fails, with a diagnostic, when the then branch waits for a barrier that
/// the else branch arrives at (program order cannot keep that).
mlir::LogicalResult structureThreadRangeIfs(mlir::Operation *launch);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TILESIMT_H
