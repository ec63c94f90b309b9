//===- GPUToVulkan.cpp - Thread-level gpu IR to Vulkan SPIR-V -------------===//
//
// Per gpu.func kernel:
// 1. Reflection: parameters from the kernel's signature, bindings for the
//    tensors, push-constant fields for dimensions and scalars, the grid as a
//    program and C expressions from `__tilec_<k>_grid`.
// 2. Limits: workgroup size and invocations, shared memory, fp16/int8/fp64,
//    the atomics the device has (int32 add, float32 add).
// 3. ABI rewrite on a copy of the gpu.module: multi-dimensional tensors
//    become flat buffers indexed with their runtime strides, scalars load
//    from one push-constant memref, entry-point and interface ABI attributes,
//    the #spirv.target_env.
// 4. gpu/scf/arith/math/memref/vector/index -> spirv (the patterns of
//    convert-gpu-to-spirv plus math and vector), spirv-lower-abi-attrs,
//    spirv-update-vce; drop the
//    binding decorations from the push-constant variable; serialize; spirv-val.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "ConvertToSPIRV.h"
#include "VulkanLimits.h"
#include "VulkanPrints.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::vulkan;

//===----------------------------------------------------------------------===//
// Reflection
//===----------------------------------------------------------------------===//

static uint32_t dtypeBits(llvm::StringRef dtype) {
  return llvm::StringSwitch<uint32_t>(dtype)
      .Cases({"float16", "bfloat16", "int16", "uint16"}, 16)
      .Cases({"float32", "int32", "uint32"}, 32)
      .Cases({"float64", "int64", "uint64"}, 64)
      .Cases({"int4", "uint4"}, 4)
      .Default(8);
}

namespace {
/// Translates the grid function's returned values into grid programs and C.
class GridTranslator {
public:
  GridTranslator(func::FuncOp fn, llvm::ArrayRef<unsigned> argToParam, const KernelSignature &sig)
      : fn(fn), argToParam(argToParam), sig(sig) {}

  LogicalResult translate(Value v, std::vector<vk::GridInst> &program, std::string &c) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner()->getParentOp() != fn.getOperation() || arg.getArgNumber() >= argToParam.size())
        return fn.emitError("the grid uses a value that is not a kernel parameter");
      unsigned param = argToParam[arg.getArgNumber()];
      program.push_back({vk::GridOp::Param, static_cast<int64_t>(param)});
      c = "(int64_t)" + sig.args[param].name;
      return success();
    }
    Operation *op = v.getDefiningOp();
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      if (auto i = dyn_cast<IntegerAttr>(cst.getValue())) {
        program.push_back({vk::GridOp::Const, i.getInt()});
        c = "INT64_C(" + std::to_string(i.getInt()) + ")";
        return success();
      }
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op))
      return translate(op->getOperand(0), program, c);
    std::optional<vk::GridOp> code;
    const char *fmt = nullptr;
    if (isa<arith::AddIOp>(op))
      code = vk::GridOp::Add, fmt = "(%0 + %1)";
    else if (isa<arith::SubIOp>(op))
      code = vk::GridOp::Sub, fmt = "(%0 - %1)";
    else if (isa<arith::MulIOp>(op))
      code = vk::GridOp::Mul, fmt = "(%0 * %1)";
    else if (isa<arith::FloorDivSIOp>(op))
      code = vk::GridOp::FloorDiv, fmt = "tilec_vk_floordiv(%0, %1)";
    else if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(op))
      code = vk::GridOp::CeilDiv, fmt = "tilec_vk_ceildiv(%0, %1)";
    else if (isa<arith::DivSIOp, arith::DivUIOp>(op))
      code = vk::GridOp::TruncDiv, fmt = "(%0 / %1)";
    else if (isa<arith::RemSIOp, arith::RemUIOp>(op))
      code = vk::GridOp::TruncRem, fmt = "(%0 % %1)";
    else if (isa<arith::MinSIOp, arith::MinUIOp>(op))
      code = vk::GridOp::Min, fmt = "tilec_vk_min(%0, %1)";
    else if (isa<arith::MaxSIOp, arith::MaxUIOp>(op))
      code = vk::GridOp::Max, fmt = "tilec_vk_max(%0, %1)";
    if (!code)
      return op->emitError() << "the grid uses '" << op->getName()
                             << "', which the Vulkan reflection cannot express";
    std::string lhs, rhs;
    if (failed(translate(op->getOperand(0), program, lhs)) || failed(translate(op->getOperand(1), program, rhs)))
      return failure();
    program.push_back({*code, 0});
    std::string s = fmt;
    s.replace(s.find("%0"), 2, lhs);
    s.replace(s.find("%1"), 2, rhs);
    c = s;
    return success();
  }

private:
  func::FuncOp fn;
  llvm::ArrayRef<unsigned> argToParam;
  const KernelSignature &sig;
};
} // namespace

/// Builds the reflection of `kernel` (whose arguments follow `sig`).
static LogicalResult buildReflection(gpu::GPUFuncOp kernel, ModuleOp module, const KernelSignature &sig,
                                     VulkanKernel &out) {
  vk::Reflection &r = out.reflection;
  r.kernelName = sig.name;
  r.entryPoint = kernel.getName().str();
  if (sig.args.size() != kernel.getNumArguments())
    return kernel.emitError() << "kernel has " << kernel.getNumArguments() << " arguments but its signature "
                              << sig.args.size();
  llvm::StringMap<unsigned> dimParam;
  for (auto [i, a] : llvm::enumerate(sig.args))
    if (a.kind == KernelArg::Kind::DynamicDim)
      dimParam[a.name] = i;
  std::vector<unsigned> nonTensorParams;
  uint32_t pushBytes = 0;
  for (auto [i, a] : llvm::enumerate(sig.args)) {
    vk::Param p;
    p.name = a.name;
    p.dtype = a.dtype;
    p.elementBits = dtypeBits(a.dtype);
    switch (a.kind) {
    case KernelArg::Kind::Tensor:
      p.kind = vk::ParamKind::Tensor;
      for (const std::string &d : a.shape) {
        vk::Dim dim;
        int64_t value;
        if (!llvm::StringRef(d).getAsInteger(10, value)) {
          dim.value = value;
        } else if (dimParam.count(d)) {
          dim.param = dimParam[d];
        } else {
          return kernel.emitError() << "tensor '" << a.name << "' has dimension '" << d
                                    << "', which is neither a constant nor a dynamic dimension";
        }
        p.shape.push_back(dim);
      }
      p.slot = static_cast<uint32_t>(r.bindings.size());
      r.bindings.push_back({0, p.slot, static_cast<uint32_t>(i), a.readOnly});
      break;
    case KernelArg::Kind::DynamicDim:
    case KernelArg::Kind::Scalar: {
      p.kind = a.kind == KernelArg::Kind::DynamicDim ? vk::ParamKind::DynamicDim : vk::ParamKind::Scalar;
      Type t = kernel.getArgumentTypes()[i];
      vk::FieldType type = vk::FieldType::Int32;
      if (t.isF64()) {
        type = vk::FieldType::Float64;
        pushBytes = llvm::alignTo(pushBytes, 8);
      } else if (isa<FloatType>(t)) {
        type = vk::FieldType::Float32;
      } else if (t.isInteger(64) && a.kind == KernelArg::Kind::Scalar) {
        type = vk::FieldType::Int64; // two words, 8-byte aligned like the C struct's int64_t
        pushBytes = llvm::alignTo(pushBytes, 8);
      }
      p.slot = static_cast<uint32_t>(r.pushFields.size());
      r.pushFields.push_back({static_cast<uint32_t>(i), pushBytes, type});
      pushBytes += vk::fieldSize(type);
      nonTensorParams.push_back(i);
      break;
    }
    }
    r.params.push_back(std::move(p));
  }
  bool wide = llvm::any_of(r.pushFields, [](const vk::PushField &f) { return vk::fieldSize(f.type) == 8; });
  r.pushConstantSize = static_cast<uint32_t>(llvm::alignTo(pushBytes, wide ? 8 : 4));

  // Workgroup size.
  std::array<int64_t, 3> block{1, 1, 1};
  if (DenseI64ArrayAttr threads = tile::getThreads(kernel)) {
    for (auto [d, t] : llvm::enumerate(threads.asArrayRef()))
      if (d < 3)
        block[d] = t;
  } else if (auto known = kernel.getKnownBlockSizeAttr()) {
    for (auto [d, t] : llvm::enumerate(known.asArrayRef()))
      if (d < 3)
        block[d] = t;
  } else {
    return kernel.emitError("kernel has no block size ('tile.threads' or 'known_block_size')");
  }
  for (size_t d = 0; d < 3; ++d)
    r.workgroupSize[d] = static_cast<uint32_t>(block[d]);

  // The grid, from the host grid function (absent: one workgroup).
  auto gridFn = module.lookupSymbol<func::FuncOp>(("__tilec_" + sig.name + "_grid"));
  if (!gridFn) {
    for (size_t d = 0; d < 3; ++d) {
      r.grid[d] = {{vk::GridOp::Const, 1}};
      out.gridC[d] = "INT64_C(1)";
    }
    return success();
  }
  if (gridFn.getNumArguments() != nonTensorParams.size())
    return gridFn.emitError() << "grid function takes " << gridFn.getNumArguments() << " arguments; the kernel has "
                              << nonTensorParams.size() << " dimensions and scalars";
  auto ret = dyn_cast<func::ReturnOp>(gridFn.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() != 3)
    return gridFn.emitError("grid function must return three values");
  GridTranslator translator(gridFn, nonTensorParams, sig);
  for (size_t d = 0; d < 3; ++d)
    if (failed(translator.translate(ret.getOperand(d), r.grid[d], out.gridC[d])))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ABI rewrite
//===----------------------------------------------------------------------===//

/// The push-constant memref type holding `n` 32-bit words.
static MemRefType pushConstantType(MLIRContext *ctx, int64_t n) {
  return MemRefType::get({n}, IntegerType::get(ctx, 32), AffineMap(),
                         spirv::StorageClassAttr::get(ctx, spirv::StorageClass::PushConstant));
}

/// Loads the push-constant field at word `slot` (two words, low first, when
/// `wide`) and converts it to `type`.
static Value loadPushConstant(OpBuilder &b, Location loc, Value push, unsigned slot, Type type, bool wide) {
  Value idx = arith::ConstantIndexOp::create(b, loc, slot);
  Value word = memref::LoadOp::create(b, loc, push, ValueRange{idx});
  if (wide) {
    Value hiIdx = arith::ConstantIndexOp::create(b, loc, slot + 1);
    Value hi = memref::LoadOp::create(b, loc, push, ValueRange{hiIdx});
    Type i64 = b.getI64Type();
    Value lo64 = arith::ExtUIOp::create(b, loc, i64, word);
    Value hi64 = arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, hi),
                                       arith::ConstantIntOp::create(b, loc, 32, 64));
    Value v = arith::OrIOp::create(b, loc, lo64, hi64);
    if (type.isIndex())
      return arith::IndexCastOp::create(b, loc, type, v);
    if (type.isF64())
      return arith::BitcastOp::create(b, loc, type, v);
    return v;
  }
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, word);
  if (auto it = dyn_cast<IntegerType>(type)) {
    if (it.getWidth() == 32)
      return word;
    if (it.getWidth() < 32)
      return arith::TruncIOp::create(b, loc, type, word);
    return arith::ExtSIOp::create(b, loc, type, word);
  }
  Value f = arith::BitcastOp::create(b, loc, b.getF32Type(), word);
  if (type.isF32())
    return f;
  return arith::TruncFOp::create(b, loc, type, f);
}

/// Rewrites one multi-dimensional tensor argument as a flat buffer: every
/// load/store gets the row-major linear index, memref.dim its extent.
static LogicalResult flattenTensor(gpu::GPUFuncOp kernel, unsigned argIndex, llvm::ArrayRef<Value> extents) {
  BlockArgument arg = kernel.getArgument(argIndex);
  auto type = cast<MemRefType>(arg.getType());
  auto flatType = MemRefType::get({ShapedType::kDynamic}, type.getElementType(), AffineMap(), type.getMemorySpace());
  OpBuilder b(kernel.getContext());
  auto linearize = [&](Location loc, ValueRange indices) -> Value {
    Value lin = indices.empty() ? arith::ConstantIndexOp::create(b, loc, 0).getResult() : indices[0];
    for (size_t d = 1; d < indices.size(); ++d)
      lin = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, lin, extents[d]), indices[d]);
    return lin;
  };
  for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
    Operation *user = use.getOwner();
    b.setInsertionPoint(user);
    Location loc = user->getLoc();
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      load.getIndicesMutable().assign(linearize(loc, load.getIndices()));
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      store.getIndicesMutable().assign(linearize(loc, store.getIndices()));
    } else if (auto vload = dyn_cast<vector::LoadOp>(user)) {
      vload.getIndicesMutable().assign(linearize(loc, vload.getIndices()));
    } else if (auto vstore = dyn_cast<vector::StoreOp>(user)) {
      vstore.getIndicesMutable().assign(linearize(loc, vstore.getIndices()));
    } else if (auto rmw = dyn_cast<memref::AtomicRMWOp>(user)) {
      rmw.getIndicesMutable().assign(linearize(loc, rmw.getIndices()));
    } else if (auto dim = dyn_cast<memref::DimOp>(user)) {
      std::optional<int64_t> d = dim.getConstantIndex();
      if (!d || *d >= (int64_t)extents.size())
        return dim.emitError("dimension query the Vulkan target cannot resolve");
      dim.replaceAllUsesWith(extents[*d]);
      dim.erase();
    } else {
      return user->emitError() << "'" << user->getName()
                               << "' on a multi-dimensional tensor is not supported by the Vulkan target yet";
    }
  }
  arg.setType(flatType);
  llvm::SmallVector<Type> types(kernel.getArgumentTypes());
  types[argIndex] = flatType;
  kernel.setFunctionType(FunctionType::get(kernel.getContext(), types, {}));
  return success();
}

/// Rewrites `kernel` to the Vulkan ABI of `r`.
static LogicalResult rewriteABI(gpu::GPUFuncOp kernel, const vk::Reflection &r) {
  MLIRContext *ctx = kernel.getContext();
  Block &entry = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = kernel.getLoc();
  unsigned numArgs = kernel.getNumArguments();

  // Scalars and dims: one push-constant memref appended as the last argument.
  llvm::SmallVector<Value> paramValue(numArgs);
  if (!r.pushFields.empty()) {
    MemRefType pushType = pushConstantType(ctx, r.pushConstantSize / 4);
    if (failed(kernel.insertArgument(numArgs, pushType, {}, loc)))
      return kernel.emitError("cannot add the push-constant argument");
    Value push = kernel.getArgument(numArgs);
    for (const vk::PushField &f : r.pushFields) {
      BlockArgument old = kernel.getArgument(f.param);
      Value v = loadPushConstant(b, loc, push, f.offset / 4, old.getType(), vk::fieldSize(f.type) == 8);
      old.replaceAllUsesWith(v);
      paramValue[f.param] = v;
    }
  }

  // Tensors: flatten multi-dimensional ones with their runtime extents.
  for (const vk::Binding &bind : r.bindings) {
    const vk::Param &p = r.params[bind.param];
    auto type = cast<MemRefType>(kernel.getArgument(bind.param).getType());
    bool queried = llvm::any_of(kernel.getArgument(bind.param).getUsers(),
                                [](Operation *user) { return isa<memref::DimOp>(user); });
    if (type.getRank() <= 1 && !queried)
      continue;
    llvm::SmallVector<Value> extents;
    for (const vk::Dim &d : p.shape) {
      if (d.param == vk::kNoParam)
        extents.push_back(arith::ConstantIndexOp::create(b, loc, d.value));
      else if (Value v = paramValue[d.param]; v && v.getType().isIndex())
        extents.push_back(v);
      else if (v)
        extents.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), v));
      else
        return kernel.emitError() << "tensor '" << p.name << "' has a dimension the kernel does not receive";
    }
    if (failed(flattenTensor(kernel, bind.param, extents)))
      return failure();
  }

  // Global tensors are storage buffers.
  auto storageBuffer = spirv::StorageClassAttr::get(ctx, spirv::StorageClass::StorageBuffer);
  llvm::SmallVector<Type> types(kernel.getArgumentTypes());
  for (const vk::Binding &bind : r.bindings) {
    auto type = cast<MemRefType>(types[bind.param]);
    types[bind.param] = MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(), storageBuffer);
    kernel.getArgument(bind.param).setType(types[bind.param]);
  }
  kernel.setFunctionType(FunctionType::get(ctx, types, {}));

  // Per-thread arrays (memref.alloca in the default space) live in Function
  // storage, workgroup buffers (memref.alloc) in Workgroup storage.
  auto function = spirv::StorageClassAttr::get(ctx, spirv::StorageClass::Function);
  auto workgroup = spirv::StorageClassAttr::get(ctx, spirv::StorageClass::Workgroup);
  WalkResult spaces = kernel.walk([&](Operation *op) -> WalkResult {
    if (!isa<memref::AllocaOp, memref::AllocOp>(op))
      return WalkResult::advance();
    auto t = cast<MemRefType>(op->getResult(0).getType());
    Attribute space;
    if (!t.getMemorySpace())
      space = function;
    else if (isWorkgroupMemory(t))
      space = workgroup;
    else
      return op->emitError() << "allocates " << t << ", which the Vulkan target cannot place", WalkResult::interrupt();
    op->getResult(0).setType(MemRefType::get(t.getShape(), t.getElementType(), t.getLayout(), space));
    return WalkResult::advance();
  });
  if (spaces.wasInterrupted())
    return failure();

  // Drop the scalar arguments (now unused), keep tensors + push constants.
  llvm::BitVector erase(kernel.getNumArguments());
  for (const vk::PushField &f : r.pushFields)
    erase.set(f.param);
  if (failed(kernel.eraseArguments(erase)))
    return kernel.emitError("cannot drop the scalar arguments");

  // ABI attributes (the tile.* ones have been read; the SPIR-V function must not carry them).
  unsigned binding = 0;
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    for (NamedAttribute attr : llvm::to_vector(cast<FunctionOpInterface>(kernel.getOperation()).getArgAttrs(i)))
      if (tile::isTileAttrName(attr.getName()))
        kernel.removeArgAttr(i, attr.getName());
    auto type = cast<MemRefType>(kernel.getArgument(i).getType());
    auto space = dyn_cast_or_null<spirv::StorageClassAttr>(type.getMemorySpace());
    bool isPush = space && space.getValue() == spirv::StorageClass::PushConstant;
    kernel.setArgAttr(i, spirv::getInterfaceVarABIAttrName(),
                      spirv::getInterfaceVarABIAttr(0, isPush ? 0 : binding++, std::nullopt, ctx));
  }
  llvm::SmallVector<int32_t> wg(r.workgroupSize.begin(), r.workgroupSize.end());
  kernel->setAttr(spirv::getEntryPointABIAttrName(), spirv::getEntryPointABIAttr(ctx, wg));
  return success();
}

/// The #spirv.target_env for `o`.
static spirv::TargetEnvAttr targetEnv(MLIRContext *ctx, const VulkanTargetOptions &o) {
  using spirv::Capability;
  using spirv::Extension;
  bool v13 = o.env == "vulkan1.3";
  llvm::SmallVector<Capability> caps{Capability::Shader, Capability::GroupNonUniform,
                                     Capability::GroupNonUniformArithmetic, Capability::GroupNonUniformBallot,
                                     Capability::GroupNonUniformShuffle};
  llvm::SmallVector<Extension> exts{Extension::SPV_KHR_storage_buffer_storage_class};
  if (o.float16)
    caps.append({Capability::Float16, Capability::StorageBuffer16BitAccess}), exts.push_back(Extension::SPV_KHR_16bit_storage);
  if (o.int8)
    caps.append({Capability::Int8, Capability::StorageBuffer8BitAccess}), exts.push_back(Extension::SPV_KHR_8bit_storage);
  if (o.int64)
    caps.push_back(Capability::Int64);
  if (o.float64)
    caps.push_back(Capability::Float64);
  caps.push_back(Capability::Int16);
  if (o.float32Atomics)
    caps.push_back(Capability::AtomicFloat32AddEXT), exts.push_back(Extension::SPV_EXT_shader_atomic_float_add);
  // Shaders with cooperative matrices must use the Vulkan memory model.
  if (o.cooperativeMatrix) {
    caps.append({Capability::CooperativeMatrixKHR, Capability::VulkanMemoryModel});
    exts.append({Extension::SPV_KHR_cooperative_matrix, Extension::SPV_KHR_vulkan_memory_model});
  }
  auto vce = spirv::VerCapExtAttr::get(v13 ? spirv::Version::V_1_6 : spirv::Version::V_1_3, caps, exts, ctx);
  Builder b(ctx);
  auto limits = spirv::ResourceLimitsAttr::get(
      ctx, o.maxSharedMemoryBytes, o.maxWorkgroupInvocations,
      b.getI32ArrayAttr({(int32_t)o.maxWorkgroupSize[0], (int32_t)o.maxWorkgroupSize[1], (int32_t)o.maxWorkgroupSize[2]}),
      o.subgroupSize, std::nullopt, std::nullopt, b.getArrayAttr({}), b.getArrayAttr({}));
  return spirv::TargetEnvAttr::get(vce, limits, spirv::ClientAPI::Vulkan);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Compiles one kernel: copies its gpu.module with only this kernel into a
/// fresh module, rewrites, converts, serializes, validates.
static LogicalResult compileKernel(gpu::GPUModuleOp gpuModule, gpu::GPUFuncOp kernel,
                                   const VulkanTargetOptions &o, VulkanKernel &out,
                                   const SPIRVModuleCallback &onModule) {
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(kernel.getLoc());
  scratch.get()->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
  b.setInsertionPointToEnd(scratch->getBody());
  auto copy = cast<gpu::GPUModuleOp>(b.clone(*gpuModule.getOperation()));
  for (Operation &op : llvm::make_early_inc_range(copy.getBody()->getOperations()))
    if (auto fn = dyn_cast<gpu::GPUFuncOp>(op); fn && fn.isKernel() && fn.getName() != kernel.getName())
      fn.erase();
  auto copied = copy.lookupSymbol<gpu::GPUFuncOp>(kernel.getName());
  copy->setAttr(spirv::getTargetEnvAttrName(), targetEnv(ctx, o));
  if (failed(rewriteABI(copied, out.reflection)) || failed(lowerPrints(copied, out.reflection)))
    return failure();

  PassManager pm(ctx);
  pm.enableVerifier(true);
  // ceildiv/floordiv have no SPIR-V op: expand them first.
  pm.nest<gpu::GPUModuleOp>().addPass(arith::createArithExpandOpsPass());
  if (failed(pm.run(*scratch)) || failed(convertGPUModuleToSPIRV(copy)))
    return kernel.emitError() << "kernel '" << out.reflection.kernelName
                              << "' could not be lowered to SPIR-V (see the errors above)";
  // convert-gpu-to-spirv always picks GLSL450; cooperative matrices need the
  // Vulkan memory model (spirv-update-vce then adds its capability).
  if (o.cooperativeMatrix)
    for (auto spv : scratch->getOps<spirv::ModuleOp>())
      spv.setMemoryModel(spirv::MemoryModel::Vulkan);
  PassManager post(ctx);
  post.enableVerifier(true);
  OpPassManager &spv = post.nest<spirv::ModuleOp>();
  spv.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spv.addPass(spirv::createSPIRVUpdateVCEPass());
  if (failed(post.run(*scratch)))
    return kernel.emitError() << "kernel '" << out.reflection.kernelName
                              << "' could not be lowered to SPIR-V (see the errors above)";

  auto spvModules = llvm::to_vector(scratch->getOps<spirv::ModuleOp>());
  if (spvModules.size() != 1)
    return kernel.emitError("expected one SPIR-V module per kernel");
  spirv::ModuleOp spvModule = spvModules.front();
  // spirv-update-vce picks the lowest version the ops need, but the entry
  // point's interface was built for the target's version (SPIR-V 1.4+ lists
  // every global there): keep the target's version.
  // It also misses the capability of the subgroup builtins (SubgroupId and
  // NumSubgroups, which the subgroup matrix path reads).
  if (auto vce = spvModule.getVceTriple()) {
    spirv::Version want = o.env == "vulkan1.3" ? spirv::Version::V_1_6 : spirv::Version::V_1_3;
    auto caps = llvm::to_vector(vce->getCapabilities());
    bool subgroupBuiltin = false;
    spvModule.walk([&](spirv::GlobalVariableOp var) {
      if (std::optional<StringRef> builtIn = var.getBuiltIn())
        subgroupBuiltin |= *builtIn == "SubgroupId" || *builtIn == "NumSubgroups";
    });
    bool addCap = subgroupBuiltin && !llvm::is_contained(caps, spirv::Capability::GroupNonUniform);
    if (addCap)
      caps.push_back(spirv::Capability::GroupNonUniform);
    if (vce->getVersion() != want || addCap)
      spvModule.setVceTripleAttr(
          spirv::VerCapExtAttr::get(want, caps, llvm::to_vector(vce->getExtensions()), ctx));
  }
  // Push-constant blocks take no descriptor decorations in Vulkan.
  spvModule.walk([](spirv::GlobalVariableOp var) {
    if (cast<spirv::PointerType>(var.getType()).getStorageClass() == spirv::StorageClass::PushConstant) {
      var->removeAttr("descriptor_set");
      var->removeAttr("binding");
    }
  });
  SmallVector<uint32_t> words;
  if (failed(spirv::serialize(spvModule, words)))
    return kernel.emitError("SPIR-V serialization failed");
  out.spirv.assign(words.begin(), words.end());
  bool coopMatrix = llvm::is_contained(spvModule.getVceTriple()->getCapabilities(), spirv::Capability::CooperativeMatrixKHR);
  if (coopMatrix && !spirvToolsKnowCooperativeMatrix()) {
    emitWarning(kernel.getLoc()) << "the SPIR-V of kernel '" << out.reflection.kernelName
                         << "' uses SPV_KHR_cooperative_matrix, which the linked SPIRV-Tools predates: it was not "
                            "validated (check it with a newer spirv-val --target-env "
                         << o.env << ")";
    return success();
  }
  std::string messages;
  if (!validateSPIRV(out.spirv, o.env, messages))
    return kernel.emitError() << "the SPIR-V of kernel '" << out.reflection.kernelName
                              << "' fails spirv-val --target-env " << o.env << ":\n"
                              << messages;
  return onModule ? onModule(spvModule, out) : success();
}

LogicalResult tilec::compileGPUToVulkan(ModuleOp module, const VulkanTargetOptions &options,
                                        const llvm::StringMap<KernelSignature> &signatures,
                                        std::vector<VulkanKernel> &kernels,
                                        const SPIRVModuleCallback &onModule) {
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      VulkanKernel out;
      narrowPrints(kernel);
      auto it = signatures.find(kernel.getName());
      if (it != signatures.end())
        out.signature = it->second;
      else if (failed(getKernelSignature(kernel, out.signature)))
        return failure();
      if (failed(buildReflection(kernel, module, out.signature, out)) ||
          failed(checkLimits(kernel, out.reflection, options)) ||
          failed(compileKernel(gpuModule, kernel, options, out, onModule)))
        return failure();
      kernels.push_back(std::move(out));
    }
  }
  if (kernels.empty())
    return module.emitError("no gpu kernel to compile for Vulkan");
  return success();
}
