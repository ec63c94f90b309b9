//===- AscendTarget.h - The Ascend target: tile IR -> Ascend C -*- C++ -*-===//
//
// The Ascend target prints Ascend C (the C++ dialect of Huawei's AI Core
// NPUs) straight from the tile-level IR, plus a C header describing how to
// launch each kernel. Only the vector unit is used; T.gemm (the Cube unit)
// is rejected with a diagnostic.
//
// ABI: `extern "C" __global__ __aicore__ void k(GM_ADDR t0, ..., int64_t d0,
// ..., <scalars>)`, the tensors in parameter order, then the dynamic
// dimensions, then the scalars (KernelABI's order). Each AI core walks the
// blocks of the T.Kernel grid `GetBlockIdx(), + GetBlockNum(), ...`, so any
// blockDim works; the header's `<k>_ascend_blocks()` gives the grid size
// (blockDim = min(that, number of AI cores)). No workspace, no tiling data.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_ASCEND_ASCENDTARGET_H
#define TILEC_TARGET_ASCEND_ASCENDTARGET_H

#include "tilec/Target/Backend.h"
#include "tilec/Target/KernelABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tilec {

/// What the emitter assumes about the device.
struct AscendTargetOptions {
  /// Unified Buffer bytes one AI Core has (Atlas A2 training series: 192 KiB).
  int64_t unifiedBufferBytes = 192 * 1024;
};

/// One kernel's Ascend C source and what its header needs.
struct AscendKernel {
  KernelSignature signature;
  std::string source;               ///< the kernel function (no includes)
  std::vector<std::string> gridExprs; ///< T.Kernel grid extents as C expressions of the dims
  int64_t unifiedBufferBytes = 0;   ///< bytes of UB the kernel's TPipe allocates
  std::vector<std::string> cNames;  ///< per argument, its C++ name (source name, '_'-suffixed if reserved)
};

/// Prints the Ascend C of every tile.kernel in `module`. Kernels the target
/// cannot take fail with a diagnostic on the offending op.
mlir::LogicalResult emitAscendC(mlir::ModuleOp module, const AscendTargetOptions &options,
                                std::vector<AscendKernel> &kernels);

/// Writes the `.cpp` translation unit of `kernels` (one include, then the kernels).
void writeAscendSource(llvm::ArrayRef<AscendKernel> kernels, llvm::StringRef sourceName, llvm::raw_ostream &os);

/// Writes the C header (C99 and C++) describing how to launch `kernels`.
void writeAscendHeader(llvm::ArrayRef<AscendKernel> kernels, const HeaderInfo &info, llvm::raw_ostream &os);

/// The Ascend target in the registry: `-target=ascend`; ascendc (the .cpp)
/// | header | obj (`k.cpp` and `k.h` beside it).
const TargetDescription &getAscendTargetDescription();

/// The Ascend backend under `options`.
std::unique_ptr<TargetBackend> createAscendBackend(const AscendTargetOptions &options);

} // namespace tilec

#endif // TILEC_TARGET_ASCEND_ASCENDTARGET_H
