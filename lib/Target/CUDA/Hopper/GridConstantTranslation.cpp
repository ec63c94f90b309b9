//===- GridConstantTranslation.cpp - __grid_constant__ CUtensorMap params ---===//
//
// The GPU-to-LLVM function lowering keeps function attributes but drops
// `llvm.byval` and `nvvm.grid_constant` argument attributes. The Hopper path
// therefore names the parameters in `tile.grid_constant_params`; this LLVM IR
// translation of the tile dialect marks them byval([128 x i8]), align 64 and
// nvvm.grid_constant, so the kernel reads each CUtensorMap in parameter space.
//
//===----------------------------------------------------------------------===//
#include "HopperGemm.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "mlir/Target/LLVMIR/ModuleTranslation.h"
#include "llvm/IR/Function.h"

using namespace mlir;

namespace {
struct GridConstantTranslation : public LLVMTranslationDialectInterface {
  using LLVMTranslationDialectInterface::LLVMTranslationDialectInterface;

  LogicalResult amendOperation(Operation *op, ArrayRef<llvm::Instruction *>, NamedAttribute attribute,
                               LLVM::ModuleTranslation &moduleTranslation) const override {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
    auto params = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
    if (!fn || !params || attribute.getName() != tilec::tile::getGridConstantParamsAttrName())
      return success();
    llvm::Function *f = moduleTranslation.lookupFunction(fn.getName());
    if (!f)
      return success();
    llvm::LLVMContext &ctx = f->getContext();
    auto *mapType = llvm::ArrayType::get(llvm::Type::getInt8Ty(ctx), 128);
    for (int64_t i : params.asArrayRef()) {
      if (i < 0 || i >= (int64_t)f->arg_size() || !f->getArg(i)->getType()->isPointerTy())
        return op->emitError("grid-constant parameter ") << i << " is not a pointer parameter";
      f->addParamAttr(i, llvm::Attribute::getWithByValType(ctx, mapType));
      f->addParamAttr(i, llvm::Attribute::getWithAlignment(ctx, llvm::Align(64)));
      f->addParamAttr(i, llvm::Attribute::get(ctx, "nvvm.grid_constant"));
    }
    return success();
  }
};
} // namespace

void tilec::hopper::registerGridConstantTranslation(MLIRContext *ctx) {
  DialectRegistry registry;
  registry.addExtension(+[](MLIRContext *, tile::TileDialect *dialect) {
    if (!dialect->getRegisteredInterface<GridConstantTranslation>())
      dialect->addInterfaces<GridConstantTranslation>();
  });
  ctx->appendDialectRegistry(registry);
}
