//===- KernelABI.h - The C signature every target exports -------*- C++ -*-===//
//
// One launcher per kernel, the same argument order on every target: tensors
// as pointers in parameter order (const when never written), then dynamic
// dimensions as int64_t, then scalars, then `void *workspace` when the kernel
// has global buffers (GPU targets append a stream). This file derives that
// signature from a tile.kernel and writes the C header.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_KERNELABI_H
#define TILEC_TARGET_KERNELABI_H

#include "tilec/Target/Backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tilec {

/// One launcher argument.
struct KernelArg {
  enum class Kind { Tensor, DynamicDim, Scalar };
  Kind kind = Kind::Tensor;
  std::string name;               ///< the source name
  std::string dtype;              ///< spec spelling: "float16", "uint8", "int4", ...
  std::vector<std::string> shape; ///< tensors: each dim, a number or a dynamic dim's name
  bool readOnly = false;          ///< tensors the kernel never writes become `const T *`
};

/// One kernel a launch sequence runs, and where each of its arguments comes
/// from.
struct LaunchStep {
  std::string kernel;
  /// Per argument of `kernel`: >= 0, the sequence's argument of that index;
  /// < 0, its workspace buffer -1 - value (workspace + the buffer's offset).
  std::vector<int> args;
};

/// Everything a launcher and its header need about one kernel.
struct KernelSignature {
  std::string name;
  std::vector<KernelArg> args;
  std::vector<int64_t> threads; ///< block size (x, y, z); a sequence's first launch's
  /// Thread-block cluster shape (x, y, z) of T.Kernel(..., cluster=...); empty
  /// without one (or one block per cluster).
  std::vector<int64_t> cluster;
  /// False for the private kernels of a launch sequence: internal launchers,
  /// not in the header.
  bool exported = true;
  /// A launch sequence (tile-outline-launches): the kernels it runs in order.
  std::vector<LaunchStep> steps;
  /// Its global buffers: the launcher takes `void *workspace` (after the
  /// scalars) and `<name>_workspace_size(dims...)` gives the bytes needed;
  /// `workspaceFunction` returns them and each buffer's offset.
  unsigned workspaceBuffers = 0;
  std::string workspaceFunction;
  bool isSequence() const { return !steps.empty(); }
  bool hasWorkspace() const { return workspaceBuffers > 0; }
};

/// Reads a `tile.kernel` op (via FunctionOpInterface and its `tile.*`
/// argument attributes). Fails with a diagnostic on the op if an argument
/// lacks what the ABI needs.
mlir::LogicalResult getKernelSignature(mlir::Operation *kernel, KernelSignature &sig);

/// The signatures of every tile.kernel in `module`, in source order.
mlir::LogicalResult getKernelSignatures(mlir::ModuleOp module, std::vector<KernelSignature> &sigs);

/// The C element type of a dtype in the header (`uint16_t` for float16 and
/// bfloat16, `uint8_t` for fp8 and packed int4, ...).
llvm::StringRef cElementType(llvm::StringRef dtype);

/// Error codes every launcher returns (also written into the header).
enum class LaunchStatus : int {
  Success = 0,
  NullPointer = 1,
  BadDimension = 2,
  Misaligned = 3,
  LaunchFailed = 4,
  NoImage = 5,     ///< CUDA objects for several archs: no image fits the device
  NoWorkspace = 6, ///< a kernel with global buffers was given a null workspace
};

/// Header flavours: what each target appends to the C signature.
enum class HeaderFlavor { Host, CUDA };

/// Writes the C header for `kernels` (C99 and C++ clean), guarded by
/// `info.guard`, documenting each argument's shape and dtype.
void writeCHeader(llvm::ArrayRef<KernelSignature> kernels, const HeaderInfo &info, HeaderFlavor flavor,
                  llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_TARGET_KERNELABI_H
