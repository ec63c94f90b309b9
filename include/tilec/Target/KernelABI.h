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

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// One dimension of a tensor in the C signature, parsed from its text in the
/// header: a constant (`64`), a dynamic dimension (`seq_len`, the argument of
/// that name) or a derived dimension, an expression over them as the frontend
/// prints it (`seq_len * 4`, `(M + 1) // 2`, `min(M, N)`). `//` and `%` are
/// Python's (floored) and only by a positive constant.
struct DimExpr {
  enum class Op { Const, Arg, Add, Sub, Mul, FloorDiv, Mod, Min, Max };
  Op op = Op::Const;
  int64_t value = 0; ///< Const
  unsigned arg = 0;  ///< Arg: the index of the dynamic dimension in KernelSignature::args
  std::shared_ptr<const DimExpr> lhs, rhs;
  bool isConstant() const { return op == Op::Const; }
  bool isArg() const { return op == Op::Arg; }
  bool isDerived() const { return !isConstant() && !isArg(); }
};
using DimExprRef = std::shared_ptr<const DimExpr>;

/// One launcher argument.
struct KernelArg {
  enum class Kind { Tensor, DynamicDim, Scalar };
  Kind kind = Kind::Tensor;
  std::string name;               ///< the source name
  std::string dtype;              ///< spec spelling: "float16", "uint8", "int4", ...
  std::vector<std::string> shape; ///< tensors: each dim, a number, a dynamic dim's name or a derived one's text
  std::vector<DimExprRef> dims;   ///< tensors: each dim of `shape`, parsed
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

/// Builds the value of `e` with the integer operations of a builder `B`:
///   V constant(int64_t), V arg(unsigned index), V add(V, V), V sub(V, V), V mul(V, V),
///   V sdiv(V, V), V srem(V, V) (C's, truncating), V smin(V, V), V smax(V, V),
///   V slt(V, V) (a boolean), V select(V cond, V, V).
/// `//` and `%` by the positive constant c floor as in Python: q = a / c - (a % c < 0).
template <class B, class V> V buildDimExpr(const DimExpr &e, B &b) {
  using Op = DimExpr::Op;
  switch (e.op) {
  case Op::Const:
    return b.constant(e.value);
  case Op::Arg:
    return b.arg(e.arg);
  default:
    break;
  }
  V x = buildDimExpr<B, V>(*e.lhs, b), y = buildDimExpr<B, V>(*e.rhs, b);
  switch (e.op) {
  case Op::Add:
    return b.add(x, y);
  case Op::Sub:
    return b.sub(x, y);
  case Op::Mul:
    return b.mul(x, y);
  case Op::Min:
    return b.smin(x, y);
  case Op::Max:
    return b.smax(x, y);
  case Op::FloorDiv:
  case Op::Mod: {
    V zero = b.constant(0), one = b.constant(1);
    V r = b.srem(x, y);
    V negative = b.slt(r, zero);
    if (e.op == Op::Mod)
      return b.select(negative, b.add(r, y), r);
    return b.sub(b.sdiv(x, y), b.select(negative, one, zero));
  }
  default:
    return b.constant(0);
  }
}

/// The launchers' check of a derived dimension: `e` built as buildDimExpr
/// does, with every intermediate value clamped to [-(limit + 1), limit + 1]
/// and `bad` or-ed (B: V bor(V, V)) with whether any was outside
/// [-limit, limit]. With arguments clamped to [0, limit + 1] and a type of at
/// least 2 * (log2(limit) + 2) bits nothing wraps, and where `bad` stays false
/// every intermediate value is the int64 one.
template <class B, class V> V buildCheckedDimExpr(const DimExpr &e, B &b, V &bad, int64_t limit) {
  using Op = DimExpr::Op;
  if (e.op == Op::Const)
    return b.constant(e.value);
  if (e.op == Op::Arg)
    return b.arg(e.arg);
  DimExpr shallow = e;
  V x = buildCheckedDimExpr<B, V>(*e.lhs, b, bad, limit), y = buildCheckedDimExpr<B, V>(*e.rhs, b, bad, limit);
  struct Leaves {
    B &b;
    V x, y;
    V constant(int64_t v) { return b.constant(v); }
    V arg(unsigned i) { return i == 0 ? x : y; }
    V add(V p, V q) { return b.add(p, q); }
    V sub(V p, V q) { return b.sub(p, q); }
    V mul(V p, V q) { return b.mul(p, q); }
    V sdiv(V p, V q) { return b.sdiv(p, q); }
    V srem(V p, V q) { return b.srem(p, q); }
    V smin(V p, V q) { return b.smin(p, q); }
    V smax(V p, V q) { return b.smax(p, q); }
    V slt(V p, V q) { return b.slt(p, q); }
    V select(V c, V p, V q) { return b.select(c, p, q); }
  } leaves{b, x, y};
  auto leaf = [](unsigned i) {
    auto l = std::make_shared<DimExpr>();
    l->op = Op::Arg;
    l->arg = i;
    return l;
  };
  shallow.lhs = leaf(0);
  shallow.rhs = leaf(1);
  V r = buildDimExpr<Leaves, V>(shallow, leaves);
  bad = b.bor(bad, b.bor(b.slt(b.constant(limit), r), b.slt(r, b.constant(-limit))));
  return b.smax(b.smin(r, b.constant(limit + 1)), b.constant(-(limit + 1)));
}

/// Parses a dimension's text (see DimExpr) against the dynamic dimensions of
/// `sig`; nullopt when it is none of the three forms.
std::optional<DimExprRef> parseDimExpr(llvm::StringRef text, const KernelSignature &sig);

/// The derived dimensions of `sig`'s tensors: (argument, dimension) pairs.
std::vector<std::pair<unsigned, unsigned>> derivedDimensions(const KernelSignature &sig);

/// The diagnostic of a target whose launchers take no derived dimensions: at
/// the first tensor of a kernel in `module` with one (at its parameter);
/// success when there is none.
mlir::LogicalResult rejectDerivedDimensions(mlir::ModuleOp module, llvm::ArrayRef<KernelSignature> sigs,
                                            llvm::StringRef target);

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
