//===- AscendPipeline.cpp - The driver's Ascend pipeline ------------------===//
//
// tile module -> emitAscendC -> `--emit=ascendc` (the .cpp) | `--emit=header`
// | default: `-o k.cpp` and `k.h` beside it.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/CompileOptions.h"
#include "tilec/Target/Ascend/AscendTarget.h"
#include "tilec/Target/SPIRV/VulkanPipeline.h"

using namespace mlir;
using namespace tilec;

LogicalResult tilec::runAscendPipeline(ModuleOp module, const CompileOptions &opts, llvm::raw_ostream &out,
                                       llvm::raw_ostream &errs) {
  if (opts.emit != EmitStage::AscendC && opts.emit != EmitStage::Header && opts.emit != EmitStage::Obj)
    return pipelineError(errs, "the '" + stageName(opts.emit) + "' stage is not available for target '" +
                                   opts.target.spelling +
                                   "' (use ascendc or header; the default writes Ascend C and a header)");
  AscendTargetOptions options;
  std::vector<AscendKernel> kernels;
  if (failed(emitAscendC(module, options, kernels)))
    return failure();
  std::string source = headerSourceName(opts);
  if (opts.emit == EmitStage::Header) {
    writeAscendHeader(kernels, source, out);
    return success();
  }
  writeAscendSource(kernels, source, out);
  if (opts.emit == EmitStage::AscendC || opts.outputFile == "-")
    return success();
  return writeHeaderBeside(opts, errs, [&](llvm::raw_ostream &os) { writeAscendHeader(kernels, source, os); });
}
