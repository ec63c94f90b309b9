//===- PtxasReport.h - What ptxas -v says about each kernel -----*- C++ -*-===//
//
// ptxas runs with -v; its "info" lines give each entry function's registers,
// spills, stack frame and static shared memory. tilec warns of spills
// (-Wspill) and prints them with --resource-usage.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_CUDA_PTXASREPORT_H
#define TILEC_LIB_TARGET_CUDA_PTXASREPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// One entry function of one ptxas run.
struct KernelResources {
  std::string name, arch;
  unsigned registers = 0, barriers = 0;
  uint64_t stackFrame = 0, spillStores = 0, spillLoads = 0;
  uint64_t staticShared = 0;  ///< ptxas's "bytes smem"
  int64_t dynamicShared = -1; ///< what the launcher asks for; -1: not a launched kernel
};

/// The entry functions that `ptxasOutput` (ptxas -v for `arch`) reports.
std::vector<KernelResources> parsePtxasInfo(llvm::StringRef ptxasOutput, llvm::StringRef arch);

/// One line of --resource-usage: "gemm on sm_80: 255 registers, ...".
void printResources(const KernelResources &k, llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_LIB_TARGET_CUDA_PTXASREPORT_H
