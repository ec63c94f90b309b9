//===- AscendPipeline.cpp - The Ascend target behind the backend interface -===//
//
// tile module -> emitAscendC -> `--emit=ascendc` (the .cpp) | `--emit=header`
// | the default stage: `k.cpp` (the driver writes `k.h` beside it).
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Ascend/AscendTarget.h"

using namespace mlir;
using namespace tilec;

namespace {
class AscendBackend : public TargetBackend {
public:
  explicit AscendBackend(const AscendTargetOptions &options) : options(options) {}

  LogicalResult lower(ModuleOp module, EmitStage) override { return emitAscendC(module, options, kernels); }
  LogicalResult serialize(ModuleOp, EmitStage stage, llvm::StringRef sourceName, llvm::raw_ostream &out) override {
    if (stage != EmitStage::Header)
      writeAscendSource(kernels, sourceName, out);
    return success();
  }
  void writeHeader(const HeaderInfo &info, llvm::raw_ostream &os) override {
    writeAscendHeader(kernels, info, os);
  }

private:
  AscendTargetOptions options;
  std::vector<AscendKernel> kernels;
};

bool parseAscend(llvm::StringRef spelling, std::vector<std::string> &) { return spelling == "ascend"; }

const EmitStage ascendStages[] = {EmitStage::AscendC, EmitStage::Obj, EmitStage::Header};
} // namespace

const TargetDescription &tilec::getAscendTargetDescription() {
  static const TargetDescription description{TargetKind::Ascend, "ascend", "ascend", parseAscend, "", ascendStages,
                                             ".cpp",             "",       "Ascend C and a header", /*textDefault=*/true};
  return description;
}

std::unique_ptr<TargetBackend> tilec::createAscendBackend(const AscendTargetOptions &options) {
  return std::make_unique<AscendBackend>(options);
}
