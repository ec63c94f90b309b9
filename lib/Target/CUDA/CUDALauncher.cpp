//===- CUDALauncher.cpp - Driver-API launchers in LLVM IR -----------------===//
//
// Per kernel `k`, with IRBuilder:
// 1. `int k(tensors..., int64_t dims..., scalars..., CUstream stream)`:
//    checks null pointers, dimensions (> 0, tensors within kMaxTensorBytes),
//    alignment and every image's grid (within the device's limits, a
//    multiple of the cluster shape), in that order, before any driver call
//    (the host launcher's order: a bad call gets the same code on both);
// 2. finds the CUfunction of the current context in a 16-entry cache; on a
//    miss takes a spin lock, picks the image (objects for several lowerings:
//    `__tilec_image` tests the context's device against imageRules; none
//    fitting returns TILEC_ERROR_NO_IMAGE), loads that fatbin
//    (cuModuleLoadData), gets the function, raises its dynamic shared memory
//    limit to what it needs (always: the static part ptxas adds can push
//    exactly 48 KB of dynamic memory over the default limit), and publishes
//    the entry with its image (release store); a failure after the load
//    unloads the module (cuModuleUnload) and publishes nothing;
// 3. with the chosen image's launch facts and grid, builds the memref descriptors the kernel takes (pointer,
//    pointer, offset, sizes, strides) and its CUtensorMaps, and calls
//    cuLaunchKernel on the stream (cuLaunchKernelEx with the cluster
//    dimension attribute for a kernel of thread-block clusters, whose grid
//    step 1 checked to be a multiple of the cluster).
// The parts of a launch sequence get internal launchers; the sequence's own
// launcher calls them in order (CUDASequence.cpp).
//
//===----------------------------------------------------------------------===//
#include "CUDALauncher.h"
#include "tilec/Target/LaunchLimits.h"

#include "llvm/IR/IRBuilder.h"

using namespace tilec;
using llvm::IRBuilder;
using llvm::Value;

namespace {
constexpr int kCacheEntries = 16;
constexpr int kFuncAttrMaxDynamicShared = 8; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr int kDevAttrCCMajor = 75;           // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kDevAttrCCMinor = 76;           // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
constexpr int kNoImage = -1, kDriverError = -2; // what __tilec_image returns besides an index
constexpr int kLaunchAttrClusterDimension = 4;  // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
constexpr int kDevAttrSMCount = 16;             // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT

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

llvm::Type *tilec::cudaScalarType(llvm::LLVMContext &ctx, llvm::StringRef dtype) {
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
  // 4-bit scalars arrive in a byte (`uint8_t` in the header) and the kernel
  // takes that byte (legalizeNarrowStorage).
  if (dtype == "int8" || dtype == "uint8" || dtype == "bool" || dtype.starts_with("float8") || dtype == "int4" ||
      dtype == "uint4" || dtype == "float4_e2m1fn")
    return llvm::Type::getInt8Ty(ctx);
  return llvm::Type::getInt32Ty(ctx);
}

namespace {
/// The embedded fatbins as the launchers reach them.
struct Images {
  llvm::GlobalVariable *single = nullptr; ///< the fatbin, when there is one
  llvm::GlobalVariable *table = nullptr;  ///< [n x ptr] of the fatbins, when several
  llvm::Function *select = nullptr;       ///< `__tilec_image`, when several
  bool several() const { return table != nullptr; }
};
} // namespace

/// Emits `int __tilec_image(void)`: the index of the image for the current
/// context's device (the first of `rules` that matches its compute
/// capability), kNoImage when none does, kDriverError when the driver fails.
static llvm::Function *emitImageSelection(Builder &bd, llvm::ArrayRef<ImageRule> rules) {
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(bd.i32, false), llvm::GlobalValue::InternalLinkage,
                                    "__tilec_image", bd.m);
  auto *entry = llvm::BasicBlock::Create(bd.ctx, "entry", fn);
  auto *error = llvm::BasicBlock::Create(bd.ctx, "error", fn);
  IRBuilder<> b(entry);
  auto check = [&](Value *rc) {
    auto *ok = llvm::BasicBlock::Create(bd.ctx, "ok", fn);
    b.CreateCondBr(b.CreateICmpNE(rc, b.getInt32(0)), error, ok);
    b.SetInsertPoint(ok);
  };
  Value *devSlot = b.CreateAlloca(bd.i32);
  Value *majorSlot = b.CreateAlloca(bd.i32);
  Value *minorSlot = b.CreateAlloca(bd.i32);
  check(b.CreateCall(bd.cu("cuCtxGetDevice", {bd.ptr}), {devSlot}));
  Value *dev = b.CreateLoad(bd.i32, devSlot);
  llvm::FunctionCallee attr = bd.cu("cuDeviceGetAttribute", {bd.ptr, bd.i32, bd.i32});
  check(b.CreateCall(attr, {majorSlot, b.getInt32(kDevAttrCCMajor), dev}));
  check(b.CreateCall(attr, {minorSlot, b.getInt32(kDevAttrCCMinor), dev}));
  Value *major = b.CreateLoad(bd.i32, majorSlot, "major");
  Value *minor = b.CreateLoad(bd.i32, minorSlot, "minor");
  for (const ImageRule &r : rules) {
    Value *sameMajor = b.CreateICmpEQ(major, b.getInt32(r.major));
    Value *cond = nullptr;
    switch (r.kind) {
    case ImageRule::Kind::SameMajor:
      cond = b.CreateAnd(sameMajor, b.CreateICmpSGE(minor, b.getInt32(r.minor)));
      break;
    case ImageRule::Kind::Exact:
      cond = b.CreateAnd(sameMajor, b.CreateICmpEQ(minor, b.getInt32(r.minor)));
      break;
    case ImageRule::Kind::AtLeast:
      cond = b.CreateOr(b.CreateICmpSGT(major, b.getInt32(r.major)),
                        b.CreateAnd(sameMajor, b.CreateICmpSGE(minor, b.getInt32(r.minor))));
      break;
    }
    auto *hit = llvm::BasicBlock::Create(bd.ctx, "image." + llvm::Twine(r.image), fn);
    auto *next = llvm::BasicBlock::Create(bd.ctx, "next", fn);
    b.CreateCondBr(cond, hit, next);
    b.SetInsertPoint(hit);
    b.CreateRet(b.getInt32(r.image));
    b.SetInsertPoint(next);
  }
  b.CreateRet(b.getInt32(kNoImage));
  b.SetInsertPoint(error);
  b.CreateRet(b.getInt32(kDriverError));
  return fn;
}

/// The globals of a kernel's CUfunction cache: kCacheEntries entries
/// {context, function[, image index]}, the count of published entries and
/// the spin lock that loads take.
struct FunctionCache {
  llvm::StructType *entryTy;
  llvm::ArrayType *cacheTy;
  llvm::GlobalVariable *cache, *count, *lock;
};

/// Whether some image's launch of `k` is persistent (its cache entries then
/// hold the device's multiprocessor count last).
static bool anyPersistent(const CUDAKernelInfo &k) {
  return llvm::any_of(k.launches, [](const CUDAKernelLaunch &l) { return l.persistentBlocksPerSM > 0; });
}

static FunctionCache makeFunctionCache(Builder &bd, const CUDAKernelInfo &k, bool several) {
  FunctionCache fc;
  llvm::SmallVector<llvm::Type *> fields = {bd.ptr, bd.ptr};
  if (several)
    fields.push_back(bd.i32);
  if (anyPersistent(k))
    fields.push_back(bd.i32);
  fc.entryTy = llvm::StructType::get(bd.ctx, fields);
  fc.cacheTy = llvm::ArrayType::get(fc.entryTy, kCacheEntries);
  std::string base = "__tilec_" + k.signature.name;
  fc.cache = new llvm::GlobalVariable(bd.m, fc.cacheTy, false, llvm::GlobalValue::InternalLinkage,
                                      llvm::Constant::getNullValue(fc.cacheTy), base + "_cache");
  fc.count = new llvm::GlobalVariable(bd.m, bd.i32, false, llvm::GlobalValue::InternalLinkage,
                                      llvm::ConstantInt::get(bd.i32, 0), base + "_count");
  fc.lock = new llvm::GlobalVariable(bd.m, bd.i32, false, llvm::GlobalValue::InternalLinkage,
                                     llvm::ConstantInt::get(bd.i32, 0), base + "_lock");
  return fc;
}

/// The dynamic shared memory the kernel of image `chosen` needs (a select
/// over the images); `any`: whether some image needs any.
static Value *sharedBytesOf(IRBuilder<> &b, const CUDAKernelInfo &k, Value *chosen, bool &any) {
  Value *sharedBytes = b.getInt32(k.launches.front().sharedBytes);
  any = k.launches.front().sharedBytes > 0;
  for (unsigned i = 1; i < k.launches.size(); ++i) {
    sharedBytes =
        b.CreateSelect(b.CreateICmpEQ(chosen, b.getInt32(i)), b.getInt32(k.launches[i].sharedBytes), sharedBytes);
    any |= k.launches[i].sharedBytes > 0;
  }
  return sharedBytes;
}

/// A persistent launch sizes its grid by the multiprocessors of the
/// context's device: reads their count into `smSlot` (through `devSlot`),
/// branching to `fail` when the driver fails.
static void emitReadSMCount(Builder &bd, IRBuilder<> &b, Value *smSlot, Value *devSlot, llvm::BasicBlock *fail) {
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  auto *dev = llvm::BasicBlock::Create(bd.ctx, "fn.dev", fn);
  auto *sms = llvm::BasicBlock::Create(bd.ctx, "fn.sms", fn);
  b.CreateCondBr(b.CreateICmpEQ(b.CreateCall(bd.cu("cuCtxGetDevice", {bd.ptr}), {devSlot}), b.getInt32(0)), dev,
                 fail);
  b.SetInsertPoint(dev);
  Value *rc = b.CreateCall(bd.cu("cuDeviceGetAttribute", {bd.ptr, bd.i32, bd.i32}),
                           {smSlot, b.getInt32(kDevAttrSMCount), b.CreateLoad(bd.i32, devSlot)});
  b.CreateCondBr(b.CreateICmpEQ(rc, b.getInt32(0)), sms, fail);
  b.SetInsertPoint(sms);
}

/// Emits the cached lookup of the kernel's CUfunction for the current
/// context; returns the function (null pointer on failure). With several
/// images, `image` receives the index of the image the function comes from
/// (kNoImage or kDriverError beside a null function).
static Value *getFunction(Builder &bd, IRBuilder<> &b, const CUDAKernelInfo &k, const Images &images,
                          Value *&image, Value *&smCount) {
  llvm::LLVMContext &ctx = bd.ctx;
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  bool several = images.several();
  FunctionCache fc = makeFunctionCache(bd, k, several);
  llvm::StructType *entryTy = fc.entryTy;
  llvm::ArrayType *cacheTy = fc.cacheTy;
  llvm::GlobalVariable *cache = fc.cache, *count = fc.count, *lock = fc.lock;
  auto *name = b.CreateGlobalString(k.signature.name, "__tilec_" + k.signature.name + "_name");

  Value *ctxSlot = b.CreateAlloca(bd.ptr);
  Value *modSlot = b.CreateAlloca(bd.ptr);
  Value *fnSlot = b.CreateAlloca(bd.ptr);
  b.CreateStore(llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(bd.ptr)), fnSlot);
  Value *imageSlot = nullptr;
  if (several) {
    imageSlot = b.CreateAlloca(bd.i32);
    b.CreateStore(b.getInt32(kDriverError), imageSlot);
  }
  bool persistent = anyPersistent(k);
  unsigned smField = several ? 3 : 2; // read only beside a function found or loaded
  Value *smSlot = persistent ? b.CreateAlloca(bd.i32) : nullptr;
  Value *devSlot = persistent ? b.CreateAlloca(bd.i32) : nullptr;
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
      if (several)
        b.CreateStore(b.CreateLoad(bd.i32, b.CreateStructGEP(entryTy, ep, 2)), imageSlot);
      if (persistent)
        b.CreateStore(b.CreateLoad(bd.i32, b.CreateStructGEP(entryTy, ep, smField)), smSlot);
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
  // Pick the image, load the module, get the function, set the shared
  // memory limit, publish.
  b.SetInsertPoint(load);
  auto *fail = unlock;
  auto *got = llvm::BasicBlock::Create(ctx, "fn.got", fn);
  Value *fatbin = images.single;
  Value *chosen = nullptr;
  if (several) {
    chosen = b.CreateCall(images.select, {}, "image");
    b.CreateStore(chosen, imageSlot);
    auto *fits = llvm::BasicBlock::Create(ctx, "fn.fits", fn);
    b.CreateCondBr(b.CreateICmpSLT(chosen, b.getInt32(0)), fail, fits);
    b.SetInsertPoint(fits);
    fatbin = b.CreateLoad(bd.ptr, b.CreateInBoundsGEP(images.table->getValueType(), images.table,
                                                      {b.getInt32(0), chosen}));
  }
  Value *lrc = b.CreateCall(bd.cu("cuModuleLoadData", {bd.ptr, bd.ptr}), {modSlot, fatbin});
  auto *loaded = llvm::BasicBlock::Create(ctx, "fn.loaded", fn);
  b.CreateCondBr(b.CreateICmpEQ(lrc, b.getInt32(0)), loaded, fail);
  // Past the load, a failure unloads the module again (nothing would ever
  // reach it, and every later call would load another copy).
  auto *unload = llvm::BasicBlock::Create(ctx, "fn.unload", fn);
  b.SetInsertPoint(unload);
  b.CreateCall(bd.cu("cuModuleUnload", {bd.ptr}), {b.CreateLoad(bd.ptr, modSlot)});
  b.CreateBr(unlock);
  fail = unload;
  b.SetInsertPoint(loaded);
  Value *tmpFn = b.CreateAlloca(bd.ptr);
  Value *grc = b.CreateCall(bd.cu("cuModuleGetFunction", {bd.ptr, bd.ptr, bd.ptr}),
                            {tmpFn, b.CreateLoad(bd.ptr, modSlot), name});
  b.CreateCondBr(b.CreateICmpEQ(grc, b.getInt32(0)), got, fail);
  b.SetInsertPoint(got);
  Value *f = b.CreateLoad(bd.ptr, tmpFn);
  bool anyShared = false;
  Value *sharedBytes = sharedBytesOf(b, k, chosen, anyShared);
  if (anyShared) {
    auto *attrOk = llvm::BasicBlock::Create(ctx, "fn.attr", fn);
    Value *arc = b.CreateCall(bd.cu("cuFuncSetAttribute", {bd.ptr, bd.i32, bd.i32}),
                              {f, b.getInt32(kFuncAttrMaxDynamicShared), sharedBytes});
    b.CreateCondBr(b.CreateICmpEQ(arc, b.getInt32(0)), attrOk, fail);
    b.SetInsertPoint(attrOk);
  }
  if (persistent)
    emitReadSMCount(bd, b, smSlot, devSlot, fail);
  Value *n = b.CreateLoad(bd.i32, count);
  Value *ep = b.CreateInBoundsGEP(cacheTy, cache, {b.getInt32(0), n});
  b.CreateStore(cur, b.CreateStructGEP(entryTy, ep, 0));
  b.CreateStore(f, b.CreateStructGEP(entryTy, ep, 1));
  if (several)
    b.CreateStore(chosen, b.CreateStructGEP(entryTy, ep, 2));
  if (persistent)
    b.CreateStore(b.CreateLoad(bd.i32, smSlot), b.CreateStructGEP(entryTy, ep, smField));
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
  Value *result = b.CreateLoad(bd.ptr, fnSlot);
  image = several ? b.CreateLoad(bd.i32, imageSlot) : nullptr;
  smCount = persistent ? b.CreateLoad(bd.i32, smSlot) : nullptr;
  return result;
}

Value *tilec::cudaDimValue(IRBuilder<> &b, llvm::Function *fn, const DimExpr &e) {
  IRDimBuilder db{b, fn, b.getInt64Ty()};
  return buildDimExpr<IRDimBuilder, Value *>(e, db);
}

Value *tilec::cudaTensorTooLarge(IRBuilder<> &b, const KernelSignature &sig, unsigned i, llvm::Function *fn) {
  TensorSizeTerms t = tensorSizeTerms(sig, i);
  if (t.staticTooBig)
    return b.getTrue();
  if (t.dims.empty())
    return nullptr;
  // In i128, each dimension clamped to just over the limit: nothing wraps.
  // A derived dimension <= 0, or computed through a value over the limit, is
  // bad as well.
  llvm::Type *i128 = b.getInt128Ty();
  Value *cap = llvm::ConstantInt::get(i128, kMaxTensorBytes + 1);
  Value *bytes = llvm::ConstantInt::get(i128, t.staticBytes);
  Value *bad = nullptr;
  IRDimBuilder db{b, fn, i128, kMaxTensorBytes + 1};
  for (const DimExpr *e : t.dims) {
    Value *d;
    if (e->isArg()) {
      d = db.arg(e->arg);
    } else {
      Value *over = b.getFalse();
      d = buildCheckedDimExpr<IRDimBuilder, Value *>(*e, db, over, int64_t(kMaxTensorBytes));
      if (!e->isConstant())
        over = b.CreateOr(over, b.CreateICmpSLE(d, llvm::ConstantInt::get(i128, 0)));
      bad = bad ? b.CreateOr(bad, over) : over;
    }
    bytes = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateMul(bytes, d), cap);
  }
  Value *tooLarge = b.CreateICmpUGT(bytes, llvm::ConstantInt::get(i128, kMaxTensorBytes));
  return bad ? b.CreateOr(bad, tooLarge) : tooLarge;
}

/// The grid of one image's `launch`, from its grid function.
struct Grid {
  Value *extent[3];
};

static Grid emitGrid(Builder &bd, IRBuilder<> &b, llvm::Function *fn, const KernelSignature &sig,
                     const CUDAKernelLaunch &launch) {
  llvm::SmallVector<Value *> hostArgs;
  for (unsigned i = 0; i < sig.args.size(); ++i)
    if (sig.args[i].kind != KernelArg::Kind::Tensor)
      hostArgs.push_back(fn->getArg(i));
  llvm::Function *gridFn = bd.m.getFunction(launch.gridFunction);
  Grid grid{{b.getInt64(1), b.getInt64(1), b.getInt64(1)}};
  if (gridFn) {
    gridFn->setLinkage(llvm::GlobalValue::InternalLinkage);
    for (unsigned i = 0; i < hostArgs.size() && i < gridFn->arg_size(); ++i)
      if (hostArgs[i]->getType() != gridFn->getArg(i)->getType())
        hostArgs[i] = b.CreateBitCast(hostArgs[i], gridFn->getArg(i)->getType());
    Value *g = b.CreateCall(gridFn, hostArgs);
    for (unsigned i = 0; i < 3; ++i)
      grid.extent[i] = b.CreateExtractValue(g, {i});
  }
  return grid;
}

/// A grid the device cannot launch (x < 2^31, y and z < 2^16; dynamic
/// dimensions that large): a bad dimension, not a truncated launch.
static Value *gridTooBig(IRBuilder<> &b, const Grid &g) {
  return b.CreateOr(b.CreateOr(b.CreateICmpSGT(g.extent[0], b.getInt64(2147483647)),
                               b.CreateICmpSGT(g.extent[1], b.getInt64(65535))),
                    b.CreateICmpSGT(g.extent[2], b.getInt64(65535)));
}

/// A grid that is not a multiple of the cluster shape (the driver would
/// refuse it): a bad dimension, before any driver call.
static Value *gridNotClustered(IRBuilder<> &b, const Grid &g, const CUDAKernelLaunch &launch) {
  Value *bad = b.getFalse();
  for (unsigned d = 0; d < 3; ++d)
    if (launch.cluster[d] > 1)
      bad = b.CreateOr(
          bad, b.CreateAnd(b.CreateICmpSGT(g.extent[d], b.getInt64(0)),
                           b.CreateICmpNE(b.CreateSRem(g.extent[d], b.getInt64(launch.cluster[d])), b.getInt64(0))));
  return bad;
}

/// cuLaunchKernelEx of `cuFn` over `grid` with one launch attribute, the
/// cluster dimension: a CUlaunchConfig {grid, block, shared bytes, stream,
/// attributes, count} and a CUlaunchAttribute {id, pad, 64-byte value}
/// (cuda.h, x86-64 and aarch64 layouts). Returns the driver's status.
static Value *emitClusterLaunch(Builder &bd, IRBuilder<> &b, Value *stream, const CUDAKernelLaunch &launch,
                                Value *const *grid, Value *cuFn, Value *params) {
  auto *attrTy =
      llvm::StructType::get(bd.ctx, {bd.i32, llvm::ArrayType::get(bd.i8, 4), llvm::ArrayType::get(bd.i32, 16)});
  auto *configTy =
      llvm::StructType::get(bd.ctx, {bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.ptr, bd.ptr, bd.i32});
  auto *attr = b.CreateAlloca(attrTy);
  attr->setAlignment(llvm::Align(8));
  b.CreateStore(llvm::Constant::getNullValue(attrTy), attr);
  b.CreateStore(b.getInt32(kLaunchAttrClusterDimension), b.CreateStructGEP(attrTy, attr, 0));
  for (unsigned d = 0; d < 3; ++d)
    b.CreateStore(b.getInt32(launch.cluster[d]),
                  b.CreateConstInBoundsGEP2_32(attrTy->getElementType(2), b.CreateStructGEP(attrTy, attr, 2), 0, d));
  auto *config = b.CreateAlloca(configTy);
  config->setAlignment(llvm::Align(8));
  Value *fields[] = {b.CreateTrunc(grid[0], bd.i32),
                     b.CreateTrunc(grid[1], bd.i32),
                     b.CreateTrunc(grid[2], bd.i32),
                     b.getInt32(launch.threads[0]),
                     b.getInt32(launch.threads[1]),
                     b.getInt32(launch.threads[2]),
                     b.getInt32(launch.sharedBytes),
                     stream,
                     attr,
                     b.getInt32(1)};
  for (unsigned i = 0; i < std::size(fields); ++i)
    b.CreateStore(fields[i], b.CreateStructGEP(configTy, config, i));
  llvm::FunctionCallee launchEx = bd.cu("cuLaunchKernelEx", {bd.ptr, bd.ptr, bd.ptr, bd.ptr});
  return b.CreateCall(launchEx,
                      {config, cuFn, params, llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(bd.ptr))});
}

/// Emits, at `b`'s insertion point, the kernel parameters and cuLaunchKernel
/// of one image's `launch` over its `grid` (checked before), then returns.
static void emitLaunch(Builder &bd, IRBuilder<> &b, llvm::Function *fn, const KernelSignature &sig,
                       const CUDAKernelLaunch &launch, Grid g, Value *cuFn, Value *smCount) {
  llvm::LLVMContext &ctx = bd.ctx;
  if (launch.persistentBlocksPerSM > 0 && smCount) {
    // Persistent: one wave of blocks at most over the gx x gy tiles.
    Value *tiles = b.CreateMul(g.extent[0], g.extent[1]);
    Value *wave = b.CreateMul(b.CreateZExt(smCount, bd.i64), b.getInt64(launch.persistentBlocksPerSM));
    g.extent[0] = b.CreateSelect(b.CreateICmpSLT(wave, tiles), wave, tiles);
    g.extent[1] = b.getInt64(1);
  }
  Value *const *grid = g.extent;
  Value *empty =
      b.CreateOr(b.CreateOr(b.CreateICmpSLE(grid[0], b.getInt64(0)), b.CreateICmpSLE(grid[1], b.getInt64(0))),
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
    for (const DimExprRef &d : a.dims)
      sizes.push_back(d ? cudaDimValue(b, fn, *d) : nullptr);
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
  for (Value *map : emitTMADescriptors(b, fn, sig, launch.tma))
    slots.push_back(map);
  auto *arrTy = llvm::ArrayType::get(bd.ptr, slots.size());
  Value *paramArray = b.CreateAlloca(arrTy);
  for (unsigned i = 0; i < slots.size(); ++i)
    b.CreateStore(slots[i], b.CreateConstInBoundsGEP2_32(arrTy, paramArray, 0, i));
  if (launch.hasCluster()) {
    Value *rc = emitClusterLaunch(bd, b, fn->getArg(sig.args.size()), launch, grid, cuFn, paramArray);
    b.CreateRet(
        b.CreateSelect(b.CreateICmpEQ(rc, b.getInt32(0)), b.getInt32(0), b.getInt32((int)LaunchStatus::LaunchFailed)));
    return;
  }
  llvm::FunctionCallee launchKernel = bd.cu(
      "cuLaunchKernel", {bd.ptr, bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.i32, bd.ptr, bd.ptr, bd.ptr});
  Value *rc = b.CreateCall(launchKernel,
                           {cuFn, b.CreateTrunc(grid[0], bd.i32), b.CreateTrunc(grid[1], bd.i32),
                            b.CreateTrunc(grid[2], bd.i32), b.getInt32(launch.threads[0]),
                            b.getInt32(launch.threads[1]), b.getInt32(launch.threads[2]),
                            b.getInt32(launch.sharedBytes), fn->getArg(sig.args.size()), paramArray,
                            llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(bd.ptr))});
  b.CreateRet(b.CreateSelect(b.CreateICmpEQ(rc, b.getInt32(0)), b.getInt32(0),
                             b.getInt32((int)LaunchStatus::LaunchFailed)));
}

void tilec::buildCUDALaunchers(llvm::Module &module, llvm::ArrayRef<CUDAKernelInfo> kernels,
                               llvm::ArrayRef<CUDAImage> images) {
  Builder bd(module);
  llvm::LLVMContext &ctx = bd.ctx;
  Images reach;
  llvm::SmallVector<llvm::Constant *> fatbins;
  for (unsigned i = 0; i < images.size(); ++i) {
    auto *blob = llvm::ConstantDataArray::getString(ctx, images[i].fatbin, /*AddNull=*/false);
    auto *image = new llvm::GlobalVariable(module, blob->getType(), true, llvm::GlobalValue::InternalLinkage, blob,
                                           images.size() == 1 ? "__tilec_fatbin" : "__tilec_fatbin_" + llvm::Twine(i));
    image->setAlignment(llvm::Align(16));
    fatbins.push_back(image);
  }
  if (images.size() == 1) {
    reach.single = llvm::cast<llvm::GlobalVariable>(fatbins.front());
  } else {
    auto *tableTy = llvm::ArrayType::get(bd.ptr, fatbins.size());
    reach.table = new llvm::GlobalVariable(module, tableTy, true, llvm::GlobalValue::InternalLinkage,
                                           llvm::ConstantArray::get(tableTy, fatbins), "__tilec_images");
    std::vector<CUDAImageArchs> archs;
    for (const CUDAImage &im : images)
      archs.push_back(im.archs);
    reach.select = emitImageSelection(bd, imageRules(archs));
  }
  for (const CUDAKernelInfo &k : kernels) {
    const KernelSignature &sig = k.signature;
    if (sig.isSequence())
      continue; // below, once the launchers of its parts exist
    llvm::SmallVector<llvm::Type *> params;
    for (const KernelArg &a : sig.args)
      params.push_back(a.kind == KernelArg::Kind::Tensor       ? bd.ptr
                       : a.kind == KernelArg::Kind::DynamicDim ? bd.i64
                                                               : cudaScalarType(ctx, a.dtype));
    params.push_back(bd.ptr); // CUstream
    auto *fnTy = llvm::FunctionType::get(bd.i32, params, false);
    // The parts of a launch sequence are internal: its launcher calls them.
    auto *fn = llvm::Function::Create(
        fnTy, sig.exported ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage, sig.name, module);
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
    // 1. Argument checks, in the host launcher's order (LaunchLimits.h):
    // null pointers, dimensions (<= 0, tensors over the limit), alignment,
    // then every image's grid -- all before the first driver call.
    for (unsigned i = 0; i < sig.args.size(); ++i)
      if (sig.args[i].kind == KernelArg::Kind::Tensor)
        ret(b.CreateIsNull(fn->getArg(i)), (int)LaunchStatus::NullPointer);
    for (unsigned i = 0; i < sig.args.size(); ++i)
      if (sig.args[i].kind == KernelArg::Kind::DynamicDim) {
        ret(b.CreateICmpSLE(fn->getArg(i), b.getInt64(0)), (int)LaunchStatus::BadDimension);
      }
    for (unsigned i = 0; i < sig.args.size(); ++i)
      if (sig.args[i].kind == KernelArg::Kind::Tensor)
        if (Value *tooLarge = cudaTensorTooLarge(b, sig, i, fn))
          ret(tooLarge, (int)LaunchStatus::BadDimension);
    for (unsigned i = 0, t = 0; i < sig.args.size(); ++i) {
      if (sig.args[i].kind != KernelArg::Kind::Tensor)
        continue;
      int64_t align = t < k.alignment.size() ? k.alignment[t] : 1;
      ++t;
      if (align > 1)
        ret(b.CreateICmpNE(b.CreateAnd(b.CreatePtrToInt(fn->getArg(i), bd.i64), b.getInt64(align - 1)),
                           b.getInt64(0)),
            (int)LaunchStatus::Misaligned);
    }
    llvm::SmallVector<Grid> grids;
    for (const CUDAKernelLaunch &launch : k.launches) {
      grids.push_back(emitGrid(bd, b, fn, sig, launch));
      ret(gridTooBig(b, grids.back()), (int)LaunchStatus::BadDimension);
      if (launch.hasCluster())
        ret(gridNotClustered(b, grids.back(), launch), (int)LaunchStatus::BadDimension);
    }
    // 2. The function of this context (and its image).
    Value *image = nullptr, *smCount = nullptr;
    Value *cuFn = getFunction(bd, b, k, reach, image, smCount);
    if (!image) {
      ret(b.CreateIsNull(cuFn), (int)LaunchStatus::LaunchFailed);
    } else {
      auto *bad = llvm::BasicBlock::Create(ctx, "bad", fn);
      auto *ok = llvm::BasicBlock::Create(ctx, "ok", fn);
      b.CreateCondBr(b.CreateIsNull(cuFn), bad, ok);
      b.SetInsertPoint(bad);
      b.CreateRet(b.CreateSelect(b.CreateICmpEQ(image, b.getInt32(kNoImage)), b.getInt32((int)LaunchStatus::NoImage),
                                 b.getInt32((int)LaunchStatus::LaunchFailed)));
      b.SetInsertPoint(ok);
    }
    // 3. Per image: grid, descriptors, launch.
    llvm::SmallVector<llvm::BasicBlock *> perImage;
    if (image) {
      for (unsigned i = 0; i < k.launches.size(); ++i)
        perImage.push_back(llvm::BasicBlock::Create(ctx, "image." + llvm::Twine(i), fn));
      auto *sw = b.CreateSwitch(image, perImage.front(), k.launches.size() - 1);
      for (unsigned i = 1; i < k.launches.size(); ++i)
        sw->addCase(b.getInt32(i), perImage[i]);
    }
    for (unsigned li = 0; li < k.launches.size(); ++li) {
      if (image)
        b.SetInsertPoint(perImage[li]);
      emitLaunch(bd, b, fn, sig, k.launches[li], grids[li], cuFn, smCount);
    }
  }
  for (const CUDAKernelInfo &k : kernels)
    if (k.signature.isSequence())
      buildCUDASequenceLauncher(module, k.signature);
}
