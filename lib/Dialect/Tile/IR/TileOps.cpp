//===- TileOps.cpp - Tile operations: definitions and verifiers ----------===//
//
// Generated op definitions, the block-collective ops' verifiers (alloc, copy,
// gemm, fill, reduce, cumsum, atomic_add, print) and the hint ops'.
// Kernel, launch and loop ops live in TileStructureOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec::tile;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `custom<ReduceKind>($kind)`: the reduce kind as a bare keyword (`sum`).
static ParseResult parseReduceKind(OpAsmParser &parser, ReduceKindAttr &kind) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ReduceKind> value = symbolizeReduceKind(keyword);
  if (!value)
    return parser.emitError(loc)
           << "expected a reduce kind (max, min, sum, abssum, absmax), got '"
           << keyword << "'";
  kind = ReduceKindAttr::get(parser.getContext(), *value);
  return success();
}

static void printReduceKind(OpAsmPrinter &printer, Operation *,
                            ReduceKindAttr kind) {
  printer << stringifyReduceKind(kind.getValue());
}

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Formats a shape as `128x64` (`?` for dynamic dimensions, `scalar` for
/// rank 0).
static std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      "x");
  return text;
}

/// Formats an extent list as `[128, 64]`.
static std::string formatList(ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(values, os);
  os << ']';
  return text;
}

static StringRef scopeName(std::optional<Scope> scope) {
  return scope ? stringifyScope(*scope) : StringRef("unknown");
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

Scope AllocOp::getScope() { return *getBufferScope(getType()); }

void AllocOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  std::optional<Scope> scope = getBufferScope(getType());
  setNameFn(getResult(), scope ? stringifyScope(*scope) : "buf");
}

LogicalResult AllocOp::verify() {
  MemRefType type = getType();
  if (!type.hasStaticShape())
    return emitOpError() << "expects a static shape, got " << type;
  if (getBufferScope(type) == Scope::Global)
    return emitOpError() << "cannot allocate a global buffer; global tensors "
                            "are kernel arguments";
  if (!type.getLayout().isIdentity())
    return emitOpError() << "expects an identity layout, got " << type;
  if (!(*this)->getParentOfType<LaunchOp>())
    return emitOpError() << "must be inside a tile.launch";
  if (std::optional<ReduceKind> kind = getReducer()) {
    if (getScope() != Scope::Fragment)
      return emitOpError() << "marks a " << scopeName(getScope()) << " buffer as a reducer; reducers are fragments";
    if (*kind != ReduceKind::Sum && *kind != ReduceKind::Max && *kind != ReduceKind::Min)
      return emitOpError() << "expects a sum, max or min reducer, got " << stringifyReduceKind(*kind);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AllocGlobalOp
//===----------------------------------------------------------------------===//

void AllocGlobalOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), getName() ? *getName() : "global");
}

LogicalResult AllocGlobalOp::verify() {
  MemRefType type = getType();
  if (getBufferScope(type) != Scope::Global)
    return emitOpError() << "allocates in " << scopeName(getBufferScope(type))
                         << "; tile.alloc_global makes global buffers";
  if (!type.getLayout().isIdentity())
    return emitOpError() << "expects an identity layout, got " << type;
  if (static_cast<int64_t>(getDynamicSizes().size()) != type.getNumDynamicDims())
    return emitOpError() << "expects " << type.getNumDynamicDims() << " dynamic sizes (one per '?' of " << type
                         << "), got " << getDynamicSizes().size();
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

KernelOp CallOp::getCalleeKernel() { return SymbolTable::lookupNearestSymbolFrom<KernelOp>(*this, getCalleeAttr()); }

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto callee = symbols.lookupNearestSymbolFrom<KernelOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "calls '" << getCallee() << "', which is not a tile.kernel";
  if (callee.getOperation() == (*this)->getParentOp())
    return emitOpError() << "calls the kernel it is in";
  TypeRange expected = callee.getArgumentTypes();
  if (expected != TypeRange(getOperands().getTypes()))
    return emitOpError() << "passes " << getOperands().size() << " operands whose types do not match the "
                         << expected.size() << " arguments of @" << getCallee();
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

/// Checks one side (source or destination) of a copy.
static LogicalResult verifyCopySide(CopyOp op, StringRef side, MemRefType type,
                                    OperandRange offsets,
                                    ArrayRef<int64_t> sizes) {
  int64_t rank = type.getRank();
  if (static_cast<int64_t>(offsets.size()) != rank)
    return op.emitOpError() << "expects " << rank << " " << side
                            << " offsets (one per dimension of " << type
                            << "), got " << offsets.size();
  if (static_cast<int64_t>(sizes.size()) != rank)
    return op.emitOpError() << "expects " << rank << " " << side
                            << " sizes (one per dimension of " << type
                            << "), got " << sizes.size();
  if (llvm::any_of(sizes, [](int64_t s) { return s <= 0; }))
    return op.emitOpError() << "expects positive " << side << " sizes, got "
                            << formatList(sizes);
  // Global tensors clip out-of-bounds accesses; other buffers must hold the
  // whole region.
  if (getBufferScope(type) == Scope::Global)
    return success();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = type.getDimSize(d);
    if (ShapedType::isDynamic(dim))
      continue;
    if (sizes[d] > dim)
      return op.emitOpError() << side << " region " << formatList(sizes)
                              << " does not fit in buffer of shape "
                              << formatShape(type.getShape());
    APInt offset;
    if (matchPattern(offsets[d], m_ConstantInt(&offset)) &&
        (offset.isNegative() || offset.getSExtValue() + sizes[d] > dim))
      return op.emitOpError()
             << side << " region " << formatList(sizes) << " at offset "
             << offset.getSExtValue() << " in dimension " << d
             << " is out of bounds of buffer of shape "
             << formatShape(type.getShape());
  }
  return success();
}

LogicalResult CopyOp::verify() {
  if (failed(verifyCopySide(*this, "source", getSrc().getType(),
                            getSrcOffsets(), getSrcSizes())) ||
      failed(verifyCopySide(*this, "destination", getDst().getType(),
                            getDstOffsets(), getDstSizes())))
    return failure();
  auto squeeze = [](ArrayRef<int64_t> sizes) {
    SmallVector<int64_t> out;
    for (int64_t s : sizes)
      if (s != 1)
        out.push_back(s);
    return out;
  };
  if (squeeze(getSrcSizes()) != squeeze(getDstSizes()))
    return emitOpError() << "source extent " << formatList(getSrcSizes())
                         << " and destination extent "
                         << formatList(getDstSizes())
                         << " differ (after dropping unit dimensions)";
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
  MemRefType aType = getA().getType(), bType = getB().getType(),
             cType = getC().getType();
  auto isOperandScope = [](MemRefType t) {
    std::optional<Scope> s = getBufferScope(t);
    return s == Scope::Shared || s == Scope::Fragment;
  };
  if (!isOperandScope(aType))
    return emitOpError() << "expects A in shared or fragment scope, got "
                         << scopeName(getBufferScope(aType));
  if (!isOperandScope(bType))
    return emitOpError() << "expects B in shared or fragment scope, got "
                         << scopeName(getBufferScope(bType));
  if (getBufferScope(cType) != Scope::Fragment)
    return emitOpError() << "expects C in fragment scope, got "
                         << scopeName(getBufferScope(cType));
  if (aType.getRank() != 2 || bType.getRank() != 2 || cType.getRank() != 2)
    return emitOpError() << "expects rank-2 operands, got A "
                         << formatShape(aType.getShape()) << ", B "
                         << formatShape(bType.getShape()) << ", C "
                         << formatShape(cType.getShape());
  if (getKPackAttr().getInt() < 1)
    return emitOpError() << "expects k_pack >= 1, got "
                         << getKPackAttr().getInt();

  bool ta = getTransposeA(), tb = getTransposeB();
  int64_t m = aType.getDimSize(ta ? 1 : 0), ka = aType.getDimSize(ta ? 0 : 1);
  int64_t kb = bType.getDimSize(tb ? 1 : 0), n = bType.getDimSize(tb ? 0 : 1);
  if (m != cType.getDimSize(0) || n != cType.getDimSize(1) || ka != kb)
    return emitOpError() << "shapes do not agree: A is "
                         << formatShape(aType.getShape())
                         << (ta ? " (transposed)" : "") << ", B is "
                         << formatShape(bType.getShape())
                         << (tb ? " (transposed)" : "") << ", C is "
                         << formatShape(cType.getShape())
                         << "; expected op(A) MxK, op(B) KxN, C MxN";

  Type aElt = aType.getElementType(), cElt = cType.getElementType();
  if (isa<FloatType>(aElt) != isa<FloatType>(cElt))
    return emitOpError() << "accumulator element type " << cElt
                         << " does not suit operand element type " << aElt;
  return success();
}

//===----------------------------------------------------------------------===//
// FillOp
//===----------------------------------------------------------------------===//

LogicalResult FillOp::verify() {
  Type elementType = getBuffer().getType().getElementType();
  if (getValue().getType() != elementType)
    return emitOpError() << "fill value has type " << getValue().getType()
                         << " but the buffer's element type is " << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp, CumsumOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  MemRefType srcType = getSrc().getType(), dstType = getDst().getType();
  int64_t rank = srcType.getRank();
  if (rank < 1)
    return emitOpError() << "expects a source of rank >= 1";
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= rank)
    return emitOpError() << "reduction dim " << dim << " is out of range for "
                         << "a source of rank " << rank;
  SmallVector<int64_t> expected(srcType.getShape());
  expected.erase(expected.begin() + dim);
  if (dstType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "destination shape "
                         << formatShape(dstType.getShape())
                         << " does not match source shape "
                         << formatShape(srcType.getShape())
                         << " without dimension " << dim << " ("
                         << formatShape(expected) << ")";
  return success();
}

LogicalResult CumsumOp::verify() {
  MemRefType srcType = getSrc().getType(), dstType = getDst().getType();
  int64_t rank = srcType.getRank();
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= rank)
    return emitOpError() << "cumsum dim " << dim << " is out of range for "
                         << "a source of rank " << rank;
  if (srcType.getShape() != dstType.getShape())
    return emitOpError() << "destination shape "
                         << formatShape(dstType.getShape())
                         << " differs from source shape "
                         << formatShape(srcType.getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// FinalizeReducerOp
//===----------------------------------------------------------------------===//

ReduceKind FinalizeReducerOp::getKind() {
  auto alloc = getReducer().getDefiningOp<AllocOp>();
  return alloc && alloc.getReducer() ? *alloc.getReducer() : ReduceKind::Sum;
}

LogicalResult FinalizeReducerOp::verify() {
  auto alloc = getReducer().getDefiningOp<AllocOp>();
  if (!alloc || !alloc.getReducer())
    return emitOpError() << "expects a buffer allocated as a reducer "
                            "(tile.alloc {reducer = ...})";
  return success();
}

//===----------------------------------------------------------------------===//
// AtomicAddOp
//===----------------------------------------------------------------------===//

LogicalResult AtomicAddOp::verify() {
  MemRefType dstType = getDst().getType();
  std::optional<Scope> scope = getBufferScope(dstType);
  if (scope != Scope::Global && scope != Scope::Shared)
    return emitOpError() << "expects a global or shared destination, got "
                         << scopeName(scope);
  if (static_cast<int64_t>(getIndices().size()) != dstType.getRank())
    return emitOpError() << "expects " << dstType.getRank()
                         << " indices (one per dimension of " << dstType
                         << "), got " << getIndices().size();
  Type valueType = getValue().getType();
  if (auto valueBuf = dyn_cast<MemRefType>(valueType)) {
    if (!getBufferScope(valueBuf))
      return emitOpError() << "expects the added buffer in a #tile.scope "
                              "memory space, got "
                           << valueType;
    if (!valueBuf.hasStaticShape())
      return emitOpError() << "expects the added buffer to have a static "
                              "shape, got "
                           << valueType;
    if (valueBuf.getRank() > dstType.getRank())
      return emitOpError() << "added buffer of rank " << valueBuf.getRank()
                           << " exceeds the destination's rank "
                           << dstType.getRank();
    return success();
  }
  if (valueType != dstType.getElementType())
    return emitOpError() << "added value has type " << valueType
                         << " but the destination's element type is "
                         << dstType.getElementType();
  return success();
}

void AtomicAddOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getDstMutable());
  effects.emplace_back(MemoryEffects::Write::get(), &getDstMutable());
  if (isRegionForm())
    effects.emplace_back(MemoryEffects::Read::get(), &getValueMutable());
}

//===----------------------------------------------------------------------===//
// PrintOp
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  Type type = getValue().getType();
  if (auto buffer = dyn_cast<MemRefType>(type)) {
    if (!getBufferScope(buffer))
      return emitOpError() << "expects a buffer in a #tile.scope memory "
                              "space, got "
                           << type;
    return success();
  }
  if (!type.isIntOrIndexOrFloat())
    return emitOpError() << "expects a scalar or a buffer, got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// CallExternOp
//===----------------------------------------------------------------------===//

llvm::SmallVector<CallExternOp::ExternArg> CallExternOp::getExternArgs() {
  llvm::SmallVector<ExternArg> out;
  OperandRange args = getArgs();
  for (unsigned i = 0; i < args.size();) {
    ExternArg a;
    if (auto type = dyn_cast<MemRefType>(args[i].getType())) {
      unsigned rank = type.getRank();
      if (i + 1 + rank > args.size())
        return {};
      a.buffer = args[i];
      a.indices = args.slice(i + 1, rank);
      i += 1 + rank;
    } else {
      a.value = args[i++];
    }
    out.push_back(a);
  }
  return out;
}

LogicalResult CallExternOp::verify() {
  OperandRange args = getArgs();
  unsigned n = 0;
  for (unsigned i = 0; i < args.size(); ++n) {
    auto type = dyn_cast<MemRefType>(args[i].getType());
    if (!type) {
      if (!args[i].getType().isIntOrIndexOrFloat())
        return emitOpError() << "expects scalar or buffer arguments, got " << args[i].getType();
      ++i;
      continue;
    }
    if (!getBufferScope(type))
      return emitOpError() << "expects buffers in a #tile.scope memory space, got " << type;
    for (unsigned d = 0; d < type.getRank(); ++d)
      if (i + 1 + d >= args.size() || !args[i + 1 + d].getType().isIndex())
        return emitOpError() << "expects " << type.getRank() << " indices after pointer argument " << n;
    i += 1 + type.getRank();
  }
  if (getArgCtypes().size() != n)
    return emitOpError() << "has " << n << " arguments but " << getArgCtypes().size() << " C++ argument types";
  if ((getResultCtype() == "void") != !getResult())
    return emitOpError() << "result type '" << getResultCtype() << "' does not match its results";
  if (getSources().size() != getSourceLocs().size())
    return emitOpError() << "has " << getSources().size() << " sources but " << getSourceLocs().size()
                         << " source locations";
  return success();
}

LogicalResult tilec::tile::reportExternCalls(Operation *root, llvm::StringRef targetName) {
  bool found = false;
  root->walk([&](CallExternOp call) {
    call.emitError() << "T.call_extern of '" << call.getCallee() << "' is not available on target '" << targetName
                     << "': T.import_source's device code is CUDA C++, which tilec compiles for the CUDA targets "
                        "(sm_80 ... sm_90a) only";
    found = true;
  });
  return failure(found);
}

//===----------------------------------------------------------------------===//
// UseSwizzleOp, AnnotateLayoutOp, ThreadIdOp
//===----------------------------------------------------------------------===//

LogicalResult UseSwizzleOp::verify() {
  if (!isa_and_nonnull<LaunchOp>((*this)->getParentOp()))
    return emitOpError() << "must be directly inside a tile.launch";
  if (getPanelSizeAttr().getInt() <= 0)
    return emitOpError() << "expects panel_size > 0, got "
                         << getPanelSizeAttr().getInt();
  if (getOrder() != "row" && getOrder() != "col")
    return emitOpError() << "expects order \"row\" or \"col\", got \""
                         << getOrder() << "\"";
  return success();
}

LogicalResult AnnotateLayoutOp::verify() {
  MemRefType type = getBuffer().getType();
  std::optional<Scope> scope = getBufferScope(type);
  if (scope != Scope::Shared && scope != Scope::Fragment)
    return emitOpError() << "expects a shared or fragment buffer, got "
                         << scopeName(scope);
  return getLayout().verifyBuffer(type, [&] { return emitOpError(); });
}

void ThreadIdOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  static const char *const names[] = {"tx", "ty", "tz"};
  int64_t dim = getDimAttr().getInt();
  setNameFn(getResult(), dim >= 0 && dim < 3 ? names[dim] : "tid");
}

LogicalResult ThreadIdOp::verify() {
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim > 2)
    return emitOpError() << "expects dim 0, 1 or 2, got " << dim;
  if (!(*this)->getParentOfType<LaunchOp>())
    return emitOpError() << "must be inside a tile.launch";
  return success();
}

LogicalResult WarpGroupOp::verify() {
  if (getGroups().empty())
    return emitOpError() << "expects at least one warp group";
  if (int64_t(getGroupSize()) <= 0)
    return emitOpError() << "expects a positive group size, got " << getGroupSize();
  for (int64_t g : getGroups())
    if (g < 0)
      return emitOpError() << "expects non-negative warp group indices, got " << g;
  if (!(*this)->getParentOfType<LaunchOp>())
    return emitOpError() << "must be inside a tile.launch";
  return success();
}

LogicalResult AllocBarrierOp::verify() {
  MemRefType type = getResult().getType();
  int64_t n = getArriveCounts().size();
  if (getBufferScope(type) != Scope::Shared || type.getRank() != 1 || !type.getElementType().isInteger(64) ||
      type.getDimSize(0) != n)
    return emitOpError() << "expects a result of type memref<" << n << "xi64, #tile.scope<shared>>";
  for (int64_t c : getArriveCounts())
    if (c <= 0)
      return emitOpError() << "expects positive arrive counts, got " << c;
  return success();
}
