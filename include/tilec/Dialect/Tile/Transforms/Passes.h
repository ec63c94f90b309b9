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


namespace tilec {

#define GEN_PASS_DECL
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"

namespace tile {

/// Chooses the gemm plans and fragment layouts of `launch` for `target` and
/// writes them as `tile.gemm_plan` / `tile.layout` attributes (see
/// Passes.td); fails with a diagnostic on a conflict.
mlir::LogicalResult inferLayouts(LaunchOp launch, const TargetInfo &target);

/// Values and local buffers of `launch` that may differ between the threads
/// of a block: T.get_thread_binding, what is computed from it, and local
/// buffers written with such values or under such control.
llvm::DenseSet<mlir::Value> threadVariantValues(LaunchOp launch);

/// Registers the planning passes; their `target` option names a TargetInfo
/// of the registry (createTargetInfo).
void registerTilePasses();

} // namespace tile
} // namespace tilec

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
