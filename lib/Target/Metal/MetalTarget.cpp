//===- MetalTarget.cpp - Metal limits, checks and SPIR-V -> MSL ------------===//
//
// The Metal target's limits (as Vulkan-path options, so the Vulkan limit
// checks serve it), the checks for what Metal or SPIRV-Cross 2021.01.15
// cannot take, and the SPIRV-Cross C API call that writes the MSL.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Metal/MetalTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/thread.h"

#include <spirv_cross_c.h>

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

VulkanTargetOptions MetalTargetOptions::toVulkanOptions() const {
  VulkanTargetOptions o;
  o.limits = limits;
  o.env = "vulkan1.1"; // SPIR-V 1.3: what SPIRV-Cross 2021.01.15 reads
  o.preset = "metal";
  o.displayName = "metal";
  o.workgroupSizeLimit = "maxThreadsPerThreadgroup";
  o.invocationsLimit = "maxTotalThreadsPerThreadgroup";
  o.sharedMemoryLimit = "maxThreadgroupMemoryLength";
  o.maxSharedMemoryBytes = maxThreadgroupMemoryBytes;
  o.maxWorkgroupInvocations = maxThreadsPerThreadgroup;
  o.maxWorkgroupSize = {maxThreadsPerThreadgroup, maxThreadsPerThreadgroup, maxThreadsPerThreadgroup};
  o.subgroupSize = simdWidth;
  o.float16 = true;  // half
  o.int8 = true;     // char, uchar
  o.int64 = true;    // long, ulong (MSL 2.2+)
  o.float64 = false; // Metal has no double
  o.float32Atomics = false;
  o.cooperativeMatrix = false;
  return o;
}

std::string MetalTargetOptions::mslVersion() const {
  return "MSL " + std::to_string(mslMajor) + "." + std::to_string(mslMinor);
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

static LogicalResult checkKernel(gpu::GPUFuncOp kernel) {
  std::string name = kernel.getName().str();
  WalkResult result = kernel.walk([&](Operation *op) -> WalkResult {
    // Ops built without a source location report on the kernel.
    auto emitError = [&]() { return isa<UnknownLoc>(op->getLoc()) ? kernel.emitError() : op->emitError(); };
    if (failed(vulkan::checkAddOnlyAtomic(
            op, name, "metal",
            "the metal target does not support (SPIRV-Cross 2021.01.15 emits invalid MSL for float atomic add, and "
            "Metal before MSL 3.0 has no atomic<float>; use int32)",
            "the metal target does not support (Metal atomics take 32-bit integers; use int32)", emitError)))
      return WalkResult::interrupt();
    auto check = [&](Type t) -> LogicalResult {
      t = getElementTypeOrSelf(t);
      if (t.isF64())
        return emitError() << "kernel '" << name << "' uses float64, which Metal does not have (use float32)";
      if (t.isBF16())
        return emitError() << "kernel '" << name
                           << "' uses bfloat16, which the metal target does not support (it goes through SPIR-V, "
                              "which has no bfloat16; use float16 or float32)";
      return success();
    };
    if (failed(vulkan::checkOpTypes(op, check)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult tilec::checkMetalKernels(ModuleOp module, const MetalTargetOptions &) {
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>())
      if (kernel.isKernel() && failed(checkKernel(kernel)))
        return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// SPIR-V -> MSL
//===----------------------------------------------------------------------===//

/// Whether an MSL kernel function cannot be named `name`: an MSL keyword or
/// attribute word (`kernel`, `device`, `threadgroup`), a namespace or type
/// the source sees through `using namespace metal` (`fast`, `simd`,
/// `float4`, `half2x2`, `atomic_int`, `texture2d`). SPIRV-Cross 2021.01.15
/// renames `main` and some others (`half`, `exp`) itself, not these.
static bool isReservedMSLName(llvm::StringRef name) {
  static const char *const words[] = {"kernel",
                                      "vertex",
                                      "fragment",
                                      "device",
                                      "constant",
                                      "threadgroup",
                                      "threadgroup_imageblock",
                                      "thread",
                                      "ray_data",
                                      "object_data",
                                      "visible",
                                      "stitchable",
                                      "patch",
                                      "mesh",
                                      "object",
                                      "intersection",
                                      "metal",
                                      "fast",
                                      "precise",
                                      "simd",
                                      "raytracing",
                                      "half",
                                      "bfloat",
                                      "uchar",
                                      "ushort",
                                      "uint",
                                      "ulong",
                                      "ptrdiff_t",
                                      "max_align_t",
                                      "nullptr_t",
                                      "atomic",
                                      "atomic_int",
                                      "atomic_uint",
                                      "atomic_bool",
                                      "atomic_float",
                                      "atomic_ulong",
                                      "memory_order",
                                      "mem_flags",
                                      "thread_scope",
                                      "access",
                                      "sampler",
                                      "texture1d",
                                      "texture1d_array",
                                      "texture2d",
                                      "texture2d_array",
                                      "texture2d_ms",
                                      "texture2d_ms_array",
                                      "texture3d",
                                      "texturecube",
                                      "texturecube_array",
                                      "texture_buffer",
                                      "depth2d",
                                      "depth2d_array",
                                      "depth2d_ms",
                                      "depth2d_ms_array",
                                      "depthcube",
                                      "depthcube_array",
                                      "array",
                                      "array_ref",
                                      "vec",
                                      "matrix",
                                      "packed_vec",
                                      "simdgroup_matrix",
                                      "imageblock",
                                      "coord",
                                      "filter",
                                      "address",
                                      "compare_func",
                                      "mip_filter",
                                      "command_buffer",
                                      "compute_pipeline_state",
                                      "render_command",
                                      "indirect_command_buffer",
                                      "visible_function_table",
                                      "intersection_function_table",
                                      "acceleration_structure",
                                      "override",
                                      "final",
                                      "alignas",
                                      "noexcept"};
  if (llvm::is_contained(words, name))
    return true;
  // Vector and matrix types: float4, packed_half3, uint2, half3x4.
  llvm::StringRef rest = name;
  rest.consume_front("packed_");
  for (llvm::StringRef scalar :
       {"bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "bfloat"})
    if (rest.consume_front(scalar)) {
      auto dim = [](char c) { return c >= '2' && c <= '4'; };
      return (rest.size() == 1 && dim(rest[0])) || (rest.size() == 3 && dim(rest[0]) && rest[1] == 'x' && dim(rest[2]));
    }
  return false;
}

namespace {
/// Owns one spvc_context; SPIRV-Cross frees everything with it.
struct SpvcContext {
  spvc_context ctx = nullptr;
  ~SpvcContext() {
    if (ctx)
      spvc_context_destroy(ctx);
  }
};
} // namespace

bool tilec::translateToMSL(const VulkanKernel &kernel, const MetalTargetOptions &options, MetalKernel &out,
                           std::string &error) {
  const vk::Reflection &r = kernel.reflection;
  out.vulkan = kernel;
  SpvcContext holder;
  if (spvc_context_create(&holder.ctx) != SPVC_SUCCESS) {
    error = "cannot create a SPIRV-Cross context";
    return false;
  }
  spvc_context ctx = holder.ctx;
  spvc_context_set_error_callback(
      ctx, [](void *user, const char *message) { *static_cast<std::string *>(user) += message; }, &error);
  auto failed = [&](const char *what) {
    if (error.empty())
      error = spvc_context_get_last_error_string(ctx);
    error = std::string(what) + ": " + error;
    return false;
  };

  spvc_parsed_ir ir = nullptr;
  if (spvc_context_parse_spirv(ctx, kernel.spirv.data(), kernel.spirv.size(), &ir) != SPVC_SUCCESS)
    return failed("SPIRV-Cross cannot parse the SPIR-V");
  spvc_compiler compiler = nullptr;
  if (spvc_context_create_compiler(ctx, SPVC_BACKEND_MSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) !=
      SPVC_SUCCESS)
    return failed("SPIRV-Cross cannot create an MSL compiler");
  spvc_compiler_options opts = nullptr;
  if (spvc_compiler_create_compiler_options(compiler, &opts) != SPVC_SUCCESS ||
      spvc_compiler_options_set_uint(opts, SPVC_COMPILER_OPTION_MSL_VERSION,
                                     SPVC_MAKE_MSL_VERSION(options.mslMajor, options.mslMinor, 0)) != SPVC_SUCCESS ||
      spvc_compiler_options_set_uint(opts, SPVC_COMPILER_OPTION_MSL_PLATFORM, SPVC_MSL_PLATFORM_MACOS) !=
          SPVC_SUCCESS ||
      spvc_compiler_install_compiler_options(compiler, opts) != SPVC_SUCCESS)
    return failed("SPIRV-Cross rejects the MSL options");

  // Buffer indices: tensor binding i -> [[buffer(i)]], the push constants
  // after the tensors (SPIRV-Cross would otherwise number them by use).
  auto addBinding = [&](unsigned set, unsigned binding, unsigned buffer) {
    spvc_msl_resource_binding b;
    spvc_msl_resource_binding_init(&b);
    b.stage = SpvExecutionModelGLCompute;
    b.desc_set = set;
    b.binding = binding;
    b.msl_buffer = buffer;
    return spvc_compiler_msl_add_resource_binding(compiler, &b) == SPVC_SUCCESS;
  };
  for (const vk::Binding &b : r.bindings)
    if (!addBinding(b.set, b.binding, b.binding))
      return failed("SPIRV-Cross rejects a buffer binding");
  unsigned pushBuffer = r.bindings.size();
  if (r.pushConstantSize > 0 &&
      !addBinding(SPVC_MSL_PUSH_CONSTANT_DESC_SET, SPVC_MSL_PUSH_CONSTANT_BINDING, pushBuffer))
    return failed("SPIRV-Cross rejects the push-constant binding");

  // A reserved word as the kernel's name: the MSL function gets a '_' (the
  // header's NAME_MTL_ENTRY_POINT says which; the C-side names keep it).
  std::string entryPoint = r.entryPoint;
  if (isReservedMSLName(entryPoint)) {
    entryPoint += "_";
    if (spvc_compiler_rename_entry_point(compiler, r.entryPoint.c_str(), entryPoint.c_str(),
                                         SpvExecutionModelGLCompute) != SPVC_SUCCESS)
      return failed("SPIRV-Cross cannot rename the entry point");
  }

  // SPIRV-Cross recurses once per nested construct: the 8 MB main-thread stack overflowed (SIGSEGV)
  // on a big unrolled kernel (a ragged 16x64 store with threads=1: test/Target/Metal/deep-spirv.tile).
  // It runs on a thread with a 1 GB stack (address space reserved, pages touched only as used).
  const char *source = nullptr;
  spvc_result compiled = SPVC_ERROR_UNSUPPORTED_SPIRV;
  llvm::thread worker(std::optional<unsigned>(1u << 30), [&] { compiled = spvc_compiler_compile(compiler, &source); });
  worker.join();
  if (compiled != SPVC_SUCCESS || !source)
    return failed("SPIRV-Cross cannot translate the SPIR-V to MSL");
  out.msl = source;
  const char *entry =
      spvc_compiler_get_cleansed_entry_point_name(compiler, entryPoint.c_str(), SpvExecutionModelGLCompute);
  out.entryPoint = entry ? entry : entryPoint;
  out.bufferUsed.clear();
  for (const vk::Binding &b : r.bindings)
    out.bufferUsed.push_back(
        spvc_compiler_msl_is_resource_used(compiler, SpvExecutionModelGLCompute, b.set, b.binding));
  out.pushConstantBuffer = -1;
  if (r.pushConstantSize > 0 &&
      spvc_compiler_msl_is_resource_used(compiler, SpvExecutionModelGLCompute, SPVC_MSL_PUSH_CONSTANT_DESC_SET,
                                         SPVC_MSL_PUSH_CONSTANT_BINDING))
    out.pushConstantBuffer = pushBuffer;
  return true;
}
