//===- LaunchLimits.cpp - The sizes every launcher rejects -----------------===//
//
// See LaunchLimits.h.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/LaunchLimits.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tilec;

unsigned tilec::tensorElementBytes(llvm::StringRef dtype) {
  return llvm::StringSwitch<unsigned>(dtype)
      .Cases("float16", "bfloat16", "int16", "uint16", 2)
      .Cases("float32", "int32", "uint32", 4)
      .Cases("float64", "int64", "uint64", 8)
      .Default(1);
}

TensorSizeTerms tilec::tensorSizeTerms(const KernelSignature &sig, unsigned tensorArg) {
  TensorSizeTerms t;
  const KernelArg &arg = sig.args[tensorArg];
  t.staticBytes = tensorElementBytes(arg.dtype);
  for (const DimExprRef &e : arg.dims) {
    if (!e || !e->isConstant()) {
      if (e)
        t.dims.push_back(e.get());
      continue;
    }
    uint64_t v = e->value;
    if (v != 0 && t.staticBytes > kMaxTensorBytes / v)
      t.staticTooBig = true;
    else
      t.staticBytes *= v;
  }
  if (t.staticBytes > kMaxTensorBytes)
    t.staticTooBig = true;
  return t;
}
