//===- kernel_operator.h - The CPU model standing in for CANN's header ----===//
//
// Generated Ascend C includes "kernel_operator.h"; the numeric runs put this
// folder first on the include path so that it resolves to tilec's CPU model.
//
//===----------------------------------------------------------------------===//
#include "ascendc_cpu.h"
