//===- HostLauncher.h - Pieces of the host launchers ------------*- C++ -*-===//
//
// What HostLauncher.cpp (serial launch) and HostThreads.cpp (multi-threaded
// launch) share about one kernel's launcher.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_HOST_HOSTLAUNCHER_H
#define TILEC_LIB_TARGET_HOST_HOSTLAUNCHER_H

#include "tilec/Target/KernelABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace tilec::host {

/// The C parameter type of a kernel argument type: pointers for tensors,
/// int64_t for dimensions, the bits of f16/bf16/fp8 (uint16_t/uint8_t), a
/// byte for bool and int4.
mlir::Type cParameterType(mlir::Type kernelType);

/// The i32 status of a launcher's argument checks (0 when all pass):
/// TILEC_ERROR_NULL_POINTER for a null tensor, else
/// TILEC_ERROR_BAD_DIMENSION for a dimension <= 0 or a tensor over kMaxTensorBytes.
mlir::Value checkLauncherArguments(mlir::OpBuilder &b, mlir::Location loc, const KernelSignature &sig,
                                   mlir::ValueRange params);

/// buildDimExpr's builder over arith ops: `params` are the launcher's C
/// parameters (int64_t dimensions), values of type `type` (i64, or i128 with
/// each dimension clamped to [0, clamp] for the checks when clamp > 0).
struct ArithDimBuilder {
  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::ValueRange params;
  mlir::Type type;
  int64_t clamp = 0;
  mlir::Value constant(int64_t v);
  mlir::Value arg(unsigned i);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value sdiv(mlir::Value x, mlir::Value y);
  mlir::Value srem(mlir::Value x, mlir::Value y);
  mlir::Value smin(mlir::Value x, mlir::Value y);
  mlir::Value smax(mlir::Value x, mlir::Value y);
  mlir::Value slt(mlir::Value x, mlir::Value y);
  mlir::Value select(mlir::Value c, mlir::Value x, mlir::Value y);
  mlir::Value bor(mlir::Value x, mlir::Value y);
};

/// Makes `fn` private to the object (internal linkage).
void makeInternal(mlir::func::FuncOp fn);

/// Builds the launcher of launch sequence `sig` (HostSequence.cpp): checks,
/// the workspace layout, then each part's launcher in order, stopping at the
/// first failure; and `<name>_workspace_size(dims...)`.
mlir::LogicalResult buildSequenceLauncher(mlir::ModuleOp module, const KernelSignature &sig);

/// One kernel's signature and its lowered functions.
class LauncherInfo {
public:
  LauncherInfo(const KernelSignature &sig, mlir::func::FuncOp body, mlir::func::FuncOp grid);

  /// Finds the dimension argument that sizes each dynamic tensor dimension.
  mlir::LogicalResult resolveDimensions();
  /// The launcher's parameter types, in signature order.
  llvm::SmallVector<mlir::Type> parameterTypes() const;
  /// The i32 status of the argument checks (0 when all pass).
  mlir::Value checkArguments(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange params) const;
  /// The body's (and grid's) kernel arguments built from the C parameters.
  llvm::SmallVector<mlir::Value> kernelArguments(mlir::OpBuilder &b, mlir::Location loc,
                                                 mlir::ValueRange params) const;
  /// Calls the body for every block in order: bz, by, bx (innermost).
  void runBlocksSerially(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args,
                         mlir::ValueRange extents) const;
  /// Runs the blocks on `threads` CPU threads (pthreads) that take block
  /// numbers from a shared atomic counter (HostThreads.cpp).
  void runBlocksOnThreads(mlir::OpBuilder &b, mlir::Location loc, mlir::ModuleOp module, mlir::ValueRange params,
                          mlir::ValueRange extents, unsigned threads) const;

private:
  const KernelSignature &sig;
  mutable mlir::func::FuncOp body, grid; // op handles: their accessors are not const
  /// (tensor argument, dimension) -> its size: a dimension argument or a
  /// derived dimension over them.
  llvm::DenseMap<std::pair<unsigned, unsigned>, DimExprRef> dynamicSize;
};

/// Guards every integer division and remainder with a divisor that may be 0
/// (or -1 under INT_MIN) so that none traps; the results it defines are in
/// HostDivision.cpp and docs/differences.md.
void guardIntegerDivision(mlir::ModuleOp module);

} // namespace tilec::host

#endif // TILEC_LIB_TARGET_HOST_HOSTLAUNCHER_H
