//===- TileDialect.cpp - The tile dialect ---------------------------------===//
//
// Dialect initialization and the verifiers of the dialect's attributes:
// kernel argument attributes (tile.name, tile.dtype, tile.dynamic,
// tile.shape) and operation attributes (plans, and what the lowerings record
// on the functions they make).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

Type tilec::tile::getDtypeElementType(MLIRContext *ctx, StringRef dtype) {
  Builder b(ctx);
  return llvm::StringSwitch<Type>(dtype)
      .Case("float16", b.getF16Type())
      .Case("bfloat16", b.getBF16Type())
      .Case("float32", b.getF32Type())
      .Case("float64", b.getF64Type())
      .Cases({"float8_e4m3", "float8_e4m3fn"}, b.getType<Float8E4M3FNType>())
      .Case("float8_e5m2", b.getType<Float8E5M2Type>())
      .Case("float4_e2m1fn", b.getType<Float4E2M1FNType>())
      .Case("bool", b.getI1Type())
      .Cases({"int4", "uint4"}, b.getIntegerType(4))
      .Cases({"int8", "uint8"}, b.getI8Type())
      .Cases({"int16", "uint16"}, b.getI16Type())
      .Cases({"int32", "uint32"}, b.getI32Type())
      .Cases({"int64", "uint64"}, b.getI64Type())
      .Default(Type());
}

StringRef tilec::tile::getDtypeSpelling(Type type) {
  if (type.isF16())
    return "float16";
  if (type.isBF16())
    return "bfloat16";
  if (type.isF32())
    return "float32";
  if (type.isF64())
    return "float64";
  if (isa<Float8E4M3FNType>(type))
    return "float8_e4m3";
  if (isa<Float8E5M2Type>(type))
    return "float8_e5m2";
  if (isa<Float4E2M1FNType>(type))
    return "float4_e2m1fn";
  if (type.isInteger(1))
    return "bool";
  if (auto i = dyn_cast<IntegerType>(type)) {
    switch (i.getWidth()) {
    case 4:
      return "int4";
    case 8:
      return "int8";
    case 16:
      return "int16";
    case 32:
      return "int32";
    case 64:
      return "int64";
    default:
      break;
    }
  }
  return "";
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

  if (name == NameAttrHelper::getNameStr()) {
    if (!isa<StringAttr>(value))
      return op->emitError() << "'" << name << "' on argument #" << argIndex
                             << " must be a string";
    return success();
  }

  if (name == DynamicAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value))
      return op->emitError() << "'" << name << "' on argument #" << argIndex
                             << " must be a unit attribute";
    if (argType && !argType.isIndex())
      return op->emitError()
             << "'" << name << "' marks an index argument, "
             << "but argument #" << argIndex << " is " << argType;
    return success();
  }

  if (name == DtypeAttrHelper::getNameStr()) {
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

  if (name == ShapeAttrHelper::getNameStr()) {
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

/// Verifies the attributes the lowerings record on the functions they make.
static LogicalResult verifyLoweredAttribute(Operation *op, StringRef name, Attribute value) {
  bool onFunction = isa<FunctionOpInterface>(op);
  auto notOnFunction = [&] { return op->emitError() << "'" << name << "' applies to functions"; };
  if (name == TileDialect::ThreadsAttrHelper::getNameStr()) {
    auto threads = dyn_cast<DenseI64ArrayAttr>(value);
    if (!threads || threads.empty() || threads.size() > 3 ||
        llvm::any_of(threads.asArrayRef(), [](int64_t t) { return t <= 0; }))
      return op->emitError() << "'" << name << "' must be 1 to 3 positive thread counts";
    return onFunction ? success() : notOnFunction();
  }
  if (name == TileDialect::SharedBytesAttrHelper::getNameStr() ||
      name == TileDialect::StackLimitAttrHelper::getNameStr()) {
    auto bytes = dyn_cast<IntegerAttr>(value);
    if (!bytes || bytes.getInt() < 0)
      return op->emitError() << "'" << name << "' must be a non-negative integer";
    return onFunction ? success() : notOnFunction();
  }
  if (name == TileDialect::TensorMapsAttrHelper::getNameStr()) {
    auto list = dyn_cast<ArrayAttr>(value);
    if (!list || !llvm::all_of(list, [](Attribute a) { return isa<TensorMapAttr>(a); }))
      return op->emitError() << "'" << name << "' must be an array of #tile.tensor_map";
    return onFunction ? success() : notOnFunction();
  }
  if (name == TileDialect::GridConstantParamsAttrHelper::getNameStr()) {
    auto params = dyn_cast<DenseI64ArrayAttr>(value);
    if (!params || llvm::any_of(params.asArrayRef(), [](int64_t p) { return p < 0; }))
      return op->emitError() << "'" << name << "' must be non-negative parameter indices";
    return onFunction ? success() : notOnFunction();
  }
  if (name == TileDialect::ThreadLoopAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value) || op->getNumRegions() == 0)
      return op->emitError() << "'" << name << "' is a unit attribute of a loop";
    return success();
  }
  return op->emitError() << "unknown tile attribute '" << name << "'";
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
    // A view of a fragment (T.reshape): the same registers in its layout.
    if (auto view = dyn_cast<memref::ReinterpretCastOp>(op))
      return layout.verifyBuffer(view.getType(), emitError);
    if (auto loop = dyn_cast<ParallelOp>(op)) {
      if (loop.getExtents() != layout.getShape())
        return op->emitError() << "iteration layout of shape [" << layout.getShape()
                               << "] does not match the loop's extents [" << loop.getExtents() << "]";
      return success();
    }
    return op->emitError() << "'" << name << "' applies to tile.alloc, tile.parallel and views of fragments";
  }
  if (name == getGemmPlanAttrHelper().getName()) {
    if (!isa<GemmPlanAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' must be a #tile.gemm_plan";
    if (!isa<GemmOp>(op))
      return op->emitError() << "'" << name << "' applies to tile.gemm";
    return success();
  }
  if (name == getPipelineAttrHelper().getName()) {
    auto loop = dyn_cast<ForOp>(op);
    if (!isa<PipelinePlanAttr>(attribute.getValue()) || !loop || loop.getKind() != LoopKind::Pipelined)
      return op->emitError() << "'" << name.getValue() << "' is a #tile.pipeline of a pipelined tile.for";
    return success();
  }
  if (name == getStagedAttrHelper().getName()) {
    auto loop = dyn_cast_or_null<ForOp>(op->getParentOp());
    if (!isa<UnitAttr>(attribute.getValue()) || !isa<CopyOp>(op) || !loop)
      return op->emitError() << "'" << name.getValue() << "' marks a tile.copy of a pipelined loop's body";
    return success();
  }
  if (name == getSharedBufferAttrHelper().getName()) {
    auto alloc = dyn_cast<AllocOp>(op);
    if (!isa<SharedBufferAttr>(attribute.getValue()) || !alloc || alloc.getScope() != Scope::Shared)
      return op->emitError() << "'" << name.getValue() << "' is a #tile.shared_buffer of a shared tile.alloc";
    return success();
  }
  if (name == getSharedMemoryAttrHelper().getName()) {
    if (!isa<SharedMemoryPlanAttr>(attribute.getValue()) || !isa<LaunchOp>(op))
      return op->emitError() << "'" << name.getValue() << "' is a #tile.shared_memory of a tile.launch";
    return success();
  }
  if (name == DtypeAttrHelper::getNameStr()) {
    auto dtype = dyn_cast<StringAttr>(attribute.getValue());
    if (!dtype || !getDtypeElementType(getContext(), dtype.getValue()))
      return op->emitError() << "'" << name.getValue() << "' must be a known dtype spelling";
    return success();
  }
  if (name == NameAttrHelper::getNameStr() || name == DynamicAttrHelper::getNameStr() ||
      name == ShapeAttrHelper::getNameStr())
    return op->emitError() << "'" << name.getValue() << "' is a kernel argument attribute";
  return verifyLoweredAttribute(op, name.getValue(), attribute.getValue());
}
