//===- TileStructureOps.cpp - Kernel, launch and loop operations ----------===//
//
// Builders, custom assembly and verifiers of tile.kernel, tile.launch,
// tile.parallel and tile.for (the ops with regions).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilec::tile;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Parses `[1, 2, 3]` into `values`.
static ParseResult parseI64List(OpAsmParser &parser,
                                SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                        [&]() -> ParseResult {
                                          int64_t v;
                                          if (parser.parseInteger(v))
                                            return failure();
                                          values.push_back(v);
                                          return success();
                                        });
}

static void printI64List(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

/// Parses `(%a, %b)` as block arguments of type index.
static ParseResult
parseIndexArguments(OpAsmParser &parser,
                    SmallVectorImpl<OpAsmParser::Argument> &args) {
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  for (OpAsmParser::Argument &arg : args)
    arg.type = index;
  return success();
}

static void printArguments(OpAsmPrinter &p, Block::BlockArgListType args) {
  p << '(';
  llvm::interleaveComma(args, p, [&](BlockArgument a) { p.printOperand(a); });
  p << ')';
}

/// Checks that `region`'s block has `count` index arguments.
static LogicalResult verifyIndexArgs(Operation *op, Region &region,
                                     size_t count, StringRef what) {
  Block &block = region.front();
  if (block.getNumArguments() != count)
    return op->emitOpError()
           << "expects " << count << " " << what << " block arguments, got "
           << block.getNumArguments();
  for (BlockArgument arg : block.getArguments())
    if (!arg.getType().isIndex())
      return op->emitOpError()
             << "expects index block arguments, got " << arg.getType();
  return success();
}

/// Creates `region`'s block with `count` index arguments and a tile.yield.
static void buildIndexBody(OpBuilder &builder, OperationState &state,
                           Region *region, size_t count) {
  Block *block = new Block();
  region->push_back(block);
  for (size_t i = 0; i < count; ++i)
    block->addArgument(builder.getIndexType(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  YieldOp::create(builder, state.location);
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type, ArrayRef<NamedAttribute> attrs,
                     ArrayRef<DictionaryAttr> argAttrs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.attributes.append(attrs.begin(), attrs.end());
  state.addRegion();
  if (argAttrs.empty())
    return;
  call_interface_impl::addArgAndResultAttrs(
      builder, state, argAttrs, /*resultAttrs=*/{},
      getArgAttrsAttrName(state.name), getResAttrsAttrName(state.name));
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LaunchOp KernelOp::getLaunchOp() {
  if (getBody().empty())
    return {};
  for (Operation &op : getBody().front())
    if (auto launch = dyn_cast<LaunchOp>(op))
      return launch;
  return {};
}

bool KernelOp::isLaunchSequence() {
  if (getBody().empty())
    return false;
  return llvm::any_of(getBody().front(), [](Operation &op) { return isa<CallOp>(op); });
}

LogicalResult tilec::tile::rejectLaunchSequence(KernelOp kernel, StringRef target) {
  Block &body = kernel.getBody().front();
  auto globals = body.getOps<AllocGlobalOp>();
  if (!globals.empty())
    return (*globals.begin()).emitError()
           << "the " << target << " target has no workspace for T.alloc_global buffers (kernel '" << kernel.getSymName()
           << "'); pass the buffer to the kernel as a T.Tensor parameter "
              "instead";
  auto calls = llvm::to_vector(body.getOps<CallOp>());
  return calls[calls.size() > 1 ? 1 : 0].emitError()
         << "the " << target << " target runs one T.Kernel block per kernel function, and '" << kernel.getSymName()
         << "' has " << calls.size() << "; write each T.Kernel block as a kernel function of its own";
}

/// Names the entry block arguments after their `tile.name` attributes.
void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  if (&region != &getBody() || region.empty())
    return;
  for (BlockArgument arg : region.getArguments())
    if (auto name = getArgName(*this, arg.getArgNumber()))
      setNameFn(arg, name.getValue());
}

namespace {
/// Kernel argument classes, in the order they must appear.
enum class ArgClass { Tensor = 0, Dim = 1, Scalar = 2 };
} // namespace

static StringRef argClassName(ArgClass c) {
  switch (c) {
  case ArgClass::Tensor:
    return "a tensor";
  case ArgClass::Dim:
    return "a dynamic dimension";
  case ArgClass::Scalar:
    return "a scalar";
  }
  llvm_unreachable("unknown argument class");
}

LogicalResult KernelOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError() << "expects no results, got "
                         << getResultTypes().size();

  // 1. Arguments: global tensors, then index dimensions, then scalars.
  std::optional<ArgClass> previous;
  for (auto [i, type] : llvm::enumerate(getArgumentTypes())) {
    ArgClass cls;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (getBufferScope(memref) != Scope::Global)
        return emitOpError() << "tensor argument #" << i
                             << " must be in #tile.scope<global>, got " << type;
      cls = ArgClass::Tensor;
    } else if (type.isIndex()) {
      cls = ArgClass::Dim;
    } else if (type.isIntOrFloat()) {
      cls = ArgClass::Scalar;
    } else {
      return emitOpError() << "argument #" << i
                           << " must be a global memref, an index or a "
                              "scalar, got "
                           << type;
    }
    if (previous && cls < *previous)
      return emitOpError() << "expects arguments ordered tensors, dynamic "
                              "dimensions, scalars; argument #"
                           << i << " (" << argClassName(cls) << ") follows "
                           << argClassName(*previous);
    previous = cls;
  }

  // 2. Body: one block ending in tile.return.
  Region &body = getBody();
  if (body.empty())
    return emitOpError() << "expects a body";
  if (!body.hasOneBlock())
    return emitOpError() << "expects a single block, got "
                         << llvm::range_size(body.getBlocks());
  Block &block = body.front();
  if (block.empty() || !isa<ReturnOp>(block.back()))
    return emitOpError() << "expects the body to end with tile.return";

  // 3. Global buffers only come in as arguments (views of them are fine).
  WalkResult walk = body.walk([&](Operation *op) {
    // Views of arguments are fine; tile.alloc reports its own error; global
    // intermediates come from tile.alloc_global.
    if (isa<ViewLikeOpInterface, CastOpInterface, AllocOp, AllocGlobalOp>(op))
      return WalkResult::advance();
    for (Value result : op->getResults()) {
      if (isBufferInScope(result.getType(), Scope::Global)) {
        op->emitOpError() << "defines a global buffer; global tensors must "
                             "be kernel arguments";
        return WalkResult::interrupt();
      }
    }
    for (Region &region : op->getRegions())
      for (Block &inner : region)
        for (BlockArgument arg : inner.getArguments())
          if (isBufferInScope(arg.getType(), Scope::Global)) {
            op->emitOpError() << "has a global buffer block argument; global "
                                 "tensors must be kernel arguments";
            return WalkResult::interrupt();
          }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

void LaunchOp::build(OpBuilder &builder, OperationState &state, ValueRange grid,
                     ArrayRef<int64_t> threads, ArrayRef<int64_t> cluster) {
  state.addOperands(grid);
  state.addAttribute(getThreadsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(threads));
  if (!cluster.empty())
    state.addAttribute(getClusterAttrName(state.name),
                       builder.getDenseI64ArrayAttr(cluster));
  buildIndexBody(builder, state, state.addRegion(), grid.size());
}

/// Names the block indices `bx`, `by`, `bz`.
void LaunchOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  static const char *const names[] = {"bx", "by", "bz"};
  for (auto [i, arg] : llvm::enumerate(region.getArguments()))
    if (i < 3)
      setNameFn(arg, names[i]);
}

/// tile.launch grid(%gx, %gy) threads [tx, ty, tz] (cluster [cx, cy, cz])?
///   as (%bx, %by) (attributes {...})? region
ParseResult LaunchOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> grid;
  SmallVector<int64_t> threads, cluster;
  SmallVector<OpAsmParser::Argument> indices;
  Builder &builder = parser.getBuilder();
  if (parser.parseKeyword("grid") ||
      parser.parseOperandList(grid, OpAsmParser::Delimiter::Paren) ||
      parser.resolveOperands(grid, builder.getIndexType(), result.operands) ||
      parser.parseKeyword("threads") || parseI64List(parser, threads))
    return failure();
  result.addAttribute(getThreadsAttrName(result.name),
                      builder.getDenseI64ArrayAttr(threads));
  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    if (parseI64List(parser, cluster))
      return failure();
    result.addAttribute(getClusterAttrName(result.name),
                        builder.getDenseI64ArrayAttr(cluster));
  }
  if (parser.parseKeyword("as") || parseIndexArguments(parser, indices) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, indices))
    return failure();
  ensureTerminator(*body, builder, result.location);
  return success();
}

void LaunchOp::print(OpAsmPrinter &p) {
  p << " grid(" << getGrid() << ") threads ";
  printI64List(p, getThreads());
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster()) {
    p << " cluster ";
    printI64List(p, *cluster);
  }
  p << " as ";
  printArguments(p, getBlockIndices());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getThreadsAttrName(), getClusterAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult LaunchOp::verify() {
  size_t rank = getGrid().size();
  if (rank < 1 || rank > 3)
    return emitOpError() << "expects 1 to 3 grid extents, got " << rank;
  if (getThreads().size() != 3)
    return emitOpError() << "expects 3 thread counts, got "
                         << getThreads().size();
  if (llvm::any_of(getThreads(), [](int64_t t) { return t <= 0; }))
    return emitOpError() << "expects positive thread counts";
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster()) {
    if (cluster->size() != 3)
      return emitOpError() << "expects 3 cluster extents, got "
                           << cluster->size();
    if (llvm::any_of(*cluster, [](int64_t c) { return c <= 0; }))
      return emitOpError() << "expects positive cluster extents";
  }
  return verifyIndexArgs(*this, getBody(), rank, "block index");
}

//===----------------------------------------------------------------------===//
// ParallelOp
//===----------------------------------------------------------------------===//

void ParallelOp::build(OpBuilder &builder, OperationState &state,
                       ArrayRef<int64_t> extents) {
  state.addAttribute(getExtentsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(extents));
  buildIndexBody(builder, state, state.addRegion(), extents.size());
}

/// tile.parallel (%i, %j) in [e0, e1] (attributes {...})? region
ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> ivs;
  SmallVector<int64_t> extents;
  Builder &builder = parser.getBuilder();
  if (parseIndexArguments(parser, ivs) || parser.parseKeyword("in") ||
      parseI64List(parser, extents))
    return failure();
  result.addAttribute(getExtentsAttrName(result.name),
                      builder.getDenseI64ArrayAttr(extents));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ivs))
    return failure();
  ensureTerminator(*body, builder, result.location);
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  p << ' ';
  printArguments(p, getInductionVars());
  p << " in ";
  printI64List(p, getExtents());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getExtentsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult ParallelOp::verify() {
  if (getExtents().empty())
    return emitOpError() << "expects at least one extent";
  if (llvm::any_of(getExtents(), [](int64_t e) { return e <= 0; }))
    return emitOpError() << "expects positive extents";
  return verifyIndexArgs(*this, getBody(), getExtents().size(),
                         "induction variable");
}

SmallVector<Region *> ParallelOp::getLoopRegions() { return {&getBody()}; }

std::optional<SmallVector<Value>> ParallelOp::getLoopInductionVars() {
  return SmallVector<Value>(getInductionVars().begin(),
                            getInductionVars().end());
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

void ForOp::build(OpBuilder &builder, OperationState &state, Value lowerBound,
                  Value upperBound, Value step, LoopKind kind,
                  std::optional<int64_t> numStages) {
  state.addOperands({lowerBound, upperBound, step});
  state.addAttribute(getKindAttrName(state.name),
                     LoopKindAttr::get(builder.getContext(), kind));
  if (numStages)
    state.addAttribute(getNumStagesAttrName(state.name),
                       builder.getI64IntegerAttr(*numStages));
  buildIndexBody(builder, state, state.addRegion(), 1);
}

/// tile.for %iv = %lb to %ub step %step (serial|unroll|pipelined)?
///   (attributes {...})? region
ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  Type index = builder.getIndexType();
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand lb, ub, step;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) || parser.parseKeyword("step") ||
      parser.parseOperand(step) ||
      parser.resolveOperands({lb, ub, step}, index, result.operands))
    return failure();
  iv.type = index;

  // An optional kind keyword, then an optional `attributes {...}`.
  LoopKind kind = LoopKind::Serial;
  StringRef keyword;
  SMLoc kindLoc = parser.getCurrentLocation();
  bool sawAttributes = false;
  if (succeeded(parser.parseOptionalKeyword(&keyword))) {
    if (keyword == "attributes") {
      sawAttributes = true;
    } else if (std::optional<LoopKind> parsed = symbolizeLoopKind(keyword)) {
      kind = *parsed;
    } else {
      return parser.emitError(kindLoc)
             << "expected a loop kind (serial, unroll, pipelined), got '"
             << keyword << "'";
    }
  }
  result.addAttribute(getKindAttrName(result.name),
                      LoopKindAttr::get(builder.getContext(), kind));
  if (sawAttributes
          ? parser.parseOptionalAttrDict(result.attributes)
          : parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  ensureTerminator(*body, builder, result.location);
  return success();
}

void ForOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getInductionVar());
  p << " = " << getLowerBound() << " to " << getUpperBound() << " step "
    << getStep() << ' ' << stringifyLoopKind(getKind());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {getKindAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult ForOp::verify() {
  if (failed(verifyIndexArgs(*this, getBody(), 1, "induction variable")))
    return failure();
  if (IntegerAttr stages = getNumStagesAttr()) {
    if (getKind() != LoopKind::Pipelined)
      return emitOpError() << "num_stages is only valid on a pipelined loop";
    if (stages.getInt() < 1)
      return emitOpError() << "expects num_stages >= 1, got "
                           << stages.getInt();
  }
  APInt step;
  if (matchPattern(getStep(), m_ConstantInt(&step)) && step.isZero())
    return emitOpError() << "expects a non-zero step";
  return success();
}

SmallVector<Region *> ForOp::getLoopRegions() { return {&getBody()}; }

std::optional<SmallVector<Value>> ForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getLowerBound())};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getUpperBound())};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{OpFoldResult(getStep())};
}
