//===- TileKernelAttrs.cpp - Typed access to tile's discardable attrs ----===//
//
// The accessors of TileDialect.h for the discardable attributes the dialect
// declares (TileDialect.td): kernel argument attributes, the dtype of a
// buffer, and what the lowerings record on the functions they make for the
// targets (threads, shared memory, tensor maps, grid constants, host stack
// limit and thread loops). Each goes by the attribute's declared name.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tilec::tile;

namespace {
// The declared names (TileDialect.td, discardableAttrs).
using Names = TileDialect;
constexpr StringLiteral kName = Names::NameAttrHelper::getNameStr();
constexpr StringLiteral kDtype = Names::DtypeAttrHelper::getNameStr();
constexpr StringLiteral kDynamic = Names::DynamicAttrHelper::getNameStr();
constexpr StringLiteral kShape = Names::ShapeAttrHelper::getNameStr();
constexpr StringLiteral kThreads = Names::ThreadsAttrHelper::getNameStr();
constexpr StringLiteral kSharedBytes = Names::SharedBytesAttrHelper::getNameStr();
constexpr StringLiteral kTensorMaps = Names::TensorMapsAttrHelper::getNameStr();
constexpr StringLiteral kGridConstant = Names::GridConstantParamsAttrHelper::getNameStr();
constexpr StringLiteral kStackLimit = Names::StackLimitAttrHelper::getNameStr();
constexpr StringLiteral kThreadLoop = Names::ThreadLoopAttrHelper::getNameStr();
} // namespace

std::string tilec::tile::launchKernelName(StringRef kernel, unsigned index) {
  return (kernel + "__k" + Twine(index)).str();
}
std::string tilec::tile::workspaceFunctionName(StringRef kernel) { return ("__tilec_" + kernel + "_workspace").str(); }

bool tilec::tile::isTileAttrName(StringRef name) {
  return name.starts_with(TileDialect::getDialectNamespace()) &&
         name.drop_front(TileDialect::getDialectNamespace().size()).starts_with(".");
}

StringAttr tilec::tile::getArgName(FunctionOpInterface fn, unsigned i) {
  return fn.getArgAttrOfType<StringAttr>(i, kName);
}
StringAttr tilec::tile::getArgDtype(FunctionOpInterface fn, unsigned i) {
  return fn.getArgAttrOfType<StringAttr>(i, kDtype);
}
bool tilec::tile::isArgDynamic(FunctionOpInterface fn, unsigned i) { return (bool)fn.getArgAttr(i, kDynamic); }
ArrayAttr tilec::tile::getArgShape(FunctionOpInterface fn, unsigned i) {
  return fn.getArgAttrOfType<ArrayAttr>(i, kShape);
}

DictionaryAttr tilec::tile::makeArgAttrs(MLIRContext *ctx, StringRef name, StringRef dtype, bool dynamic,
                                         ArrayAttr shape) {
  Builder b(ctx);
  llvm::SmallVector<NamedAttribute, 4> list;
  list.push_back(b.getNamedAttr(kName, b.getStringAttr(name)));
  if (!dtype.empty())
    list.push_back(b.getNamedAttr(kDtype, b.getStringAttr(dtype)));
  if (dynamic)
    list.push_back(b.getNamedAttr(kDynamic, b.getUnitAttr()));
  if (shape)
    list.push_back(b.getNamedAttr(kShape, shape));
  return b.getDictionaryAttr(list);
}

StringAttr tilec::tile::getBufferDtype(Value buffer) {
  if (auto arg = dyn_cast<BlockArgument>(buffer)) {
    if (auto fn = dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return getArgDtype(fn, arg.getArgNumber());
    return {};
  }
  if (Operation *def = buffer.getDefiningOp())
    return getDtype(def);
  return {};
}

bool tilec::tile::isUnsignedBuffer(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (type && type.getElementType().isInteger(1))
    return true;
  StringAttr dtype = getBufferDtype(buffer);
  return dtype && (dtype.getValue().starts_with("uint") || dtype.getValue() == "bool");
}

StringAttr tilec::tile::getDtype(Operation *op) { return op->getAttrOfType<StringAttr>(kDtype); }
void tilec::tile::setDtype(Operation *op, StringAttr dtype) { op->setAttr(kDtype, dtype); }

DenseI64ArrayAttr tilec::tile::getThreads(Operation *fn) { return fn->getAttrOfType<DenseI64ArrayAttr>(kThreads); }
void tilec::tile::setThreads(Operation *fn, ArrayRef<int64_t> threads) {
  fn->setAttr(kThreads, DenseI64ArrayAttr::get(fn->getContext(), threads));
}
void tilec::tile::removeThreads(Operation *fn) { fn->removeAttr(kThreads); }

std::optional<int64_t> tilec::tile::getSharedBytes(Operation *fn) {
  if (auto bytes = fn->getAttrOfType<IntegerAttr>(kSharedBytes))
    return bytes.getInt();
  return std::nullopt;
}
void tilec::tile::setSharedBytes(Operation *fn, int64_t bytes) {
  fn->setAttr(kSharedBytes, Builder(fn->getContext()).getI64IntegerAttr(bytes));
}

llvm::SmallVector<TensorMapAttr> tilec::tile::getTensorMaps(Operation *fn) {
  llvm::SmallVector<TensorMapAttr> maps;
  if (auto list = fn->getAttrOfType<ArrayAttr>(kTensorMaps))
    for (Attribute a : list)
      if (auto m = dyn_cast<TensorMapAttr>(a))
        maps.push_back(m);
  return maps;
}
void tilec::tile::setTensorMaps(Operation *fn, ArrayRef<TensorMapAttr> maps) {
  llvm::SmallVector<Attribute> list(maps.begin(), maps.end());
  fn->setAttr(kTensorMaps, ArrayAttr::get(fn->getContext(), list));
}

DenseI64ArrayAttr tilec::tile::getGridConstantParams(Operation *fn) {
  return fn->getAttrOfType<DenseI64ArrayAttr>(kGridConstant);
}
void tilec::tile::setGridConstantParams(Operation *fn, ArrayRef<int64_t> params) {
  fn->setAttr(kGridConstant, DenseI64ArrayAttr::get(fn->getContext(), params));
}
StringRef tilec::tile::getGridConstantParamsAttrName() { return kGridConstant; }

std::optional<int64_t> tilec::tile::getStackLimit(Operation *fn) {
  if (auto bytes = fn->getAttrOfType<IntegerAttr>(kStackLimit))
    return bytes.getInt();
  return std::nullopt;
}
void tilec::tile::setStackLimit(Operation *fn, int64_t bytes) {
  fn->setAttr(kStackLimit, Builder(fn->getContext()).getI64IntegerAttr(bytes));
}

bool tilec::tile::isThreadLoop(Operation *loop) { return loop->hasAttr(kThreadLoop); }
void tilec::tile::setThreadLoop(Operation *loop) { loop->setAttr(kThreadLoop, UnitAttr::get(loop->getContext())); }
