//===- NVGPUEmit.cpp - The code CUDATargetInfo writes for TileToGPU -------===//
//
// The NVIDIA forms of the TargetInfo emission hooks: ldmatrix (inline PTX)
// and nvvm.mma.sync, nvgpu.device_async_copy with cp.async commit/wait
// groups, the TMA ring (nvgpu mbarriers, cp.async.bulk.tensor and
// prefetch.tensormap as inline PTX, Hopper/TMAParams.cpp), elect.sync, and
// the wgmma gemm path (Hopper/).
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/CUDA/CUDATargetInfo.h"

#include "Hopper/HopperGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace tilec;

void CUDATargetInfo::getDependentDialects(DialectRegistry &registry) const {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect>();
}

FailureOr<bool> CUDATargetInfo::lowerKernel(tile::KernelOp kernel, tile::LaunchOp launch, gpu::GPUFuncOp func) const {
  return hopper::lowerGemmKernel(kernel, launch, func, *this, warpSpecialization, tmaStore, persistent);
}

SmallVector<Value> CUDATargetInfo::emitMatrixLoad(OpBuilder &b, Location loc, Value addr, int64_t offset, int tiles,
                                                  bool transpose) const {
  std::string text =
      "ldmatrix.sync.aligned.m8n8.x" + std::to_string(tiles) + (transpose ? ".trans" : "") + ".shared.b16 {";
  std::string constraints;
  for (int i = 0; i < tiles; ++i) {
    text += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=r,";
  }
  text += "}, [$" + std::to_string(tiles) + (offset ? "+" + std::to_string(offset) : "") + "];";
  constraints += "r";
  Type i32 = b.getI32Type();
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(), SmallVector<Type>(tiles, i32));
  // Has side effects: LLVM must not move it across barriers or cp.async waits.
  auto asmOp = LLVM::InlineAsmOp::create(b, loc, type, ValueRange{addr}, text, constraints,
                                         /*has_side_effects=*/true, /*is_align_stack=*/false,
                                         LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  SmallVector<Value> regs;
  for (int i = 0; i < tiles; ++i)
    regs.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getRes(), ArrayRef<int64_t>{i}));
  return regs;
}

void CUDATargetInfo::emitMatrixMultiply(OpBuilder &b, Location loc, MatrixShape shape, Type ab, ArrayRef<Value> a,
                                        ArrayRef<Value> bRegs, Value acc, int64_t accFirst) const {
  // mma.sync m16n8k16 on f16/bf16: f16 pairs as vector<2xf16>, bf16 pairs
  // as i32; four f32 accumulators per lane.
  bool bf16 = ab.isBF16();
  auto operand = [&](Value reg) -> Value {
    if (bf16)
      return reg;
    return LLVM::BitcastOp::create(b, loc, VectorType::get({2}, b.getF16Type()), reg);
  };
  SmallVector<Value> A, B, C;
  for (Value r : a)
    A.push_back(operand(r));
  for (Value r : bRegs)
    B.push_back(operand(r));
  for (int64_t i = 0; i < 4; ++i)
    C.push_back(memref::LoadOp::create(b, loc, acc, ValueRange{arith::ConstantIndexOp::create(b, loc, accFirst + i)}));
  Type f32 = b.getF32Type();
  Type resType = LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes ptx = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  Value d = NVVM::MmaOp::create(b, loc, resType, A, B, C, ArrayRef<int64_t>{shape.m, shape.n, shape.k}, std::nullopt,
                                std::nullopt, std::array<NVVM::MMATypes, 2>{ptx, ptx},
                                std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
  for (int64_t i = 0; i < 4; ++i)
    memref::StoreOp::create(b, loc, LLVM::ExtractValueOp::create(b, loc, d, ArrayRef<int64_t>{i}), acc,
                            ValueRange{arith::ConstantIndexOp::create(b, loc, accFirst + i)});
}

void CUDATargetInfo::emitAsyncCopy(OpBuilder &b, Location loc, Value dst, ValueRange dstIndices, Value src,
                                   ValueRange srcIndices, int64_t elements, Value srcElements) const {
  // 16-byte copies bypass L1 (cp.async.cg).
  unsigned bits = cast<MemRefType>(src.getType()).getElementType().getIntOrFloatBitWidth();
  auto token = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  nvgpu::DeviceAsyncCopyOp::create(b, loc, token, dst, dstIndices, src, srcIndices, b.getIndexAttr(elements),
                                   srcElements, elements * bits == 128 ? b.getUnitAttr() : UnitAttr());
}

void CUDATargetInfo::emitAsyncCommit(OpBuilder &b, Location loc) const { NVVM::CpAsyncCommitGroupOp::create(b, loc); }

void CUDATargetInfo::emitAsyncWait(OpBuilder &b, Location loc, int64_t pending) const {
  NVVM::CpAsyncWaitGroupOp::create(b, loc, pending);
}

FailureOr<unsigned> CUDATargetInfo::addTensorCopyDescriptors(gpu::GPUFuncOp func,
                                                             ArrayRef<TensorCopyDescriptor> descs) const {
  SmallVector<hopper::TMADescriptorSpec> specs;
  for (const TensorCopyDescriptor &d : descs)
    specs.push_back({d.arg, d.boxInner, d.boxOuter, d.elementType, d.swizzle});
  return hopper::appendTMADescriptorParams(func, specs);
}

Value CUDATargetInfo::emitTensorCopyBarriers(OpBuilder &b, Location loc, int64_t stages) const {
  MLIRContext *ctx = b.getContext();
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return nvgpu::MBarrierCreateOp::create(b, loc, nvgpu::MBarrierGroupType::get(ctx, wg, stages));
}

void CUDATargetInfo::emitTensorCopyInit(OpBuilder &b, Location loc, Value barriers, int64_t stages,
                                        ValueRange descriptors) const {
  auto cIdx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  for (int64_t s = 0; s < stages; ++s)
    nvgpu::MBarrierInitOp::create(b, loc, barriers, cIdx(1), cIdx(s), Value());
  // The initialised barriers must be visible to the TMA unit (async proxy).
  NVVM::FenceMbarrierInitOp::create(b, loc);
  for (Value m : descriptors)
    hopper::createInlinePTX(b, loc, "prefetch.tensormap [$0];", "l", {m});
}

Value CUDATargetInfo::emitTensorCopyArrive(OpBuilder &b, Location loc, Value barriers, Value slot,
                                           int64_t bytes) const {
  Value bar = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), barriers, slot);
  hopper::createArriveExpectTx(b, loc, bar, bytes);
  return bar;
}

void CUDATargetInfo::emitTensorCopyLoad2D(OpBuilder &b, Location loc, Value dst, Value descriptor, Value inner,
                                          Value outer, Value barrier) const {
  hopper::createTMALoad2D(b, loc, dst, descriptor, inner, outer, barrier);
}

void CUDATargetInfo::emitTensorCopyWait(OpBuilder &b, Location loc, Value barriers, Value slot, Value parity) const {
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity, arith::ConstantIndexOp::create(b, loc, 10000000),
                                         slot);
}

void CUDATargetInfo::emitTensorCopyRelease(OpBuilder &b, Location loc, Value barriers, int64_t stages) const {
  auto ptrT = LLVM::LLVMPointerType::get(b.getContext(), 3);
  for (int64_t s = 0; s < stages; ++s) {
    Value addr =
        nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), barriers, arith::ConstantIndexOp::create(b, loc, s));
    NVVM::MBarrierInvalOp::create(b, loc, LLVM::IntToPtrOp::create(b, loc, ptrT, addr));
  }
}

void CUDATargetInfo::emitRangeBarrier(OpBuilder &b, Location loc, int64_t count) const {
  Value id = arith::ConstantIntOp::create(b, loc, 2, 32);
  Value n = arith::ConstantIntOp::create(b, loc, count, 32);
  NVVM::BarrierOp::create(b, loc, Type(), id, n, NVVM::BarrierReductionAttr(), Value());
}

Value CUDATargetInfo::emitElect(OpBuilder &b, Location loc) const {
  return NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
}

Value CUDATargetInfo::emitIsWarpZero(OpBuilder &b, Location loc, Value tid) const {
  return hopper::createIsWarp0(b, loc, tid);
}
