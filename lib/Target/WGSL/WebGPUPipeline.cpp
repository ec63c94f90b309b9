//===- WebGPUPipeline.cpp - The WebGPU target behind the backend interface -===//
//
// The shared SPIR-V pipeline under WebGPU limits and without subgroup
// shuffles: checkWebGPUKernels before the SPIR-V, WGSL printed from each
// validated spirv.module (`--emit=wgsl`); the default stage writes `k.wgsl`,
// the header the dispatch data of every kernel.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/SPIRVPipeline.h"
#include "tilec/Target/WGSL/WebGPUTarget.h"
#include "tilec/Target/WGSL/WebGPUTargetInfo.h"

using namespace mlir;
using namespace tilec;

namespace {
class WebGPUBackend : public SPIRVPipelineBackend {
public:
  explicit WebGPUBackend(const WebGPUTargetOptions &options)
      : SPIRVPipelineBackend(std::make_unique<WebGPUTargetInfo>(options)), options(options) {}

  void writeHeader(const HeaderInfo &info, llvm::raw_ostream &os) override {
    writeWebGPUHeader(kernels, info, options, os);
  }

protected:
  llvm::StringRef whyPrintsDropped() const override {
    return "WGSL has no printf and the webgpu target no print buffer yet (T.print works on CUDA, Vulkan and the host "
           "target)";
  }
  LogicalResult checkKernels(ModuleOp module) override { return checkWebGPUKernels(module, signatures, options); }
  LogicalResult translateModule(Operation *spirvModule, VulkanKernel &vk) override {
    WebGPUKernel k;
    k.vulkan = vk;
    if (failed(printWGSL(spirvModule, options, k)))
      return failure();
    kernels.push_back(std::move(k));
    return success();
  }
  // Each kernel's globals are named after its parameters: two kernels' WGSL
  // could clash.
  llvm::StringRef oneKernelPerFile() const override {
    return "a .wgsl file holds one: use --emit=header for all kernels' dispatch data, or one file per kernel";
  }
  void writeKernel(llvm::raw_ostream &out) override { out << kernels.front().wgsl; }

private:
  WebGPUTargetOptions options;
  std::vector<WebGPUKernel> kernels;
};

bool parseWebGPU(llvm::StringRef spelling, std::vector<std::string> &) { return spelling == "webgpu"; }

const EmitStage webgpuStages[] = {EmitStage::Layout, EmitStage::GPU, EmitStage::SPIRV,
                                  EmitStage::WGSL,   EmitStage::Obj, EmitStage::Header};
} // namespace

const TargetDescription &tilec::getWebGPUTargetDescription() {
  static const TargetDescription description{TargetKind::WebGPU, "webgpu", "webgpu", parseWebGPU, "", webgpuStages,
                                             ".wgsl",            "",       "WGSL and a header", /*textDefault=*/true};
  return description;
}

std::unique_ptr<TargetBackend> tilec::createWebGPUBackend(const WebGPUTargetOptions &options) {
  return std::make_unique<WebGPUBackend>(options);
}
