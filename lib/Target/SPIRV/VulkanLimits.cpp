//===- VulkanLimits.cpp - Vulkan target options and limit checks ----------===//
//
// The limit presets of the Vulkan target and the checks that turn a kernel
// over a limit (workgroup size, shared memory, fp16/int8/fp64, atomics) into a
// diagnostic naming the limit, before SPIR-V conversion.
//
//===----------------------------------------------------------------------===//
#include "VulkanLimits.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::vulkan;

//===----------------------------------------------------------------------===//
// Target options
//===----------------------------------------------------------------------===//

VulkanTargetOptions VulkanTargetOptions::desktop(llvm::StringRef env) {
  VulkanTargetOptions o;
  o.env = env.str();
  o.float32Atomics = true;
  return o;
}

VulkanTargetOptions VulkanTargetOptions::lavapipe(llvm::StringRef env) {
  VulkanTargetOptions o;
  o.env = env.str();
  o.preset = "lavapipe";
  o.maxSharedMemoryBytes = 32768;
  o.maxWorkgroupSize = {1024, 1024, 1024};
  o.subgroupSize = 8;
  o.float64 = true;
  o.float32Atomics = true;
  return o;
}

bool VulkanTargetOptions::fromPreset(llvm::StringRef preset, llvm::StringRef env, VulkanTargetOptions &out) {
  if (preset == "desktop")
    out = desktop(env);
  else if (preset == "lavapipe")
    out = lavapipe(env);
  else
    return false;
  return true;
}

std::string VulkanTargetOptions::describe() const {
  return displayName.empty() ? env + " (" + preset + ")" : displayName;
}

//===----------------------------------------------------------------------===//
// Limits
//===----------------------------------------------------------------------===//

bool tilec::vulkan::isWorkgroupMemory(MemRefType t) {
  if (auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(t.getMemorySpace()))
    return space.getValue() == gpu::AddressSpace::Workgroup;
  if (auto space = dyn_cast_or_null<IntegerAttr>(t.getMemorySpace()))
    return space.getInt() == 3;
  return false;
}

static int64_t staticBytes(MemRefType t) {
  if (!t.hasStaticShape())
    return 0;
  return (t.getNumElements() * t.getElementTypeBitWidth() + 7) / 8;
}

std::string tilec::vulkan::dtypeName(Type t) {
  if (t.isF16())
    return "float16";
  if (t.isBF16())
    return "bfloat16";
  if (t.isF32())
    return "float32";
  if (t.isF64())
    return "float64";
  if (t.isInteger(1))
    return "bool";
  if (t.isInteger())
    return "int" + std::to_string(t.getIntOrFloatBitWidth());
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

LogicalResult tilec::vulkan::checkOpTypes(Operation *op, llvm::function_ref<LogicalResult(Type)> check) {
  for (Type t : op->getResultTypes())
    if (failed(check(t)))
      return failure();
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument a : block.getArguments())
        if (failed(check(a.getType())))
          return failure();
  return success();
}

LogicalResult tilec::vulkan::checkAddOnlyAtomic(Operation *op, llvm::StringRef kernelName, llvm::StringRef target,
                                                llvm::StringRef floatReason, llvm::StringRef intReason,
                                                llvm::function_ref<InFlightDiagnostic()> emitError) {
  auto rmw = dyn_cast<memref::AtomicRMWOp>(op);
  if (!rmw)
    return success();
  Type t = rmw.getValue().getType();
  if (rmw.getKind() != arith::AtomicRMWKind::addi && rmw.getKind() != arith::AtomicRMWKind::addf)
    return emitError() << "kernel '" << kernelName << "' uses atomic '"
                       << arith::stringifyAtomicRMWKind(rmw.getKind()) << "', which the " << target
                       << " target does not lower";
  if (isa<FloatType>(t))
    return emitError() << "kernel '" << kernelName << "' uses an atomic add on " << dtypeName(t) << ", which "
                       << floatReason;
  if (!intReason.empty() && !t.isInteger(32))
    return emitError() << "kernel '" << kernelName << "' uses an atomic add on " << dtypeName(t) << ", which "
                       << intReason;
  return success();
}

/// Whether the Vulkan target lowers `rmw` under `o`: addi on 32-bit integers
/// (OpAtomicIAdd) and addf on float32 with `float32Atomics`
/// (OpAtomicFAddEXT). Otherwise an error naming the missing device feature.
static LogicalResult checkAtomic(memref::AtomicRMWOp rmw, const vk::Reflection &r, const VulkanTargetOptions &o,
                                 llvm::function_ref<InFlightDiagnostic()> emitError) {
  Type t = rmw.getValue().getType();
  bool shared = isWorkgroupMemory(rmw.getMemRefType());
  std::string where = shared ? "Shared" : "Buffer";
  arith::AtomicRMWKind kind = rmw.getKind();
  if (kind == arith::AtomicRMWKind::addi && t.isInteger(32))
    return success();
  if (kind == arith::AtomicRMWKind::addf && t.isF32()) {
    if (o.float32Atomics)
      return success();
    return emitError() << "kernel '" << r.kernelName << "' uses an atomic add on float32, which " << o.describe()
                       << " cannot do without shader" << where << "Float32AtomicAdd (VK_EXT_shader_atomic_float)";
  }
  if (kind != arith::AtomicRMWKind::addi && kind != arith::AtomicRMWKind::addf)
    return emitError() << "kernel '" << r.kernelName << "' uses atomic '" << arith::stringifyAtomicRMWKind(kind)
                       << "', which the Vulkan target does not lower";
  InFlightDiagnostic diag = emitError();
  diag << "kernel '" << r.kernelName << "' uses an atomic add on " << dtypeName(t)
       << ", which the Vulkan target does not support (";
  if (t.isF16())
    diag << "it needs shader" << where << "Float16AtomicAdd of VK_EXT_shader_atomic_float2; use float32";
  else if (t.isF64())
    diag << "it needs shader" << where << "Float64AtomicAdd of VK_EXT_shader_atomic_float; use float32";
  else if (t.isInteger(64))
    diag << "it needs shader" << where << "Int64Atomics; use int32";
  else if (isa<IntegerType>(t))
    diag << "SPIR-V integer atomics take 32-bit integers; use int32";
  else
    diag << "use float32 or int32";
  diag << ")";
  return diag;
}

LogicalResult tilec::vulkan::checkLimits(gpu::GPUFuncOp kernel, const vk::Reflection &r, const VulkanTargetOptions &o) {
  std::string target = o.describe();
  int64_t invocations = 1;
  for (size_t d = 0; d < 3; ++d) {
    invocations *= r.workgroupSize[d];
    if (r.workgroupSize[d] > o.maxWorkgroupSize[d])
      return kernel.emitError() << "kernel '" << r.kernelName << "' has " << r.workgroupSize[d] << " threads in "
                                << "xyz"[d] << "; " << target << " allows at most " << o.maxWorkgroupSize[d]
                                << " (" << o.workgroupSizeLimit << ")";
  }
  if (invocations > o.maxWorkgroupInvocations)
    return kernel.emitError() << "kernel '" << r.kernelName << "' has " << invocations << " threads per block; "
                              << target << " allows at most " << o.maxWorkgroupInvocations
                              << " (" << o.invocationsLimit << ")";
  int64_t shared = 0;
  shared += tile::getSharedBytes(kernel).value_or(0);
  for (BlockArgument a : kernel.getWorkgroupAttributions())
    shared += staticBytes(cast<MemRefType>(a.getType()));
  kernel.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op); alloc && isWorkgroupMemory(alloc.getType()))
      shared += staticBytes(alloc.getType());
    if (auto alloca = dyn_cast<memref::AllocaOp>(op); alloca && isWorkgroupMemory(alloca.getType()))
      shared += staticBytes(alloca.getType());
  });
  if (shared > o.maxSharedMemoryBytes)
    return kernel.emitError() << "kernel '" << r.kernelName << "' uses " << shared << " bytes of shared memory; "
                              << target << " allows at most " << o.maxSharedMemoryBytes
                              << " (" << o.sharedMemoryLimit << ")";
  // Element types the device must support.
  WalkResult typeCheck = kernel.walk([&](Operation *op) -> WalkResult {
    // Ops built without a source location report on the kernel.
    auto emitError = [&]() { return isa<UnknownLoc>(op->getLoc()) ? kernel.emitError() : op->emitError(); };
    if (op->getDialect() && op->getDialect()->getNamespace() == "math" && op->getNumResults() == 1 &&
        getElementTypeOrSelf(op->getResult(0).getType()).isF64() &&
        !isa<math::FloorOp, math::SqrtOp, math::RsqrtOp, math::AbsFOp>(op)) {
      emitError() << "kernel '" << r.kernelName << "' uses '" << op->getName()
                  << "' on float64, which GLSL.std.450 does not have on the Vulkan target (use float32)";
      return WalkResult::interrupt();
    }
    if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op); rmw && failed(checkAtomic(rmw, r, o, emitError)))
      return WalkResult::interrupt();
    auto check = [&](Type t) -> LogicalResult {
      if (auto shaped = dyn_cast<ShapedType>(t))
        t = shaped.getElementType();
      if ((t.isF16() || t.isBF16()) && !o.float16)
        return emitError() << "kernel '" << r.kernelName << "' uses 16-bit floats; " << target
                               << " has no shaderFloat16";
      if (t.isBF16())
        return emitError() << "kernel '" << r.kernelName
                               << "' uses bfloat16, which Vulkan SPIR-V does not have (use float16 or float32)";
      if (t.isInteger(8) && !o.int8)
        return emitError() << "kernel '" << r.kernelName << "' uses 8-bit integers; " << target
                               << " has no shaderInt8";
      if (t.isF64() && !o.float64)
        return emitError() << "kernel '" << r.kernelName << "' uses float64; " << target
                               << " has no shaderFloat64";
      if (t.isInteger(4))
        return emitError() << "kernel '" << r.kernelName
                           << "' uses 4-bit integers, which the Vulkan target does not support (no 4-bit storage)";
      if (isa<Float4E2M1FNType>(t))
        return emitError() << "kernel '" << r.kernelName
                           << "' uses float4_e2m1fn, which the Vulkan target does not support (no 4-bit storage)";
      if (isa<Float8E4M3FNType, Float8E5M2Type>(t))
        return emitError() << "kernel '" << r.kernelName << "' uses an 8-bit float type, which the Vulkan "
                               << "target does not support";
      return success();
    };
    if (failed(checkOpTypes(op, check)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(typeCheck.wasInterrupted());
}

