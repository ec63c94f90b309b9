//===- NVVMPipeline.h - The NVVM lowering and PTX generation ----*- C++ -*-===//
//
// MLIR's gpu-lower-to-nvvm-pipeline, in two halves: the device functions
// get their debug scopes (`-g`, `-lineinfo`) between them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_NVVMPIPELINE_H
#define TILEC_LIB_TARGET_CUDA_NVVMPIPELINE_H

#include "tilec/Target/Backend.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tilec {

struct NVVMPipelineOptions {
  std::string chip;     ///< "sm_90a"
  std::string features; ///< "+ptx80"
  std::string format;   ///< gpu-module-to-binary's: "isa" (PTX) or "llvm" (bitcode)
  unsigned optLevel = 3;
  DebugInfoLevel debugInfo = DebugInfoLevel::None;
  std::string clang;    ///< --cuda-clang, for T.import_source's code (ExternCode.h)
  std::string cudaRoot; ///< the toolkit (CUDA's headers for that code)
  llvm::raw_ostream *toolLog = nullptr;
};

/// Lowers `module` (gpu dialect, thread level) to the LLVM dialect with its
/// gpu.modules serialized into gpu.binary ops, as MLIR's
/// buildLowerToNVVMPassPipeline does, pass for pass. With debug info the
/// device functions get line directives (DebugDirectivesOnly: `.file` and
/// `.loc`, as clang -gline-directives-only writes for optimised CUDA code).
/// The code of T.import_source (T.call_extern) is compiled by clang and
/// linked into each gpu.module's LLVM IR before its optimization.
mlir::LogicalResult runNVVMPipeline(mlir::ModuleOp module, const NVVMPipelineOptions &options);

} // namespace tilec

#endif // TILEC_LIB_TARGET_CUDA_NVVMPIPELINE_H
