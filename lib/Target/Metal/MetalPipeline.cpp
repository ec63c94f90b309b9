//===- MetalPipeline.cpp - The Metal target behind the backend interface --===//
//
// The shared SPIR-V pipeline under Metal limits: checkMetalKernels before
// the SPIR-V, SPIRV-Cross after it (`--emit=msl`); the default stage writes
// `k.metal`, the header the dispatch data of every kernel.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Metal/MetalTarget.h"
#include "tilec/Target/Metal/MetalTargetInfo.h"
#include "tilec/Target/SPIRV/SPIRVPipeline.h"

using namespace mlir;
using namespace tilec;

namespace {
class MetalBackend : public SPIRVPipelineBackend {
public:
  explicit MetalBackend(const MetalTargetOptions &options)
      : SPIRVPipelineBackend(std::make_unique<MetalTargetInfo>(options)), options(options) {}

  void writeHeader(const HeaderInfo &info, llvm::raw_ostream &os) override {
    writeMetalHeader(kernels, info, options, os);
  }

protected:
  llvm::StringRef whyPrintsDropped() const override {
    return "the metal target has no print buffer yet (T.print works on CUDA, Vulkan and the host target)";
  }
  LogicalResult checkKernels(ModuleOp module) override { return checkMetalKernels(module, options); }
  LogicalResult translateKernels(MLIRContext *ctx) override {
    for (const VulkanKernel &k : vkKernels) {
      MetalKernel m;
      std::string error;
      if (!translateToMSL(k, options, m, error))
        return emitToolError(ctx) << "kernel '" << k.reflection.kernelName << "': " << error;
      kernels.push_back(std::move(m));
    }
    return success();
  }
  // SPIRV-Cross names each module's types _<id>: two kernels' MSL would clash.
  llvm::StringRef oneKernelPerFile() const override {
    return "a .metal file holds one: use --emit=header for all kernels' dispatch data, or one file per kernel";
  }
  void writeKernel(llvm::raw_ostream &out) override { out << kernels.front().msl; }

private:
  MetalTargetOptions options;
  std::vector<MetalKernel> kernels;
};

bool parseMetal(llvm::StringRef spelling, std::vector<std::string> &) { return spelling == "metal"; }

const EmitStage metalStages[] = {EmitStage::Layout, EmitStage::GPU, EmitStage::SPIRV,
                                 EmitStage::MSL,    EmitStage::Obj, EmitStage::Header};
} // namespace

const TargetDescription &tilec::getMetalTargetDescription() {
  static const TargetDescription description{TargetKind::Metal, "metal", "metal", parseMetal, "", metalStages,
                                             ".metal",          "",      "MSL and a header", /*textDefault=*/true};
  return description;
}

std::unique_ptr<TargetBackend> tilec::createMetalBackend(const MetalTargetOptions &options) {
  return std::make_unique<MetalBackend>(options);
}
