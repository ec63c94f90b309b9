//===- HostThreads.cpp - Running a kernel's blocks on several CPU threads -===//
//
// `-j N`: the launcher
// 1. fills a context on its stack: its C parameters, the grid extents and
//    a block counter;
// 2. starts min(N, blocks) - 1 pthreads running @__tilec_k_worker(ctx),
//    runs the worker itself, then joins the threads it started;
// 3. each worker rebuilds the kernel arguments from the context and takes
//    block numbers from the counter (atomic add) until all are done; block
//    number n is (bx, by, bz) = (n % gx, n / gx % gy, n / (gx * gy)).
// A thread that fails to start just leaves its share to the others.
//
//===----------------------------------------------------------------------===//
#include "HostLauncher.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::host;

namespace {

/// An external C function declaration, created once per module.
LLVM::LLVMFuncOp declareCFunction(OpBuilder &b, ModuleOp module, llvm::StringRef name, Type result,
                                  llvm::ArrayRef<Type> params) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, LLVM::LLVMFunctionType::get(result, params));
}

/// The address of field `field` of the context struct at `ctx`.
Value fieldPtr(OpBuilder &b, Location loc, Type ctxType, Value ctx, int32_t field) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  return LLVM::GEPOp::create(b, loc, ptrType, ctxType, ctx, llvm::ArrayRef<LLVM::GEPArg>{0, field});
}

} // namespace

void LauncherInfo::runBlocksOnThreads(OpBuilder &b, Location loc, ModuleOp module, ValueRange params,
                                      ValueRange extents, unsigned threads) const {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  llvm::SmallVector<Type> fields = parameterTypes();
  unsigned gridField = fields.size(), counterField = gridField + 3;
  fields.append(4, i64);
  auto ctxType = LLVM::LLVMStructType::getLiteral(ctx, fields);

  // The worker: rebuild the arguments, then take blocks until none are left.
  LLVM::LLVMFuncOp worker;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    worker = LLVM::LLVMFuncOp::create(b, loc, "__tilec_" + sig.name + "_worker",
                                      LLVM::LLVMFunctionType::get(ptrType, {ptrType}), LLVM::Linkage::Internal);
    Block *entry = worker.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value context = entry->getArgument(0);
    llvm::SmallVector<Value> loaded;
    for (unsigned i = 0; i < gridField; ++i)
      loaded.push_back(LLVM::LoadOp::create(b, loc, fields[i], fieldPtr(b, loc, ctxType, context, i)));
    llvm::SmallVector<Value> args = kernelArguments(b, loc, loaded);
    Value gx = LLVM::LoadOp::create(b, loc, i64, fieldPtr(b, loc, ctxType, context, gridField));
    Value gy = LLVM::LoadOp::create(b, loc, i64, fieldPtr(b, loc, ctxType, context, gridField + 1));
    Value gz = LLVM::LoadOp::create(b, loc, i64, fieldPtr(b, loc, ctxType, context, gridField + 2));
    Value gxy = arith::MulIOp::create(b, loc, gx, gy);
    Value total = arith::MulIOp::create(b, loc, gxy, gz);
    Value counter = fieldPtr(b, loc, ctxType, context, counterField);
    Value one = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1));
    auto toIndex = [](OpBuilder &w, Location l, Value v) {
      return arith::IndexCastOp::create(w, l, w.getIndexType(), v).getResult();
    };
    scf::WhileOp::create(
        b, loc, TypeRange{i64}, ValueRange{},
        [&](OpBuilder &w, Location l, ValueRange) {
          Value n = LLVM::AtomicRMWOp::create(w, l, LLVM::AtomicBinOp::add, counter, one,
                                              LLVM::AtomicOrdering::monotonic);
          Value more = arith::CmpIOp::create(w, l, arith::CmpIPredicate::slt, n, total);
          scf::ConditionOp::create(w, l, more, ValueRange{n});
        },
        [&](OpBuilder &w, Location l, ValueRange block) {
          Value n = block[0];
          Value bx = toIndex(w, l, arith::RemSIOp::create(w, l, n, gx));
          Value by = toIndex(w, l, arith::RemSIOp::create(w, l, arith::DivSIOp::create(w, l, n, gx), gy));
          Value bz = toIndex(w, l, arith::DivSIOp::create(w, l, n, gxy));
          llvm::SmallVector<Value> callArgs(args);
          callArgs.append({bx, by, bz});
          func::CallOp::create(w, l, body, callArgs);
          scf::YieldOp::create(w, l);
        });
    LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptrType).getResult());
  }

  // The launcher side.
  Value one32 = LLVM::ConstantOp::create(b, loc, i32, 1);
  Value context = LLVM::AllocaOp::create(b, loc, ptrType, ctxType, one32);
  for (unsigned i = 0; i < gridField; ++i)
    LLVM::StoreOp::create(b, loc, params[i], fieldPtr(b, loc, ctxType, context, i));
  Value total = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1));
  for (unsigned d = 0; d < 3; ++d) {
    Value extent = arith::IndexCastOp::create(b, loc, i64, extents[d]);
    LLVM::StoreOp::create(b, loc, extent, fieldPtr(b, loc, ctxType, context, gridField + d));
    total = arith::MulIOp::create(b, loc, total, extent);
  }
  LLVM::StoreOp::create(b, loc, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0)),
                        fieldPtr(b, loc, ctxType, context, counterField));

  auto pthreadCreate = declareCFunction(b, module, "pthread_create", i32, {ptrType, ptrType, ptrType, ptrType});
  auto pthreadJoin = declareCFunction(b, module, "pthread_join", i32, {i64, ptrType});
  Value extra = arith::MinSIOp::create(b, loc, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(threads)), total);
  extra = arith::SubIOp::create(b, loc, extra, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1)));
  Value slots = LLVM::ConstantOp::create(b, loc, i32, threads - 1);
  Value ids = LLVM::AllocaOp::create(b, loc, ptrType, i64, slots);
  Value started = LLVM::AllocaOp::create(b, loc, ptrType, i32, slots);
  Value nullPtr = LLVM::ZeroOp::create(b, loc, ptrType);
  Value workerAddr = LLVM::AddressOfOp::create(b, loc, worker);
  Value zeroI = arith::ConstantIndexOp::create(b, loc, 0), oneI = arith::ConstantIndexOp::create(b, loc, 1);
  Value extraI = arith::IndexCastOp::create(b, loc, b.getIndexType(), extra);
  auto slot = [&](OpBuilder &lb, Location l, Value base, Type element, Value t) {
    Value t64 = arith::IndexCastOp::create(lb, l, i64, t);
    return LLVM::GEPOp::create(lb, l, ptrType, element, base, llvm::ArrayRef<LLVM::GEPArg>{t64}).getResult();
  };
  scf::ForOp::create(b, loc, zeroI, extraI, oneI, ValueRange{}, [&](OpBuilder &lb, Location l, Value t, ValueRange) {
    auto rc = LLVM::CallOp::create(lb, l, pthreadCreate,
                                   ValueRange{slot(lb, l, ids, i64, t), nullPtr, workerAddr, context});
    LLVM::StoreOp::create(lb, l, rc.getResult(), slot(lb, l, started, i32, t));
    scf::YieldOp::create(lb, l);
  });
  LLVM::CallOp::create(b, loc, worker, ValueRange{context});
  scf::ForOp::create(b, loc, zeroI, extraI, oneI, ValueRange{}, [&](OpBuilder &lb, Location l, Value t, ValueRange) {
    Value rc = LLVM::LoadOp::create(lb, l, i32, slot(lb, l, started, i32, t));
    Value ok = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq, rc,
                                     arith::ConstantOp::create(lb, l, lb.getI32IntegerAttr(0)));
    scf::IfOp::create(lb, l, ok, [&](OpBuilder &tb, Location tl) {
      Value id = LLVM::LoadOp::create(tb, tl, i64, slot(tb, tl, ids, i64, t));
      LLVM::CallOp::create(tb, tl, pthreadJoin, ValueRange{id, nullPtr});
      scf::YieldOp::create(tb, tl);
    });
    scf::YieldOp::create(lb, l);
  });
}
