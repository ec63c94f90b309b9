//===- CUDALauncher.cpp - Driver-API launchers in LLVM IR -----------------===//
//
// Per kernel `k`, with IRBuilder:
// 1. `int k(tensors..., int64_t dims..., scalars..., CUstream stream)`:
//    checks null pointers, alignment and dimensions > 0;
// 2. finds the CUfunction of the current context in a 16-entry cache; on a
//    miss takes a spin lock, loads the embedded fatbin (cuModuleLoadData),
//    gets the function, raises its dynamic shared memory limit to what it
//    needs (always: the static part ptxas adds can push exactly 48 KB of
//    dynamic memory over the default limit), and publishes the entry
//    (release store);
// 3. computes the grid with `__tilec_k_grid`, builds the memref descriptors
//    the kernel takes (pointer, pointer, offset, sizes, strides) and calls
//    cuLaunchKernel on the stream.
//
//===----------------------------------------------------------------------===//
#include "CUDALauncher.h"

#include "llvm/IR/IRBuilder.h"

using namespace tilec;
using llvm::IRBuilder;
using llvm::Value;

namespace {
constexpr int kCacheEntries = 16;
constexpr int kFuncAttrMaxDynamicShared = 8; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

struct Builder {
  llvm::Module &m;
  llvm::LLVMContext &ctx;
  llvm::Type *i8, *i32, *i64, *ptr;
  explicit Builder(llvm::Module &m)
      : m(m), ctx(m.getContext()), i8(llvm::Type::getInt8Ty(ctx)), i32(llvm::Type::getInt32Ty(ctx)),
        i64(llvm::Type::getInt64Ty(ctx)), ptr(llvm::PointerType::get(ctx, 0)) {}
  llvm::FunctionCallee cu(llvm::StringRef name, llvm::ArrayRef<llvm::Type *> args) {
    return m.getOrInsertFunction(name, llvm::FunctionType::get(i32, args, false));
  }
};
} // namespace

/// The C type of a scalar argument as the kernel receives it.
static llvm::Type *scalarType(llvm::LLVMContext &ctx, llvm::StringRef dtype) {
  if (dtype == "float32")
    return llvm::Type::getFloatTy(ctx);
  if (dtype == "float64")
    return llvm::Type::getDoubleTy(ctx);
  // fp16/bf16 scalars arrive as their bits (`uint16_t` in the header): an
  // LLVM half would be passed in a vector register on x86-64, shifting every
  // later integer argument (the stream).
  if (dtype == "float16" || dtype == "bfloat16")
    return llvm::Type::getInt16Ty(ctx);
  if (dtype == "int64")
    return llvm::Type::getInt64Ty(ctx);
  if (dtype == "int16")
    return llvm::Type::getInt16Ty(ctx);
  if (dtype == "int8" || dtype == "uint8" || dtype == "bool" || dtype.starts_with("float8"))
    return llvm::Type::getInt8Ty(ctx);
  return llvm::Type::getInt32Ty(ctx);
}

/// Emits the cached lookup of the kernel's CUfunction for the current
/// context; returns the function (null pointer on failure).
static Value *getFunction(Builder &bd, IRBuilder<> &b, const CUDAKernelInfo &k, llvm::GlobalVariable *fatbin) {
  llvm::LLVMContext &ctx = bd.ctx;
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  auto *entryTy = llvm::StructType::get(ctx, {bd.ptr, bd.ptr});
  auto *cacheTy = llvm::ArrayType::get(entryTy, kCacheEntries);
  std::string base = "__tilec_" + k.signature.name;
  auto *cache = new llvm::GlobalVariable(bd.m, cacheTy, false, llvm::GlobalValue::InternalLinkage,
                                         llvm::Constant::getNullValue(cacheTy), base + "_cache");
  auto *count = new llvm::GlobalVariable(bd.m, bd.i32, false, llvm::GlobalValue::InternalLinkage,
                                         llvm::ConstantInt::get(bd.i32, 0), base + "_count");
  auto *lock = new llvm::GlobalVariable(bd.m, bd.i32, false, llvm::GlobalValue::InternalLinkage,
                                        llvm::ConstantInt::get(bd.i32, 0), base + "_lock");
  auto *name = b.CreateGlobalString(k.signature.name, base + "_name");

  Value *ctxSlot = b.CreateAlloca(bd.ptr);
  Value *modSlot = b.CreateAlloca(bd.ptr);
  Value *fnSlot = b.CreateAlloca(bd.ptr);
  b.CreateStore(llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(bd.ptr)), fnSlot);
  Value *rc = b.CreateCall(bd.cu("cuCtxGetCurrent", {bd.ptr}), {ctxSlot});
  Value *cur = b.CreateLoad(bd.ptr, ctxSlot);
  auto *done = llvm::BasicBlock::Create(ctx, "fn.done", fn);
  auto *search = llvm::BasicBlock::Create(ctx, "fn.search", fn);
  b.CreateCondBr(b.CreateOr(b.CreateICmpNE(rc, b.getInt32(0)), b.CreateIsNull(cur)), done, search);

  // Lock-free search of the published entries; `slow` takes the lock and
  // searches again before loading.
  // Looks the current context up in the cache, starting in `from`: a hit
  // stores the function and branches to `onHit`; the builder is left in the
  // block reached on a miss. Returns the entry count it read.
  auto emitSearch = [&](llvm::BasicBlock *from, llvm::BasicBlock *onHit, llvm::StringRef tag,
                        bool acquire) -> Value * {
    b.SetInsertPoint(from);
    auto *n = b.CreateLoad(bd.i32, count);
    if (acquire) {
      n->setAtomic(llvm::AtomicOrdering::Acquire);
      n->setAlignment(llvm::Align(4));
    }
    for (int i = 0; i < kCacheEntries; ++i) {
      auto *hit = llvm::BasicBlock::Create(ctx, (tag + ".hit").str(), fn);
      auto *next = llvm::BasicBlock::Create(ctx, (tag + ".next").str(), fn);
      Value *ep = b.CreateConstInBoundsGEP2_32(cacheTy, cache, 0, i);
      Value *valid = b.CreateICmpSLT(b.getInt32(i), n);
      auto *ec = b.CreateLoad(bd.ptr, b.CreateStructGEP(entryTy, ep, 0));
      b.CreateCondBr(b.CreateAnd(valid, b.CreateICmpEQ(ec, cur)), hit, next);
      b.SetInsertPoint(hit);
      b.CreateStore(b.CreateLoad(bd.ptr, b.CreateStructGEP(entryTy, ep, 1)), fnSlot);
      b.CreateBr(onHit);
      b.SetInsertPoint(next);
    }
    return n;
  };
  auto *slow = llvm::BasicBlock::Create(ctx, "fn.lock", fn);
  emitSearch(search, done, "fast", /*acquire=*/true);
  b.CreateBr(slow);
  // Spin lock.
  b.SetInsertPoint(slow);
  auto *spin = llvm::BasicBlock::Create(ctx, "fn.spin", fn);
  auto *locked = llvm::BasicBlock::Create(ctx, "fn.locked", fn);
  b.CreateBr(spin);
  b.SetInsertPoint(spin);
  auto *cx = b.CreateAtomicCmpXchg(lock, b.getInt32(0), b.getInt32(1), llvm::MaybeAlign(4),
                                   llvm::AtomicOrdering::Acquire, llvm::AtomicOrdering::Monotonic);
  b.CreateCondBr(b.CreateExtractValue(cx, 1), locked, spin);
  auto *load = llvm::BasicBlock::Create(ctx, "fn.load", fn);
  auto *unlock = llvm::BasicBlock::Create(ctx, "fn.unlock", fn);
  // Search again under the lock (another thread may have loaded it); hits
  // here must release the lock.
  auto *again = llvm::BasicBlock::Create(ctx, "fn.again", fn);
  b.SetInsertPoint(locked);
  b.CreateBr(again);
  Value *entries = emitSearch(again, unlock, "slow", /*acquire=*/false);
  b.CreateCondBr(b.CreateICmpSLT(entries, b.getInt32(kCacheEntries)), load, unlock);
  // Load the module, get the function, set the shared memory limit, publish.
  b.SetInsertPoint(load);
  auto *fail = unlock;
  auto *got = llvm::BasicBlock::Create(ctx, "fn.got", fn);
  Value *lrc = b.CreateCall(bd.cu("cuModuleLoadData", {bd.ptr, bd.ptr}), {modSlot, fatbin});
  auto *loaded = llvm::BasicBlock::Create(ctx, "fn.loaded", fn);
  b.CreateCondBr(b.CreateICmpEQ(lrc, b.getInt32(0)), loaded, fail);
  b.SetInsertPoint(loaded);
  Value *tmpFn = b.CreateAlloca(bd.ptr);
  Value *grc = b.CreateCall(bd.cu("cuModuleGetFunction", {bd.ptr, bd.ptr, bd.ptr}),
                            {tmpFn, b.CreateLoad(bd.ptr, modSlot), name});
  b.CreateCondBr(b.CreateICmpEQ(grc, b.getInt32(0)), got, fail);
  b.SetInsertPoint(got);
  Value *f = b.CreateLoad(bd.ptr, tmpFn);
  if (k.sharedBytes > 0) {
    auto *attrOk = llvm::BasicBlock::Create(ctx, "fn.attr", fn);
    Value *arc = b.CreateCall(bd.cu("cuFuncSetAttribute", {bd.ptr, bd.i32, bd.i32}),
                              {f, b.getInt32(kFuncAttrMaxDynamicShared), b.getInt32(k.sharedBytes)});
    b.CreateCondBr(b.CreateICmpEQ(arc, b.getInt32(0)), attrOk, fail);
    b.SetInsertPoint(attrOk);
  }
  Value *n = b.CreateLoad(bd.i32, count);
  Value *ep = b.CreateInBoundsGEP(cacheTy, cache, {b.getInt32(0), n});
  b.CreateStore(cur, b.CreateStructGEP(entryTy, ep, 0));
  b.CreateStore(f, b.CreateStructGEP(entryTy, ep, 1));
  b.CreateStore(f, fnSlot);
  auto *pub = b.CreateStore(b.CreateAdd(n, b.getInt32(1)), count);
  pub->setAtomic(llvm::AtomicOrdering::Release);
  pub->setAlignment(llvm::Align(4));
  b.CreateBr(unlock);
  b.SetInsertPoint(unlock);
  auto *rel = b.CreateStore(b.getInt32(0), lock);
  rel->setAtomic(llvm::AtomicOrdering::Release);
  rel->setAlignment(llvm::Align(4));
  b.CreateBr(done);
  b.SetInsertPoint(done);
  return b.CreateLoad(bd.ptr, fnSlot);
}

void tilec::buildCUDALaunchers(llvm::Module &module, llvm::ArrayRef<CUDAKernelInfo> kernels, llvm::StringRef fatbin) {
  Builder bd(module);
  llvm::LLVMContext &ctx = bd.ctx;
  auto *blob = llvm::ConstantDataArray::getString(ctx, fatbin, /*AddNull=*/false);
  auto *image = new llvm::GlobalVariable(module, blob->getType(), true, llvm::GlobalValue::InternalLinkage, blob,
                                         "__tilec_fatbin");
  image->setAlignment(llvm::Align(16));
  for (const CUDAKernelInfo &k : kernels) {
    const KernelSignature &sig = k.signature;
    llvm::SmallVector<llvm::Type *> params;
    for (const KernelArg &a : sig.args)
      params.push_back(a.kind == KernelArg::Kind::Tensor       ? bd.ptr
                       : a.kind == KernelArg::Kind::DynamicDim ? bd.i64
                                                               : scalarType(ctx, a.dtype));
    params.push_back(bd.ptr); // CUstream
    auto *fnTy = llvm::FunctionType::get(bd.i32, params, false);
    auto *fn = llvm::Function::Create(fnTy, llvm::GlobalValue::ExternalLinkage, sig.name, module);
    auto *entry = llvm::BasicBlock::Create(ctx, "entry", fn);
    IRBuilder<> b(entry);
    auto ret = [&](Value *cond, int code) {
      auto *bad = llvm::BasicBlock::Create(ctx, "bad", fn);
      auto *ok = llvm::BasicBlock::Create(ctx, "ok", fn);
      b.CreateCondBr(cond, bad, ok);
      b.SetInsertPoint(bad);
      b.CreateRet(b.getInt32(code));
      b.SetInsertPoint(ok);
    };
    // 1. Argument checks.
    llvm::StringMap<Value *> dims;
    for (unsigned i = 0; i < sig.args.size(); ++i)
      if (sig.args[i].kind == KernelArg::Kind::DynamicDim) {
        dims[sig.args[i].name] = fn->getArg(i);
        ret(b.CreateICmpSLE(fn->getArg(i), b.getInt64(0)), (int)LaunchStatus::BadDimension);
      }
    for (unsigned i = 0, t = 0; i < sig.args.size(); ++i) {
      if (sig.args[i].kind != KernelArg::Kind::Tensor)
        continue;
      ret(b.CreateIsNull(fn->getArg(i)), (int)LaunchStatus::NullPointer);
      int64_t align = t < k.alignment.size() ? k.alignment[t] : 1;
      ++t;
      if (align > 1)
        ret(b.CreateICmpNE(b.CreateAnd(b.CreatePtrToInt(fn->getArg(i), bd.i64), b.getInt64(align - 1)),
                           b.getInt64(0)),
            (int)LaunchStatus::Misaligned);
    }
    // 2. The function of this context.
    Value *cuFn = getFunction(bd, b, k, image);
    ret(b.CreateIsNull(cuFn), (int)LaunchStatus::LaunchFailed);
    // 3. Grid, descriptors, launch.
    llvm::SmallVector<Value *> hostArgs;
    for (unsigned i = 0; i < sig.args.size(); ++i)
      if (sig.args[i].kind != KernelArg::Kind::Tensor)
        hostArgs.push_back(fn->getArg(i));
    llvm::Function *gridFn = module.getFunction("__tilec_" + sig.name + "_grid");
    Value *grid[3] = {b.getInt64(1), b.getInt64(1), b.getInt64(1)};
    if (gridFn) {
      gridFn->setLinkage(llvm::GlobalValue::InternalLinkage);
      for (unsigned i = 0; i < hostArgs.size() && i < gridFn->arg_size(); ++i)
        if (hostArgs[i]->getType() != gridFn->getArg(i)->getType())
          hostArgs[i] = b.CreateBitCast(hostArgs[i], gridFn->getArg(i)->getType());
      Value *g = b.CreateCall(gridFn, hostArgs);
      for (unsigned i = 0; i < 3; ++i)
        grid[i] = b.CreateExtractValue(g, {i});
    }
    Value *empty = b.CreateOr(b.CreateOr(b.CreateICmpSLE(grid[0], b.getInt64(0)), b.CreateICmpSLE(grid[1], b.getInt64(0))),
                              b.CreateICmpSLE(grid[2], b.getInt64(0)));
    {
      auto *none = llvm::BasicBlock::Create(ctx, "nowork", fn);
      auto *go = llvm::BasicBlock::Create(ctx, "go", fn);
      b.CreateCondBr(empty, none, go);
      b.SetInsertPoint(none);
      b.CreateRet(b.getInt32(0));
      b.SetInsertPoint(go);
    }
    llvm::SmallVector<Value *> slots;
    auto slot = [&](Value *v) {
      Value *s = b.CreateAlloca(v->getType());
      b.CreateStore(v, s);
      slots.push_back(s);
    };
    for (unsigned i = 0; i < sig.args.size(); ++i) {
      const KernelArg &a = sig.args[i];
      if (a.kind != KernelArg::Kind::Tensor) {
        slot(fn->getArg(i));
        continue;
      }
      slot(fn->getArg(i)); // allocated
      slot(fn->getArg(i)); // aligned
      slot(b.getInt64(0)); // offset
      llvm::SmallVector<Value *> sizes;
      for (const std::string &d : a.shape) {
        int64_t v;
        sizes.push_back(llvm::StringRef(d).getAsInteger(10, v) ? dims.lookup(d) : b.getInt64(v));
      }
      for (Value *s : sizes)
        slot(s ? s : b.getInt64(1));
      llvm::SmallVector<Value *> strides(sizes.size());
      Value *stride = b.getInt64(1);
      for (int d = sizes.size() - 1; d >= 0; --d) {
        strides[d] = stride;
        stride = b.CreateMul(stride, sizes[d] ? sizes[d] : b.getInt64(1));
      }
      for (Value *s : strides)
        slot(s);
    }
    for (Value *map : emitTMADescriptors(b, fn, sig, k.tma))
      slots.push_back(map);
    auto *arrTy = llvm::ArrayType::get(bd.ptr, slots.size());
    Value *paramArray = b.CreateAlloca(arrTy);
    for (unsigned i = 0; i < slots.size(); ++i)
      b.CreateStore(slots[i], b.CreateConstInBoundsGEP2_32(arrTy, paramArray, 0, i));
    llvm::FunctionCallee launch = bd.cu(
        "cuLaunchKernel", {bd.ptr, bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.ptr, bd.ptr, bd.ptr});
    Value *rc = b.CreateCall(launch, {cuFn, b.CreateTrunc(grid[0], bd.i32), b.CreateTrunc(grid[1], bd.i32),
                                      b.CreateTrunc(grid[2], bd.i32), b.getInt32(k.threads[0]),
                                      b.getInt32(k.threads[1]), b.getInt32(k.threads[2]), b.getInt32(k.sharedBytes),
                                      fn->getArg(sig.args.size()), paramArray,
                                      llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(bd.ptr))});
    b.CreateRet(b.CreateSelect(b.CreateICmpEQ(rc, b.getInt32(0)), b.getInt32(0),
                               b.getInt32((int)LaunchStatus::LaunchFailed)));
  }
}
