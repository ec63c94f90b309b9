//===- LayoutReport.h - The layouts the GPU lowering would choose -*- C++ -*-===//
//
// `--emit=layout` asks, per kernel and target, what the thread-level
// lowering would place where: the same plans (layout inference, pipeline
// and shared-memory planning, or the target's own path) on a clone of the
// tile module, read back as KernelLayouts.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_CONVERSION_TILETOGPU_LAYOUTREPORT_H
#define TILEC_CONVERSION_TILETOGPU_LAYOUTREPORT_H

#include "tilec/Target/KernelLayouts.h"
#include "tilec/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace tilec {

/// Appends to `out` the layouts of every kernel of `module` (left as it is)
/// on `target`. Fails after a diagnostic when a plan cannot be made.
mlir::LogicalResult collectKernelLayouts(mlir::ModuleOp module, const TargetInfo &target,
                                         std::vector<KernelLayouts> &out);

} // namespace tilec

#endif // TILEC_CONVERSION_TILETOGPU_LAYOUTREPORT_H
