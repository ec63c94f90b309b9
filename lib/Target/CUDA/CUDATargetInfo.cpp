//===- CUDATargetInfo.cpp - TargetInfo of the NVIDIA sm_XX targets --------===//
//
// Shared-memory limits per compute capability, the mma.sync shapes, and the
// registry entry of the sm_XX family. The emission hooks: NVGPUEmit.cpp.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/CUDA/CUDATargetInfo.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace tilec;

CUDATargetInfo::CUDATargetInfo(llvm::StringRef name) : arch(name.str()) {
  llvm::StringRef digits = name;
  digits.consume_front("sm_");
  llvm::StringRef suffix = digits.drop_while([](char c) { return c >= '0' && c <= '9'; });
  digits = digits.take_while([](char c) { return c >= '0' && c <= '9'; });
  if (digits.getAsInteger(10, cc))
    cc = 80;
  archSpecific = suffix == "a";
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

/// `sm_` followed by digits and an optional `a`.
static std::unique_ptr<TargetInfo> makeCUDATargetInfo(llvm::StringRef name) {
  llvm::StringRef rest = name;
  if (!rest.consume_front("sm_") || rest.empty() || !(rest[0] >= '0' && rest[0] <= '9'))
    return nullptr;
  rest = rest.drop_while([](char c) { return c >= '0' && c <= '9'; });
  if (!rest.empty() && rest != "a")
    return nullptr;
  return std::make_unique<CUDATargetInfo>(name);
}

void tilec::registerCUDATargetInfo() { registerTargetInfoFactory(makeCUDATargetInfo); }
