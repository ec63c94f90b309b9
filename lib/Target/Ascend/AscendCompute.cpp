//===- AscendCompute.cpp - Fill, reductions, cumsum, T.Parallel in Ascend C -===//
//
// T.fill (Duplicate), T.reduce_* (ReduceSum/Max/Min per row or the scalar
// unit), T.cumsum (scalar unit) and T.Parallel bodies: whole-row vector
// instructions when the body allows, else the scalar unit.
//
//===----------------------------------------------------------------------===//
#include "AscendEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace tilec;
using namespace tilec::ascend;

LogicalResult KernelEmitter::emitFill(tile::FillOp op) {
  LocalBuf *bp = local(op, op.getBuffer(), "the buffer of T.fill");
  if (!bp)
    return failure();
  LocalBuf &b = *bp;
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
  LocalBuf *sp = local(op, op.getSrc(), "the source of a reduction");
  LocalBuf *dp = sp ? local(op, op.getDst(), "the destination of a reduction") : nullptr;
  if (!dp)
    return failure();
  LocalBuf &s = *sp, &d = *dp;
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
  LocalBuf *sp = local(op, op.getSrc(), "the source of T.cumsum");
  LocalBuf *dp = sp ? local(op, op.getDst(), "the destination of T.cumsum") : nullptr;
  if (!dp)
    return failure();
  LocalBuf &s = *sp, &d = *dp;
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


/// Whether `v` depends on `iv` (through index arithmetic).
static bool dependsOn(Value v, Value iv) {
  if (v == iv)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  return llvm::any_of(def->getOperands(), [&](Value o) { return dependsOn(o, iv); });
}

namespace tilec {
namespace ascend {
/// What analyzeVectorBody finds in a T.Parallel body.
struct VectorPlan {
  DenseMap<Operation *, unsigned> position;            ///< each op's place in the body
  DenseSet<Value> varying;                             ///< values that vary along the row
  DenseMap<Value, unsigned> writeAt;                   ///< buffer -> position of its (last) write
  DenseMap<Operation *, memref::StoreOp> directTarget; ///< a vector op's result stored straight to a row
};

/// The rows of one vectorised body as it is emitted: `count` elements each, values as row
/// views, scalars or scratch slots of `slotBytes`.
class VectorRow {
public:
  VectorRow(KernelEmitter &em, VectorPlan &plan, int64_t cols)
      : em(em), plan(plan), cols(cols), count(std::to_string(cols)), slotBytes(roundUp(cols * 4, 32)) {}

  KernelEmitter &em;
  VectorPlan &plan;
  int64_t cols;
  std::string count;
  int64_t slotBytes;
  unsigned slots = 0;
  DenseMap<Value, VecValue> vals;

  std::string newSlot(Type t) { return em.scratch(t, slotBytes * slots++); }
  VecValue &val(Value v) {
    auto it = vals.find(v);
    if (it == vals.end())
      it = vals.insert({v, VecValue{false, em.name(v), v.getType()}}).first;
    return it->second;
  }
  /// A uniform operand of a vector op: broadcast it into a slot.
  std::string operandVec(Value v, Type t) {
    VecValue &x = val(v);
    if (x.vector)
      return x.expr;
    std::string s = newSlot(t);
    em.line("AscendC::Duplicate(" + s + ", static_cast<" + cxxType(t) + ">(" + x.expr + "), " + count + ");");
    em.barrierV();
    return s;
  }
  std::string rowView(Value mem, ValueRange idx) {
    LocalBuf &b = em.locals[mem];
    SmallVector<std::string> ix;
    for (size_t k = 0; k + 1 < idx.size(); ++k)
      ix.push_back(em.name(idx[k]));
    ix.push_back("0");
    return b.name + "[" + em.localOffset(b, ix) + "]";
  }
};
} // namespace ascend
} // namespace tilec

LogicalResult KernelEmitter::analyzeVectorBody(tile::ParallelOp op, VectorPlan &plan, std::string &why) {
  Value j = op.getInductionVars().back();
  Block &block = *op.getBodyBlock();
  DenseMap<Operation *, unsigned> &position = plan.position;
  unsigned pos = 0;
  for (Operation &o : block)
    position[&o] = pos++;

  // Analysis: which values vary along the row, which loads are row views.
  DenseSet<Value> &varying = plan.varying;
  DenseMap<Value, unsigned> &writeAt = plan.writeAt;
  DenseMap<Operation *, memref::StoreOp> &directTarget = plan.directTarget;
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
  return success();
}

void KernelEmitter::emitVectorOp(Operation &o, VectorRow &row) {
  Value r = o.getResult(0);
  Type t = r.getType();
  std::string ct = cxxType(t);
  const std::string &count = row.count;
  auto &directTarget = row.plan.directTarget;
  std::string dst = directTarget.count(&o) ? row.rowView(directTarget[&o].getMemRef(), directTarget[&o].getIndices())
                                           : row.newSlot(t);
  auto unary = [&](StringRef fn, Value a) {
    line("AscendC::" + fn + "(" + dst + ", " + row.operandVec(a, t) + ", " + count + ");");
  };
  auto binary = [&](StringRef fn) {
    std::string a = row.operandVec(o.getOperand(0), t), b = row.operandVec(o.getOperand(1), t);
    line("AscendC::" + fn + "(" + dst + ", " + a + ", " + b + ", " + count + ");");
  };
  auto scalarOf = [&](Value v) { return "static_cast<" + ct + ">(" + row.val(v).expr + ")"; };
  if (isa<arith::AddFOp, arith::MulFOp>(&o)) {
    StringRef vv = isa<arith::AddFOp>(&o) ? "Add" : "Mul", vs = isa<arith::AddFOp>(&o) ? "Adds" : "Muls";
    Value a = o.getOperand(0), b = o.getOperand(1);
    if (row.val(a).vector && row.val(b).vector)
      binary(vv);
    else if (row.val(a).vector)
      line("AscendC::" + vs + "(" + dst + ", " + row.val(a).expr + ", " + scalarOf(b) + ", " + count + ");");
    else
      line("AscendC::" + vs + "(" + dst + ", " + row.val(b).expr + ", " + scalarOf(a) + ", " + count + ");");
  } else if (isa<arith::SubFOp>(&o) && row.val(o.getOperand(0)).vector && !row.val(o.getOperand(1)).vector) {
    line("AscendC::Adds(" + dst + ", " + row.val(o.getOperand(0)).expr + ", static_cast<" + ct + ">(-(" +
         row.val(o.getOperand(1)).expr + ")), " + count + ");");
  } else if (isa<arith::SubFOp>(&o)) {
    binary("Sub");
  } else if (isa<arith::DivFOp>(&o)) {
    binary("Div");
  } else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(&o)) {
    binary("Max");
  } else if (isa<arith::MinimumFOp, arith::MinNumFOp>(&o)) {
    binary("Min");
  } else if (isa<arith::NegFOp>(&o)) {
    line("AscendC::Muls(" + dst + ", " + row.operandVec(o.getOperand(0), t) + ", static_cast<" + ct + ">(-1), " +
         count + ");");
  } else if (isa<arith::ExtFOp, arith::TruncFOp>(&o)) {
    line("AscendC::Cast(" + dst + ", " + row.operandVec(o.getOperand(0), o.getOperand(0).getType()) +
         (isa<arith::ExtFOp>(&o) ? ", AscendC::RoundMode::CAST_NONE, " : ", AscendC::RoundMode::CAST_RINT, ") + count +
         ");");
  } else if (isa<math::ExpOp>(&o)) {
    unary("Exp", o.getOperand(0));
  } else if (isa<math::Exp2Op>(&o)) {
    // 2^x = e^(x ln 2)
    line("AscendC::Muls(" + dst + ", " + row.operandVec(o.getOperand(0), t) + ", static_cast<" + ct +
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
    // An advanced-API function: its temporary space passed explicitly, at
    // the maximum the reference's tiling code (GetTanhMaxMinTmpSize) gives:
    // (float 1, half 4) x max(count x element size, 256) bytes.
    int64_t bytes = (t.isF32() ? 1 : 4) * std::max<int64_t>(row.cols * elementBytes(t), 256);
    tanhBytes = std::max(tanhBytes, roundUp(bytes, 32));
    line("AscendC::Tanh(" + dst + ", " + row.operandVec(o.getOperand(0), t) + ", tanh_tmp, " + count + ");");
  } else if (isa<math::AbsFOp>(&o)) {
    unary("Abs", o.getOperand(0));
  } else {
    llvm_unreachable("checked by the analysis above");
  }
  barrierV();
  row.vals[r] = {true, dst, t};
}

LogicalResult KernelEmitter::emitVectorBody(tile::ParallelOp op, bool dryRun, std::string &why) {
  auto extents = op.getExtents();
  auto ivs = op.getInductionVars();
  if (extents.empty() || extents.size() > 2) {
    why = "it is not 1-D or 2-D";
    return failure();
  }
  VectorPlan plan;
  if (failed(analyzeVectorBody(op, plan, why)))
    return failure();
  if (dryRun)
    return success();

  // Emission: one row of `cols` elements per iteration of the outer index.
  Value j = ivs.back();
  int64_t cols = extents.back();
  VectorRow row(*this, plan, cols);
  if (extents.size() == 2) {
    std::string iv = fresh("i");
    names[ivs[0]] = iv;
    line("for (int64_t " + iv + " = 0; " + iv + " < " + std::to_string(extents[0]) + "; ++" + iv + ") {");
    ++indent;
  }
  names[j] = "0";
  const std::string &count = row.count;
  for (Operation &o : *op.getBodyBlock()) {
    if (isa<tile::YieldOp>(o))
      continue;
    if (auto ld = dyn_cast<memref::LoadOp>(o)) {
      LocalBuf &b = locals[ld.getMemRef()];
      if (plan.varying.count(ld.getResult())) {
        row.vals[ld.getResult()] = {true, row.rowView(ld.getMemRef(), ld.getIndices()), ld.getType()};
        continue;
      }
      SmallVector<std::string> ix;
      for (Value v : ld.getIndices())
        ix.push_back(name(v));
      std::string n = fresh("v");
      line("const " + cxxType(ld.getType()) + " " + n + " = " + b.name + ".GetValue(" + localOffset(b, ix) + ");");
      names[ld.getResult()] = n;
      row.vals[ld.getResult()] = {false, n, ld.getType()};
      continue;
    }
    if (auto st = dyn_cast<memref::StoreOp>(o)) {
      Value v = st.getValueToStore();
      Operation *def = v.getDefiningOp();
      if (def && plan.directTarget.count(def) && plan.directTarget[def] == st)
        continue;
      std::string dst = row.rowView(st.getMemRef(), st.getIndices());
      Type t = v.getType();
      if (row.val(v).vector)
        line("AscendC::Muls(" + dst + ", " + row.val(v).expr + ", static_cast<" + cxxType(t) + ">(1), " + count + ");");
      else
        line("AscendC::Duplicate(" + dst + ", static_cast<" + cxxType(t) + ">(" + row.val(v).expr + "), " + count +
             ");");
      barrierV();
      continue;
    }
    if (!llvm::any_of(o.getResults(), [&](Value r) { return plan.varying.count(r); })) {
      if (failed(emitScalar(&o)))
        return failure();
      row.vals[o.getResult(0)] = {false, name(o.getResult(0)), o.getResult(0).getType()};
      continue;
    }
    emitVectorOp(o, row);
  }
  if (extents.size() == 2)
    --indent, line("}");
  scratchBytes = std::max(scratchBytes, row.slotBytes * (int64_t)row.slots);
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
    if (isa<scf::IfOp, tile::AtomicAddOp>(o)) {
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

