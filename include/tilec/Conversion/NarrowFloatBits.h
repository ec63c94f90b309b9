//===- NarrowFloatBits.h - Software f16/bf16/fp8 conversions ----*- C++ -*-===//
//
// Integer bit arithmetic that converts narrow floats to and from f32, shared by
// the host's emulate-narrow-floats pass and the GPU lowering's fp8 storage.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_CONVERSION_NARROWFLOATBITS_H
#define TILEC_CONVERSION_NARROWFLOATBITS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilec {

/// Whether the builders below know `type`: f16, bf16, f8E4M3FN or f8E5M2.
bool isSoftwareNarrowFloat(mlir::Type type);

/// Decodes `bits` (the integer of `narrow`'s width, scalar or vector) exactly
/// to f32 of the same shape; NaNs stay NaNs.
mlir::Value emitDecodeToF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bits, mlir::FloatType narrow);

/// Encodes `wide` (f32 or f64, scalar or vector) as the bits of `narrow`
/// (the integer of its width, same shape): round to nearest even; overflow
/// gives inf for f16/bf16 and saturates to the largest finite value for fp8
/// (CUDA's satfinite); NaN gives NaN.
mlir::Value emitEncodeFromF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value wide, mlir::FloatType narrow);

/// Emulates the narrow float types that `emulated` selects (a subset of
/// isSoftwareNarrowFloat) in `root`: arithmetic on them computes in f32,
/// conversions use the builders above, and every such value, constant, memref
/// element and function argument ends as the integer of its width. The pass
/// emulate-narrow-floats runs it for all four types.
void emulateNarrowFloats(mlir::Operation *root, llvm::function_ref<bool(mlir::Type)> emulated);

} // namespace tilec

#endif // TILEC_CONVERSION_NARROWFLOATBITS_H
