//===- WebGPUTarget.cpp - WebGPU limits and the checks before SPIR-V -------===//
//
// The WebGPU target's limits as Vulkan-path options (so the Vulkan limit
// checks serve it), and the checks for what WGSL cannot express, run on the
// thread-level gpu IR where ops still carry the kernel's source locations.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/WGSL/WebGPUTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tilec;

VulkanTargetOptions WebGPUTargetOptions::toVulkanOptions() const {
  VulkanTargetOptions o;
  o.limits = limits;
  o.env = "vulkan1.1";
  o.preset = "webgpu";
  o.displayName = "webgpu";
  o.workgroupSizeLimit = "maxComputeWorkgroupSize";
  o.invocationsLimit = "maxComputeInvocationsPerWorkgroup";
  o.sharedMemoryLimit = "maxComputeWorkgroupStorageSize";
  o.maxSharedMemoryBytes = maxWorkgroupStorageBytes;
  o.maxWorkgroupInvocations = maxInvocations;
  o.maxWorkgroupSize = maxWorkgroupSize;
  o.subgroupSize = 1; // no subgroup operations in core WebGPU
  o.float16 = float16;
  o.int8 = false;
  o.int64 = false;
  o.float64 = false;
  o.float32Atomics = false;
  o.cooperativeMatrix = false;
  return o;
}

static LogicalResult checkKernel(gpu::GPUFuncOp kernel, const KernelSignature *sig,
                                 const WebGPUTargetOptions &options) {
  std::string name = kernel.getName().str();
  // T.print: dropped with a warning before this check (WebGPUPipeline.cpp).
  // Static tensors beyond maxStorageBufferBindingSize: the device refuses
  // the bind group. Dynamic shapes are the caller's to keep within it.
  for (auto [i, t] : llvm::enumerate(kernel.getArgumentTypes())) {
    auto m = dyn_cast<MemRefType>(t);
    if (!m || !m.hasStaticShape() || !m.getElementType().isIntOrFloat())
      continue;
    uint64_t bytes = static_cast<uint64_t>(m.getNumElements()) * llvm::divideCeil(m.getElementTypeBitWidth(), 8);
    if (bytes <= static_cast<uint64_t>(options.maxStorageBufferBindingSize))
      continue;
    std::string tensor = sig && i < sig->args.size() ? "tensor '" + sig->args[i].name + "'" : "a tensor";
    return kernel.emitError() << "kernel '" << name << "' takes " << tensor << " of " << bytes
                              << " bytes; webgpu allows at most " << options.maxStorageBufferBindingSize
                              << " per storage buffer (maxStorageBufferBindingSize; "
                                 "--webgpu-max-storage-buffer-binding-size=B for a device that grants more)";
  }
  WalkResult result = kernel.walk([&](Operation *op) -> WalkResult {
    // Ops built without a source location report on the kernel.
    auto emitError = [&]() { return isa<UnknownLoc>(op->getLoc()) ? kernel.emitError() : op->emitError(); };
    if (failed(vulkan::checkAddOnlyAtomic(op, name, "webgpu",
                                          "WGSL does not have (its atomics hold i32 or u32; use int32)",
                                          /*intReason=*/"", emitError)))
      return WalkResult::interrupt();
    auto check = [&](Type t) -> LogicalResult {
      bool buffer = isa<MemRefType>(t);
      if (buffer && getElementTypeOrSelf(t).isInteger(1) && !isa<memref::AllocaOp>(op))
        return emitError() << "kernel '" << name << "' "
                           << (op == kernel.getOperation() ? "takes a bool tensor, which WGSL cannot hold in a "
                                                             "storage buffer (bool is not host-shareable; use int32)"
                                                           : "keeps a bool buffer in workgroup memory, which the "
                                                             "webgpu target does not support (use int32)");
      t = getElementTypeOrSelf(t);
      if (t.isF64())
        return emitError() << "kernel '" << name << "' uses float64, which WGSL does not have (use float32)";
      if (t.isBF16())
        return emitError() << "kernel '" << name << "' uses bfloat16, which WGSL does not have (use float16 or float32)";
      if (t.isF16() && !options.float16)
        return emitError() << "kernel '" << name
                           << "' uses float16, which needs the 'shader-f16' feature (--webgpu-f16=0 turned it off)";
      if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() == 8)
        return emitError() << "kernel '" << name << "' uses "
                           << (isa<Float8E5M2Type>(t) ? "float8_e5m2" : isa<Float8E4M3FNType>(t) ? "float8_e4m3" : "an 8-bit float")
                           << ", which WGSL does not have (use float16 or float32)";
      if (auto it = dyn_cast<IntegerType>(t)) {
        unsigned w = it.getWidth();
        if (w == 64)
          return emitError() << "kernel '" << name
                             << "' uses int64, which WGSL does not have (its integers are 32-bit; use int32)";
        if (w != 1 && w != 32)
          return emitError() << "kernel '" << name << "' uses " << vulkan::dtypeName(t)
                             << ", which WGSL does not have (its integers are 32-bit; use int32)";
      }
      return success();
    };
    if (failed(vulkan::checkOpTypes(op, check)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult tilec::checkWebGPUKernels(ModuleOp module, const llvm::StringMap<KernelSignature> &signatures,
                                       const WebGPUTargetOptions &options) {
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
      auto sig = signatures.find(kernel.getName());
      if (kernel.isKernel() &&
          failed(checkKernel(kernel, sig == signatures.end() ? nullptr : &sig->second, options)))
        return failure();
    }
  return success();
}
