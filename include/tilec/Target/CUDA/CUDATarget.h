//===- CUDATarget.h - The NVIDIA (sm_80 ... sm_90a) target ------*- C++ -*-===//
//
// tile dialect -> thread-level gpu/nvgpu/nvvm -> LLVM NVPTX -> PTX (in
// process) -> cubin (ptxas) -> fatbin (fatbinary) -> x86-64 object holding
// the fatbin and one driver-API launcher per kernel, plus the C header.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CUDA_CUDATARGET_H
#define TILEC_TARGET_CUDA_CUDATARGET_H

#include "tilec/Driver/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Runs the CUDA pipeline up to `opts.emit` (gpu, llvm, ptx, cubin, fatbin,
/// asm, obj, header) for the archs of `opts.target`; `obj` also writes the
/// header beside the output, `-shared` links a shared library.
mlir::LogicalResult runCUDAPipeline(mlir::ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                    llvm::raw_ostream &errs);

} // namespace tilec

#endif // TILEC_TARGET_CUDA_CUDATARGET_H
