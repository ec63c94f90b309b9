//===- CWriter.h - Line-by-line writer for generated C headers --*- C++ -*-===//
//
// Every generated header (host/CUDA launchers, Vulkan reflection) is printed
// through this writer: one call per line, consistent indentation.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TARGET_CWRITER_H
#define TILEC_TARGET_CWRITER_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Prints C declarations line by line with consistent indentation.
class CWriter {
public:
  explicit CWriter(llvm::raw_ostream &os) : os(os) {}
  CWriter &line(const llvm::Twine &text = "") {
    os.indent(indent * 2) << text << "\n";
    return *this;
  }
  void push() { ++indent; }
  void pop() { --indent; }

private:
  llvm::raw_ostream &os;
  unsigned indent = 0;
};

} // namespace tilec

#endif // TILEC_TARGET_CWRITER_H
