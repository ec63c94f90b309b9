//===- TestPasses.cpp - tilec-test-vulkan-compile for lit tests -----------===//
//
// Runs compileGPUToVulkan on hand-written thread-level IR and writes the
// SPIR-V binary, its assembly and the header to the files the options name.
// The IR is left as the legalization passes make it.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Target/SPIRV/VulkanTarget.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace tilec;

namespace {
struct TestVulkanCompilePass : PassWrapper<TestVulkanCompilePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestVulkanCompilePass)
  TestVulkanCompilePass() = default;
  TestVulkanCompilePass(const TestVulkanCompilePass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "tilec-test-vulkan-compile"; }
  StringRef getDescription() const override {
    return "compile gpu kernels to Vulkan SPIR-V and write the binary, assembly and header";
  }
  void getDependentDialects(DialectRegistry &registry) const override { registry.insert<spirv::SPIRVDialect>(); }

  Option<std::string> env{*this, "env", llvm::cl::desc("vulkan1.1 or vulkan1.3"), llvm::cl::init("vulkan1.1")};
  Option<std::string> preset{*this, "preset", llvm::cl::desc("desktop or lavapipe"), llvm::cl::init("lavapipe")};
  Option<int64_t> maxShared{*this, "max-shared-memory", llvm::cl::desc("override the shared memory limit (bytes)"),
                            llvm::cl::init(0)};
  Option<bool> float16{*this, "float16", llvm::cl::desc("shaderFloat16 support"), llvm::cl::init(true)};
  Option<bool> float32Atomics{*this, "float32-atomics",
                              llvm::cl::desc("shaderBufferFloat32AtomicAdd support"), llvm::cl::init(true)};
  Option<bool> legalize{*this, "legalize", llvm::cl::desc("run the Vulkan legalization passes first"),
                        llvm::cl::init(true)};
  Option<std::string> spvFile{*this, "spv", llvm::cl::desc("write the first kernel's SPIR-V here")};
  Option<std::string> asmFile{*this, "asm", llvm::cl::desc("write the first kernel's assembly here")};
  Option<std::string> headerFile{*this, "header", llvm::cl::desc("write the header here")};

  void write(const std::string &path, llvm::function_ref<void(llvm::raw_ostream &)> fn) {
    if (path.empty())
      return;
    std::string error;
    auto file = openOutputFile(path, &error);
    if (!file) {
      getOperation().emitError(error);
      return signalPassFailure();
    }
    fn(file->os());
    file->keep();
  }

  void runOnOperation() override {
    VulkanTargetOptions options;
    if (!VulkanTargetOptions::fromPreset(preset, env, options)) {
      getOperation().emitError() << "unknown Vulkan preset '" << preset << "'";
      return signalPassFailure();
    }
    if (maxShared > 0)
      options.maxSharedMemoryBytes = maxShared;
    options.float16 = float16;
    options.float32Atomics = float32Atomics;
    if (legalize && failed(legalizeGPUForVulkan(getOperation(), options)))
      return signalPassFailure();
    std::vector<VulkanKernel> kernels;
    llvm::StringMap<KernelSignature> none;
    if (failed(compileGPUToVulkan(getOperation(), options, none, kernels)))
      return signalPassFailure();
    const std::vector<uint32_t> &words = kernels.front().spirv;
    write(spvFile, [&](llvm::raw_ostream &os) { os.write(reinterpret_cast<const char *>(words.data()), words.size() * 4); });
    write(asmFile, [&](llvm::raw_ostream &os) {
      std::string text, error;
      disassembleSPIRV(words, text, error);
      os << text;
    });
    std::string guard = headerGuard(headerFile);
    write(headerFile,
          [&](llvm::raw_ostream &os) { writeVulkanHeader(kernels, HeaderInfo{"test.mlir", guard}, options, os); });
  }
};
} // namespace

void tilec::registerVulkanTestPasses() { PassRegistration<TestVulkanCompilePass>(); }
