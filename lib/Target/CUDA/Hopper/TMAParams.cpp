//===- TMAParams.cpp - Tensor-map parameters and TMA issue of a kernel ----===//
//
// The CUtensorMaps a kernel's TMA loads use are encoded by the launcher
// (lib/Target/CUDA) from the `tile.tensor_maps` attribute and passed as trailing
// __grid_constant__ parameters; the Hopper GEMM path and the mma.sync path's
// TMA pipelines (EmitPipelined.cpp) declare them here, and issue their loads
// through the inline-PTX helpers below (32-bit shared addresses).
//
//===----------------------------------------------------------------------===//
#include "HopperGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

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
  unsigned first = func.getNumArguments();
  // A memref of rank r lowers to 3 + 2r LLVM parameters.
  int64_t llvmIndex = 0;
  for (Type t : func.getArgumentTypes())
    llvmIndex += isa<MemRefType>(t) ? 3 + 2 * cast<MemRefType>(t).getRank() : 1;
  llvm::SmallVector<tile::TensorMapAttr> descs = tile::getTensorMaps(func);
  llvm::SmallVector<int64_t> params;
  if (DenseI64ArrayAttr old = tile::getGridConstantParams(func))
    params.append(old.asArrayRef().begin(), old.asArrayRef().end());
  auto ptrT = LLVM::LLVMPointerType::get(ctx);
  for (auto [i, spec] : llvm::enumerate(specs)) {
    descs.push_back(tile::TensorMapAttr::get(ctx, spec.arg, spec.boxInner, spec.boxOuter, dtypeName(spec.elementType),
                                             spec.swizzle));
    if (failed(func.insertArgument(first + i, ptrT, DictionaryAttr(), func.getLoc())))
      return func.emitOpError("cannot append the tensor-map parameters");
    params.push_back(llvmIndex + i);
  }
  tile::setTensorMaps(func, descs);
  tile::setGridConstantParams(func, params);
  return first;
}

Value hopper::createIsWarp0(OpBuilder &b, Location loc, Value tid) {
  auto c32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
  Value tid32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), tid);
  Value warp = arith::ShRUIOp::create(b, loc, tid32, c32(5));
  Value warp0 =
      NVVM::ShflOp::create(b, loc, b.getI32Type(), c32(-1), warp, c32(0), c32(31), NVVM::ShflKind::idx, UnitAttr());
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp0, c32(0));
}

void hopper::createInlinePTX(OpBuilder &b, Location loc, StringRef text, StringRef constraints, ValueRange args) {
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, args, text, constraints, /*has_side_effects=*/true,
                            /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
                            ArrayAttr());
}

void hopper::createArriveExpectTx(OpBuilder &b, Location loc, Value bar, int64_t bytes) {
  createInlinePTX(b, loc, "{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [$0], $1; }", "r,r",
                  {bar, arith::ConstantIntOp::create(b, loc, bytes, 32)});
}

void hopper::createTMALoad2D(OpBuilder &b, Location loc, Value dst, Value tensorMap, Value inner, Value outer,
                             Value bar) {
  createInlinePTX(b, loc,
                  "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, "
                  "$3}], [$4];",
                  "r,l,r,r,r", {dst, tensorMap, inner, outer, bar});
}
