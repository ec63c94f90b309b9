//===- ExternCode.h - T.import_source code compiled with clang --*- C++ -*-===//
//
// T.call_extern on CUDA: each call is an llvm.call of an extern "C" wrapper
// (ExternCallEmit.cpp) whose declaration in the gpu.module carries what the
// wrapper is; compileExterns writes the wrappers and the imported sources as
// one CUDA C++ translation unit per gpu.module and compiles it with clang to
// NVPTX bitcode, which linkExterns links into the module's LLVM IR.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_EXTERNCODE_H
#define TILEC_LIB_TARGET_CUDA_EXTERNCODE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace tilec {

/// The dictionary on a wrapper's llvm.func declaration: `callee`, `params`
/// (C++ types), `result` (C++ type, "void"), `sources`, `source_locs`.
inline constexpr llvm::StringLiteral kExternWrapperAttr = "tilec.extern";

struct ExternCompileOptions {
  std::string arch;     ///< "sm_90a"
  std::string clang;    ///< --cuda-clang; empty: LLVM's bin directory, then PATH
  std::string cudaRoot; ///< the toolkit, for CUDA's headers when the sources need them
  llvm::raw_ostream *toolLog = nullptr;
};

/// Compiles the wrappers declared in `module` and the sources they name;
/// returns the bitcode ("" when the module calls no extern) and drops the
/// declarations' dictionaries, or failure after a diagnostic at the calls.
mlir::FailureOr<std::string> compileExterns(mlir::gpu::GPUModuleOp module, const ExternCompileOptions &options);

/// Links `bitcode` into `m`: the wrappers and the functions they use become
/// internal (the wrappers always inlined), with `m`'s target attributes.
/// False with `error` set when the bitcode does not load or link.
bool linkExterns(llvm::Module &m, llvm::StringRef bitcode, std::string &error);

} // namespace tilec

#endif // TILEC_LIB_TARGET_CUDA_EXTERNCODE_H
