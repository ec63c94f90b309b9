//===- CUDATargetInfo.cpp - TargetInfo of the NVIDIA sm_XX targets --------===//
//
// Shared-memory limits per compute capability, the mma.sync shapes, and the
// registry entry of the sm_XX family. The emission hooks: NVGPUEmit.cpp.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/CUDA/CUDATargetInfo.h"
#include "tilec/Target/CUDA/CUDAArch.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace tilec;

CUDATargetInfo::CUDATargetInfo(llvm::StringRef name) : arch(name.str()) {
  if (std::optional<CUDAArch> parsed = CUDAArch::parse(name)) {
    cc = parsed->getComputeCapability();
    archSpecific = parsed->archSpecific;
  }
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

/// `sm_XY` or `sm_XYa` (CUDAArch's spelling).
static std::unique_ptr<TargetInfo> makeCUDATargetInfo(llvm::StringRef name) {
  if (!CUDAArch::parse(name))
    return nullptr;
  return std::make_unique<CUDATargetInfo>(name);
}

void tilec::registerCUDATargetInfo() { registerTargetInfoFactory(makeCUDATargetInfo); }
