//===- HostLauncher.cpp - The exported C launchers of the host target -----===//
//
// For each kernel `k`, after convert-tile-to-loops:
//   int k(T *tensors..., int64_t dims..., scalars...)
// 1. Return TILEC_ERROR_NULL_POINTER if a tensor pointer is null, then
//    TILEC_ERROR_BAD_DIMENSION if a dynamic dimension is <= 0 or makes a
//    tensor larger than kMaxTensorBytes (LaunchLimits.h: its element count,
//    byte size or indices would overflow).
// 2. Build each tensor's memref descriptor from its pointer (row-major,
//    contiguous; dynamic sizes from the dimension arguments) and cast it to
//    the body's memref type (the casts fold away in the LLVM lowering).
// 3. Ask @__tilec_k_grid for the extents; call @__tilec_k_body for every
//    block, bz outermost and bx innermost -- or, with several threads, let
//    worker threads take block numbers from an atomic counter
//    (HostThreads.cpp).
// The parts of a launch sequence get internal launchers of their own, which
// the sequence's launcher calls in order (HostSequence.cpp).
//
//===----------------------------------------------------------------------===//
#include "HostLauncher.h"
#include "tilec/Target/Host/HostTarget.h"
#include "tilec/Target/LaunchLimits.h"

#include "tilec/Conversion/TileToLoops/TileToLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::host;

Type host::cParameterType(Type kernelType) {
  MLIRContext *ctx = kernelType.getContext();
  if (llvm::isa<MemRefType>(kernelType))
    return LLVM::LLVMPointerType::get(ctx);
  if (kernelType.isIndex())
    return IntegerType::get(ctx, 64);
  if (auto ft = llvm::dyn_cast<FloatType>(kernelType))
    if (!ft.isF32() && !ft.isF64())
      return IntegerType::get(ctx, std::max(8u, ft.getWidth())); // float4_e2m1fn: its code in a byte
  if (kernelType.isInteger(1) || kernelType.isInteger(4))
    return IntegerType::get(ctx, 8);
  return kernelType;
}

LauncherInfo::LauncherInfo(const KernelSignature &sig, func::FuncOp body, func::FuncOp grid)
    : sig(sig), body(body), grid(grid) {}

llvm::SmallVector<Type> LauncherInfo::parameterTypes() const {
  llvm::SmallVector<Type> types;
  for (unsigned i = 0; i < sig.args.size(); ++i)
    types.push_back(cParameterType(body.getArgumentTypes()[i]));
  return types;
}

LogicalResult LauncherInfo::resolveDimensions() {
  llvm::SmallVector<unsigned> dims;
  for (auto [i, arg] : llvm::enumerate(sig.args))
    if (arg.kind == KernelArg::Kind::DynamicDim)
      dims.push_back(i);
  for (auto [i, arg] : llvm::enumerate(sig.args)) {
    auto type = llvm::dyn_cast<MemRefType>(body.getArgumentTypes()[i]);
    if (arg.kind != KernelArg::Kind::Tensor || !type)
      continue;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      DimExprRef e = d < (int64_t)arg.dims.size() ? arg.dims[d] : nullptr;
      if (!e && dims.size() == 1) {
        auto only = std::make_shared<DimExpr>(); // no tile.shape: the only dynamic dimension
        only->op = DimExpr::Op::Arg;
        only->arg = dims.front();
        e = only;
      }
      if (!e)
        return body.emitError() << "cannot tell which dynamic dimension sizes dimension " << d << " of '" << arg.name
                                << "' (no 'tile.shape' attribute)";
      dynamicSize[{unsigned(i), unsigned(d)}] = e;
    }
  }
  return success();
}

Value ArithDimBuilder::constant(int64_t v) {
  // Sign-extended: Builder::getIntegerAttr zero-extends into a signless i128.
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, llvm::APInt(type.getIntOrFloatBitWidth(), v, true)));
}
Value ArithDimBuilder::arg(unsigned i) {
  Value p = params[i];
  if (clamp > 0)
    p = arith::MinUIOp::create(b, loc, p, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(clamp)));
  return p.getType() == type ? p : arith::ExtUIOp::create(b, loc, type, p).getResult();
}
Value ArithDimBuilder::add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
Value ArithDimBuilder::sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
Value ArithDimBuilder::mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
Value ArithDimBuilder::sdiv(Value x, Value y) { return arith::DivSIOp::create(b, loc, x, y); }
Value ArithDimBuilder::srem(Value x, Value y) { return arith::RemSIOp::create(b, loc, x, y); }
Value ArithDimBuilder::smin(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
Value ArithDimBuilder::smax(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
Value ArithDimBuilder::slt(Value x, Value y) { return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y); }
Value ArithDimBuilder::select(Value c, Value x, Value y) { return arith::SelectOp::create(b, loc, c, x, y); }
Value ArithDimBuilder::bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }

/// A memref descriptor over `ptr`, cast to `type`.
static Value buildDescriptor(OpBuilder &b, Location loc, MemRefType type, Value ptr, llvm::ArrayRef<Value> sizes) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  int64_t rank = type.getRank();
  llvm::SmallVector<Type> fields{ptrType, ptrType, i64};
  if (rank) {
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
  }
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  Value desc = LLVM::PoisonOp::create(b, loc, structType);
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, llvm::ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, llvm::ArrayRef<int64_t>{1});
  desc = LLVM::InsertValueOp::create(b, loc, desc, LLVM::ConstantOp::create(b, loc, i64, 0),
                                     llvm::ArrayRef<int64_t>{2});
  Value stride = LLVM::ConstantOp::create(b, loc, i64, 1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc = LLVM::InsertValueOp::create(b, loc, desc, sizes[d], llvm::ArrayRef<int64_t>{3, d});
    desc = LLVM::InsertValueOp::create(b, loc, desc, stride, llvm::ArrayRef<int64_t>{4, d});
    stride = LLVM::MulOp::create(b, loc, stride, sizes[d]);
  }
  return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
}

llvm::SmallVector<Value> LauncherInfo::kernelArguments(OpBuilder &b, Location loc, ValueRange params) const {
  llvm::SmallVector<Value> args;
  Type i64 = b.getI64Type();
  for (unsigned i = 0; i < sig.args.size(); ++i) {
    Type type = body.getArgumentTypes()[i];
    Value param = params[i];
    if (auto memref = llvm::dyn_cast<MemRefType>(type)) {
      llvm::SmallVector<Value> sizes;
      for (int64_t d = 0; d < memref.getRank(); ++d) {
        if (!memref.isDynamicDim(d)) {
          sizes.push_back(LLVM::ConstantOp::create(b, loc, i64, memref.getDimSize(d)));
          continue;
        }
        ArithDimBuilder db{b, loc, params, i64};
        sizes.push_back(buildDimExpr<ArithDimBuilder, Value>(*dynamicSize.lookup({i, unsigned(d)}), db));
      }
      args.push_back(buildDescriptor(b, loc, memref, param, sizes));
    } else if (type.isIndex()) {
      args.push_back(arith::IndexCastOp::create(b, loc, type, param));
    } else if (type.isInteger(1)) {
      args.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, param,
                                           arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0))));
    } else if (type.isInteger(4)) {
      args.push_back(arith::TruncIOp::create(b, loc, type, param));
    } else if (llvm::isa<Float4E2M1FNType>(type)) {
      Value code = arith::TruncIOp::create(b, loc, b.getIntegerType(4), param);
      args.push_back(arith::BitcastOp::create(b, loc, type, code));
    } else if (param.getType() != type) {
      args.push_back(arith::BitcastOp::create(b, loc, type, param));
    } else {
      args.push_back(param);
    }
  }
  return args;
}

Value LauncherInfo::checkArguments(OpBuilder &b, Location loc, ValueRange params) const {
  return checkLauncherArguments(b, loc, sig, params);
}

/// True when tensor argument `i`, with the dynamic dimensions in `params`, is
/// over kMaxTensorBytes, or has a derived dimension <= 0 (or one computed
/// through a value over the limit). In i128, each dimension clamped to just
/// over the limit (a negative one counts as huge), so nothing wraps.
static Value tensorTooLarge(OpBuilder &b, Location loc, const KernelSignature &sig, unsigned i, ValueRange params) {
  TensorSizeTerms t = tensorSizeTerms(sig, i);
  if (t.staticTooBig)
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  if (t.dims.empty())
    return Value();
  Type i128 = b.getIntegerType(128);
  auto c128 = [&](uint64_t v) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i128, v)).getResult(); };
  Value cap = c128(kMaxTensorBytes + 1), bytes = c128(t.staticBytes);
  Value bad;
  ArithDimBuilder db{b, loc, params, i128, int64_t(kMaxTensorBytes + 1)};
  for (const DimExpr *e : t.dims) {
    Value d;
    if (e->isArg()) {
      d = db.arg(e->arg);
    } else {
      Value over = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
      d = buildCheckedDimExpr<ArithDimBuilder, Value>(*e, db, over, int64_t(kMaxTensorBytes));
      if (!e->isConstant())
        over = arith::OrIOp::create(b, loc, over, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, d, c128(0)));
      bad = bad ? arith::OrIOp::create(b, loc, bad, over).getResult() : over;
    }
    bytes = arith::MinUIOp::create(b, loc, arith::MulIOp::create(b, loc, bytes, d), cap);
  }
  Value tooLarge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, bytes, c128(kMaxTensorBytes));
  return bad ? arith::OrIOp::create(b, loc, bad, tooLarge).getResult() : tooLarge;
}

Value host::checkLauncherArguments(OpBuilder &b, Location loc, const KernelSignature &sig, ValueRange params) {
  Value anyNull, badDim;
  auto orInto = [&](Value &acc, Value v) { acc = acc ? arith::OrIOp::create(b, loc, acc, v).getResult() : v; };
  for (auto [i, arg] : llvm::enumerate(sig.args)) {
    Value param = params[i];
    if (arg.kind == KernelArg::Kind::Tensor) {
      Value null = LLVM::ZeroOp::create(b, loc, param.getType());
      orInto(anyNull, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, param, null));
      if (Value tooLarge = tensorTooLarge(b, loc, sig, i, params))
        orInto(badDim, tooLarge);
    } else if (arg.kind == KernelArg::Kind::DynamicDim) {
      Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
      orInto(badDim, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, param, zero));
    }
  }
  Value ok = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int(LaunchStatus::Success)));
  Value status = ok;
  if (badDim)
    status = arith::SelectOp::create(
        b, loc, badDim, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int(LaunchStatus::BadDimension))), status);
  if (anyNull)
    status = arith::SelectOp::create(
        b, loc, anyNull, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int(LaunchStatus::NullPointer))), status);
  return status;
}

void LauncherInfo::runBlocksSerially(OpBuilder &b, Location loc, ValueRange args, ValueRange extents) const {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0), one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(b, loc, zero, extents[2], one, ValueRange{}, [&](OpBuilder &bz, Location l, Value z, ValueRange) {
    scf::ForOp::create(bz, l, zero, extents[1], one, ValueRange{}, [&](OpBuilder &by, Location l2, Value y, ValueRange) {
      scf::ForOp::create(by, l2, zero, extents[0], one, ValueRange{},
                         [&](OpBuilder &bx, Location l3, Value x, ValueRange) {
                           llvm::SmallVector<Value> callArgs(args);
                           callArgs.append({x, y, z});
                           func::CallOp::create(bx, l3, body, callArgs);
                           scf::YieldOp::create(bx, l3);
                         });
      scf::YieldOp::create(by, l2);
    });
    scf::YieldOp::create(bz, l);
  });
}

/// Builds the launcher of one kernel.
static LogicalResult buildLauncher(ModuleOp module, const KernelSignature &sig, unsigned threads) {
  auto body = module.lookupSymbol<func::FuncOp>(hostBodyFunctionName(sig.name));
  auto grid = module.lookupSymbol<func::FuncOp>(hostGridFunctionName(sig.name));
  if (!body || !grid || body.getNumArguments() != sig.args.size() + 3)
    return module.emitError() << "no lowered body for kernel '" << sig.name << "'";
  LauncherInfo info(sig, body, grid);
  if (failed(info.resolveDimensions()))
    return failure();

  Location loc = body.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto fnType = b.getFunctionType(info.parameterTypes(), {b.getI32Type()});
  auto launcher = func::FuncOp::create(b, loc, sig.name, fnType);
  if (!sig.exported)
    makeInternal(launcher); // a part of a launch sequence
  Block *entry = launcher.addEntryBlock();
  b.setInsertionPointToStart(entry);
  ValueRange params = entry->getArguments();

  Value status = info.checkArguments(b, loc, params);
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, status,
                                   arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
  scf::IfOp::create(b, loc, ok, [&](OpBuilder &t, Location l) {
    llvm::SmallVector<Value> args = info.kernelArguments(t, l, params);
    auto extents = func::CallOp::create(t, l, grid, args);
    if (threads > 1)
      info.runBlocksOnThreads(t, l, module, params, extents.getResults(), threads);
    else
      info.runBlocksSerially(t, l, args, extents.getResults());
    scf::YieldOp::create(t, l);
  });
  func::ReturnOp::create(b, loc, status);
  return success();
}

void host::makeInternal(func::FuncOp fn) {
  fn.setPrivate();
  fn->setAttr("llvm.linkage", LLVM::LinkageAttr::get(fn.getContext(), LLVM::Linkage::Internal));
}

LogicalResult tilec::buildHostLaunchers(ModuleOp module, llvm::ArrayRef<KernelSignature> kernels, unsigned threads) {
  // The kernels with a launch first: the launch sequences call them.
  for (const KernelSignature &sig : kernels)
    if (!sig.isSequence() && failed(buildLauncher(module, sig, threads)))
      return failure();
  for (const KernelSignature &sig : kernels)
    if (sig.isSequence() && failed(buildSequenceLauncher(module, sig)))
      return failure();
  return success();
}
