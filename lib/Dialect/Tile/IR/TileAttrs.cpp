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

LogicalResult FragmentLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
                                         int64_t numThreads, int64_t numRegs, ArrayRef<DimLayoutField> fields) {
  if (shape.empty())
    return emitError() << "fragment layout needs at least one dimension";
  if (llvm::any_of(shape, [](int64_t e) { return e <= 0; }))
    return emitError() << "fragment layout extents must be positive";
  if (numThreads <= 0 || numRegs <= 0)
    return emitError() << "fragment layout needs threads > 0 and regs > 0, got threads = " << numThreads
                       << ", regs = " << numRegs;
  llvm::SmallVector<int64_t> reach(shape.size(), 0);
  for (const DimLayoutField &df : fields) {
    const LayoutField &f = df.field;
    if (df.dim >= shape.size())
      return emitError() << "fragment layout field of dimension " << df.dim << " in a layout of rank "
                         << shape.size();
    if (f.stride <= 0 || f.count <= 0 || f.scale < 0)
      return emitError() << "fragment layout fields need stride > 0, count > 0 and scale >= 0";
    int64_t limit = f.onThread ? numThreads : numRegs;
    if (f.stride * f.count > limit)
      return emitError() << "fragment layout field " << (f.onThread ? "thread" : "reg") << "(" << f.stride << ", "
                         << f.count << ", " << f.scale << ") reads past " << (f.onThread ? "threads" : "regs")
                         << " = " << limit;
    reach[df.dim] += (f.count - 1) * f.scale;
  }
  for (unsigned d = 0; d < shape.size(); ++d)
    if (reach[d] >= shape[d])
      return emitError() << "fragment layout reaches index " << reach[d] << " of dimension " << d << " of extent "
                         << shape[d];
  return success();
}

FragmentLayout FragmentLayoutAttr::getLayout() const {
  return FragmentLayout::fromFlatFields(getShape(), getNumThreads(), getNumRegs(), getFields());
}

/// Parses `thread(stride, count, scale)` or `reg(stride, count, scale)`.
static ParseResult parseLayoutField(AsmParser &parser, LayoutField &f) {
  StringRef kind;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseKeyword(&kind))
    return failure();
  if (kind != "thread" && kind != "reg")
    return parser.emitError(at, "expected 'thread' or 'reg', got '") << kind << "'";
  f.onThread = kind == "thread";
  return failure(parser.parseLParen() || parser.parseInteger(f.stride) || parser.parseComma() ||
                 parser.parseInteger(f.count) || parser.parseComma() || parser.parseInteger(f.scale) ||
                 parser.parseRParen());
}

Attribute FragmentLayoutAttr::parse(AsmParser &parser, Type) {
  llvm::SmallVector<int64_t> shape;
  int64_t threads = 0, regs = 0;
  llvm::SmallVector<DimLayoutField> fields;
  SMLoc at = parser.getCurrentLocation();
  auto parseExtent = [&]() -> ParseResult { return parser.parseInteger(shape.emplace_back()); };
  unsigned dim = 0;
  auto parseDim = [&]() -> ParseResult {
    auto parseField = [&]() -> ParseResult {
      DimLayoutField df;
      df.dim = dim;
      if (parseLayoutField(parser, df.field))
        return failure();
      fields.push_back(df);
      return success();
    };
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseField))
      return failure();
    ++dim;
    return success();
  };
  if (parser.parseLess() || parser.parseKeyword("shape") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseExtent) || parser.parseComma() ||
      parser.parseKeyword("threads") || parser.parseEqual() || parser.parseInteger(threads) ||
      parser.parseComma() || parser.parseKeyword("regs") || parser.parseEqual() || parser.parseInteger(regs) ||
      parser.parseComma() || parser.parseKeyword("dims") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim) || parser.parseGreater())
    return {};
  if (dim != shape.size()) {
    parser.emitError(at) << "fragment layout has " << shape.size() << " extents but " << dim << " dims";
    return {};
  }
  return getChecked([&] { return parser.emitError(at); }, parser.getContext(), shape, threads, regs, fields);
}

void FragmentLayoutAttr::print(AsmPrinter &printer) const {
  FragmentLayout l = getLayout();
  printer << "<shape = [";
  llvm::interleaveComma(l.shape, printer);
  printer << "], threads = " << l.numThreads << ", regs = " << l.numRegs << ", dims = [";
  llvm::interleaveComma(l.dims, printer, [&](const llvm::SmallVector<LayoutField> &fs) {
    printer << "[";
    llvm::interleaveComma(fs, printer, [&](const LayoutField &f) {
      printer << (f.onThread ? "thread(" : "reg(") << f.stride << ", " << f.count << ", " << f.scale << ")";
    });
    printer << "]";
  });
  printer << "]>";
}

int64_t FragmentLayoutAttr::getRank() const { return static_cast<int64_t>(getShape().size()); }

bool FragmentLayoutAttr::isSwizzled() const { return false; }

Scope FragmentLayoutAttr::getScope() const { return Scope::Fragment; }

LogicalResult FragmentLayoutAttr::verifyBuffer(MemRefType type, function_ref<InFlightDiagnostic()> emitError) const {
  if (getBufferScope(type) != Scope::Fragment)
    return emitError() << "a fragment layout applies to fragment buffers, got " << type;
  if (type.getShape() != getShape())
    return emitError() << "fragment layout of shape [" << getShape() << "] does not match buffer " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// GemmPlanAttr
//===----------------------------------------------------------------------===//

LogicalResult GemmPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t warpsM, int64_t warpsN,
                                   bool aInRegisters) {
  if (warpsM <= 0 || warpsN <= 0)
    return emitError() << "gemm plan needs warps_m > 0 and warps_n > 0";
  if (aInRegisters && warpsN != 1)
    return emitError() << "a gemm plan with A in registers splits N over one warp, got warps_n = " << warpsN;
  return success();
}

//===----------------------------------------------------------------------===//
// TensorMapAttr
//===----------------------------------------------------------------------===//

LogicalResult TensorMapAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t arg, int64_t boxInner,
                                    int64_t boxOuter, StringRef dtype, int64_t swizzle) {
  if (arg < 0)
    return emitError() << "tensor map of argument #" << arg;
  if (boxInner <= 0 || boxOuter <= 0 || boxInner > 256 || boxOuter > 256)
    return emitError() << "tensor map box " << boxInner << " x " << boxOuter << " is not within 1..256 x 1..256";
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "tensor map swizzle of " << swizzle << " bytes (0, 32, 64 or 128)";
  if (!dtype.starts_with("float") && !dtype.starts_with("bfloat") && !dtype.starts_with("int") &&
      !dtype.starts_with("uint"))
    return emitError() << "tensor map of unknown dtype \"" << dtype << "\"";
  return success();
}

//===----------------------------------------------------------------------===//
// Plan attributes
//===----------------------------------------------------------------------===//

LogicalResult PipelinePlanAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t stages, CopyEngine engine,
                                       bool handoff) {
  if (stages < 2)
    return emitError() << "a pipeline plan needs at least 2 stages, got " << stages;
  return success();
}

LogicalResult SharedBufferAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t offset, int64_t stages,
                                       int64_t swizzle, int64_t boxCols) {
  if (offset < 0 || stages < 1 || boxCols < 0)
    return emitError() << "shared buffer plan needs offset >= 0, stages >= 1 and box_cols >= 0";
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "shared buffer swizzle of " << swizzle << " bytes (0, 32, 64 or 128)";
  if (boxCols && swizzle != 128)
    return emitError() << "column boxes need the 128-byte swizzle";
  return success();
}

LogicalResult SharedMemoryPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t size,
                                           int64_t scratchOffset, int64_t reduceScratch, bool alignedWindow) {
  if (size < 0 || scratchOffset < 0 || reduceScratch < 0 || scratchOffset > size ||
      scratchOffset + 2 * reduceScratch > size)
    return emitError() << "shared memory plan of " << size << " bytes cannot hold its scratch at " << scratchOffset
                       << " (2 x " << reduceScratch << " bytes)";
  return success();
}
