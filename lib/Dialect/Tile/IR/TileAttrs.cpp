//===- TileAttrs.cpp - Attributes and enums of the tile dialect ----------===//
//
// Enum and attribute definitions, their verifiers, the layout interface
// implementations and the buffer-scope helpers.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec::tile;

#include "tilec/Dialect/Tile/IR/TileEnums.cpp.inc"

#include "tilec/Dialect/Tile/IR/TileAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Buffer-scope helpers
//===----------------------------------------------------------------------===//

std::optional<Scope> tilec::tile::getBufferScope(MemRefType type) {
  if (!type)
    return std::nullopt;
  if (auto scope = llvm::dyn_cast_or_null<ScopeAttr>(type.getMemorySpace()))
    return scope.getValue();
  return std::nullopt;
}

bool tilec::tile::isBufferInScope(Type type, Scope scope) {
  auto memref = llvm::dyn_cast<MemRefType>(type);
  return memref && getBufferScope(memref) == scope;
}

MemRefType tilec::tile::getBufferType(ArrayRef<int64_t> shape, Type elementType,
                                      Scope scope) {
  MLIRContext *ctx = elementType.getContext();
  return MemRefType::get(shape, elementType, MemRefLayoutAttrInterface{},
                         ScopeAttr::get(ctx, scope));
}

//===----------------------------------------------------------------------===//
// SwizzledAttr
//===----------------------------------------------------------------------===//

LogicalResult SwizzledAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   unsigned bytes) {
  if (bytes != 32 && bytes != 64 && bytes != 128)
    return emitError() << "swizzle width must be 32, 64 or 128 bytes, got "
                       << bytes;
  return success();
}

int64_t SwizzledAttr::getRank() const { return 0; }

bool SwizzledAttr::isSwizzled() const { return true; }

Scope SwizzledAttr::getScope() const { return Scope::Shared; }

LogicalResult
SwizzledAttr::verifyBuffer(MemRefType type,
                           function_ref<InFlightDiagnostic()> emitError) const {
  if (getBufferScope(type) != Scope::Shared)
    return emitError() << "a swizzled layout applies to shared buffers, got "
                       << type;
  if (type.getRank() < 2)
    return emitError() << "a swizzled layout needs a buffer of rank >= 2, got "
                       << type;
  return success();
}

//===----------------------------------------------------------------------===//
// FragmentLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
FragmentLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<int64_t> threadShape,
                           ArrayRef<int64_t> valueShape) {
  if (threadShape.empty())
    return emitError() << "fragment layout needs at least one dimension";
  if (threadShape.size() != valueShape.size())
    return emitError() << "fragment layout thread_shape has "
                       << threadShape.size() << " entries but value_shape has "
                       << valueShape.size();
  auto nonPositive = [](int64_t v) { return v <= 0; };
  if (llvm::any_of(threadShape, nonPositive) ||
      llvm::any_of(valueShape, nonPositive))
    return emitError() << "fragment layout entries must be positive";
  return success();
}

int64_t FragmentLayoutAttr::getNumThreads() const {
  int64_t n = 1;
  for (int64_t t : getThreadShape())
    n *= t;
  return n;
}

int64_t FragmentLayoutAttr::getRank() const {
  return static_cast<int64_t>(getThreadShape().size());
}

bool FragmentLayoutAttr::isSwizzled() const { return false; }

Scope FragmentLayoutAttr::getScope() const { return Scope::Fragment; }

LogicalResult FragmentLayoutAttr::verifyBuffer(
    MemRefType type, function_ref<InFlightDiagnostic()> emitError) const {
  if (getBufferScope(type) != Scope::Fragment)
    return emitError() << "a fragment layout applies to fragment buffers, got "
                       << type;
  if (type.getRank() != getRank())
    return emitError() << "fragment layout of rank " << getRank()
                       << " does not match buffer " << type;
  return success();
}
