//===- HostTarget.h - The host (x86-64 CPU) target --------------*- C++ -*-===//
//
// The reference target: tile dialect -> loops -> LLVM dialect (with one
// exported C launcher per kernel) -> LLVM IR -> x86-64 object, in process.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_HOST_HOSTTARGET_H
#define TILEC_TARGET_HOST_HOSTTARGET_H

#include "tilec/Target/Backend.h"
#include "tilec/Target/KernelABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec {

/// What the host pipeline needs besides the module.
struct HostOptions {
  std::string triple = "x86_64-unknown-linux-gnu";
  std::string cpu = "x86-64"; ///< generic x86-64 unless asked otherwise
  unsigned optLevel = 3;      ///< LLVM optimisation level (0-3)
  unsigned threads = 1;       ///< CPU threads the launcher runs blocks on (1: in order, deterministic)
  int64_t stackLimit = 256 * 1024; ///< bytes of block buffers on the stack; the rest on the heap
  int64_t maxParallelOps = 8192;   ///< --max-parallel-ops: most operations in one T.Parallel body
  bool shared = false;        ///< the default stage links a shared library instead of an object
  DebugInfoLevel debugInfo = DebugInfoLevel::None; ///< `-g` / `-lineinfo`: DWARF of the .tile lines
  llvm::raw_ostream *commandLog = nullptr;         ///< `-v`: the linker's command line goes here
};

/// The host target in the registry: `-target=host`; header | llvm (optimised
/// LLVM IR) | asm | obj (an object, or with `shared` a shared library).
const TargetDescription &getHostTargetDescription();

/// The host backend under `options`.
std::unique_ptr<TargetBackend> createHostBackend(const HostOptions &options);

/// Adds one exported `int name(...)` launcher per kernel to a module that
/// `convert-tile-to-loops` produced: checks its arguments (null pointers,
/// dimensions <= 0), builds the memref descriptors, asks the grid function
/// for the extents and calls the body once per block (bz, by, bx order), on
/// `threads` CPU threads when more than one.
mlir::LogicalResult buildHostLaunchers(mlir::ModuleOp module, llvm::ArrayRef<KernelSignature> kernels,
                                       unsigned threads);

/// Lowers a verified tile module to the LLVM dialect: convert-tile-to-loops,
/// launchers, narrow float emulation, the standard lowerings. `kernels`
/// receives the kernels' signatures (read before lowering).
mlir::LogicalResult lowerTileToHostLLVM(mlir::ModuleOp module, const HostOptions &options,
                                        std::vector<KernelSignature> &kernels);

/// Translates an LLVM-dialect module to LLVM IR for the host triple and
/// optimises it. Null (with `error` set) on failure.
std::unique_ptr<llvm::Module> translateToHostLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                                                    const HostOptions &options, std::string &error);

/// Writes `module` as an x86-64 ELF object (or assembly text) into `bytes`.
mlir::LogicalResult emitHostMachineCode(llvm::Module &module, const HostOptions &options, bool assembly,
                                        llvm::SmallVectorImpl<char> &bytes, std::string &error);

/// Links `objectPath` into the shared library `outputPath` with clang-22 /
/// clang / ld.lld-22 found on PATH (adding -lm); `commandLog` (-v) receives
/// the linker's command line.
mlir::LogicalResult linkHostSharedLibrary(llvm::StringRef objectPath, llvm::StringRef outputPath,
                                          llvm::raw_ostream *commandLog, std::string &error);

} // namespace tilec

#endif // TILEC_TARGET_HOST_HOSTTARGET_H
