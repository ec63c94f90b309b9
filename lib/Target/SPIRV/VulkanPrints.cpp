//===- VulkanPrints.cpp - T.print on the SPIR-V targets -------------------===//
//
// TileToGPU writes each printed value as a gpu.printf (the CUDA path's
// format: block, thread, element, value as %lld / %f of 64-bit operands).
// SPIR-V has no printf a Vulkan host can read back, so on Vulkan:
// 1. narrowPrints (before the limit checks): each operand back to the 32-bit
//    value it was widened from (an index, an int32, a float32), so that a
//    print needs no int64/float64; the kinds go into `tilec.print_args`.
// 2. lowerPrints (after the ABI rewrite): one more storage buffer (set 0,
//    after the tensors), and each gpu.printf becomes an atomic increment of
//    its record counter and, while there is room, the stores of one record:
//    the format index, then two words per value (Reflection.h). The runner
//    formats the records after the dispatch (formatPrints).
// Metal and WebGPU drop the prints with a warning at each (dropPrints).
//
//===----------------------------------------------------------------------===//
#include "VulkanPrints.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tilec;

static constexpr llvm::StringLiteral kPrintArgs = "tilec.print_args";

/// Erases `op` and then the operand producers it leaves unused (the widening
/// casts of its operands), if they have no side effects.
static void eraseWithDeadOperands(Operation *op) {
  llvm::SmallVector<Operation *> work;
  for (Value v : op->getOperands())
    if (Operation *def = v.getDefiningOp())
      work.push_back(def);
  op->erase();
  while (!work.empty()) {
    Operation *def = work.pop_back_val();
    if (!def->use_empty() || !isMemoryEffectFree(def) || def->getNumRegions())
      continue;
    for (Value v : def->getOperands())
      if (Operation *d = v.getDefiningOp())
        work.push_back(d);
    def->erase();
  }
}

/// `v` as a value of 32 bits where it was widened from one (or two words of
/// 64 bits where it is one), and how the host reads it.
static Value narrow(OpBuilder &b, Location loc, Value v, vk::PrintArg &kind) {
  bool isUnsigned = false;
  while (Operation *def = v.getDefiningOp()) {
    if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtFOp>(def)) {
      v = def->getOperand(0);
    } else if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(def)) {
      v = def->getOperand(0);
      isUnsigned = true;
    } else {
      break;
    }
  }
  Type t = v.getType();
  if (t.isIndex()) {
    kind = vk::PrintArg::Int32;
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
  }
  if (auto f = dyn_cast<FloatType>(t)) {
    if (f.getWidth() == 64)
      return kind = vk::PrintArg::Float64, v;
    kind = vk::PrintArg::Float32;
    return f.getWidth() == 32 ? v : arith::ExtFOp::create(b, loc, b.getF32Type(), v).getResult();
  }
  unsigned width = t.getIntOrFloatBitWidth();
  if (width == 64)
    return kind = vk::PrintArg::Int64, v;
  kind = isUnsigned || width == 1 ? vk::PrintArg::UInt32 : vk::PrintArg::Int32;
  if (width == 32)
    return v;
  if (isUnsigned || width == 1)
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), v);
  return arith::ExtSIOp::create(b, loc, b.getI32Type(), v);
}

void vulkan::narrowPrints(gpu::GPUFuncOp kernel) {
  llvm::SmallVector<gpu::PrintfOp> prints;
  kernel.walk([&](gpu::PrintfOp op) { prints.push_back(op); });
  for (gpu::PrintfOp op : prints) {
    if (op->hasAttr(kPrintArgs))
      continue;
    OpBuilder b(op);
    llvm::SmallVector<Value> args;
    llvm::SmallVector<int32_t> kinds;
    for (Value v : op.getArgs()) {
      vk::PrintArg kind;
      args.push_back(narrow(b, op.getLoc(), v, kind));
      kinds.push_back(static_cast<int32_t>(kind));
    }
    auto narrowed = gpu::PrintfOp::create(b, op.getLoc(), op.getFormatAttr(), args);
    narrowed->setAttr(kPrintArgs, b.getDenseI32ArrayAttr(kinds));
    eraseWithDeadOperands(op);
  }
}

/// The two words of `v` (of kind `kind`) as i32 values.
static std::pair<Value, Value> recordWords(OpBuilder &b, Location loc, Value v, vk::PrintArg kind) {
  Type i32 = b.getI32Type();
  if (kind == vk::PrintArg::Float32)
    v = arith::BitcastOp::create(b, loc, i32, v);
  if (kind != vk::PrintArg::Int64 && kind != vk::PrintArg::Float64)
    return {v, arith::ConstantIntOp::create(b, loc, 0, 32)};
  if (kind == vk::PrintArg::Float64)
    v = arith::BitcastOp::create(b, loc, b.getI64Type(), v);
  Value lo = arith::TruncIOp::create(b, loc, i32, v);
  Value shifted = arith::ShRUIOp::create(b, loc, v, arith::ConstantIntOp::create(b, loc, 32, 64));
  return {lo, arith::TruncIOp::create(b, loc, i32, shifted)};
}

LogicalResult vulkan::lowerPrints(gpu::GPUFuncOp kernel, vk::Reflection &r) {
  llvm::SmallVector<gpu::PrintfOp> prints;
  kernel.walk([&](gpu::PrintfOp op) { prints.push_back(op); });
  if (prints.empty())
    return success();
  MLIRContext *ctx = kernel.getContext();
  size_t maxArgs = 1;
  for (gpu::PrintfOp op : prints)
    maxArgs = std::max(maxArgs, op.getArgs().size());
  r.printRecordWords = static_cast<uint32_t>(1 + 2 * maxArgs);
  r.printBinding = static_cast<uint32_t>(r.bindings.size());
  auto bufferType = MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 32), AffineMap(),
                                    spirv::StorageClassAttr::get(ctx, spirv::StorageClass::StorageBuffer));
  unsigned index = kernel.getNumArguments();
  if (failed(kernel.insertArgument(index, bufferType, {}, kernel.getLoc())))
    return kernel.emitError("cannot add the T.print buffer argument");
  kernel.setArgAttr(index, spirv::getInterfaceVarABIAttrName(),
                    spirv::getInterfaceVarABIAttr(0, r.printBinding, std::nullopt, ctx));
  Value buffer = kernel.getArgument(index);
  for (gpu::PrintfOp op : prints) {
    auto kinds = dyn_cast_or_null<DenseI32ArrayAttr>(op->getAttr(kPrintArgs));
    if (!kinds || kinds.size() != static_cast<int64_t>(op.getArgs().size()))
      return op.emitOpError("was not narrowed for the Vulkan print buffer");
    // One format per distinct line shape (a fragment's registers share one).
    vk::PrintFormat f{op.getFormat().str(), {}};
    for (int32_t k : kinds.asArrayRef())
      f.args.push_back(static_cast<vk::PrintArg>(k));
    auto same = [&](const vk::PrintFormat &g) { return g.format == f.format && g.args == f.args; };
    uint32_t format = static_cast<uint32_t>(llvm::find_if(r.prints, same) - r.prints.begin());
    if (format == r.prints.size())
      r.prints.push_back(std::move(f));
    const vk::PrintFormat &shape = r.prints[format];

    OpBuilder b(op);
    Location loc = op.getLoc();
    auto cIdx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
    Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
    Value slot = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, one, buffer, ValueRange{cIdx(0)});
    Value capacity = memref::LoadOp::create(b, loc, buffer, ValueRange{cIdx(1)});
    Value room = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slot, capacity);
    auto ifOp = scf::IfOp::create(b, loc, room, /*withElse=*/false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value slotIdx = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot);
    Value base = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, slotIdx, cIdx(r.printRecordWords)),
                                       cIdx(vk::kPrintHeaderWords));
    auto store = [&](Value word, int64_t at) {
      memref::StoreOp::create(b, loc, word, buffer, ValueRange{arith::AddIOp::create(b, loc, base, cIdx(at))});
    };
    store(arith::ConstantIntOp::create(b, loc, format, 32), 0);
    for (auto [i, v] : llvm::enumerate(op.getArgs())) {
      auto [lo, hi] = recordWords(b, loc, v, shape.args[i]);
      store(lo, 1 + 2 * i);
      store(hi, 2 + 2 * i);
    }
    op.erase();
  }
  return success();
}

void tilec::dropPrints(ModuleOp module, llvm::StringRef why) {
  llvm::SmallVector<gpu::PrintfOp> prints;
  module.walk([&](gpu::PrintfOp op) { prints.push_back(op); });
  llvm::DenseSet<Location> warned; // one warning per T.print, not per value
  for (gpu::PrintfOp op : prints) {
    if (warned.insert(op.getLoc()).second)
      emitWarning(op.getLoc()) << "T.print is dropped: " << why;
    eraseWithDeadOperands(op);
  }
}
