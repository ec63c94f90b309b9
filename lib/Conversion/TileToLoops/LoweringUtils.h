//===- LoweringUtils.h - Helpers shared by the tile-to-loops patterns -*- C++ -*-===//
//
// Element conversions, loop nests, guarded global accesses and hoisted
// scratch buffers used by every tile op lowering.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_CONVERSION_TILETOLOOPS_LOWERINGUTILS_H
#define TILEC_LIB_CONVERSION_TILETOLOOPS_LOWERINGUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilec::loops {

/// Whether the elements of `buffer` are unsigned: i1 always; otherwise the
/// `tile.dtype` of the function argument or defining op (`uint8`, `uint32`,
/// `uint4`, `bool`).
bool isUnsignedBuffer(mlir::Value buffer);

/// Whether `buffer` is a global tensor (reads outside give 0, writes outside
/// are dropped).
bool isGlobalBuffer(mlir::Value buffer);

/// Converts a scalar between element types with C-like semantics: integers
/// extend by their signedness, to `i1` means `!= 0`, float to integer
/// truncates towards zero.
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value, mlir::Type to,
                          bool fromUnsigned, bool toUnsigned);

/// The zero (or false) constant of a scalar type.
mlir::Value zeroOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);

/// An index constant.
mlir::Value indexConst(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// The body of one loop nest level: receives the induction variables so far.
using LoopBody = llvm::function_ref<void(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// Builds a nest of `scf.for` loops over [0, extents[d]) with step 1, the
/// first extent outermost; with no extents the body runs once.
void buildLoopNest(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<int64_t> extents, LoopBody body);
void buildLoopNest(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange extents, LoopBody body);

/// The loop nest over every element of `buffer` (dynamic sizes included).
void buildBufferLoopNest(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer, LoopBody body);

/// The i1 "all `indices` lie inside `buffer`" (unsigned compares, so negative
/// indices are outside).
mlir::Value inBounds(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer, mlir::ValueRange indices);

/// Loads `buffer[indices]`; for a global buffer a read outside gives zero.
mlir::Value loadElement(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer, mlir::ValueRange indices);

/// Stores `value` into `buffer[indices]`; for a global buffer a write outside
/// is dropped.
void storeElement(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value, mlir::Value buffer,
                  mlir::ValueRange indices);

/// Runs `body` only when `indices` lie inside a global `buffer` (always for
/// other scopes).
void ifInBounds(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer, mlir::ValueRange indices,
                llvm::function_ref<void(mlir::OpBuilder &, mlir::Location)> body);

/// A block-private buffer of `type` (its memory space is kept) placed at the
/// entry of the function around `anchor`: on the stack while the function's
/// stack buffers stay within its `tile.stack_limit`, else on the heap with a
/// dealloc before every return.
mlir::Value createBlockBuffer(mlir::RewriterBase &rewriter, mlir::Operation *anchor, mlir::MemRefType type);

/// Bytes a buffer of `type` occupies on the host (i1 and i4: one byte each).
int64_t hostBufferBytes(mlir::MemRefType type);

} // namespace tilec::loops

#endif // TILEC_LIB_CONVERSION_TILETOLOOPS_LOWERINGUTILS_H
