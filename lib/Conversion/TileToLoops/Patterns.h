//===- Patterns.h - The tile-to-loops pattern groups ------------*- C++ -*-===//
//
// One populate function per op family, each in its own file.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H
#define TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H

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

} // namespace tilec::loops

#endif // TILEC_LIB_CONVERSION_TILETOLOOPS_PATTERNS_H
