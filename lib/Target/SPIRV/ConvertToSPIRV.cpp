//===- ConvertToSPIRV.cpp - gpu.module -> spirv.module for Vulkan ---------===//
//
// One full dialect conversion: upstream gpu (subgroup MMA as KHR cooperative
// matrices included), scf, arith, math, memref, func, vector and index
// patterns, plus GLSL.std.450 patterns for the math ops the upstream ones
// leave out and atomic adds (int32, and float32 through
// SPV_EXT_shader_atomic_float_add).
//
//===----------------------------------------------------------------------===//
#include "ConvertToSPIRV.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"

using namespace mlir;

namespace {
/// `Src` -> the GLSL.std.450 op `Dst` for the float widths `Dst` accepts
/// (`allowF64`: 16, 32 and 64 bits; otherwise 16 and 32).
template <typename Src, typename Dst>
struct MathToGL : OpConversionPattern<Src> {
  MathToGL(const TypeConverter &converter, MLIRContext *ctx, bool allowF64)
      : OpConversionPattern<Src>(converter, ctx, /*benefit=*/2), allowF64(allowF64) {}
  LogicalResult matchAndRewrite(Src op, typename Src::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type t = op.getType();
    if (!isa<FloatType>(t) || (t.isF64() && !allowF64) || (!t.isF16() && !t.isF32() && !t.isF64()))
      return failure();
    Type converted = this->getTypeConverter()->convertType(t);
    if (!converted)
      return failure();
    rewriter.replaceOpWithNewOp<Dst>(op, converted, adaptor.getOperands());
    return success();
  }
  bool allowF64;
};

/// memref.atomic_rmw addi on i32 -> spirv.AtomicIAdd, addf on f32 ->
/// spirv.EXT.AtomicFAdd (SPV_EXT_shader_atomic_float_add; the target env
/// decides whether it is legal). Relaxed, at device scope on storage buffers
/// and workgroup scope on workgroup memory. The Vulkan limits check has
/// already rejected every other kind and type with a diagnostic.
struct AtomicAddToSPIRV : OpConversionPattern<memref::AtomicRMWOp> {
  AtomicAddToSPIRV(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(memref::AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type t = op.getType();
    bool isInt = op.getKind() == arith::AtomicRMWKind::addi && t.isInteger(32);
    bool isFloat = op.getKind() == arith::AtomicRMWKind::addf && t.isF32();
    if (!isInt && !isFloat)
      return rewriter.notifyMatchFailure(op, "only addi on i32 and addf on f32");
    auto memrefType = op.getMemRefType();
    auto storage = dyn_cast_or_null<spirv::StorageClassAttr>(memrefType.getMemorySpace());
    if (!storage)
      return rewriter.notifyMatchFailure(op, "memref without a SPIR-V storage class");
    spirv::Scope scope =
        storage.getValue() == spirv::StorageClass::Workgroup ? spirv::Scope::Workgroup : spirv::Scope::Device;
    const auto &converter = *getTypeConverter<SPIRVTypeConverter>();
    Value ptr = spirv::getElementPtr(converter, memrefType, adaptor.getMemref(), adaptor.getIndices(), op.getLoc(),
                                     rewriter);
    Type result = converter.convertType(t);
    if (!ptr || !result)
      return rewriter.notifyMatchFailure(op, "cannot address the element");
    if (isInt)
      rewriter.replaceOpWithNewOp<spirv::AtomicIAddOp>(op, result, ptr, scope, spirv::MemorySemantics::None,
                                                       adaptor.getValue());
    else
      rewriter.replaceOpWithNewOp<spirv::EXTAtomicFAddOp>(op, result, ptr, scope, spirv::MemorySemantics::None,
                                                          adaptor.getValue());
    return success();
  }
};
} // namespace

LogicalResult tilec::convertGPUModuleToSPIRV(gpu::GPUModuleOp gpuModule) {
  MLIRContext *ctx = gpuModule.getContext();
  spirv::TargetEnvAttr env = spirv::lookupTargetEnvOrDefault(gpuModule);
  std::unique_ptr<ConversionTarget> target = SPIRVConversionTarget::get(env);
  SPIRVConversionOptions options;
  SPIRVTypeConverter typeConverter(env, options);
  RewritePatternSet patterns(ctx);
  populateGPUToSPIRVPatterns(typeConverter, patterns);
  // gpu.subgroup_mma_* (T.gemm with --vk-cooperative-matrix) ->
  // spirv.KHR.CooperativeMatrix*; the target env decides whether they are legal.
  populateMMAToSPIRVCoopMatrixTypeConversion(typeConverter);
  populateGpuWMMAToSPIRVCoopMatrixKHRConversionPatterns(typeConverter, patterns);
  ScfToSPIRVContext scfContext;
  populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
  arith::populateArithToSPIRVPatterns(typeConverter, patterns);
  populateMathToSPIRVPatterns(typeConverter, patterns);
  populateMemRefToSPIRVPatterns(typeConverter, patterns);
  populateFuncToSPIRVPatterns(typeConverter, patterns);
  populateVectorToSPIRVPatterns(typeConverter, patterns);
  index::populateIndexToSPIRVPatterns(typeConverter, patterns);
  patterns.add<MathToGL<math::Exp2Op, spirv::GLExp2Op>>(typeConverter, ctx, /*allowF64=*/false);
  patterns.add<MathToGL<math::FloorOp, spirv::GLFloorOp>, MathToGL<math::SqrtOp, spirv::GLSqrtOp>,
               MathToGL<math::RsqrtOp, spirv::GLInverseSqrtOp>, MathToGL<math::AbsFOp, spirv::GLFAbsOp>>(
      typeConverter, ctx, /*allowF64=*/true);
  patterns.add<AtomicAddToSPIRV>(typeConverter, ctx);
  return applyFullConversion(gpuModule.getOperation(), *target, std::move(patterns));
}
