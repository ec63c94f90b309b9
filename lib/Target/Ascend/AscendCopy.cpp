//===- AscendCopy.cpp - UB buffers and T.copy in Ascend C -------------------===//
//
// Tile buffers as padded LocalTensors, copies between global memory and the
// Unified Buffer (DataCopy / DataCopyPad / Cast, zero fill), UB <-> UB
// copies and single-element accesses on the scalar unit.
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

LogicalResult KernelEmitter::emitAlloc(tile::AllocOp op) {
  auto type = cast<MemRefType>(op.getType());
  Type elt = type.getElementType();
  if (cxxType(elt).empty() || (!elt.isIntOrIndex() && !isVectorFloat(elt) && !elt.isF64()) || elt.isInteger(1))
    return error(op, "does not support a " + dtypeName(elt) +
                         " buffer in the Unified Buffer (use float16, float32, float64 or 8- to 64-bit integers)");
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
  Transfer t{globals[load ? op.getSrc() : op.getDst()], locals[load ? op.getDst() : op.getSrc()]};
  t.gSizes.assign(load ? op.getSrcSizes() : op.getDstSizes());
  t.lSizes.assign(load ? op.getDstSizes() : op.getSrcSizes());
  for (Value v : load ? op.getSrcOffsets() : op.getDstOffsets())
    t.gi.push_back(name(v));
  t.lStatic = true;
  for (Value v : load ? op.getDstOffsets() : op.getSrcOffsets()) {
    t.li.push_back(name(v));
    APInt c;
    t.lConst.push_back(matchPattern(v, m_ConstantInt(&c)) ? c.getSExtValue() : 0);
    t.lStatic &= matchPattern(v, m_ConstantInt(&c));
  }
  return emitTransfer(op, load, t, /*atomic=*/false);
}

namespace tilec {
namespace ascend {
/// One global <-> UB transfer as it is emitted: a loop nest over the region's non-run
/// dims and, per iteration, one contiguous run of `runLen` elements (DataCopy when whole
/// and aligned, else DataCopyPad, through scratch when the UB start is not aligned).
class TransferRuns {
public:
  TransferRuns(KernelEmitter &em, const KernelEmitter::Transfer &t) : em(em), t(t), g(t.g), l(t.l) {}

  /// Checks the region and the element types and derives the run shape; an error
  /// (through the emitter) when the ascend target cannot express it.
  LogicalResult plan(Operation *op, bool atomic) {
    ArrayRef<int64_t> gSizes = t.gSizes, lSizes = t.lSizes;
    ArrayRef<int64_t> lConst = t.lConst;
    gDims = squeeze(gSizes), lDims = squeeze(lSizes);
    if (gDims.size() != lDims.size() ||
        !llvm::all_of(llvm::zip(gDims, lDims), [](auto p) { return std::get<0>(p).second == std::get<1>(p).second; }))
      return em.error(op, "does not support a T.copy that reshapes its region");
    gRank = gSizes.size();
    int64_t lRank = lSizes.size();
    // The innermost region dim is a contiguous run when it is the last dim on
    // both sides; else every element is a run of one.
    bool run = !gDims.empty() && gDims.back().first == gRank - 1 && lDims.back().first == lRank - 1;
    runLen = run ? gDims.back().second : 1;
    loops = run ? gDims.size() - 1 : gDims.size();
    gElt = g.elt;
    Type lElt = l.elt;
    convert = gElt != lElt;
    bool vectorCast = convert && isVectorFloat(gElt) && isVectorFloat(lElt);
    if (convert && !vectorCast)
      return em.error(op,
                      "does not support a T.copy converting between these element types (float16 <-> float32 only)");
    if (atomic && !(gElt.isF16() || gElt.isF32() || gElt.isInteger(16) || gElt.isInteger(32)))
      return em.error(op, "does not support an atomic add into " + dtypeName(gElt) +
                              " (SetAtomicAdd takes float16, float32, int16 and int32)");
    // The staging buffer holds the global element type at the local layout.
    stage = convert ? em.stageFor(l, gElt) : l.name;
    gBytes = elementBytes(gElt);
    // Whether a run's UB start is 32-byte aligned for both the stage and the
    // local buffer: rows are padded, so that is the constant column offset.
    // The run must also end where DataCopyPad's rounding up to a whole 32-byte
    // block cannot reach live elements: on a block boundary or at the row's end.
    int64_t perBlock = 32 / gBytes;
    aligned = run && t.lStatic && lRank > 0 && lConst.back() % kPadElements == 0 &&
              ((lConst.back() + runLen) % perBlock == 0 || lConst.back() + runLen == l.shape.back());
    wholeBlocks = (runLen * gBytes) % 32 == 0;
    lastDim = gRank ? g.dims.back() : "1";
    gType = cxxType(gElt);
    return success();
  }

  /// global -> UB.
  LogicalResult load(Operation *op) {
    openRun(true);
    if (aligned && wholeBlocks) {
      em.line("if (" + n + " == " + std::to_string(runLen) + ") {");
      ++em.indent;
      em.line("AscendC::DataCopy(" + stage + "[" + lo + "], " + g.name + "[" + go + "], " + std::to_string(runLen) +
              ");");
      --em.indent;
      em.line("} else if (" + n + " > 0) {");
    } else {
      em.line("if (" + n + " > 0) {");
    }
    ++em.indent;
    if (aligned) {
      em.line("AscendC::DataCopyPad(" + stage + "[" + lo + "], " + g.name + "[" + go +
              "], AscendC::DataCopyExtParams{1, static_cast<uint32_t>(" + n + " * " + std::to_string(gBytes) +
              "), 0, 0, 0}, AscendC::DataCopyPadExtParams<" + gType + ">{false, 0, 0, 0});");
    } else {
      // The UB start is not 32-byte aligned: DataCopyPad into scratch, then
      // element by element into place.
      em.scratchBytes = std::max(em.scratchBytes, roundUp(runLen * gBytes, 32));
      std::string sc = em.scratchBase(gElt);
      em.line("AscendC::DataCopyPad(" + sc + ", " + g.name + "[" + go + "], AscendC::DataCopyExtParams{1, " +
              "static_cast<uint32_t>(" + n + " * " + std::to_string(gBytes) + "), 0, 0, 0}, " +
              "AscendC::DataCopyPadExtParams<" + gType + ">{false, 0, 0, 0});");
      em.barrierAll();
      em.line("for (int64_t e = 0; e < " + n + "; ++e)");
      em.line("  " + stage + ".SetValue(" + lo + " + e, " + sc + ".GetValue(e));");
      em.line("AscendC::PipeBarrier<PIPE_ALL>();");
    }
    --em.indent;
    em.line("}");
    closeLoops();
    em.barrierAll();
    // Zero the part of every run outside the tensor (scalar stores to UB).
    openRun(false);
    em.line("for (int64_t e = " + n + "; e < " + std::to_string(runLen) + "; ++e)");
    em.line("  " + stage + ".SetValue(" + lo + " + e, static_cast<" + gType + ">(0));");
    closeLoops();
    em.barrierAll();
    if (convert) {
      if (!aligned)
        return em.error(op, "does not support a converting T.copy into a UB region whose start is not 32-byte aligned");
      gIdx = t.gi, lIdx = t.li;
      openLoops(gIdx, lIdx);
      em.line("AscendC::Cast(" + l.name + "[" + em.localOffset(l, lIdx) + "], " + stage + "[" +
              em.localOffset(l, lIdx) + "], AscendC::RoundMode::CAST_NONE, " + std::to_string(runLen) + ");");
      closeLoops();
      em.barrierAll();
    }
    return success();
  }

  /// UB -> global (added into it when `atomic`).
  LogicalResult store(Operation *op, bool atomic) {
    // UB -> global: narrow into the stage first, then MTE3.
    if (convert) {
      if (!aligned)
        return em.error(op,
                        "does not support a converting T.copy out of a UB region whose start is not 32-byte aligned");
      SmallVector<std::string> gIdx2 = t.gi, lIdx2 = t.li;
      openLoops(gIdx2, lIdx2);
      em.line("AscendC::Cast(" + stage + "[" + em.localOffset(l, lIdx2) + "], " + l.name + "[" +
              em.localOffset(l, lIdx2) + "], AscendC::RoundMode::CAST_RINT, " + std::to_string(runLen) + ");");
      closeLoops();
      em.barrierAll();
    }
    // Atomic mode makes every MTE3 transfer below add into global memory.
    if (atomic)
      em.line("AscendC::SetAtomicAdd<" + cxxType(gElt) + ">();");
    openRun(true);
    std::string from = stage + "[" + lo + "]";
    if (!aligned) {
      // Gather the run into scratch (aligned) first.
      em.scratchBytes = std::max(em.scratchBytes, roundUp(runLen * gBytes, 32));
      std::string sc = em.scratchBase(gElt);
      em.line("for (int64_t e = 0; e < " + n + "; ++e)");
      em.line("  " + sc + ".SetValue(e, " + stage + ".GetValue(" + lo + " + e));");
      em.barrierAll();
      from = sc;
    }
    if (aligned && wholeBlocks) {
      em.line("if (" + n + " == " + std::to_string(runLen) + ") {");
      ++em.indent;
      em.line("AscendC::DataCopy(" + g.name + "[" + go + "], " + from + ", " + std::to_string(runLen) + ");");
      --em.indent;
      em.line("} else if (" + n + " > 0) {");
    } else {
      em.line("if (" + n + " > 0) {");
    }
    ++em.indent;
    em.line("AscendC::DataCopyPad(" + g.name + "[" + go + "], " + from + ", AscendC::DataCopyExtParams{1, " +
            "static_cast<uint32_t>(" + n + " * " + std::to_string(gBytes) + "), 0, 0, 0});");
    --em.indent;
    em.line("}");
    if (!aligned)
      em.barrierAll();
    closeLoops();
    if (atomic)
      em.line("AscendC::SetAtomicNone();");
    em.barrierAll();
    return success();
  }

private:
  /// Loop nest over the non-run dims, then one run per iteration.
  void openLoops(SmallVector<std::string> &gIdx, SmallVector<std::string> &lIdx) {
    for (size_t k = 0; k < loops; ++k) {
      std::string iv = em.fresh("r");
      em.line("for (int64_t " + iv + " = 0; " + iv + " < " + std::to_string(gDims[k].second) + "; ++" + iv + ") {");
      ++em.indent;
      gIdx[gDims[k].first] += " + " + iv;
      lIdx[lDims[k].first] += " + " + iv;
    }
  }
  void closeLoops() {
    for (size_t k = 0; k < loops; ++k)
      --em.indent, em.line("}");
  }
  /// The run's row is inside the tensor in every dim but the last.
  std::string rowInside(ArrayRef<std::string> gIdx) {
    SmallVector<std::string> conds;
    for (int64_t d = 0; d + 1 < gRank; ++d)
      conds.push_back("(" + gIdx[d] + ") >= 0 && (" + gIdx[d] + ") < " + g.dims[d]);
    return conds.empty() ? std::string("true") : llvm::join(conds, " && ");
  }
  /// One run per loop iteration: its UB and global offsets, and n, how many
  /// of its elements lie inside the tensor (0 .. runLen).
  void openRun(bool withGlobal) {
    gIdx = t.gi, lIdx = t.li;
    openLoops(gIdx, lIdx);
    col = gRank ? gIdx.back() : "0";
    lo = em.fresh("lo"), go = em.fresh("go"), n = em.fresh("n");
    em.line("const int64_t " + lo + " = " + em.localOffset(l, lIdx) + ";");
    if (withGlobal)
      em.line("const int64_t " + go + " = " + em.globalOffset(g, gIdx) + ";");
    em.line("int64_t " + n + " = 0;");
    em.line("if (" + rowInside(gIdx) + " && (" + col + ") >= 0) {");
    ++em.indent;
    em.line(n + " = " + lastDim + " - (" + col + ");");
    em.line(n + " = " + n + " < 0 ? 0 : " + n + " > " + std::to_string(runLen) + " ? " + std::to_string(runLen) +
            " : " + n + ";");
    --em.indent;
    em.line("}");
  }

  KernelEmitter &em;
  const KernelEmitter::Transfer &t;
  GlobalBuf &g;
  LocalBuf &l;
  SmallVector<std::pair<int64_t, int64_t>> gDims, lDims;
  int64_t gRank = 0, runLen = 1, gBytes = 1;
  size_t loops = 0;
  Type gElt;
  bool convert = false, aligned = false, wholeBlocks = false;
  std::string stage, lastDim, gType;
  SmallVector<std::string> gIdx, lIdx; ///< the current run's region indices
  std::string col, lo, go, n;          ///< the current run's column, offsets and length
};
} // namespace ascend
} // namespace tilec

LogicalResult KernelEmitter::emitTransfer(Operation *op, bool load, const Transfer &t, bool atomic) {
  TransferRuns runs(*this, t);
  if (failed(runs.plan(op, atomic)))
    return failure();
  return load ? runs.load(op) : runs.store(op, atomic);
}

LogicalResult KernelEmitter::emitAtomicAdd(tile::AtomicAddOp op) {
  SmallVector<std::string> idx;
  for (Value v : op.getIndices())
    idx.push_back(name(v));
  Value value = op.getValue();
  if (!globals.count(op.getDst())) {
    // Into a UB buffer: one instruction stream, so a plain read-modify-write.
    LocalBuf &d = locals[op.getDst()];
    std::string t = cxxType(d.elt);
    if (!op.isRegionForm()) {
      std::string at = localOffset(d, idx);
      line(d.name + ".SetValue(" + at + ", static_cast<" + t + ">(" + d.name + ".GetValue(" + at + ") + " +
           name(value) + "));");
      scalarPending = true;
      return success();
    }
    LocalBuf *vp = local(op, value, "the value of a region T.atomic_add");
    if (!vp)
      return failure();
    LocalBuf &v = *vp;
    int64_t lead = d.shape.size() - v.shape.size();
    SmallVector<std::string> vi(v.shape.size());
    unsigned opened = 0;
    for (size_t k = 0; k < v.shape.size(); ++k) {
      vi[k] = fresh("r");
      line("for (int64_t " + vi[k] + " = 0; " + vi[k] + " < " + std::to_string(v.shape[k]) + "; ++" + vi[k] + ") {");
      ++indent, ++opened;
      idx[lead + k] += " + " + vi[k];
    }
    std::string at = localOffset(d, idx);
    line(d.name + ".SetValue(" + at + ", static_cast<" + t + ">(" + d.name + ".GetValue(" + at + ") + " + v.name +
         ".GetValue(" + localOffset(v, vi) + ")));");
    for (; opened; --opened)
      --indent, line("}");
    barrierAll();
    return success();
  }
  GlobalBuf &g = globals[op.getDst()];
  if (op.isRegionForm()) {
    // The region's dims are dst's trailing dims: an atomic T.copy out.
    LocalBuf *vp = local(op, value, "the value of a region T.atomic_add");
    if (!vp)
      return failure();
    LocalBuf &v = *vp;
    if (v.elt != g.elt)
      return error(op, "does not support a T.atomic_add whose buffer's element type differs from the tensor's");
    Transfer t{g, v};
    t.gSizes.assign(g.dims.size() - v.shape.size(), 1);
    t.gSizes.append(v.shape.begin(), v.shape.end());
    t.lSizes = v.shape;
    t.gi = idx;
    t.li.assign(v.shape.size(), "0");
    t.lConst.assign(v.shape.size(), 0);
    t.lStatic = true;
    return emitTransfer(op, /*load=*/false, t, /*atomic=*/true);
  }
  // One element: through a 32-byte scratch block, MTE3 in atomic mode;
  // outside the tensor it is dropped.
  Type elt = g.elt;
  if (!(elt.isF16() || elt.isF32() || elt.isInteger(16) || elt.isInteger(32)))
    return error(op, "does not support an atomic add into " + dtypeName(elt) +
                         " (SetAtomicAdd takes float16, float32, int16 and int32)");
  storeElement(g, idx, name(value), /*atomic=*/true);
  return success();
}

void KernelEmitter::storeElement(GlobalBuf &g, ArrayRef<std::string> idx, const std::string &value, bool atomic) {
  scratchBytes = std::max<int64_t>(scratchBytes, 32);
  std::string sc = scratchBase(g.elt), t = cxxType(g.elt);
  SmallVector<std::string> conds;
  for (size_t d = 0; d < idx.size(); ++d)
    conds.push_back("(" + idx[d] + ") >= 0 && (" + idx[d] + ") < " + g.dims[d]);
  line("if (" + (conds.empty() ? std::string("true") : llvm::join(conds, " && ")) + ") {");
  ++indent;
  line(sc + ".SetValue(0, static_cast<" + t + ">(" + value + "));");
  barrierAll();
  if (atomic)
    line("AscendC::SetAtomicAdd<" + t + ">();");
  line("AscendC::DataCopyPad(" + g.name + "[" + globalOffset(g, idx) + "], " + sc + ", AscendC::DataCopyExtParams{1, " +
       std::to_string(elementBytes(g.elt)) + ", 0, 0, 0});");
  if (atomic)
    line("AscendC::SetAtomicNone();");
  barrierAll();
  --indent;
  line("}");
}


LogicalResult KernelEmitter::emitElementAccess(Operation *op) {
  if (auto ld = dyn_cast<memref::LoadOp>(op)) {
    SmallVector<std::string> ix;
    for (Value v : ld.getIndices())
      ix.push_back(name(v));
    std::string n = fresh("v");
    names[ld.getResult()] = n;
    if (globals.count(ld.getMemRef())) {
      // Outside the tensor: 0, as T.copy reads (and never a GM access).
      GlobalBuf &g = globals[ld.getMemRef()];
      SmallVector<std::string> conds;
      for (size_t d = 0; d < ix.size(); ++d)
        conds.push_back("(" + ix[d] + ") >= 0 && (" + ix[d] + ") < " + g.dims[d]);
      std::string t = cxxType(ld.getType());
      line("const " + t + " " + n + " = " + (conds.empty() ? std::string("true") : llvm::join(conds, " && ")) +
           " ? " + g.name + ".GetValue(" + globalOffset(g, ix) + ") : static_cast<" + t + ">(0);");
    } else {
      LocalBuf &b = locals[ld.getMemRef()];
      line("const " + cxxType(ld.getType()) + " " + n + " = " + b.name + ".GetValue(" + localOffset(b, ix) + ");");
    }
    return success();
  }
  auto st = cast<memref::StoreOp>(op);
  if (globals.count(st.getMemRef())) {
    // Not GlobalTensor::SetValue: scalar stores go through the core's data
    // cache, not coherent with other cores' lines. The element goes through
    // a 32-byte scratch block and a 1-element DataCopyPad (MTE3, exact bytes);
    // outside the tensor it is dropped. Slow: two barriers per element.
    GlobalBuf &g = globals[st.getMemRef()];
    if (g.elt.isInteger(1))
      return error(op, "does not store to a bool tensor");
    SmallVector<std::string> idx;
    for (Value v : st.getIndices())
      idx.push_back(name(v));
    storeElement(g, idx, name(st.getValueToStore()), /*atomic=*/false);
    return success();
  }
  LocalBuf &b = locals[st.getMemRef()];
  SmallVector<std::string> ix;
  for (Value v : st.getIndices())
    ix.push_back(name(v));
  line(b.name + ".SetValue(" + localOffset(b, ix) + ", " + name(st.getValueToStore()) + ");");
  return success();
}
