//===- CUDASequence.cpp - Launchers of kernel functions with several launches -===//
//
// For a launch sequence `k` (tile-outline-launches), with IRBuilder:
//   int k(tensors..., int64_t dims..., scalars..., void *workspace, CUstream stream)
// 1. Dimensions > 0 and non-null tensors, as every launcher checks; then
//    TILEC_ERROR_NO_WORKSPACE for a null workspace whose size is not 0.
// 2. `__tilec_k_workspace` (the lowered layout function) gives each global
//    buffer's byte offset in the workspace.
// 3. The launcher of each part (`k__k<i>`, internal) with the sequence's
//    arguments, pointers into the workspace and the same stream, in order:
//    the stream runs the launches one after another; the first status that
//    is not 0 is returned.
// And `size_t k_workspace_size(int64_t dims...)`.
//
//===----------------------------------------------------------------------===//
#include "CUDALauncher.h"

#include "llvm/IR/IRBuilder.h"

using namespace tilec;
using llvm::IRBuilder;
using llvm::Value;

/// `size_t k_workspace_size(int64_t dims...)`: the layout's first result.
static void buildWorkspaceSize(llvm::Module &m, const KernelSignature &sig, llvm::Function *layout) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::SmallVector<llvm::Type *> params(layout->arg_size(), i64);
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(i64, params, false), llvm::GlobalValue::ExternalLinkage,
                                    sig.name + "_workspace_size", m);
  IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  llvm::SmallVector<Value *> args;
  for (llvm::Argument &a : fn->args())
    args.push_back(&a);
  b.CreateRet(b.CreateExtractValue(b.CreateCall(layout, args), {0}));
}

void tilec::buildCUDASequenceLauncher(llvm::Module &m, const KernelSignature &sig) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx), *i64 = llvm::Type::getInt64Ty(ctx), *i8 = llvm::Type::getInt8Ty(ctx);
  llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
  llvm::SmallVector<llvm::Type *> params;
  for (const KernelArg &a : sig.args)
    params.push_back(a.kind == KernelArg::Kind::Tensor       ? ptr
                     : a.kind == KernelArg::Kind::DynamicDim ? i64
                                                             : cudaScalarType(ctx, a.dtype));
  if (sig.hasWorkspace())
    params.push_back(ptr); // workspace
  params.push_back(ptr);   // CUstream
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(i32, params, false), llvm::GlobalValue::ExternalLinkage,
                                    sig.name, m);
  IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  auto ret = [&](Value *cond, Value *code) {
    auto *bad = llvm::BasicBlock::Create(ctx, "bad", fn);
    auto *ok = llvm::BasicBlock::Create(ctx, "ok", fn);
    b.CreateCondBr(cond, bad, ok);
    b.SetInsertPoint(bad);
    b.CreateRet(code);
    b.SetInsertPoint(ok);
  };
  // 1. Argument checks, in the parts' order (null pointers, dimensions, sizes).
  llvm::SmallVector<Value *> dims;
  for (unsigned i = 0; i < sig.args.size(); ++i)
    if (sig.args[i].kind == KernelArg::Kind::Tensor)
      ret(b.CreateIsNull(fn->getArg(i)), b.getInt32((int)LaunchStatus::NullPointer));
  for (unsigned i = 0; i < sig.args.size(); ++i)
    if (sig.args[i].kind == KernelArg::Kind::DynamicDim) {
      dims.push_back(fn->getArg(i));
      ret(b.CreateICmpSLE(fn->getArg(i), b.getInt64(0)), b.getInt32((int)LaunchStatus::BadDimension));
    }
  for (unsigned i = 0; i < sig.args.size(); ++i)
    if (sig.args[i].kind == KernelArg::Kind::Tensor)
      if (Value *tooLarge = cudaTensorTooLarge(b, sig, i, fn))
        ret(tooLarge, b.getInt32((int)LaunchStatus::BadDimension));
  // 2. The workspace's buffers.
  llvm::SmallVector<Value *> buffers;
  if (sig.hasWorkspace()) {
    llvm::Function *layout = m.getFunction(sig.workspaceFunction);
    layout->setLinkage(llvm::GlobalValue::InternalLinkage);
    buildWorkspaceSize(m, sig, layout);
    Value *workspace = fn->getArg(sig.args.size());
    Value *offsets = b.CreateCall(layout, dims);
    ret(b.CreateAnd(b.CreateIsNull(workspace), b.CreateICmpNE(b.CreateExtractValue(offsets, {0}), b.getInt64(0))),
        b.getInt32((int)LaunchStatus::NoWorkspace));
    for (unsigned j = 0; j < sig.workspaceBuffers; ++j)
      buffers.push_back(b.CreateGEP(i8, workspace, b.CreateExtractValue(offsets, {j + 1})));
  }
  // 3. The parts, in order, on the stream.
  Value *stream = fn->getArg(fn->arg_size() - 1);
  for (const LaunchStep &step : sig.steps) {
    llvm::Function *part = m.getFunction(step.kernel);
    llvm::SmallVector<Value *> args;
    for (int a : step.args)
      args.push_back(a >= 0 ? fn->getArg(a) : buffers[-1 - a]);
    args.push_back(stream);
    Value *rc = b.CreateCall(part, args);
    ret(b.CreateICmpNE(rc, b.getInt32(0)), rc);
  }
  b.CreateRet(b.getInt32(0));
  (void)i32;
}
