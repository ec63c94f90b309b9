//===- SharedSwizzle.h - XOR swizzle of shared tiles -------------*- C++ -*-===//
//
// The XOR swizzle of 16-byte chunks that makes ldmatrix reads of shared tiles
// conflict-free; the same layouts as the TMA's SWIZZLE_32B/64B/128B modes.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECT_TILE_IR_SHAREDSWIZZLE_H
#define TILEC_DIALECT_TILE_IR_SHAREDSWIZZLE_H

#include <cstdint>

namespace tilec::tile {

/// The unit the swizzle moves: 16 bytes (one ldmatrix row, one cp.async).
inline constexpr int64_t kSwizzleChunkBytes = 16;

/// The swizzle span of a tile whose rows are `rowBytes` long: 128 for rows of
/// a multiple of 128 bytes, 64 or 32 for rows of that length, 0 (no swizzle)
/// otherwise.
constexpr int64_t swizzleSpanFor(int64_t rowBytes) {
  if (rowBytes > 0 && rowBytes % 128 == 0)
    return 128;
  return rowBytes == 64 || rowBytes == 32 ? rowBytes : 0;
}

/// The XOR term of a swizzle over `spanBytes` (32, 64 or 128):
/// (row / rowDiv) % chunks, where chunks = span / 16 is the number of chunks
/// it permutes and rowDiv = 128 / span the number of consecutive rows that
/// share one 128-byte line (CUTLASS's Swizzle<log2(chunks), 4, 3> on byte
/// addresses):
///
///   span   chunks  rowDiv  XOR term          TMA mode
///   128    8       1       row % 8           SWIZZLE_128B
///   64     4       2       (row / 2) % 4     SWIZZLE_64B
///   32     2       4       (row / 4) % 2     SWIZZLE_32B
///
/// rowDiv * chunks == 8: the term depends on row % 8 only, so adding a
/// multiple of 8 to a row leaves it alone.
struct SwizzleAtom {
  int64_t rowDiv;
  int64_t chunks;
};

constexpr SwizzleAtom swizzleAtom(int64_t spanBytes) { return {128 / spanBytes, spanBytes / kSwizzleChunkBytes}; }

/// The XOR term of row `row` in a tile swizzled over `spanBytes`.
constexpr int64_t swizzleXor(int64_t row, int64_t spanBytes) {
  SwizzleAtom a = swizzleAtom(spanBytes);
  return row / a.rowDiv % a.chunks;
}

/// Linear element index of (row, col) in a tile of `rowElems` elements of
/// `elemBytes` bytes per row, swizzled over `spanBytes`: the 16-byte chunk
/// col / chunkElems is stored at chunk (col / chunkElems) ^ swizzleXor(row).
constexpr int64_t swizzledIndex(int64_t row, int64_t col, int64_t rowElems, int64_t elemBytes, int64_t spanBytes) {
  int64_t chunkElems = kSwizzleChunkBytes / elemBytes;
  return row * rowElems + (col / chunkElems ^ swizzleXor(row, spanBytes)) * chunkElems + col % chunkElems;
}

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_SHAREDSWIZZLE_H
