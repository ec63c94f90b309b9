//===- VulkanScalarizeVectors.cpp - 1-D vectors as scalars ----------------===//
//
// tilec-vulkan-scalarize-vectors: every 1-D vector value becomes one scalar
// per element. See Passes.td.
//
// 1. Walk the kernel in order (definitions before uses); for each op with a
//    vector operand or result build its scalar form right before it and
//    record the scalars of its vector results.
// 2. Scalar results (vector.extract) are replaced at once; the vector ops
//    are erased afterwards, users first.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tilec {
#define GEN_PASS_DEF_VULKANSCALARIZEVECTORS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {
class Scalarizer {
public:
  /// Scalarizes `op` if it touches vectors; failure with a diagnostic.
  LogicalResult visit(Operation *op);
  /// Erases the vector ops, users first.
  void cleanup() {
    for (Operation *op : llvm::reverse(dead))
      op->erase();
  }

private:
  llvm::DenseMap<Value, llvm::SmallVector<Value>> elems;
  llvm::SmallVector<Operation *> dead;

  static bool isVector(Type t) { return isa<VectorType>(t); }
  FailureOr<llvm::ArrayRef<Value>> scalars(Operation *user, Value v) {
    auto it = elems.find(v);
    if (it == elems.end())
      return user->emitOpError("uses a vector value the Vulkan target cannot scalarize");
    return llvm::ArrayRef<Value>(it->second);
  }
  /// Innermost-index offsets `i` of `indices`.
  static llvm::SmallVector<Value> shifted(OpBuilder &b, Location loc, ValueRange indices, int64_t i) {
    llvm::SmallVector<Value> at(indices);
    if (i != 0)
      at.back() = arith::AddIOp::create(b, loc, at.back(), arith::ConstantIndexOp::create(b, loc, i));
    return at;
  }
};
} // namespace

LogicalResult Scalarizer::visit(Operation *op) {
  bool touches = llvm::any_of(op->getOperandTypes(), isVector) || llvm::any_of(op->getResultTypes(), isVector);
  if (!touches)
    return success();
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto vt = dyn_cast<VectorType>(t); vt && (vt.getRank() != 1 || vt.isScalable()))
      return op->emitOpError("uses ") << vt << "; the Vulkan target scalarizes only fixed 1-D vectors";
  OpBuilder b(op);
  Location loc = op->getLoc();
  llvm::SmallVector<Value> out;

  if (auto load = dyn_cast<vector::LoadOp>(op)) {
    for (int64_t i = 0, n = load.getVectorType().getNumElements(); i < n; ++i)
      out.push_back(memref::LoadOp::create(b, loc, load.getBase(), shifted(b, loc, load.getIndices(), i)));
  } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
    auto v = scalars(op, store.getValueToStore());
    if (failed(v))
      return failure();
    for (auto [i, s] : llvm::enumerate(*v))
      memref::StoreOp::create(b, loc, s, store.getBase(), shifted(b, loc, store.getIndices(), i));
  } else if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    auto v = scalars(op, extract.getSource());
    if (failed(v))
      return failure();
    if (!extract.getDynamicPosition().empty() || extract.getStaticPosition().size() != 1)
      return op->emitOpError("extracts at a position the Vulkan target cannot resolve");
    extract.getResult().replaceAllUsesWith((*v)[extract.getStaticPosition()[0]]);
  } else if (auto insert = dyn_cast<vector::InsertOp>(op)) {
    auto v = scalars(op, insert.getDest());
    if (failed(v))
      return failure();
    if (!insert.getDynamicPosition().empty() || insert.getStaticPosition().size() != 1 ||
        isVector(insert.getValueToStore().getType()))
      return op->emitOpError("inserts at a position the Vulkan target cannot resolve");
    out.assign(v->begin(), v->end());
    out[insert.getStaticPosition()[0]] = insert.getValueToStore();
  } else if (auto from = dyn_cast<vector::FromElementsOp>(op)) {
    out.assign(from.getElements().begin(), from.getElements().end());
  } else if (auto bcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (isVector(bcast.getSource().getType()))
      return op->emitOpError("broadcasts a vector; the Vulkan target scalarizes only scalar broadcasts");
    out.assign(bcast.getResultVectorType().getNumElements(), bcast.getSource());
  } else if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (!dense)
      return op->emitOpError("is a vector constant the Vulkan target cannot scalarize");
    Type elem = dense.getElementType();
    for (Attribute a : dense.getValues<Attribute>())
      out.push_back(arith::ConstantOp::create(b, loc, elem, cast<TypedAttr>(a)));
  } else if ((op->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(op)) && op->getNumRegions() == 0 &&
             op->getNumResults() == 1 && isVector(op->getResult(0).getType())) {
    auto vt = cast<VectorType>(op->getResult(0).getType());
    for (int64_t i = 0, n = vt.getNumElements(); i < n; ++i) {
      llvm::SmallVector<Value> operands;
      for (Value operand : op->getOperands()) {
        if (!isVector(operand.getType())) {
          operands.push_back(operand);
          continue;
        }
        auto v = scalars(op, operand);
        if (failed(v))
          return failure();
        operands.push_back((*v)[i]);
      }
      OperationState state(loc, op->getName(), operands, TypeRange{vt.getElementType()}, op->getAttrs());
      out.push_back(b.create(state)->getResult(0));
    }
  } else {
    return op->emitOpError("works on vectors, which the Vulkan target cannot scalarize here");
  }
  for (Value r : op->getResults())
    if (isVector(r.getType()))
      elems[r] = out;
  dead.push_back(op);
  return success();
}

namespace {
struct VulkanScalarizeVectorsPass : tilec::impl::VulkanScalarizeVectorsBase<VulkanScalarizeVectorsPass> {
  void runOnOperation() override {
    Scalarizer s;
    WalkResult r = getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      return failed(s.visit(op)) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (r.wasInterrupted())
      return signalPassFailure();
    s.cleanup();
  }
};
} // namespace
