//===- HostSequence.cpp - Launchers of kernel functions with several launches -===//
//
// For a launch sequence `k` (tile-outline-launches):
//   int k(T *tensors..., int64_t dims..., scalars..., void *workspace)
// 1. The argument checks of every launcher; then TILEC_ERROR_NO_WORKSPACE
//    when the workspace is null but its size is not 0.
// 2. @__tilec_k_workspace gives each global buffer's byte offset.
// 3. Each part's launcher (`k__k<i>`, internal) runs with the sequence's
//    arguments and pointers into the workspace, in order; the first status
//    that is not 0 is returned.
// And `size_t k_workspace_size(int64_t dims...)`.
//
//===----------------------------------------------------------------------===//
#include "HostLauncher.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::host;

/// The C parameter types of the sequence's arguments (as its parts take them).
static llvm::SmallVector<Type> sequenceParameterTypes(MLIRContext *ctx, const KernelSignature &sig) {
  llvm::SmallVector<Type> types;
  for (const KernelArg &a : sig.args) {
    switch (a.kind) {
    case KernelArg::Kind::Tensor:
      types.push_back(LLVM::LLVMPointerType::get(ctx));
      break;
    case KernelArg::Kind::DynamicDim:
      types.push_back(IntegerType::get(ctx, 64));
      break;
    case KernelArg::Kind::Scalar:
      types.push_back(cParameterType(tile::getDtypeElementType(ctx, a.dtype)));
      break;
    }
  }
  return types;
}

/// The runtime dimensions among `params`, as `index` values.
static llvm::SmallVector<Value> dimensionIndices(OpBuilder &b, Location loc, const KernelSignature &sig,
                                                 ValueRange params) {
  llvm::SmallVector<Value> dims;
  for (auto [a, p] : llvm::zip(sig.args, params))
    if (a.kind == KernelArg::Kind::DynamicDim)
      dims.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), p));
  return dims;
}

/// `size_t k_workspace_size(int64_t dims...)`.
static void buildWorkspaceSize(ModuleOp module, const KernelSignature &sig, func::FuncOp layout) {
  Location loc = layout.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type i64 = b.getI64Type();
  unsigned numDims = llvm::count_if(sig.args, [](const KernelArg &a) { return a.kind == KernelArg::Kind::DynamicDim; });
  llvm::SmallVector<Type> inputs(numDims, i64);
  auto fn = func::FuncOp::create(b, loc, sig.name + "_workspace_size", b.getFunctionType(inputs, {i64}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  llvm::SmallVector<Value> dims;
  for (Value d : entry->getArguments())
    dims.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), d));
  auto offsets = func::CallOp::create(b, loc, layout, dims);
  func::ReturnOp::create(b, loc, ValueRange{arith::IndexCastOp::create(b, loc, i64, offsets.getResult(0))});
}

/// Runs steps [i, end) of the sequence: each after the previous returned 0.
static Value runSteps(OpBuilder &b, Location loc, ModuleOp module, const KernelSignature &sig, ValueRange params,
                      llvm::ArrayRef<Value> bufferPtrs, unsigned i) {
  const LaunchStep &step = sig.steps[i];
  auto part = module.lookupSymbol<func::FuncOp>(step.kernel);
  llvm::SmallVector<Value> args;
  for (int a : step.args)
    args.push_back(a >= 0 ? params[a] : bufferPtrs[-1 - a]);
  Value status = func::CallOp::create(b, loc, part, args).getResult(0);
  if (i + 1 == sig.steps.size())
    return status;
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, status, zero);
  auto next = scf::IfOp::create(b, loc, TypeRange{b.getI32Type()}, ok, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(next.thenBlock());
    scf::YieldOp::create(b, loc, runSteps(b, loc, module, sig, params, bufferPtrs, i + 1));
    b.setInsertionPointToStart(next.elseBlock());
    scf::YieldOp::create(b, loc, status);
  }
  return next.getResult(0);
}

LogicalResult host::buildSequenceLauncher(ModuleOp module, const KernelSignature &sig) {
  for (const LaunchStep &step : sig.steps)
    if (!module.lookupSymbol<func::FuncOp>(step.kernel))
      return module.emitError() << "no launcher for '" << step.kernel << "', a part of '" << sig.name << "'";
  func::FuncOp layout;
  if (sig.hasWorkspace()) {
    layout = module.lookupSymbol<func::FuncOp>(sig.workspaceFunction);
    if (!layout)
      return module.emitError() << "no workspace layout '" << sig.workspaceFunction << "' for '" << sig.name << "'";
    makeInternal(layout);
    buildWorkspaceSize(module, sig, layout);
  }
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  llvm::SmallVector<Type> types = sequenceParameterTypes(ctx, sig);
  if (sig.hasWorkspace())
    types.push_back(ptrType);
  auto launcher = func::FuncOp::create(b, loc, sig.name, b.getFunctionType(types, {b.getI32Type()}));
  Block *entry = launcher.addEntryBlock();
  b.setInsertionPointToStart(entry);
  ValueRange params = entry->getArguments().take_front(sig.args.size());
  auto i32 = [&](int v) { return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v)).getResult(); };

  // 1. Checks; 2. the workspace's buffers.
  Value status = checkLauncherArguments(b, loc, sig, params);
  llvm::SmallVector<Value> bufferPtrs;
  if (sig.hasWorkspace()) {
    Value workspace = entry->getArguments().back();
    auto offsets = func::CallOp::create(b, loc, layout, dimensionIndices(b, loc, sig, params));
    Value isNull =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, workspace, LLVM::ZeroOp::create(b, loc, ptrType));
    Value needed = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, offsets.getResult(0),
                                         arith::ConstantIndexOp::create(b, loc, 0));
    Value checked = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, status, i32(0));
    Value missing = arith::AndIOp::create(b, loc, checked, arith::AndIOp::create(b, loc, isNull, needed));
    status = arith::SelectOp::create(b, loc, missing, i32(int(LaunchStatus::NoWorkspace)), status);
    for (Value offset : offsets.getResults().drop_front()) {
      Value bytes = arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
      bufferPtrs.push_back(LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), workspace, ValueRange{bytes}));
    }
  }
  // 3. The parts, in order.
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, status, i32(0));
  auto run = scf::IfOp::create(b, loc, TypeRange{b.getI32Type()}, ok, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(run.thenBlock());
    scf::YieldOp::create(b, loc, runSteps(b, loc, module, sig, params, bufferPtrs, 0));
    b.setInsertionPointToStart(run.elseBlock());
    scf::YieldOp::create(b, loc, status);
  }
  func::ReturnOp::create(b, loc, run.getResult(0));
  return success();
}
