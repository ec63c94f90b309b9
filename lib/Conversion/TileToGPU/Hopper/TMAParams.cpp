//===- TMAParams.cpp - Tensor-map parameters of a kernel ------------------===//
//
// The CUtensorMaps a kernel's TMA loads use are encoded by the launcher
// (lib/Target/CUDA) from the `tilec.tma` attribute and passed as trailing
// __grid_constant__ parameters; the Hopper GEMM path and the mma.sync path's
// TMA pipelines (EmitGemm.cpp) declare them here.
//
//===----------------------------------------------------------------------===//
#include "tilec/Conversion/TileToGPU/Hopper/HopperGemm.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tilec;

/// The element type's name as tensor arguments spell it (KernelABI dtype).
static StringRef dtypeName(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return "float8_e4m3";
  if (isa<Float8E5M2Type>(t))
    return "float8_e5m2";
  if (t.isInteger(8))
    return "int8";
  return t.isBF16() ? "bfloat16" : "float16";
}

FailureOr<unsigned> hopper::appendTMADescriptorParams(gpu::GPUFuncOp func, ArrayRef<TMADescriptorSpec> specs) {
  MLIRContext *ctx = func.getContext();
  registerGridConstantTranslation(ctx);
  Builder bld(ctx);
  unsigned first = func.getNumArguments();
  // A memref of rank r lowers to 3 + 2r LLVM parameters.
  int64_t llvmIndex = 0;
  for (Type t : func.getArgumentTypes())
    llvmIndex += isa<MemRefType>(t) ? 3 + 2 * cast<MemRefType>(t).getRank() : 1;
  llvm::SmallVector<Attribute> descs;
  if (auto old = func->getAttrOfType<ArrayAttr>(kTMAAttrName))
    descs.append(old.begin(), old.end());
  llvm::SmallVector<int64_t> params;
  if (auto old = func->getAttrOfType<DenseI64ArrayAttr>(kGridConstantAttrName))
    params.append(old.asArrayRef().begin(), old.asArrayRef().end());
  auto ptrT = LLVM::LLVMPointerType::get(ctx);
  for (auto [i, spec] : llvm::enumerate(specs)) {
    descs.push_back(bld.getDictionaryAttr(
        {bld.getNamedAttr("arg", bld.getI64IntegerAttr(spec.arg)),
         bld.getNamedAttr("box", bld.getDenseI64ArrayAttr({spec.boxInner, spec.boxOuter})),
         bld.getNamedAttr("dtype", bld.getStringAttr(dtypeName(spec.elementType))),
         bld.getNamedAttr("swizzle", bld.getI64IntegerAttr(spec.swizzle))}));
    if (failed(func.insertArgument(first + i, ptrT, DictionaryAttr(), func.getLoc())))
      return func.emitOpError("cannot append the tensor-map parameters");
    params.push_back(llvmIndex + i);
  }
  func->setAttr(kTMAAttrName, bld.getArrayAttr(descs));
  func->setAttr(kGridConstantAttrName, bld.getDenseI64ArrayAttr(params));
  return first;
}
