//===- AscendCEmitter.cpp - tile-level IR -> Ascend C kernel source -------===//
//
// Prints one Ascend C kernel per tile.kernel, reading the tile-level IR
// directly (no thread mapping: an AI Core's vector unit works on whole rows).
//
// 1. Every tile buffer (fragment, shared, local) becomes a LocalTensor in the
//    Unified Buffer through one TBuf each; the last dimension is padded to a
//    multiple of 32 elements so every row starts 32-byte aligned (the rule of
//    DataCopy and of the vector instructions). Scratch for vector bodies,
//    reductions and copy staging is one more TBuf.
// 2. The T.Kernel grid is walked by `for (block = GetBlockIdx(); block <
//    blocks; block += GetBlockNum())`, so any blockDim is correct.
// 3. tile.copy between global and UB: a row of whole 32-byte blocks inside
//    the tensor moves with DataCopy, a ragged or partly outside row with
//    DataCopyPad (exact bytes) and zero fill; float16 <-> float32 goes
//    through a staging buffer and Cast. Global memory is written only by
//    MTE3 (never by scalar SetValue: its data cache is not coherent across
//    cores).
// 4. tile.parallel: a body of float arithmetic and math over rows (loads and
//    stores indexed [.., j] with j the innermost index, or uniform in j)
//    becomes vector instructions on whole rows; any other body runs on the
//    scalar unit (GetValue/SetValue) if it has no math functions.
// 5. tile.reduce along the last dimension of a float buffer: ReduceSum /
//    ReduceMax / ReduceMin per row; other reductions run on the scalar unit.
// 6. Between tile statements `PipeBarrier<PIPE_ALL>()` orders the pipes
//    (MTE2, V, S, MTE3); inside a vector body `PipeBarrier<PIPE_V>()` follows
//    each instruction.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/Ascend/AscendTarget.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <functional>
#include <map>

using namespace mlir;
using namespace tilec;

namespace {

constexpr int64_t kPadElements = 32; ///< last-dim padding of UB buffers (32 B of int8)

int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/// The C++ spelling of an element or scalar type; empty when unsupported.
std::string cxxType(Type t) {
  if (t.isIndex())
    return "int64_t";
  if (t.isF16())
    return "half";
  if (t.isF32())
    return "float";
  if (t.isF64())
    return "double";
  if (auto it = dyn_cast<IntegerType>(t)) {
    switch (it.getWidth()) {
    case 1: return "bool";
    case 8: return "int8_t";
    case 16: return "int16_t";
    case 32: return "int32_t";
    case 64: return "int64_t";
    }
  }
  return "";
}

/// Bytes of one element as the UB holds it.
int64_t elementBytes(Type t) {
  if (t.isInteger(1))
    return 1;
  return t.getIntOrFloatBitWidth() / 8;
}

bool isVectorFloat(Type t) { return t.isF16() || t.isF32(); }

/// The spec's spelling of an element type, for diagnostics.
std::string dtypeName(Type t) {
  if (t.isF64())
    return "float64";
  if (t.isBF16())
    return "bfloat16";
  if (t.isInteger(1))
    return "bool";
  if (isa<Float8E4M3FNType>(t))
    return "float8_e4m3";
  if (isa<Float8E5M2Type>(t))
    return "float8_e5m2";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string floatLiteral(double v, Type t) {
  if (std::isnan(v))
    return "static_cast<" + cxxType(t) + ">(__builtin_nanf(\"\"))";
  if (std::isinf(v))
    return std::string(v < 0 ? "-" : "") + "static_cast<" + cxxType(t) + ">(__builtin_huge_valf())";
  std::string s;
  llvm::raw_string_ostream os(s);
  if (t.isF64())
    os << llvm::format("%.17g", v);
  else
    os << llvm::format("%.9g", v);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  if (t.isF64())
    return s;
  if (t.isF32())
    return s + "f";
  return "static_cast<" + cxxType(t) + ">(" + s + "f)";
}

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

class KernelEmitter {
public:
  KernelEmitter(tile::KernelOp kernel, const AscendTargetOptions &options, AscendKernel &out)
      : kernel(kernel), options(options), out(out), os(body) {}

  LogicalResult run();

private:
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
  LogicalResult emitScalarBody(tile::ParallelOp op);

  std::string name(Value v) { return names.lookup(v); }
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

} // namespace

//===----------------------------------------------------------------------===//
// Scalars: arith and math ops as C++ expressions
//===----------------------------------------------------------------------===//

static std::optional<std::string> cmpiOp(arith::CmpIPredicate p, bool &isUnsigned) {
  using P = arith::CmpIPredicate;
  isUnsigned = p == P::ult || p == P::ule || p == P::ugt || p == P::uge;
  switch (p) {
  case P::eq: return "==";
  case P::ne: return "!=";
  case P::slt: case P::ult: return "<";
  case P::sle: case P::ule: return "<=";
  case P::sgt: case P::ugt: return ">";
  case P::sge: case P::uge: return ">=";
  }
  return std::nullopt;
}

static std::optional<std::string> cmpfExpr(arith::CmpFPredicate p, const std::string &a, const std::string &b) {
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::OEQ: return a + " == " + b;
  case P::ONE: return "(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::OLT: return a + " < " + b;
  case P::OLE: return a + " <= " + b;
  case P::OGT: return a + " > " + b;
  case P::OGE: return a + " >= " + b;
  case P::UEQ: return "!(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::UNE: return a + " != " + b;
  case P::ULT: return "!(" + a + " >= " + b + ")";
  case P::ULE: return "!(" + a + " > " + b + ")";
  case P::UGT: return "!(" + a + " <= " + b + ")";
  case P::UGE: return "!(" + a + " < " + b + ")";
  case P::ORD: return "(" + a + " == " + a + " && " + b + " == " + b + ")";
  case P::UNO: return "(" + a + " != " + a + " || " + b + " != " + b + ")";
  case P::AlwaysTrue: return std::string("true");
  case P::AlwaysFalse: return std::string("false");
  }
  return std::nullopt;
}

static std::string unsignedOf(Type t) {
  unsigned w = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
  return w == 1 ? "bool" : "uint" + std::to_string(w) + "_t";
}

/// The C++ expression of a scalar op's result; nullopt for ops outside the
/// scalar subset (math functions, which only the vector unit has).
static std::optional<std::string> scalarExpr(Operation *op, llvm::function_ref<std::string(Value)> get,
                                             StringRef helpers = "tilec_", bool cStyle = false) {
  auto bin = [&](StringRef sym) -> std::string {
    return "(" + get(op->getOperand(0)) + " " + sym.str() + " " + get(op->getOperand(1)) + ")";
  };
  Type rt = op->getNumResults() ? op->getResult(0).getType() : Type();
  std::string rc = rt ? cxxType(rt) : "";
  auto cast = [&](const std::string &e) {
    return cStyle ? "((" + rc + ")(" + e + "))" : "static_cast<" + rc + ">(" + e + ")";
  };
  auto asUnsigned = [&](Value v) { return "static_cast<" + unsignedOf(v.getType()) + ">(" + get(v) + ")"; };
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      return floatLiteral(f.getValueAsDouble(), rt);
    if (auto i = dyn_cast<IntegerAttr>(c.getValue())) {
      if (rt.isInteger(1))
        return std::string(i.getValue().isZero() ? "false" : "true");
      return cast(std::to_string(i.getValue().getSExtValue()) + "LL");
    }
    return std::nullopt;
  }
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return isa<arith::AddIOp>(op) ? cast(bin("+")) : bin("+");
  if (isa<arith::SubFOp, arith::SubIOp>(op))
    return isa<arith::SubIOp>(op) ? cast(bin("-")) : bin("-");
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return isa<arith::MulIOp>(op) ? cast(bin("*")) : bin("*");
  if (isa<arith::DivFOp>(op))
    return bin("/");
  if (isa<arith::DivSIOp>(op))
    return cast(bin("/"));
  if (isa<arith::RemSIOp>(op))
    return cast(bin("%"));
  if (isa<arith::DivUIOp, arith::RemUIOp>(op))
    return cast("(" + asUnsigned(op->getOperand(0)) + (isa<arith::DivUIOp>(op) ? " / " : " % ") +
                asUnsigned(op->getOperand(1)) + ")");
  if (isa<arith::FloorDivSIOp>(op))
    return cast(helpers.str() + "floordiv(" + get(op->getOperand(0)) + ", " + get(op->getOperand(1)) + ")");
  if (isa<arith::CeilDivSIOp>(op))
    return cast(helpers.str() + "ceildiv(" + get(op->getOperand(0)) + ", " + get(op->getOperand(1)) + ")");
  if (isa<arith::AndIOp>(op))
    return cast(bin("&"));
  if (isa<arith::OrIOp>(op))
    return cast(bin("|"));
  if (isa<arith::XOrIOp>(op))
    return cast(bin("^"));
  if (isa<arith::ShLIOp>(op))
    return cast("(" + asUnsigned(op->getOperand(0)) + " << " + get(op->getOperand(1)) + ")");
  if (isa<arith::ShRSIOp>(op))
    return cast(bin(">>"));
  if (isa<arith::ShRUIOp>(op))
    return cast("(" + asUnsigned(op->getOperand(0)) + " >> " + get(op->getOperand(1)) + ")");
  if (isa<arith::MaxSIOp, arith::MaximumFOp, arith::MaxNumFOp>(op))
    return "(" + get(op->getOperand(0)) + " > " + get(op->getOperand(1)) + " ? " + get(op->getOperand(0)) + " : " +
           get(op->getOperand(1)) + ")";
  if (isa<arith::MinSIOp, arith::MinimumFOp, arith::MinNumFOp>(op))
    return "(" + get(op->getOperand(0)) + " < " + get(op->getOperand(1)) + " ? " + get(op->getOperand(0)) + " : " +
           get(op->getOperand(1)) + ")";
  if (isa<arith::MaxUIOp, arith::MinUIOp>(op)) {
    std::string a = asUnsigned(op->getOperand(0)), b = asUnsigned(op->getOperand(1));
    return cast("(" + a + (isa<arith::MaxUIOp>(op) ? " > " : " < ") + b + " ? " + a + " : " + b + ")");
  }
  if (isa<arith::NegFOp>(op))
    return "(-" + get(op->getOperand(0)) + ")";
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    bool u = false;
    auto sym = cmpiOp(c.getPredicate(), u);
    if (!sym)
      return std::nullopt;
    if (u)
      return "(" + asUnsigned(c.getLhs()) + " " + *sym + " " + asUnsigned(c.getRhs()) + ")";
    return "(" + get(c.getLhs()) + " " + *sym + " " + get(c.getRhs()) + ")";
  }
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    auto e = cmpfExpr(c.getPredicate(), get(c.getLhs()), get(c.getRhs()));
    return e ? "(" + *e + ")" : e;
  }
  if (isa<arith::SelectOp>(op))
    return "(" + get(op->getOperand(0)) + " ? " + get(op->getOperand(1)) + " : " + get(op->getOperand(2)) + ")";
  if (isa<arith::IndexCastOp, arith::SIToFPOp, arith::FPToSIOp, arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp,
          arith::TruncIOp>(op))
    return cast(get(op->getOperand(0)));
  if (isa<arith::ExtUIOp, arith::UIToFPOp, arith::IndexCastUIOp>(op))
    return cast(asUnsigned(op->getOperand(0)));
  if (isa<arith::FPToUIOp>(op))
    return cast("static_cast<" + unsignedOf(rt) + ">(" + get(op->getOperand(0)) + ")");
  if (isa<math::AbsIOp>(op))
    return cast("(" + get(op->getOperand(0)) + " < 0 ? -" + get(op->getOperand(0)) + " : " +
                get(op->getOperand(0)) + ")");
  if (isa<math::AbsFOp>(op))
    return "(" + get(op->getOperand(0)) + " < " + cast("0") + " ? -" + get(op->getOperand(0)) + " : " +
           get(op->getOperand(0)) + ")";
  return std::nullopt;
}

LogicalResult KernelEmitter::emitScalar(Operation *op) {
  auto expr = scalarExpr(op, [&](Value v) { return name(v); });
  if (!expr)
    return error(op, "cannot run '" + op->getName().getStringRef() +
                         "' on the AI Core's scalar unit (math functions need the vector unit: write them in a "
                         "T.Parallel over float tile elements)");
  Value r = op->getResult(0);
  std::string type = cxxType(r.getType());
  if (type.empty())
    return error(op, "does not support values of this type");
  std::string n = fresh("v");
  names[r] = n;
  line("const " + type + " " + n + " = " + *expr + ";");
  return success();
}

//===----------------------------------------------------------------------===//
// Buffers and statements
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitAlloc(tile::AllocOp op) {
  auto type = cast<MemRefType>(op.getType());
  Type elt = type.getElementType();
  if (cxxType(elt).empty() || (!elt.isIntOrIndex() && !isVectorFloat(elt)) || elt.isInteger(1))
    return error(op, "does not support a " + dtypeName(elt) +
                         " buffer in the Unified Buffer (use float16, float32 or 8- to 64-bit integers)");
  auto buf = std::make_unique<LocalBuf>();
  auto scope = tile::getBufferScope(type);
  buf->name = fresh(scope && *scope == tile::Scope::Shared ? "shared" : scope && *scope == tile::Scope::Local ? "local"
                                                                                                                : "frag");
  buf->elt = elt;
  buf->shape.assign(type.getShape().begin(), type.getShape().end());
  int64_t rank = type.getRank();
  buf->strides.assign(rank, 1);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    buf->strides[d] = stride;
    stride *= d == rank - 1 ? roundUp(buf->shape[d], kPadElements) : buf->shape[d];
  }
  buf->elems = rank == 0 ? kPadElements : stride;
  locals[op.getResult()] = *buf;
  names[op.getResult()] = buf->name;
  localOrder.push_back(buf.get());
  localStore.push_back(std::move(buf));
  return success();
}

std::string KernelEmitter::stageFor(LocalBuf &buf, Type elt) {
  auto key = std::make_pair(buf.name, cxxType(elt));
  auto it = stages.find(key);
  if (it != stages.end())
    return it->second;
  LocalBuf stage = buf;
  stage.name = buf.name + "_as_" + (elt.isF16() ? "f16" : elt.isF32() ? "f32" : cxxType(elt));
  stage.elt = elt;
  stages[key] = stage.name;
  stageBufs.push_back({stage.name, stage});
  return stage.name;
}

/// The dims of a copy region that are not 1, and the side's dim of each.
static SmallVector<std::pair<int64_t, int64_t>> squeeze(ArrayRef<int64_t> sizes) {
  SmallVector<std::pair<int64_t, int64_t>> dims;
  for (int64_t d = 0; d < (int64_t)sizes.size(); ++d)
    if (sizes[d] != 1)
      dims.push_back({d, sizes[d]});
  return dims;
}

LogicalResult KernelEmitter::emitLocalCopy(tile::CopyOp op) {
  // Between two UB buffers: element by element on the scalar unit.
  auto src = squeeze(op.getSrcSizes()), dst = squeeze(op.getDstSizes());
  if (src.size() != dst.size() || !llvm::all_of(llvm::zip(src, dst), [](auto p) {
        return std::get<0>(p).second == std::get<1>(p).second;
      }))
    return error(op, "does not support a T.copy that reshapes its region");
  LocalBuf &s = locals[op.getSrc()], &d = locals[op.getDst()];
  SmallVector<std::string> si, di;
  for (Value v : op.getSrcOffsets())
    si.push_back(name(v));
  for (Value v : op.getDstOffsets())
    di.push_back(name(v));
  unsigned opened = 0;
  for (size_t k = 0; k < src.size(); ++k) {
    std::string iv = fresh("c");
    line("for (int64_t " + iv + " = 0; " + iv + " < " + std::to_string(src[k].second) + "; ++" + iv + ") {");
    ++indent, ++opened;
    si[src[k].first] += " + " + iv;
    di[dst[k].first] += " + " + iv;
  }
  line(d.name + ".SetValue(" + localOffset(d, di) + ", static_cast<" + cxxType(d.elt) + ">(" + s.name + ".GetValue(" +
       localOffset(s, si) + ")));");
  for (; opened; --opened)
    --indent, line("}");
  barrierAll();
  return success();
}

LogicalResult KernelEmitter::emitCopy(tile::CopyOp op) {
  bool srcGlobal = globals.count(op.getSrc()), dstGlobal = globals.count(op.getDst());
  if (srcGlobal && dstGlobal)
    return error(op, "does not support a T.copy from global to global memory (stage it through a fragment)");
  if (!srcGlobal && !dstGlobal)
    return emitLocalCopy(op);
  bool load = srcGlobal;
  GlobalBuf &g = globals[load ? op.getSrc() : op.getDst()];
  LocalBuf &l = locals[load ? op.getDst() : op.getSrc()];
  ArrayRef<int64_t> gSizes = load ? op.getSrcSizes() : op.getDstSizes();
  ArrayRef<int64_t> lSizes = load ? op.getDstSizes() : op.getSrcSizes();
  auto gDims = squeeze(gSizes), lDims = squeeze(lSizes);
  if (gDims.size() != lDims.size() || !llvm::all_of(llvm::zip(gDims, lDims), [](auto p) {
        return std::get<0>(p).second == std::get<1>(p).second;
      }))
    return error(op, "does not support a T.copy that reshapes its region");
  SmallVector<std::string> gi, li;
  for (Value v : load ? op.getSrcOffsets() : op.getDstOffsets())
    gi.push_back(name(v));
  SmallVector<int64_t> lConst;
  bool lStatic = true;
  for (Value v : load ? op.getDstOffsets() : op.getSrcOffsets()) {
    li.push_back(name(v));
    APInt c;
    lConst.push_back(matchPattern(v, m_ConstantInt(&c)) ? c.getSExtValue() : 0);
    lStatic &= matchPattern(v, m_ConstantInt(&c));
  }
  int64_t gRank = gSizes.size(), lRank = lSizes.size();
  // The innermost region dim is a contiguous run when it is the last dim on
  // both sides; else every element is a run of one.
  bool run = !gDims.empty() && gDims.back().first == gRank - 1 && lDims.back().first == lRank - 1;
  int64_t runLen = run ? gDims.back().second : 1;
  size_t loops = run ? gDims.size() - 1 : gDims.size();
  Type gElt = g.elt, lElt = l.elt;
  bool convert = gElt != lElt;
  bool vectorCast = convert && isVectorFloat(gElt) && isVectorFloat(lElt);
  if (convert && !vectorCast)
    return error(op, "does not support a T.copy converting between these element types (float16 <-> float32 only)");
  // The staging buffer holds the global element type at the local layout.
  std::string stage = convert ? stageFor(l, gElt) : l.name;
  int64_t gBytes = elementBytes(gElt);
  // Whether a run's UB start is 32-byte aligned for both the stage and the
  // local buffer: rows are padded, so that is the constant column offset.
  // The run must also end where DataCopyPad's rounding up to a whole 32-byte
  // block cannot reach live elements: on a block boundary or at the row's end.
  int64_t perBlock = 32 / gBytes;
  bool aligned = run && lStatic && lRank > 0 && lConst.back() % kPadElements == 0 &&
                 ((lConst.back() + runLen) % perBlock == 0 || lConst.back() + runLen == l.shape.back());
  bool wholeBlocks = (runLen * gBytes) % 32 == 0;

  // Loop nest over the non-run dims, then one run per iteration.
  auto openLoops = [&](SmallVector<std::string> &gIdx, SmallVector<std::string> &lIdx) {
    for (size_t k = 0; k < loops; ++k) {
      std::string iv = fresh("r");
      line("for (int64_t " + iv + " = 0; " + iv + " < " + std::to_string(gDims[k].second) + "; ++" + iv + ") {");
      ++indent;
      gIdx[gDims[k].first] += " + " + iv;
      lIdx[lDims[k].first] += " + " + iv;
    }
  };
  auto closeLoops = [&]() {
    for (size_t k = 0; k < loops; ++k)
      --indent, line("}");
  };
  // The run's row is inside the tensor in every dim but the last.
  auto rowInside = [&](ArrayRef<std::string> gIdx) {
    SmallVector<std::string> conds;
    for (int64_t d = 0; d + 1 < gRank; ++d)
      conds.push_back("(" + gIdx[d] + ") >= 0 && (" + gIdx[d] + ") < " + g.dims[d]);
    return conds.empty() ? std::string("true") : llvm::join(conds, " && ");
  };

  SmallVector<std::string> gIdx = gi, lIdx = li;
  std::string col, lo, go, n;
  std::string lastDim = gRank ? g.dims.back() : "1";
  // One run per loop iteration: its UB and global offsets, and n, how many
  // of its elements lie inside the tensor (0 .. runLen).
  auto openRun = [&](bool withGlobal) {
    gIdx = gi, lIdx = li;
    openLoops(gIdx, lIdx);
    col = gRank ? gIdx.back() : "0";
    lo = fresh("lo"), go = fresh("go"), n = fresh("n");
    line("const int64_t " + lo + " = " + localOffset(l, lIdx) + ";");
    if (withGlobal)
      line("const int64_t " + go + " = " + globalOffset(g, gIdx) + ";");
    line("int64_t " + n + " = 0;");
    line("if (" + rowInside(gIdx) + " && (" + col + ") >= 0) {");
    ++indent;
    line(n + " = " + lastDim + " - (" + col + ");");
    line(n + " = " + n + " < 0 ? 0 : " + n + " > " + std::to_string(runLen) + " ? " + std::to_string(runLen) +
         " : " + n + ";");
    --indent;
    line("}");
  };
  std::string gType = cxxType(gElt);
  if (load) {
    openRun(true);
    if (aligned && wholeBlocks) {
      line("if (" + n + " == " + std::to_string(runLen) + ") {");
      ++indent;
      line("AscendC::DataCopy(" + stage + "[" + lo + "], " + g.name + "[" + go + "], " + std::to_string(runLen) +
           ");");
      --indent;
      line("} else if (" + n + " > 0) {");
    } else {
      line("if (" + n + " > 0) {");
    }
    ++indent;
    if (aligned) {
      line("AscendC::DataCopyPad(" + stage + "[" + lo + "], " + g.name + "[" + go +
           "], AscendC::DataCopyExtParams{1, static_cast<uint32_t>(" + n + " * " + std::to_string(gBytes) +
           "), 0, 0, 0}, AscendC::DataCopyPadExtParams<" + gType + ">{false, 0, 0, 0});");
    } else {
      // The UB start is not 32-byte aligned: DataCopyPad into scratch, then
      // element by element into place.
      scratchBytes = std::max(scratchBytes, roundUp(runLen * gBytes, 32));
      std::string sc = scratchBase(gElt);
      line("AscendC::DataCopyPad(" + sc + ", " + g.name + "[" + go + "], AscendC::DataCopyExtParams{1, " +
           "static_cast<uint32_t>(" + n + " * " + std::to_string(gBytes) + "), 0, 0, 0}, " +
           "AscendC::DataCopyPadExtParams<" + gType + ">{false, 0, 0, 0});");
      barrierAll();
      line("for (int64_t e = 0; e < " + n + "; ++e)");
      line("  " + stage + ".SetValue(" + lo + " + e, " + sc + ".GetValue(e));");
      line("AscendC::PipeBarrier<PIPE_ALL>();");
    }
    --indent;
    line("}");
    closeLoops();
    barrierAll();
    // Zero the part of every run outside the tensor (scalar stores to UB).
    openRun(false);
    line("for (int64_t e = " + n + "; e < " + std::to_string(runLen) + "; ++e)");
    line("  " + stage + ".SetValue(" + lo + " + e, static_cast<" + gType + ">(0));");
    closeLoops();
    barrierAll();
    if (convert) {
      if (!aligned)
        return error(op, "does not support a converting T.copy into a UB region whose start is not 32-byte aligned");
      gIdx = gi, lIdx = li;
      openLoops(gIdx, lIdx);
      line("AscendC::Cast(" + l.name + "[" + localOffset(l, lIdx) + "], " + stage + "[" + localOffset(l, lIdx) +
           "], AscendC::RoundMode::CAST_NONE, " + std::to_string(runLen) + ");");
      closeLoops();
      barrierAll();
    }
    return success();
  }

  // UB -> global: narrow into the stage first, then MTE3.
  if (convert) {
    if (!aligned)
      return error(op, "does not support a converting T.copy out of a UB region whose start is not 32-byte aligned");
    SmallVector<std::string> gIdx2 = gi, lIdx2 = li;
    openLoops(gIdx2, lIdx2);
    line("AscendC::Cast(" + stage + "[" + localOffset(l, lIdx2) + "], " + l.name + "[" + localOffset(l, lIdx2) +
         "], AscendC::RoundMode::CAST_RINT, " + std::to_string(runLen) + ");");
    closeLoops();
    barrierAll();
  }
  openRun(true);
  std::string from = stage + "[" + lo + "]";
  if (!aligned) {
    // Gather the run into scratch (aligned) first.
    scratchBytes = std::max(scratchBytes, roundUp(runLen * gBytes, 32));
    std::string sc = scratchBase(gElt);
    line("for (int64_t e = 0; e < " + n + "; ++e)");
    line("  " + sc + ".SetValue(e, " + stage + ".GetValue(" + lo + " + e));");
    barrierAll();
    from = sc;
  }
  if (aligned && wholeBlocks) {
    line("if (" + n + " == " + std::to_string(runLen) + ") {");
    ++indent;
    line("AscendC::DataCopy(" + g.name + "[" + go + "], " + from + ", " + std::to_string(runLen) + ");");
    --indent;
    line("} else if (" + n + " > 0) {");
  } else {
    line("if (" + n + " > 0) {");
  }
  ++indent;
  line("AscendC::DataCopyPad(" + g.name + "[" + go + "], " + from + ", AscendC::DataCopyExtParams{1, " +
       "static_cast<uint32_t>(" + n + " * " + std::to_string(gBytes) + "), 0, 0, 0});");
  --indent;
  line("}");
  if (!aligned)
    barrierAll();
  closeLoops();
  barrierAll();
  return success();
}

LogicalResult KernelEmitter::emitFill(tile::FillOp op) {
  LocalBuf &b = locals[op.getBuffer()];
  Type t = b.elt;
  std::string value = "static_cast<" + cxxType(t) + ">(" + name(op.getValue()) + ")";
  if (t.isF16() || t.isF32() || t.isInteger(16) || t.isInteger(32)) {
    line("AscendC::Duplicate(" + b.name + ", " + value + ", " + std::to_string(b.elems) + ");");
  } else {
    line("for (int64_t e = 0; e < " + std::to_string(b.elems) + "; ++e)");
    line("  " + b.name + ".SetValue(e, " + value + ");");
  }
  barrierAll();
  return success();
}

LogicalResult KernelEmitter::emitReduce(tile::ReduceOp op) {
  LocalBuf &s = locals[op.getSrc()], &d = locals[op.getDst()];
  int64_t rank = s.shape.size(), dim = op.getDim();
  tile::ReduceKind kind = op.getKind();
  bool isMax = kind == tile::ReduceKind::Max || kind == tile::ReduceKind::AbsMax;
  bool isMin = kind == tile::ReduceKind::Min;
  bool isAbs = kind == tile::ReduceKind::AbsSum || kind == tile::ReduceKind::AbsMax;
  std::string t = cxxType(s.elt);
  auto combine = [&](const std::string &a, const std::string &b) {
    if (isMax)
      return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
    if (isMin)
      return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
    return "static_cast<" + t + ">(" + a + " + " + b + ")";
  };
  // Loops over the kept dims (the destination's indices).
  SmallVector<std::string> sIdx(rank), dIdx;
  unsigned opened = 0;
  for (int64_t k = 0; k < rank; ++k) {
    if (k == dim)
      continue;
    std::string iv = fresh("r");
    line("for (int64_t " + iv + " = 0; " + iv + " < " + std::to_string(s.shape[k]) + "; ++" + iv + ") {");
    ++indent, ++opened;
    sIdx[k] = iv;
    dIdx.push_back(iv);
  }
  int64_t c = s.shape[dim];
  if (dim == rank - 1 && isVectorFloat(s.elt)) {
    // 1. Per row: (Abs into scratch,) ReduceMax/Min/Sum into scratch[row slot].
    int64_t rowBytes = roundUp(c * elementBytes(s.elt), 32);
    int64_t rows = 1;
    for (int64_t k = 0; k + 1 < rank; ++k)
      rows *= s.shape[k];
    // Scratch: [work row][abs row][one 32-byte result slot per row].
    int64_t resultAt = 2 * rowBytes;
    scratchBytes = std::max(scratchBytes, resultAt + rows * 32);
    sIdx[dim] = "0";
    std::string row = s.name + "[" + localOffset(s, sIdx) + "]";
    std::string flatRow = "0";
    {
      SmallVector<std::string> terms;
      int64_t mult = 1;
      for (int64_t k = rank - 2; k >= 0; --k) {
        terms.push_back("(" + sIdx[k] + ") * " + std::to_string(mult));
        mult *= s.shape[k];
      }
      if (!terms.empty())
        flatRow = llvm::join(terms, " + ");
    }
    std::string slot = scratchBase(s.elt) + "[" + std::to_string(resultAt / elementBytes(s.elt)) +
                       " + (" + flatRow + ") * " + std::to_string(32 / elementBytes(s.elt)) + "]";
    if (isAbs) {
      line("AscendC::Abs(" + scratch(s.elt, rowBytes) + ", " + row + ", " + std::to_string(c) + ");");
      barrierV();
      row = scratch(s.elt, rowBytes);
    }
    std::string fn = isMax ? "ReduceMax" : isMin ? "ReduceMin" : "ReduceSum";
    line("AscendC::" + fn + "<" + t + ">(" + slot + ", " + row + ", " + scratch(s.elt, 0) + ", " + std::to_string(c) +
         ");");
    barrierV();
    for (; opened; --opened)
      --indent, line("}");
    barrierAll();
    // 2. Combine into the destination on the scalar unit.
    for (int64_t k = 0; k < rank; ++k) {
      if (k == dim)
        continue;
      line("for (int64_t " + sIdx[k] + " = 0; " + sIdx[k] + " < " + std::to_string(s.shape[k]) + "; ++" + sIdx[k] +
           ") {");
      ++indent, ++opened;
    }
    std::string slotIdx = std::to_string(resultAt / elementBytes(s.elt)) + " + (" + flatRow + ") * " +
                          std::to_string(32 / elementBytes(s.elt));
    std::string v = fresh("red");
    line("const " + t + " " + v + " = " + scratchBase(s.elt) + ".GetValue(" + slotIdx +
         ");");
    std::string at = localOffset(d, dIdx);
    if (op.getClear())
      line(d.name + ".SetValue(" + at + ", " + v + ");");
    else
      line(d.name + ".SetValue(" + at + ", " + combine(d.name + ".GetValue(" + at + ")", v) + ");");
    for (; opened; --opened)
      --indent, line("}");
    barrierAll();
    return success();
  }
  // Scalar unit: any dim, any element type.
  std::string acc = fresh("acc"), k = fresh("k");
  std::string at = localOffset(d, dIdx);
  auto elem = [&](const std::string &idx) {
    SmallVector<std::string> ix = sIdx;
    ix[dim] = idx;
    std::string e = s.name + ".GetValue(" + localOffset(s, ix) + ")";
    if (isAbs)
      e = "tilec_abs(" + e + ")";
    return e;
  };
  line(t + " " + acc + " = " + (op.getClear() ? elem("0") : combine(d.name + ".GetValue(" + at + ")", elem("0"))) +
       ";");
  line("for (int64_t " + k + " = 1; " + k + " < " + std::to_string(c) + "; ++" + k + ")");
  line("  " + acc + " = " + combine(acc, elem(k)) + ";");
  line(d.name + ".SetValue(" + at + ", " + acc + ");");
  for (; opened; --opened)
    --indent, line("}");
  barrierAll();
  return success();
}

LogicalResult KernelEmitter::emitCumsum(tile::CumsumOp op) {
  // The scalar unit, in order along `dim` (as the host): no vector scan here.
  LocalBuf &s = locals[op.getSrc()], &d = locals[op.getDst()];
  int64_t rank = s.shape.size(), dim = op.getDim();
  std::string t = cxxType(s.elt);
  SmallVector<std::string> idx(rank);
  unsigned opened = 0;
  for (int64_t k = 0; k < rank; ++k) {
    if (k == dim)
      continue;
    idx[k] = fresh("r");
    line("for (int64_t " + idx[k] + " = 0; " + idx[k] + " < " + std::to_string(s.shape[k]) + "; ++" + idx[k] + ") {");
    ++indent, ++opened;
  }
  std::string acc = fresh("acc"), k = fresh("k"), n = std::to_string(s.shape[dim]);
  line(t + " " + acc + " = static_cast<" + t + ">(0);");
  idx[dim] = op.getReverse() ? n + " - 1 - " + k : k;
  line("for (int64_t " + k + " = 0; " + k + " < " + n + "; ++" + k + ") {");
  line("  " + acc + " = static_cast<" + t + ">(" + acc + " + " + s.name + ".GetValue(" + localOffset(s, idx) + "));");
  line("  " + d.name + ".SetValue(" + localOffset(d, idx) + ", " + acc + ");");
  line("}");
  for (; opened; --opened)
    --indent, line("}");
  barrierAll();
  return success();
}

//===----------------------------------------------------------------------===//
// T.Parallel
//===----------------------------------------------------------------------===//

/// Whether `v` depends on `iv` (through index arithmetic).
static bool dependsOn(Value v, Value iv) {
  if (v == iv)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  return llvm::any_of(def->getOperands(), [&](Value o) { return dependsOn(o, iv); });
}

LogicalResult KernelEmitter::emitVectorBody(tile::ParallelOp op, bool dryRun, std::string &why) {
  auto extents = op.getExtents();
  auto ivs = op.getInductionVars();
  if (extents.empty() || extents.size() > 2) {
    why = "it is not 1-D or 2-D";
    return failure();
  }
  Value j = ivs.back();
  int64_t cols = extents.back();
  Block &block = *op.getBodyBlock();
  DenseMap<Operation *, unsigned> position;
  unsigned pos = 0;
  for (Operation &o : block)
    position[&o] = pos++;

  // Analysis: which values vary along the row, which loads are row views.
  DenseSet<Value> varying;
  DenseMap<Value, Value> storedBuffers; // buffer -> last storing op's value
  DenseMap<Value, unsigned> writeAt;    // buffer -> position of its (last) write
  DenseMap<Operation *, memref::StoreOp> directTarget;
  for (Operation &o : block) {
    if (isa<tile::YieldOp>(o))
      continue;
    if (o.getNumRegions()) {
      why = "it has nested control flow";
      return failure();
    }
    if (auto ld = dyn_cast<memref::LoadOp>(o)) {
      if (!locals.count(ld.getMemRef())) {
        why = "it reads global memory";
        return failure();
      }
      auto idx = ld.getIndices();
      bool lastIsJ = !idx.empty() && idx.back() == j;
      for (size_t k = 0; k + (lastIsJ ? 1 : 0) < idx.size(); ++k)
        if (dependsOn(idx[k], j)) {
          why = "it indexes a buffer with the innermost loop index outside its last dimension";
          return failure();
        }
      if (lastIsJ) {
        if (!isVectorFloat(ld.getType())) {
          why = "it loads non-float elements";
          return failure();
        }
        varying.insert(ld.getResult());
      }
      continue;
    }
    if (auto st = dyn_cast<memref::StoreOp>(o)) {
      auto idx = st.getIndices();
      if (!locals.count(st.getMemRef())) {
        why = "it writes global memory";
        return failure();
      }
      if (idx.empty() || idx.back() != j || !isVectorFloat(st.getValueToStore().getType())) {
        why = "it stores other than a row of float elements indexed [.., j]";
        return failure();
      }
      for (size_t k = 0; k + 1 < idx.size(); ++k)
        if (dependsOn(idx[k], j)) {
          why = "it indexes a buffer with the innermost loop index outside its last dimension";
          return failure();
        }
      Value v = st.getValueToStore();
      unsigned at = position[&o];
      Operation *def = v.getDefiningOp();
      if (def && def->getBlock() == &block && varying.count(v) && !isa<memref::LoadOp>(def) && v.hasOneUse()) {
        directTarget[def] = st;
        at = position[def];
      }
      writeAt[st.getMemRef()] = at;
      continue;
    }
    bool anyVarying = llvm::any_of(o.getOperands(), [&](Value v) { return varying.count(v); });
    bool isMath = isa<math::MathDialect>(o.getDialect()) && !isa<math::AbsIOp>(o);
    if (anyVarying || isMath) {
      for (Value r : o.getResults())
        if (!isVectorFloat(r.getType()) || r.getType().isIndex()) {
          why = "it computes non-float values per element";
          return failure();
        }
      if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::MaximumFOp, arith::MinimumFOp,
               arith::MaxNumFOp, arith::MinNumFOp, arith::NegFOp, arith::ExtFOp, arith::TruncFOp, math::ExpOp,
               math::Exp2Op, math::LogOp, math::Log2Op, math::SqrtOp, math::RsqrtOp, math::TanhOp, math::AbsFOp>(o)) {
        why = "it uses '" + o.getName().getStringRef().str() + "' per element";
        return failure();
      }
      for (Value r : o.getResults())
        varying.insert(r);
      continue;
    }
    if (llvm::any_of(o.getOperands(), [&](Value v) { return dependsOn(v, j); })) {
      why = "it uses the innermost loop index as a value";
      return failure();
    }
    if (o.getNumResults() != 1 || !scalarExpr(&o, [](Value) { return std::string(); })) {
      why = "it uses '" + o.getName().getStringRef().str() + "'";
      return failure();
    }
  }
  // A buffer written in the body must not be read after the write through a
  // row view loaded before it, nor read as a scalar.
  for (Operation &o : block) {
    auto ld = dyn_cast<memref::LoadOp>(o);
    if (!ld || !writeAt.count(ld.getMemRef()))
      continue;
    if (!varying.count(ld.getResult())) {
      why = "it reads a buffer it also writes";
      return failure();
    }
    unsigned w = writeAt[ld.getMemRef()];
    if (position[&o] < w)
      for (Operation *user : ld->getUsers())
        if (position[user] > w) {
          why = "it reads a buffer it also writes";
          return failure();
        }
  }
  if (dryRun)
    return success();

  // Emission: one row of `cols` elements per iteration of the outer index.
  int64_t slotBytes = roundUp(cols * 4, 32);
  unsigned slots = 0;
  DenseMap<Value, VecValue> vals;
  if (extents.size() == 2) {
    std::string iv = fresh("i");
    names[ivs[0]] = iv;
    line("for (int64_t " + iv + " = 0; " + iv + " < " + std::to_string(extents[0]) + "; ++" + iv + ") {");
    ++indent;
  }
  names[j] = "0";
  std::string count = std::to_string(cols);
  auto newSlot = [&](Type t) { return scratch(t, slotBytes * slots++); };
  auto val = [&](Value v) -> VecValue & {
    auto it = vals.find(v);
    if (it == vals.end())
      it = vals.insert({v, VecValue{false, name(v), v.getType()}}).first;
    return it->second;
  };
  auto operandVec = [&](Value v, Type t) -> std::string {
    // A uniform operand of a vector op: broadcast it into a slot.
    VecValue &x = val(v);
    if (x.vector)
      return x.expr;
    std::string s = newSlot(t);
    line("AscendC::Duplicate(" + s + ", static_cast<" + cxxType(t) + ">(" + x.expr + "), " + count + ");");
    barrierV();
    return s;
  };
  auto rowView = [&](Value mem, ValueRange idx) {
    LocalBuf &b = locals[mem];
    SmallVector<std::string> ix;
    for (size_t k = 0; k + 1 < idx.size(); ++k)
      ix.push_back(name(idx[k]));
    ix.push_back("0");
    return b.name + "[" + localOffset(b, ix) + "]";
  };
  for (Operation &o : block) {
    if (isa<tile::YieldOp>(o))
      continue;
    if (auto ld = dyn_cast<memref::LoadOp>(o)) {
      LocalBuf &b = locals[ld.getMemRef()];
      if (varying.count(ld.getResult())) {
        vals[ld.getResult()] = {true, rowView(ld.getMemRef(), ld.getIndices()), ld.getType()};
        continue;
      }
      SmallVector<std::string> ix;
      for (Value v : ld.getIndices())
        ix.push_back(name(v));
      std::string n = fresh("v");
      line("const " + cxxType(ld.getType()) + " " + n + " = " + b.name + ".GetValue(" + localOffset(b, ix) + ");");
      names[ld.getResult()] = n;
      vals[ld.getResult()] = {false, n, ld.getType()};
      continue;
    }
    if (auto st = dyn_cast<memref::StoreOp>(o)) {
      Value v = st.getValueToStore();
      Operation *def = v.getDefiningOp();
      if (def && directTarget.count(def) && directTarget[def] == st)
        continue;
      std::string dst = rowView(st.getMemRef(), st.getIndices());
      Type t = v.getType();
      if (val(v).vector)
        line("AscendC::Muls(" + dst + ", " + val(v).expr + ", static_cast<" + cxxType(t) + ">(1), " + count + ");");
      else
        line("AscendC::Duplicate(" + dst + ", static_cast<" + cxxType(t) + ">(" + val(v).expr + "), " + count + ");");
      barrierV();
      continue;
    }
    if (!llvm::any_of(o.getResults(), [&](Value r) { return varying.count(r); })) {
      if (failed(emitScalar(&o)))
        return failure();
      vals[o.getResult(0)] = {false, name(o.getResult(0)), o.getResult(0).getType()};
      continue;
    }
    Value r = o.getResult(0);
    Type t = r.getType();
    std::string ct = cxxType(t);
    std::string dst = directTarget.count(&o) ? rowView(directTarget[&o].getMemRef(), directTarget[&o].getIndices())
                                             : newSlot(t);
    auto unary = [&](StringRef fn, Value a) {
      line("AscendC::" + fn + "(" + dst + ", " + operandVec(a, t) + ", " + count + ");");
    };
    auto binary = [&](StringRef fn) {
      std::string a = operandVec(o.getOperand(0), t), b = operandVec(o.getOperand(1), t);
      line("AscendC::" + fn + "(" + dst + ", " + a + ", " + b + ", " + count + ");");
    };
    auto scalarOf = [&](Value v) { return "static_cast<" + ct + ">(" + val(v).expr + ")"; };
    if (isa<arith::AddFOp, arith::MulFOp>(&o)) {
      StringRef vv = isa<arith::AddFOp>(&o) ? "Add" : "Mul", vs = isa<arith::AddFOp>(&o) ? "Adds" : "Muls";
      Value a = o.getOperand(0), b = o.getOperand(1);
      if (val(a).vector && val(b).vector)
        binary(vv);
      else if (val(a).vector)
        line("AscendC::" + vs + "(" + dst + ", " + val(a).expr + ", " + scalarOf(b) + ", " + count + ");");
      else
        line("AscendC::" + vs + "(" + dst + ", " + val(b).expr + ", " + scalarOf(a) + ", " + count + ");");
    } else if (isa<arith::SubFOp>(&o) && val(o.getOperand(0)).vector && !val(o.getOperand(1)).vector) {
      line("AscendC::Adds(" + dst + ", " + val(o.getOperand(0)).expr + ", static_cast<" + ct + ">(-(" +
           val(o.getOperand(1)).expr + ")), " + count + ");");
    } else if (isa<arith::SubFOp>(&o)) {
      binary("Sub");
    } else if (isa<arith::DivFOp>(&o)) {
      binary("Div");
    } else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(&o)) {
      binary("Max");
    } else if (isa<arith::MinimumFOp, arith::MinNumFOp>(&o)) {
      binary("Min");
    } else if (isa<arith::NegFOp>(&o)) {
      line("AscendC::Muls(" + dst + ", " + operandVec(o.getOperand(0), t) + ", static_cast<" + ct + ">(-1), " +
           count + ");");
    } else if (isa<arith::ExtFOp, arith::TruncFOp>(&o)) {
      line("AscendC::Cast(" + dst + ", " + operandVec(o.getOperand(0), o.getOperand(0).getType()) +
           (isa<arith::ExtFOp>(&o) ? ", AscendC::RoundMode::CAST_NONE, " : ", AscendC::RoundMode::CAST_RINT, ") +
           count + ");");
    } else if (isa<math::ExpOp>(&o)) {
      unary("Exp", o.getOperand(0));
    } else if (isa<math::Exp2Op>(&o)) {
      // 2^x = e^(x ln 2)
      line("AscendC::Muls(" + dst + ", " + operandVec(o.getOperand(0), t) + ", static_cast<" + ct +
           ">(0.693147180559945309f), " + count + ");");
      barrierV();
      line("AscendC::Exp(" + dst + ", " + dst + ", " + count + ");");
    } else if (isa<math::LogOp>(&o)) {
      unary("Ln", o.getOperand(0));
    } else if (isa<math::Log2Op>(&o)) {
      unary("Ln", o.getOperand(0));
      barrierV();
      line("AscendC::Muls(" + dst + ", " + dst + ", static_cast<" + ct + ">(1.44269504088896341f), " + count + ");");
    } else if (isa<math::SqrtOp>(&o)) {
      unary("Sqrt", o.getOperand(0));
    } else if (isa<math::RsqrtOp>(&o)) {
      unary("Rsqrt", o.getOperand(0));
    } else if (isa<math::TanhOp>(&o)) {
      unary("Tanh", o.getOperand(0));
    } else if (isa<math::AbsFOp>(&o)) {
      unary("Abs", o.getOperand(0));
    } else {
      llvm_unreachable("checked by the analysis above");
    }
    barrierV();
    vals[r] = {true, dst, t};
  }
  if (extents.size() == 2)
    --indent, line("}");
  scratchBytes = std::max(scratchBytes, slotBytes * (int64_t)slots);
  barrierAll();
  return success();
}

LogicalResult KernelEmitter::emitScalarBody(tile::ParallelOp op) {
  auto extents = op.getExtents();
  auto ivs = op.getInductionVars();
  for (size_t k = 0; k < extents.size(); ++k) {
    std::string iv = fresh("i");
    names[ivs[k]] = iv;
    line("for (int64_t " + iv + " = 0; " + iv + " < " + std::to_string(extents[k]) + "; ++" + iv + ") {");
    ++indent;
  }
  for (Operation &o : *op.getBodyBlock()) {
    if (isa<tile::YieldOp>(o))
      continue;
    if (isa<memref::LoadOp, memref::StoreOp>(o)) {
      if (failed(emitElementAccess(&o)))
        return failure();
      continue;
    }
    if (isa<scf::IfOp>(o)) {
      if (failed(emitOp(&o)))
        return failure();
      continue;
    }
    if (o.getNumRegions())
      return error(&o, "does not support this control flow inside T.Parallel");
    if (o.getNumResults() != 1)
      return error(&o, "does not support '" + o.getName().getStringRef() + "' inside T.Parallel");
    if (failed(emitScalar(&o)))
      return failure();
  }
  for (size_t k = 0; k < extents.size(); ++k)
    --indent, line("}");
  barrierAll();
  return success();
}

LogicalResult KernelEmitter::emitParallel(tile::ParallelOp op) {
  std::string why;
  if (succeeded(emitVectorBody(op, /*dryRun=*/true, why)))
    return emitVectorBody(op, /*dryRun=*/false, why);
  // The scalar unit has no math functions: say why the body is not vector code.
  WalkResult math = op.walk([&](Operation *o) {
    if (isa<math::MathDialect>(o->getDialect()) && !isa<math::AbsFOp, math::AbsIOp>(o))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (math.wasInterrupted())
    return error(op, "cannot vectorise this T.Parallel (" + why +
                         ") and the AI Core's scalar unit has no math functions");
  return emitScalarBody(op);
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitElementAccess(Operation *op) {
  if (auto ld = dyn_cast<memref::LoadOp>(op)) {
    SmallVector<std::string> ix;
    for (Value v : ld.getIndices())
      ix.push_back(name(v));
    std::string n = fresh("v");
    names[ld.getResult()] = n;
    if (globals.count(ld.getMemRef())) {
      GlobalBuf &g = globals[ld.getMemRef()];
      line("const " + cxxType(ld.getType()) + " " + n + " = " + g.name + ".GetValue(" + globalOffset(g, ix) + ");");
    } else {
      LocalBuf &b = locals[ld.getMemRef()];
      line("const " + cxxType(ld.getType()) + " " + n + " = " + b.name + ".GetValue(" + localOffset(b, ix) + ");");
    }
    return success();
  }
  auto st = cast<memref::StoreOp>(op);
  if (globals.count(st.getMemRef()))
    return error(op, "does not store single elements to global memory (scalar stores go through each core's data "
                     "cache, which is not coherent across cores): T.copy a tile out instead");
  LocalBuf &b = locals[st.getMemRef()];
  SmallVector<std::string> ix;
  for (Value v : st.getIndices())
    ix.push_back(name(v));
  line(b.name + ".SetValue(" + localOffset(b, ix) + ", " + name(st.getValueToStore()) + ");");
  return success();
}

LogicalResult KernelEmitter::emitOp(Operation *op) {
  if (isa<tile::CopyOp, tile::FillOp, tile::ReduceOp, tile::CumsumOp, tile::ParallelOp>(op))
    flushScalar();
  if (auto alloc = dyn_cast<tile::AllocOp>(op))
    return emitAlloc(alloc);
  if (auto copy = dyn_cast<tile::CopyOp>(op))
    return emitCopy(copy);
  if (auto fill = dyn_cast<tile::FillOp>(op))
    return emitFill(fill);
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return emitReduce(reduce);
  if (auto par = dyn_cast<tile::ParallelOp>(op))
    return emitParallel(par);
  if (isa<tile::UseSwizzleOp, tile::AnnotateLayoutOp, tile::YieldOp>(op))
    return success(); // block order and shared layouts do not change results
  if (auto tid = dyn_cast<tile::ThreadIdOp>(op)) {
    // An AI Core runs one instruction stream: thread 0, as on the host target.
    std::string n = fresh("v");
    names[tid.getResult()] = n;
    line("const int64_t " + n + " = 0;");
    return success();
  }
  if (auto loop = dyn_cast<tile::ForOp>(op)) {
    std::string iv = fresh("k");
    names[loop.getInductionVar()] = iv;
    line("for (int64_t " + iv + " = " + name(loop.getLowerBound()) + "; " + iv + " < " + name(loop.getUpperBound()) +
         "; " + iv + " += " + name(loop.getStep()) + ") {");
    ++indent;
    if (failed(emitBlock(*loop.getBodyBlock())))
      return failure();
    flushScalar();
    --indent;
    line("}");
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    // Results are variables the branches' yields assign.
    SmallVector<std::string> results;
    for (Value r : ifOp.getResults()) {
      std::string t = cxxType(r.getType());
      if (t.empty())
        return error(op, "does not support an 'if' yielding this type");
      std::string n = fresh("v");
      names[r] = n;
      results.push_back(n);
      line(t + " " + n + ";");
    }
    auto branch = [&](Block &block) -> LogicalResult {
      ++indent;
      if (failed(emitBlock(block)))
        return failure();
      if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
        for (auto [n, v] : llvm::zip(results, yield.getOperands()))
          line(n + " = " + name(v) + ";");
      flushScalar();
      --indent;
      return success();
    };
    line("if (" + name(ifOp.getCondition()) + ") {");
    if (failed(branch(ifOp.getThenRegion().front())))
      return failure();
    if (!ifOp.getElseRegion().empty()) {
      line("} else {");
      if (failed(branch(ifOp.getElseRegion().front())))
        return failure();
    }
    line("}");
    return success();
  }
  if (isa<scf::YieldOp>(op))
    return success();
  if (isa<tile::GemmOp>(op))
    return error(op, "does not lower T.gemm yet (it needs the Cube unit: L1/L0A/L0B/L0C buffers and Mmad)");
  if (isa<tile::AtomicAddOp>(op))
    return error(op, "does not lower T.atomic_add yet (Ascend C adds into global memory with SetAtomicAdd around a "
                     "DataCopy, not generated here)");
  if (auto cumsum = dyn_cast<tile::CumsumOp>(op))
    return emitCumsum(cumsum);
  if (isa<tile::PrintOp>(op))
    return error(op, "does not lower T.print (an AI Core has no printf here)");
  if (isa<memref::LoadOp, memref::StoreOp>(op)) {
    scalarPending |= isa<memref::StoreOp>(op);
    return emitElementAccess(op);
  }
  if (op->getNumRegions() == 0 && op->getNumResults() == 1 &&
      isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return emitScalar(op);
  return error(op, "does not support '" + op->getName().getStringRef() + "'");
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

LogicalResult KernelEmitter::run() {
  if (failed(getKernelSignature(kernel, out.signature)))
    return failure();
  const KernelSignature &sig = out.signature;
  Block &entry = kernel.getBody().front();
  if (entry.getNumArguments() != sig.args.size())
    return kernel.emitError("kernel arguments and signature disagree");

  // Parameters, GlobalTensors.
  SmallVector<std::string> params, prologue;
  for (auto [i, arg] : llvm::enumerate(sig.args)) {
    Value v = entry.getArgument(i);
    if (arg.kind == KernelArg::Kind::Tensor) {
      auto type = cast<MemRefType>(v.getType());
      Type elt = type.getElementType();
      if (cxxType(elt).empty() || elt.isInteger(1) || arg.dtype == "int4" || arg.dtype == "uint4")
        return kernel.emitError() << "the ascend target does not support tensor '" << arg.name << "' of dtype "
                                  << arg.dtype << " (use float16, float32, int8/uint8, int16, int32 or int64)";
      if (elt.isBF16() || isa<Float8E4M3FNType, Float8E5M2Type>(elt))
        return kernel.emitError() << "the ascend target does not support " << arg.dtype << " tensors yet";
      GlobalBuf g;
      g.name = arg.name + "_gm";
      g.elt = elt;
      for (const std::string &d : arg.shape)
        g.dims.push_back(d);
      globals[v] = g;
      names[v] = g.name;
      params.push_back("GM_ADDR " + arg.name);
      std::string size = g.dims.empty() ? "1" : llvm::join(g.dims, " * ");
      prologue.push_back("AscendC::GlobalTensor<" + cxxType(elt) + "> " + g.name + ";");
      prologue.push_back(g.name + ".SetGlobalBuffer(reinterpret_cast<__gm__ " + cxxType(elt) + " *>(" + arg.name +
                         "), static_cast<uint64_t>(" + size + "));");
    } else {
      std::string t = arg.kind == KernelArg::Kind::DynamicDim ? "int64_t" : cxxType(v.getType());
      if (t.empty())
        return kernel.emitError() << "the ascend target does not support scalar '" << arg.name << "' of dtype "
                                  << arg.dtype;
      params.push_back(t + " " + arg.name);
      names[v] = arg.name;
    }
  }

  // The body: scalars before the launch, then the block loop.
  tile::LaunchOp launch;
  for (Operation &op : entry) {
    if (auto l = dyn_cast<tile::LaunchOp>(op)) {
      if (launch)
        return l.emitError("the ascend target supports one T.Kernel per kernel");
      launch = l;
      continue;
    }
    if (isa<tile::ReturnOp>(op))
      continue;
    if (failed(emitOp(&op)))
      return failure();
  }
  if (!launch)
    return kernel.emitError("the ascend target needs a T.Kernel launch in the kernel");
  // The grid as C expressions of the dynamic dims, for the header.
  std::function<std::string(Value)> hostExpr = [&](Value v) -> std::string {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return names.lookup(v);
    auto e = scalarExpr(v.getDefiningOp(), hostExpr, "tilec_ascend_h_", /*cStyle=*/true);
    return e ? *e : "0";
  };
  std::string blocks;
  for (Value g : launch.getGrid()) {
    out.gridExprs.push_back(hostExpr(g));
    blocks += (blocks.empty() ? "" : " * ") + name(g);
  }
  line("const int64_t blocks = " + blocks + ";");
  line("for (int64_t block = AscendC::GetBlockIdx(); block < blocks; block += AscendC::GetBlockNum()) {");
  ++indent;
  std::string divisor;
  static const char *axis[] = {"bx", "by", "bz"};
  for (auto [k, idx] : llvm::enumerate(launch.getBlockIndices())) {
    std::string n = std::string(axis[k]);
    std::string expr = divisor.empty() ? "block" : "block / (" + divisor + ")";
    line("const int64_t " + n + " = " + expr + " % " + name(launch.getGrid()[k]) + ";");
    line("(void)" + n + ";");
    names[idx] = n;
    divisor += (divisor.empty() ? "" : " * ") + name(launch.getGrid()[k]);
  }
  if (failed(emitBlock(*launch.getBodyBlock())))
    return failure();
  flushScalar();
  --indent;
  line("}");

  // UB budget: every buffer, staging buffer and the scratch.
  int64_t ub = 0;
  SmallVector<std::string> decls;
  auto declare = [&](const LocalBuf &b) {
    int64_t bytes = roundUp(b.elems * elementBytes(b.elt), 32);
    ub += bytes;
    decls.push_back("AscendC::TBuf<AscendC::TPosition::VECCALC> " + b.name + "_buf;");
    decls.push_back("pipe.InitBuffer(" + b.name + "_buf, " + std::to_string(bytes) + ");");
    decls.push_back("AscendC::LocalTensor<" + cxxType(b.elt) + "> " + b.name + " = " + b.name + "_buf.Get<" +
                    cxxType(b.elt) + ">();");
  };
  for (LocalBuf *b : localOrder)
    declare(*b);
  for (auto &s : stageBufs)
    declare(s.second);
  if (scratchBytes) {
    scratchBytes = roundUp(scratchBytes, 32);
    ub += scratchBytes;
    decls.push_back("AscendC::TBuf<AscendC::TPosition::VECCALC> scratch_buf;");
    decls.push_back("pipe.InitBuffer(scratch_buf, " + std::to_string(scratchBytes) + ");");
    for (auto &[type, view] : scratchViews)
      decls.push_back("AscendC::LocalTensor<" + type + "> " + view + " = scratch_buf.Get<" + type + ">();");
  }
  out.unifiedBufferBytes = ub;
  if (ub > options.unifiedBufferBytes)
    return launch.emitError() << "kernel '" << sig.name << "' needs " << ub << " bytes of Unified Buffer (its tile "
                              << "buffers, rows padded to 32 elements, plus staging and scratch), over the AI Core's "
                              << options.unifiedBufferBytes << "; use smaller tiles";

  std::string text;
  llvm::raw_string_ostream ts(text);
  ts << "extern \"C\" __global__ __aicore__ void " << sig.name << "(" << llvm::join(params, ", ") << ")\n{\n";
  for (const std::string &p : prologue)
    ts << "  " << p << "\n";
  ts << "  AscendC::TPipe pipe;\n";
  for (const std::string &d : decls)
    ts << "  " << d << "\n";
  ts << body << "}\n";
  out.source = std::move(text);
  return success();
}

LogicalResult tilec::emitAscendC(ModuleOp module, const AscendTargetOptions &options,
                                 std::vector<AscendKernel> &kernels) {
  for (auto kernel : module.getOps<tile::KernelOp>()) {
    AscendKernel k;
    KernelEmitter emitter(kernel, options, k);
    if (failed(emitter.run()))
      return failure();
    kernels.push_back(std::move(k));
  }
  return success();
}
