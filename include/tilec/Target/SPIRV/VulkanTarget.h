//===- VulkanTarget.h - The Vulkan target: gpu dialect -> SPIR-V + reflection -*- C++ -*-===//
//
// The Vulkan target lowers the thread-level gpu.module that TileToGPU writes
// (gpu.func per kernel, `__tilec_<k>_grid` host functions) to one SPIR-V
// compute module per kernel, validated with SPIRV-Tools, and a C header that
// carries the words and the reflection the runner (Runtime/Vulkan) uses.
//
// ABI: tensors are storage buffers at set 0, binding = their rank among the
// tensor parameters; dynamic dimensions and scalars are 32-bit fields of one
// push-constant block, in parameter order; the dispatch grid is the grid
// function, carried as a C function and as a grid program.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_SPIRV_VULKANTARGET_H
#define TILEC_TARGET_SPIRV_VULKANTARGET_H

#include "tilec/Runtime/Vulkan/Reflection.h"
#include "tilec/Target/Backend.h"
#include "tilec/Target/GPULimits.h"
#include "tilec/Target/KernelABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <string>
#include <vector>

namespace tilec {

/// The device limits a Vulkan compile targets (all user-settable).
struct VulkanTargetOptions {
  std::string env = "vulkan1.1";          ///< "vulkan1.1" (SPIR-V 1.3) or "vulkan1.3" (SPIR-V 1.6)
  std::string preset = "desktop";         ///< the preset the limits came from, for diagnostics
  int64_t maxSharedMemoryBytes = 49152;   ///< maxComputeSharedMemorySize
  int64_t maxWorkgroupInvocations = 1024; ///< maxComputeWorkGroupInvocations
  std::array<int64_t, 3> maxWorkgroupSize{1024, 1024, 64};
  GPULimits limits; ///< size limits checked before the lowering (`--max-*`)
  int64_t subgroupSize = 32;
  bool float16 = true;                    ///< shaderFloat16 + 16-bit storage
  bool int8 = true;                       ///< shaderInt8 + 8-bit storage
  bool int64 = true;                      ///< shaderInt64
  bool float64 = false;                   ///< shaderFloat64
  bool cooperativeMatrix = false;         ///< SPV_KHR_cooperative_matrix
  /// shaderBufferFloat32AtomicAdd + shaderSharedFloat32AtomicAdd
  /// (VK_EXT_shader_atomic_float): float32 `T.atomic_add` as
  /// SPV_EXT_shader_atomic_float_add's OpAtomicFAddEXT.
  bool float32Atomics = true;
  /// How the limit diagnostics name the target and its limits. The Metal
  /// target compiles through this path with its own names (lib/Target/Metal).
  std::string displayName;                                ///< empty: "<env> (<preset>)"
  std::string workgroupSizeLimit = "maxComputeWorkGroupSize";
  std::string invocationsLimit = "maxComputeWorkGroupInvocations";
  std::string sharedMemoryLimit = "maxComputeSharedMemorySize";

  /// Limits that fit common desktop GPUs (the default): fp16, int8, int64,
  /// float32 atomic add; no fp64.
  static VulkanTargetOptions desktop(llvm::StringRef env = "vulkan1.1");
  /// Mesa lavapipe 22.3: 32 KB shared memory, subgroup 8, fp16/int8/fp64,
  /// float32 atomic add.
  static VulkanTargetOptions lavapipe(llvm::StringRef env = "vulkan1.1");
  /// A preset by name ("desktop", "lavapipe"); false when unknown.
  static bool fromPreset(llvm::StringRef preset, llvm::StringRef env, VulkanTargetOptions &out);
  /// "vulkan1.1 (lavapipe)": how diagnostics name the target.
  std::string describe() const;
};

/// One compiled kernel: its SPIR-V words and reflection.
struct VulkanKernel {
  vk::Reflection reflection;
  std::vector<uint32_t> spirv;
  KernelSignature signature;
  std::array<std::string, 3> gridC; ///< the grid as C expressions of the parameters
};

/// Called with each kernel's validated spirv.module (the dialect form its
/// words were serialized from) before the module is freed; the WebGPU target
/// prints WGSL from it. A failure stops the compile.
using SPIRVModuleCallback = std::function<mlir::LogicalResult(mlir::Operation *spirvModule, VulkanKernel &kernel)>;

/// Lowers every gpu.func kernel in `module` (thread-level IR as TileToGPU
/// writes it) to Vulkan SPIR-V. `signatures` gives each kernel's C ABI (from
/// its tile.kernel); kernels missing from it take theirs from the gpu.func's
/// `tile.*` argument attributes. T.print (gpu.printf) becomes appends to a
/// print buffer the reflection describes (printBinding). Limits violations
/// and unsupported constructs are diagnostics on the ops; every module passes spirv-val.
/// `onModule`, when set, sees each kernel's spirv.module after validation.
mlir::LogicalResult compileGPUToVulkan(mlir::ModuleOp module, const VulkanTargetOptions &options,
                                       const llvm::StringMap<KernelSignature> &signatures,
                                       std::vector<VulkanKernel> &kernels,
                                       const SPIRVModuleCallback &onModule = {});

/// Removes every gpu.printf (T.print) of `module` with a warning at each
/// print saying it is dropped and `why` (Metal, WebGPU).
void dropPrints(mlir::ModuleOp module, llvm::StringRef why);

/// Writes the C header (C99 and C++) for `kernels`.
void writeVulkanHeader(llvm::ArrayRef<VulkanKernel> kernels, const HeaderInfo &info,
                       const VulkanTargetOptions &options, llvm::raw_ostream &os);

/// Validates SPIR-V words with SPIRV-Tools for `env` ("vulkan1.1"/"vulkan1.3").
bool validateSPIRV(llvm::ArrayRef<uint32_t> words, llvm::StringRef env, std::string &messages);

/// Disassembles SPIR-V words to readable assembly.
bool disassembleSPIRV(llvm::ArrayRef<uint32_t> words, std::string &text, std::string &error);

/// Whether the linked SPIRV-Tools knows SPV_KHR_cooperative_matrix (2023.4
/// and later); older ones can neither validate nor disassemble its modules.
bool spirvToolsKnowCooperativeMatrix();

/// The Vulkan target in the registry: `-target=vulkan`, `vulkan1.1`,
/// `vulkan1.3`; gpu | spirv (assembly) | header | obj (`k.spv`, one kernel's
/// binary, and `k.h` beside it).
const TargetDescription &getVulkanTargetDescription();

/// The Vulkan backend under `options` (the shared SPIR-V pipeline).
std::unique_ptr<TargetBackend> createVulkanBackend(const VulkanTargetOptions &options);

/// Registers `tilec-test-vulkan-compile` (for tilec-opt lit tests).
void registerVulkanTestPasses();

namespace vulkan {
/// How limit diagnostics (Vulkan's and Metal's) name an element type: the tile
/// dtype spelling ("float16", "int32", "bool"); other types as MLIR prints them.
std::string dtypeName(mlir::Type t);
/// Runs `check` on the types of `op`'s results, then of its regions' block
/// arguments, stopping at the first failure (the limit checks' type walk).
mlir::LogicalResult checkOpTypes(mlir::Operation *op, llvm::function_ref<mlir::LogicalResult(mlir::Type)> check);
/// The atomic check of the targets that lower only atomic add and no float
/// atomics (Metal, WebGPU): when `op` is a memref.atomic_rmw of kernel
/// `kernelName`, errors on a kind other than add ("which the `target` target
/// does not lower"), on an add on floats (", which `floatReason`") and, when
/// `intReason` is not empty, on an add on integers other than int32
/// (", which `intReason`"). Other ops pass.
mlir::LogicalResult checkAddOnlyAtomic(mlir::Operation *op, llvm::StringRef kernelName, llvm::StringRef target,
                                       llvm::StringRef floatReason, llvm::StringRef intReason,
                                       llvm::function_ref<mlir::InFlightDiagnostic()> emitError);
} // namespace vulkan

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_VULKANTARGET_H
