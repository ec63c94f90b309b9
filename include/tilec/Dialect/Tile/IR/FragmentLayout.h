//===- FragmentLayout.h - Element -> (thread, register) maps ----*- C++ -*-===//
//
// A fragment layout places each element of a fragment in one register of one
// or more threads. Each buffer dimension's index is a sum of fields, each
// field reading a mixed-radix digit of the thread id or of the register
// number:  index[d] = sum over fields f of ((x_f / f.stride) % f.count) * f.scale
// with x_f the thread id or the register number. Thread bits no field reads
// replicate the fragment (those threads hold the same elements). This is the
// content of `#tile.fragment_layout` (FragmentLayoutAttr::getLayout).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECT_TILE_IR_FRAGMENTLAYOUT_H
#define TILEC_DIALECT_TILE_IR_FRAGMENTLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilec::tile {

/// One mixed-radix digit of the thread id or the register number.
struct LayoutField {
  bool onThread = false; ///< reads the thread id (else the register number)
  int64_t stride = 1;    ///< divisor applied to the thread id / register number
  int64_t count = 1;     ///< radix of the digit
  int64_t scale = 1;     ///< contribution to the dimension's index per unit
  bool operator==(const LayoutField &o) const {
    return onThread == o.onThread && stride == o.stride && count == o.count && scale == o.scale;
  }
};

/// A field together with the buffer dimension it contributes to: the flat
/// storage of `#tile.fragment_layout`.
struct DimLayoutField {
  unsigned dim = 0;
  LayoutField field;
  bool operator==(const DimLayoutField &o) const { return dim == o.dim && field == o.field; }
};

inline llvm::hash_code hash_value(const DimLayoutField &f) {
  return llvm::hash_combine(f.dim, f.field.onThread, f.field.stride, f.field.count, f.field.scale);
}

/// The layout of one fragment (or of a T.Parallel iteration space).
struct FragmentLayout {
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<llvm::SmallVector<LayoutField>> dims;
  int64_t numThreads = 1;
  int64_t numRegs = 1;

  bool operator==(const FragmentLayout &o) const;
  bool operator!=(const FragmentLayout &o) const { return !(*this == o); }

  /// The fields of every dimension, flattened in dimension order.
  llvm::SmallVector<DimLayoutField> flatFields() const;
  /// The layout of `shape` whose dimensions have the fields `fields`.
  static FragmentLayout fromFlatFields(llvm::ArrayRef<int64_t> shape, int64_t numThreads, int64_t numRegs,
                                       llvm::ArrayRef<DimLayoutField> fields);

  /// The register part of every dimension's index for register `reg`.
  llvm::SmallVector<int64_t> regIndex(int64_t reg) const;
  /// The thread part of dimension `d` for a constant thread id.
  int64_t threadIndex(unsigned d, int64_t tid) const;
  /// The layout of the sub-fragment made of dimensions `kept`: their fields,
  /// registers renumbered densely; the dropped dimensions' thread fields become
  /// replication.
  FragmentLayout project(llvm::ArrayRef<unsigned> kept) const;
  /// The register of `project(kept)` that holds what register `reg` of this
  /// layout holds in the kept dimensions.
  int64_t projectReg(llvm::ArrayRef<unsigned> kept, int64_t reg) const;
  /// The layout of the fragment `y` with `y[.., i / c, ..] = x[.., i, ..]`
  /// (dimension `d` divided by `c`): fields of scale a multiple of `c`
  /// scaled down, those below `c` dropped (thread ones become replication),
  /// a field crossing `c` split there; registers renumbered densely.
  /// Nullopt unless the fields below `c` stay below it together (so that a
  /// thread's element i / c is its thread part / c + its register part / c).
  std::optional<FragmentLayout> divideDim(unsigned d, int64_t c) const;
  /// The layout of the same registers seen as a fragment of shape `to` with
  /// the same elements in row-major order (a view, T.reshape): every field
  /// keeps its digit and moves to the dimension its flat contribution falls
  /// in, a field crossing a dimension boundary split there. Nullopt unless
  /// each view dimension's fields stay inside it.
  std::optional<FragmentLayout> reshape(llvm::ArrayRef<int64_t> to) const;
  /// Thread fields that read dimension `d`.
  llvm::SmallVector<LayoutField> threadFields(unsigned d) const;
  /// The register field of the innermost dimension with scale 1 and stride 1
  /// (the vector of consecutive elements a thread holds); its count, or 1.
  int64_t innerVectorWidth() const;
  /// Whether every thread holds every element.
  bool isFullyReplicated() const;
  /// Printable form for diagnostics and tests: `[T: ...; R: ...]` per dim.
  std::string str() const;

  /// Blocked-cyclic layout: the innermost dimension first takes `vector`
  /// consecutive elements per thread, then as many threads as divide it, the
  /// outer dimensions take the remaining threads; what is left of every
  /// dimension cycles in registers; threads left over replicate.
  /// `maxInnerThreads` (0: no limit) caps the threads the innermost
  /// dimension takes, so that the outer dimensions take the rest (a row
  /// reduction then stays inside fewer warps).
  static FragmentLayout canonical(llvm::ArrayRef<int64_t> shape, int64_t threads, int64_t vector,
                                  int64_t maxInnerThreads = 0);
  /// Threads that hold distinct elements (the product of the thread digits).
  int64_t distinctThreads() const;
  /// The thread digits no field reads, as thread fields (scale 0) in
  /// increasing stride: the threads differing only in them hold the same
  /// elements. False when the thread fields do not form a mixed radix of
  /// the thread id (overlapping or misaligned digits).
  bool replicationFields(llvm::SmallVectorImpl<LayoutField> &out) const;
  /// The mma.sync m16n8 accumulator layout of an M x N tile split over
  /// warpsM x warpsN warps (warp w = warpN + warpsN * warpM).
  static FragmentLayout mmaAccumulator(int64_t m, int64_t n, int64_t warpsM, int64_t warpsN);
};

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_FRAGMENTLAYOUT_H
