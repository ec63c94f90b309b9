//===- AscendEmitter.h - The Ascend C emitter's shared pieces ---*- C++ -*-===//
//
// Private to lib/Target/Ascend: the per-kernel emitter (KernelEmitter) whose
// parts live in AscendCEmitter.cpp (statements, the kernel), AscendCopy.cpp
// (buffers and T.copy), AscendCompute.cpp (fill, reductions, cumsum,
// T.Parallel) and AscendScalar.cpp (types and scalar expressions).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_TARGET_ASCEND_ASCENDEMITTER_H
#define TILEC_LIB_TARGET_ASCEND_ASCENDEMITTER_H

#include "tilec/Target/Ascend/AscendTarget.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace ascend {
using namespace mlir;

/// Last-dimension padding of UB buffers, in elements (32 bytes of int8).
constexpr int64_t kPadElements = 32;

inline int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/// The C++ spelling of an element or scalar type; empty when unsupported.
std::string cxxType(Type t);
/// Bytes of one element as the UB holds it.
int64_t elementBytes(Type t);
/// float16 or float32: the element types the vector instructions take here.
bool isVectorFloat(Type t);
/// The spec's spelling of an element type, for diagnostics.
std::string dtypeName(Type t);
/// A C++ literal of `v` as type `t`.
std::string floatLiteral(double v, Type t);

/// Whether a kernel parameter's name cannot be a C++ identifier in the
/// generated code as is (a keyword, or a name the emitter declares).
bool isReservedName(llvm::StringRef name);

/// The C++ expression of a scalar arith/math op's result, operands through
/// `get`; integer helpers prefixed `helpers`; C casts when `cStyle`. nullopt
/// for ops outside the scalar subset (math functions: only the vector unit
/// has them).
std::optional<std::string> scalarExpr(Operation *op, llvm::function_ref<std::string(Value)> get,
                                      llvm::StringRef helpers = "tilec_", bool cStyle = false);

/// A UB buffer: a LocalTensor over its own TBuf.
struct LocalBuf {
  std::string name;
  Type elt;
  SmallVector<int64_t> shape;
  SmallVector<int64_t> strides; ///< elements, last dim padded
  int64_t elems = 0;            ///< padded element count
};

/// A kernel tensor argument: a GlobalTensor.
struct GlobalBuf {
  std::string name;
  Type elt;
  SmallVector<std::string> dims; ///< C expressions
};

/// One value of a vectorised T.Parallel body: a scalar C++ expression
/// (uniform along the row) or a row of a LocalTensor.
struct VecValue {
  bool vector = false;
  std::string expr;
  Type type;
};

struct VectorPlan;
class VectorRow;
class TransferRuns;

class KernelEmitter {
  friend class VectorRow;
  friend class TransferRuns;

public:
  KernelEmitter(tile::KernelOp kernel, const AscendTargetOptions &options, AscendKernel &out)
      : kernel(kernel), options(options), out(out), os(body) {}

  LogicalResult run();

private:
  /// The Unified Buffer declarations of every tile buffer, staging buffer, the scratch and
  /// Tanh's buffer; an error when they exceed the AI Core's UB.
  LogicalResult declareUnifiedBuffer(tile::LaunchOp launch, SmallVector<std::string> &decls);
  tile::KernelOp kernel;
  const AscendTargetOptions &options;
  AscendKernel &out;
  std::string body;
  llvm::raw_string_ostream os;
  unsigned indent = 1;
  unsigned counter = 0;
  DenseMap<Value, std::string> names;
  DenseMap<Value, LocalBuf> locals;
  DenseMap<Value, GlobalBuf> globals;
  SmallVector<LocalBuf *> localOrder;
  std::vector<std::unique_ptr<LocalBuf>> localStore;
  /// Staging buffers per (local buffer, element type): copies that convert.
  std::map<std::pair<std::string, std::string>, std::string> stages;
  SmallVector<std::pair<std::string, LocalBuf>> stageBufs;
  int64_t scratchBytes = 0;
  int64_t tanhBytes = 0; ///< Tanh's sharedTmpBuffer

  void line(const Twine &text) { os.indent(indent * 2) << text << "\n"; }
  std::string fresh(StringRef prefix) { return (prefix + Twine(counter++)).str(); }
  void barrierAll() { line("AscendC::PipeBarrier<PIPE_ALL>();"); }
  void barrierV() { line("AscendC::PipeBarrier<PIPE_V>();"); }
  InFlightDiagnostic error(Operation *op, const Twine &what) {
    return op->emitError() << "the ascend target " << what;
  }

  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitScalar(Operation *op);
  LogicalResult emitAlloc(tile::AllocOp op);
  LogicalResult emitCopy(tile::CopyOp op);
  LogicalResult emitLocalCopy(tile::CopyOp op);
  LogicalResult emitFill(tile::FillOp op);
  LogicalResult emitReduce(tile::ReduceOp op);
  LogicalResult emitCumsum(tile::CumsumOp op);
  LogicalResult emitParallel(tile::ParallelOp op);
  LogicalResult emitVectorBody(tile::ParallelOp op, bool dryRun, std::string &why);
  /// Whether a T.Parallel body takes the vector unit: which values vary along the row,
  /// which stores a vector op writes directly; `why` says what stops it.
  LogicalResult analyzeVectorBody(tile::ParallelOp op, VectorPlan &plan, std::string &why);
  /// One per-element float op of a vectorised body as vector instructions over the row.
  void emitVectorOp(Operation &o, VectorRow &row);
  LogicalResult emitScalarBody(tile::ParallelOp op);

  std::string name(Value v) { return names.lookup(v); }
  /// The UB buffer `v` of `op`'s `what`; an error when it is a global tensor.
  LocalBuf *local(Operation *op, Value v, llvm::StringRef what) {
    auto it = locals.find(v);
    if (it != locals.end())
      return &it->second;
    error(op, "takes only shared, fragment and local buffers as " + what +
                  " (T.copy the global tensor through a fragment)");
    return nullptr;
  }
  std::string stageFor(LocalBuf &buf, Type elt);
  /// The scratch buffer's LocalTensor views, by C++ element type.
  std::map<std::string, std::string> scratchViews;
  /// The scratch buffer viewed as `elt`.
  std::string scratchBase(Type elt) {
    std::string t = cxxType(elt);
    std::string n = elt.isF16() ? "scratch_f16" : elt.isF32() ? "scratch_f32" : "scratch_" + t.substr(0, t.size() - 2);
    scratchViews[t] = n;
    return n;
  }
  /// Set by scalar stores to UB outside tile statements: the next tile
  /// statement (another pipe) must wait for them.
  bool scalarPending = false;
  void flushScalar() {
    if (scalarPending)
      barrierAll();
    scalarPending = false;
  }
  LogicalResult emitElementAccess(Operation *op);
  /// One element `value` into global `g` at `idx` (added in atomic mode when
  /// `atomic`): through a 32-byte scratch block and a 1-element DataCopyPad
  /// between barriers (never GlobalTensor::SetValue: the scalar data cache is
  /// not coherent across cores); outside the tensor it is dropped.
  void storeElement(GlobalBuf &g, ArrayRef<std::string> idx, const std::string &value, bool atomic);
  /// One global <-> UB transfer: a T.copy or an atomic add's region.
  struct Transfer {
    GlobalBuf &g;
    LocalBuf &l;
    SmallVector<int64_t> gSizes, lSizes;
    SmallVector<std::string> gi, li; ///< region offsets (C expressions)
    SmallVector<int64_t> lConst;     ///< the UB offsets' values when lStatic
    bool lStatic = false;
  };
  LogicalResult emitTransfer(Operation *op, bool load, const Transfer &t, bool atomic);
  LogicalResult emitAtomicAdd(tile::AtomicAddOp op);
  std::string scratch(Type elt, int64_t offsetBytes) {
    return scratchBase(elt) + "[" + std::to_string(offsetBytes / elementBytes(elt)) + "]";
  }
  /// A local buffer's flat offset of `indices` (C expressions).
  std::string localOffset(const LocalBuf &buf, ArrayRef<std::string> indices) {
    SmallVector<std::string> terms;
    for (size_t d = 0; d < indices.size(); ++d)
      terms.push_back(buf.strides[d] == 1 ? "(" + indices[d] + ")"
                                          : "(" + indices[d] + ") * " + std::to_string(buf.strides[d]));
    return terms.empty() ? "0" : llvm::join(terms, " + ");
  }
  std::string globalOffset(const GlobalBuf &buf, ArrayRef<std::string> indices) {
    std::string expr;
    for (size_t d = 0; d < indices.size(); ++d) {
      std::string term = "(" + indices[d] + ")";
      for (size_t e = d + 1; e < buf.dims.size(); ++e)
        term += " * " + buf.dims[e];
      expr += (d ? " + " : "") + term;
    }
    return expr.empty() ? "0" : expr;
  }
};

} // namespace ascend
} // namespace tilec

#endif // TILEC_LIB_TARGET_ASCEND_ASCENDEMITTER_H
