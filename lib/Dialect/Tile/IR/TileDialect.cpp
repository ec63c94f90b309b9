//===- TileDialect.cpp - The tile dialect ---------------------------------===//
//
// Dialect initialization and the verifier of kernel argument attributes
// (tile.name, tile.dtype, tile.dynamic).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilec::tile;

#include "tilec/Dialect/Tile/IR/TileDialect.cpp.inc"

void TileDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

void tilec::tile::registerTileDialect(DialectRegistry &registry) {
  registry.insert<TileDialect>();
}

/// The IR element type a source dtype spelling stands for, or null when the
/// spelling is unknown.
static Type getDtypeElementType(MLIRContext *ctx, StringRef dtype) {
  Builder b(ctx);
  return llvm::StringSwitch<Type>(dtype)
      .Case("float16", b.getF16Type())
      .Case("bfloat16", b.getBF16Type())
      .Case("float32", b.getF32Type())
      .Case("float64", b.getF64Type())
      .Cases({"float8_e4m3", "float8_e4m3fn"}, b.getType<Float8E4M3FNType>())
      .Case("float8_e5m2", b.getType<Float8E5M2Type>())
      .Case("bool", b.getI1Type())
      .Cases({"int4", "uint4"}, b.getIntegerType(4))
      .Cases({"int8", "uint8"}, b.getI8Type())
      .Cases({"int16", "uint16"}, b.getI16Type())
      .Cases({"int32", "uint32"}, b.getI32Type())
      .Cases({"int64", "uint64"}, b.getI64Type())
      .Default(Type());
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();

  // The argument's type, from the function type so that it is known even
  // before the body exists.
  Type argType;
  if (auto func = dyn_cast<FunctionOpInterface>(op)) {
    if (argIndex < func.getArgumentTypes().size())
      argType = func.getArgumentTypes()[argIndex];
  } else if (regionIndex < op->getNumRegions() &&
             !op->getRegion(regionIndex).empty() &&
             argIndex < op->getRegion(regionIndex).getNumArguments()) {
    argType = op->getRegion(regionIndex).getArgument(argIndex).getType();
  }

  if (name == kArgNameAttrName) {
    if (!isa<StringAttr>(value))
      return op->emitError() << "'" << name << "' on argument #" << argIndex
                             << " must be a string";
    return success();
  }

  if (name == kArgDynamicAttrName) {
    if (!isa<UnitAttr>(value))
      return op->emitError() << "'" << name << "' on argument #" << argIndex
                             << " must be a unit attribute";
    if (argType && !argType.isIndex())
      return op->emitError()
             << "'" << name << "' marks an index argument, "
             << "but argument #" << argIndex << " is " << argType;
    return success();
  }

  if (name == kArgDtypeAttrName) {
    auto dtype = dyn_cast<StringAttr>(value);
    if (!dtype)
      return op->emitError() << "'" << name << "' on argument #" << argIndex
                             << " must be a string";
    Type elementType = getDtypeElementType(getContext(), dtype.getValue());
    if (!elementType)
      return op->emitError() << "unknown dtype \"" << dtype.getValue()
                             << "\" on argument #" << argIndex;
    if (!argType)
      return success();
    Type actual = argType;
    if (auto memref = dyn_cast<MemRefType>(argType))
      actual = memref.getElementType();
    if (actual != elementType)
      return op->emitError()
             << "dtype \"" << dtype.getValue() << "\" of argument #" << argIndex
             << " needs element type " << elementType << ", got " << argType;
    return success();
  }

  if (name == kArgShapeAttrName) {
    auto dims = dyn_cast<ArrayAttr>(value);
    auto memref = dyn_cast_or_null<MemRefType>(argType);
    if (!dims || !llvm::all_of(dims, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitError() << "'" << name << "' on argument #" << argIndex
                             << " must be an array of strings";
    if (memref && (int64_t)dims.size() != memref.getRank())
      return op->emitError() << "'" << name << "' on argument #" << argIndex
                             << " has " << dims.size() << " dimensions, but the tensor has rank "
                             << memref.getRank();
    return success();
  }

  return op->emitError() << "unknown tile argument attribute '" << name
                         << "' on argument #" << argIndex;
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  StringAttr name = attribute.getName();
  if (name == getLayoutAttrHelper().getName()) {
    auto layout = dyn_cast<FragmentLayoutAttr>(attribute.getValue());
    if (!layout)
      return op->emitError() << "'" << name << "' must be a #tile.fragment_layout";
    auto emitError = [&] { return op->emitError(); };
    if (auto alloc = dyn_cast<AllocOp>(op))
      return layout.verifyBuffer(alloc.getType(), emitError);
    if (auto loop = dyn_cast<ParallelOp>(op)) {
      if (loop.getExtents() != layout.getShape())
        return op->emitError() << "iteration layout of shape [" << layout.getShape()
                               << "] does not match the loop's extents [" << loop.getExtents() << "]";
      return success();
    }
    return op->emitError() << "'" << name << "' applies to tile.alloc and tile.parallel";
  }
  if (name == getGemmPlanAttrHelper().getName()) {
    if (!isa<GemmPlanAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' must be a #tile.gemm_plan";
    if (!isa<GemmOp>(op))
      return op->emitError() << "'" << name << "' applies to tile.gemm";
    return success();
  }
  return success();
}
