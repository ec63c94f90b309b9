//===- Passes.h - Thread-level lowering passes -------------------*- C++ -*-===//
//
// Declarations and registration of the passes in TileToGPU/Passes.td.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_CONVERSION_TILETOGPU_PASSES_H
#define TILEC_CONVERSION_TILETOGPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#include "tilec/Conversion/TileToGPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Conversion/TileToGPU/Passes.h.inc"

} // namespace tilec

#endif // TILEC_CONVERSION_TILETOGPU_PASSES_H
