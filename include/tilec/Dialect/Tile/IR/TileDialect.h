//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Declares the tile dialect and pulls in everything it defines: enums,
// attributes, the layout interface and the operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_H
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "tilec/Dialect/Tile/IR/TileAttrs.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h.inc"

#include "tilec/Dialect/Tile/IR/TileOps.h"

namespace tilec::tile {

/// Adds the tile dialect to `registry`.
void registerTileDialect(mlir::DialectRegistry &registry);

/// The IR element type a source dtype spelling ("float16", "uint8", ...)
/// stands for, or null when the spelling is unknown.
mlir::Type getDtypeElementType(mlir::MLIRContext *ctx, llvm::StringRef dtype);

/// The dtype spelling of an element type taken as signed ("float32",
/// "int8", "bool", ...), or "" for a type no dtype stands for.
llvm::StringRef getDtypeSpelling(mlir::Type type);

/// Whether `name` is an attribute name of the tile dialect (`tile.*`).
bool isTileAttrName(llvm::StringRef name);

//===----------------------------------------------------------------------===//
// Typed access to the dialect's discardable attributes (TileDialect.td).
// They go by name, so they work whether or not the dialect is loaded.
//===----------------------------------------------------------------------===//

/// Launch sequences (tile-outline-launches): the private kernel that runs
/// launch `index` of kernel `kernel` (`<kernel>__k<index>`), and the function
/// giving its workspace layout (`__tilec_<kernel>_workspace`: from the
/// kernel's runtime dimensions, the bytes needed, then each global buffer's
/// offset, every buffer starting on a kWorkspaceAlignment boundary).
std::string launchKernelName(llvm::StringRef kernel, unsigned index);
std::string workspaceFunctionName(llvm::StringRef kernel);
constexpr int64_t kWorkspaceAlignment = 256;

/// The diagnostic of a target whose launchers cannot run launch sequence
/// `kernel`: at its first global buffer (no workspace), else at its second
/// T.Kernel block; always failure.
class KernelOp;
mlir::LogicalResult rejectLaunchSequence(KernelOp kernel, llvm::StringRef target);

/// Kernel argument attributes of argument `i` of `fn`: `tile.name`,
/// `tile.dtype`, `tile.dynamic`, `tile.shape` (null / false when absent).
mlir::StringAttr getArgName(mlir::FunctionOpInterface fn, unsigned i);
mlir::StringAttr getArgDtype(mlir::FunctionOpInterface fn, unsigned i);
bool isArgDynamic(mlir::FunctionOpInterface fn, unsigned i);
mlir::ArrayAttr getArgShape(mlir::FunctionOpInterface fn, unsigned i);
/// The attributes of a kernel argument, as the frontend writes them.
/// (an empty `dtype` and a null `shape` are left out).
mlir::DictionaryAttr makeArgAttrs(mlir::MLIRContext *ctx, llvm::StringRef name, llvm::StringRef dtype, bool dynamic,
                                  mlir::ArrayAttr shape = {});

/// The source dtype of a buffer: `tile.dtype` of its kernel argument or of
/// the op defining it; null when neither has one.
mlir::StringAttr getBufferDtype(mlir::Value buffer);
/// Whether `buffer`'s elements are unsigned: i1, or a `tile.dtype` of
/// "uint*" or "bool".
bool isUnsignedBuffer(mlir::Value buffer);
/// `tile.dtype` of the op defining a buffer.
mlir::StringAttr getDtype(mlir::Operation *op);
void setDtype(mlir::Operation *op, mlir::StringAttr dtype);

/// `tile.threads` of a lowered kernel function (x, y, z).
mlir::DenseI64ArrayAttr getThreads(mlir::Operation *fn);
void setThreads(mlir::Operation *fn, llvm::ArrayRef<int64_t> threads);
void removeThreads(mlir::Operation *fn);

/// `tile.shared_bytes` of a lowered kernel function.
std::optional<int64_t> getSharedBytes(mlir::Operation *fn);
void setSharedBytes(mlir::Operation *fn, int64_t bytes);

/// `tile.tensor_maps` of a lowered kernel function (empty when absent).
llvm::SmallVector<TensorMapAttr> getTensorMaps(mlir::Operation *fn);
void setTensorMaps(mlir::Operation *fn, llvm::ArrayRef<TensorMapAttr> maps);

/// `tile.grid_constant_params` of a lowered kernel function (null when
/// absent), and its name (for the LLVM IR translation that reads it).
mlir::DenseI64ArrayAttr getGridConstantParams(mlir::Operation *fn);
void setGridConstantParams(mlir::Operation *fn, llvm::ArrayRef<int64_t> params);
llvm::StringRef getGridConstantParamsAttrName();

/// `tile.stack_limit` of a host kernel body function.
std::optional<int64_t> getStackLimit(mlir::Operation *fn);
void setStackLimit(mlir::Operation *fn, int64_t bytes);

/// `tile.thread_loop`: the host loop over a block's threads.
bool isThreadLoop(mlir::Operation *loop);
void setThreadLoop(mlir::Operation *loop);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_H
