//===- Pipelines.cpp - Dispatch to the target pipelines -------------------===//
//
// One function per target family; stages a target does not have yet end
// with an error naming the stage and the target.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/Pipelines.h"

using namespace tilec;

static mlir::LogicalResult notImplemented(const CompileOptions &opts, llvm::raw_ostream &errs) {
  errs << "tilec: error: the '" << stageName(opts.emit) << "' stage is not implemented yet for target '"
       << opts.target.spelling << "'\n";
  return mlir::failure();
}

mlir::LogicalResult tilec::runTargetPipeline(mlir::ModuleOp module, const CompileOptions &opts,
                                             llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  (void)module;
  (void)out;
  switch (opts.target.kind) {
  case TargetKind::Host:
  case TargetKind::CUDA:
  case TargetKind::Vulkan:
  case TargetKind::Metal:
  case TargetKind::WebGPU:
  case TargetKind::Ascend:
    return notImplemented(opts, errs);
  }
  return notImplemented(opts, errs);
}
