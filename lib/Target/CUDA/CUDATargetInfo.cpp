//===- CUDATargetInfo.cpp - TargetInfo of the NVIDIA sm_XX targets --------===//
//
// Shared-memory limits per compute capability and the mma.sync shapes.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/CUDA/CUDATargetInfo.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace tilec;

TargetInfo::~TargetInfo() = default;

CUDATargetInfo::CUDATargetInfo(llvm::StringRef name) : arch(name.str()) {
  llvm::StringRef digits = name;
  digits.consume_front("sm_");
  digits = digits.take_while([](char c) { return c >= '0' && c <= '9'; });
  if (digits.getAsInteger(10, cc))
    cc = 80;
}

int64_t CUDATargetInfo::getMaxSharedMemoryBytes() const {
  // Opt-in limits per block (CUDA programming guide, compute capabilities).
  if (cc >= 90)
    return 227 * 1024;
  if (cc == 86 || cc == 89)
    return 99 * 1024;
  return 163 * 1024;
}

llvm::SmallVector<MatrixShape> CUDATargetInfo::getMatrixShapes(mlir::Type ab, mlir::Type acc) const {
  if ((ab.isF16() || ab.isBF16()) && acc.isF32())
    return {{16, 8, 16}};
  if (ab.isInteger(8) && acc.isInteger(32))
    return {{16, 8, 32}};
  if (cc >= 89 && (llvm::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(ab)) && acc.isF32())
    return {{16, 8, 32}};
  return {};
}
