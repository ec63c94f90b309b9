//===- Patterns.h - The tile-to-loops pattern groups ------------*- C++ -*-===//
//
// One populate function per op family, each in its own file.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H
#define TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace tilec::loops {

/// alloc, copy, fill, thread_id, use_swizzle, annotate_layout (BufferOps.cpp).
void populateBufferOpPatterns(mlir::RewritePatternSet &patterns);
/// gemm (Gemm.cpp).
void populateGemmPatterns(mlir::RewritePatternSet &patterns);
/// reduce, cumsum (Reductions.cpp).
void populateReductionPatterns(mlir::RewritePatternSet &patterns);
/// atomic_add, print (AtomicPrint.cpp).
void populateAtomicPrintPatterns(mlir::RewritePatternSet &patterns);
/// parallel, for (Loops.cpp).
void populateLoopPatterns(mlir::RewritePatternSet &patterns);

/// Strips `#tile.scope` memory spaces from every type in `fn` and turns i4
/// buffers into byte buffers, rewriting their loads and stores
/// (LegalizeBuffers.cpp).
mlir::LogicalResult legalizeBuffers(mlir::Operation *fn);

/// Wraps every run of per-thread statements of the outlined body function
/// `fn` (still tile-level) in a loop over the block's `threads` (x, y, z),
/// so that each runs once for every thread index (ThreadLoops.cpp).
void formThreadLoops(mlir::func::FuncOp fn, llvm::ArrayRef<int64_t> threads);

/// Gives every local buffer of the lowered `fn` one copy per thread: its
/// accesses take the enclosing thread loop's index, thread 0's outside one.
mlir::LogicalResult expandLocalBuffers(mlir::func::FuncOp fn, int64_t numThreads);

/// The linear thread index of the thread loop around `op`, or null.
mlir::Value threadIndexAt(mlir::Operation *op);

} // namespace tilec::loops

#endif // TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H
