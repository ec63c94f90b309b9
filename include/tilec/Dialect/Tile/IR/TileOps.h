//===- TileOps.h - Operations of the tile dialect ---------------*- C++ -*-===//
//
// The tile operations (kernel, launch, alloc, copy, gemm, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_H
#define TILEC_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.h.inc"

namespace tilec::tile {

/// Reports every tile.call_extern in `root` as unavailable on target
/// `targetName` (every target but CUDA's); failure when there was one.
mlir::LogicalResult reportExternCalls(mlir::Operation *root, llvm::StringRef targetName);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_H
