//===- PtxasReport.cpp - What ptxas -v says about each kernel -------------===//
//
// The lines read (CUDA 12 and 13):
//   ptxas info    : Compiling entry function 'gemm' for 'sm_80'
//   ptxas info    : Function properties for gemm
//       1352 bytes stack frame, 3808 bytes spill stores, 3440 bytes spill loads
//   ptxas info    : Used 255 registers, used 1 barriers, 1 bytes smem, 528 bytes cmem[0]
// Anything else is skipped; a figure that is missing stays 0.
//
//===----------------------------------------------------------------------===//
#include "PtxasReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace tilec;

/// The number before `unit` in a comma-separated list of "N unit" items.
static uint64_t figure(llvm::StringRef list, llvm::StringRef unit) {
  llvm::SmallVector<llvm::StringRef> items;
  list.split(items, ',');
  for (llvm::StringRef item : items) {
    item = item.trim();
    uint64_t n = 0;
    llvm::StringRef number = item.take_while(llvm::isDigit);
    if (!number.empty() && item.drop_front(number.size()).trim() == unit && !number.getAsInteger(10, n))
      return n;
  }
  return 0;
}

std::vector<KernelResources> tilec::parsePtxasInfo(llvm::StringRef output, llvm::StringRef arch) {
  std::vector<KernelResources> kernels;
  llvm::SmallVector<llvm::StringRef> lines;
  output.split(lines, '\n');
  std::string properties; // the function the next line of figures is about
  for (llvm::StringRef line : lines) {
    llvm::StringRef text = line.trim();
    size_t colon = text.find(':');
    llvm::StringRef body = colon == llvm::StringRef::npos ? text : text.drop_front(colon + 1).trim();
    if (body.consume_front("Compiling entry function '")) {
      KernelResources &k = kernels.emplace_back();
      k.name = body.take_until([](char c) { return c == '\''; }).str();
      k.arch = arch.str();
    } else if (body.consume_front("Function properties for ")) {
      properties = body.trim().str();
    } else if (!properties.empty() && text.contains("bytes stack frame")) {
      for (KernelResources &k : kernels)
        if (k.name == properties) {
          k.stackFrame = figure(text, "bytes stack frame");
          k.spillStores = figure(text, "bytes spill stores");
          k.spillLoads = figure(text, "bytes spill loads");
        }
      properties.clear();
    } else if (body.consume_front("Used ") && !kernels.empty()) {
      KernelResources &k = kernels.back();
      k.registers = figure(body, "registers");
      llvm::SmallVector<llvm::StringRef> items;
      body.split(items, ',');
      for (llvm::StringRef item : items) {
        item = item.trim();
        uint64_t n = 0;
        if (item.consume_front("used ") && item.consume_back(" barriers") && !item.getAsInteger(10, n))
          k.barriers = unsigned(n);
      }
      k.staticShared = figure(body, "bytes smem");
    }
  }
  return kernels;
}

void tilec::printResources(const KernelResources &k, llvm::raw_ostream &os) {
  os << k.name << " on " << k.arch << ": " << k.registers << " registers, ";
  if (k.dynamicShared >= 0)
    os << (k.staticShared + uint64_t(k.dynamicShared)) << " bytes shared memory (" << k.staticShared << " static, "
       << k.dynamicShared << " dynamic)";
  else
    os << k.staticShared << " bytes shared memory (static)";
  os << ", " << k.stackFrame << " bytes stack frame, " << k.spillStores << " bytes spill stores, " << k.spillLoads
     << " bytes spill loads, " << k.barriers << " barriers\n";
}
