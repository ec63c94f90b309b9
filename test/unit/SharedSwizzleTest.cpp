//===- SharedSwizzleTest.cpp - XOR swizzle of shared tiles -----------------===//
//
// The mapping every mma.sync shared tile uses: a bijection on the tile, 16-byte
// chunks moved whole, 8 rows of one chunk in 8 distinct bank groups, and the
// byte layout of the TMA's SWIZZLE_32B/64B/128B modes.
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/SharedSwizzle.h"

#include <catch2/catch_test_macros.hpp>

#include <set>
#include <vector>

using namespace tilec::tile;

namespace {
/// A tile of 2-byte elements: `rows` rows of `rowBytes` bytes.
struct Tile {
  int64_t rowBytes, rows;
  int64_t elemBytes = 2;
  int64_t rowElems() const { return rowBytes / elemBytes; }
  int64_t span() const { return swizzleSpanFor(rowBytes); }
  int64_t index(int64_t row, int64_t col) const { return swizzledIndex(row, col, rowElems(), elemBytes, span()); }
};

const std::vector<Tile> kTiles = {{32, 128}, {64, 128}, {128, 64}, {256, 32}, {32, 16}, {64, 24}};
} // namespace

TEST_CASE("swizzle span of a row length", "[swizzle]") {
  CHECK(swizzleSpanFor(32) == 32);
  CHECK(swizzleSpanFor(64) == 64);
  CHECK(swizzleSpanFor(128) == 128);
  CHECK(swizzleSpanFor(256) == 128);
  CHECK(swizzleSpanFor(384) == 128);
  CHECK(swizzleSpanFor(0) == 0);
  CHECK(swizzleSpanFor(16) == 0);
  CHECK(swizzleSpanFor(48) == 0);
  CHECK(swizzleSpanFor(96) == 0);
  CHECK(swizzleSpanFor(192) == 0);
}

TEST_CASE("XOR terms of the three spans", "[swizzle]") {
  // 128: row % 8; 64: (row / 2) % 4; 32: (row / 4) % 2.
  const int64_t x128[] = {0, 1, 2, 3, 4, 5, 6, 7}, x64[] = {0, 0, 1, 1, 2, 2, 3, 3}, x32[] = {0, 0, 0, 0, 1, 1, 1, 1};
  for (int64_t r = 0; r < 64; ++r) {
    INFO("row " << r);
    CHECK(swizzleXor(r, 128) == x128[r % 8]);
    CHECK(swizzleXor(r, 64) == x64[r % 8]);
    CHECK(swizzleXor(r, 32) == x32[r % 8]);
  }
}

TEST_CASE("the XOR term has period 8 rows and stays inside the span", "[swizzle]") {
  // EmitGemm.cpp folds row offsets that are multiples of 8 into ldmatrix
  // immediates; that needs term(row + 8k) == term(row).
  for (int64_t span : {32, 64, 128}) {
    INFO("span " << span);
    CHECK(swizzleAtom(span).rowDiv * swizzleAtom(span).chunks == 8);
    for (int64_t r = 0; r < 256; ++r) {
      CHECK(swizzleXor(r + 8, span) == swizzleXor(r, span));
      CHECK(swizzleXor(r, span) < span / kSwizzleChunkBytes);
    }
  }
}

TEST_CASE("a swizzled tile is a bijection of its elements", "[swizzle]") {
  for (const Tile &t : kTiles) {
    INFO("row bytes " << t.rowBytes << ", rows " << t.rows);
    REQUIRE(t.span() != 0);
    int64_t numel = t.rows * t.rowElems();
    std::vector<int> hits(numel, 0);
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t c = 0; c < t.rowElems(); ++c) {
        int64_t i = t.index(r, c);
        REQUIRE(i >= 0);
        REQUIRE(i < numel);
        // Rows stay rows: only the chunks inside a row move.
        CHECK(i / t.rowElems() == r);
        ++hits[i];
      }
    for (int64_t i = 0; i < numel; ++i)
      CHECK(hits[i] == 1);
  }
}

TEST_CASE("16-byte chunks move whole", "[swizzle]") {
  // A 16-byte vector (cp.async, one ldmatrix row) at a chunk boundary stays
  // contiguous and 16-byte aligned.
  for (const Tile &t : kTiles) {
    INFO("row bytes " << t.rowBytes);
    int64_t chunkElems = kSwizzleChunkBytes / t.elemBytes;
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t c0 = 0; c0 < t.rowElems(); c0 += chunkElems) {
        int64_t first = t.index(r, c0);
        CHECK(first % chunkElems == 0);
        for (int64_t c = 1; c < chunkElems; ++c)
          CHECK(t.index(r, c0 + c) == first + c);
      }
  }
}

TEST_CASE("8 consecutive rows of one chunk hit 8 distinct bank groups", "[swizzle]") {
  // ldmatrix reads 8 rows x 16 bytes per matrix in one phase: conflict-free
  // when the 8 addresses fall in the 8 different 16-byte groups of a 128-byte
  // bank line. Tiles start on 128-byte boundaries, later stages on 16-byte
  // multiples (a stage of an odd number of 64-byte rows): a common shift by a
  // multiple of 16 bytes keeps the groups distinct.
  for (const Tile &t : kTiles) {
    int64_t chunkElems = kSwizzleChunkBytes / t.elemBytes;
    for (int64_t base : {0, 16, 128, 1024 + 48}) {
      for (int64_t r0 = 0; r0 + 8 <= t.rows; ++r0)
        for (int64_t c0 = 0; c0 < t.rowElems(); c0 += chunkElems) {
          INFO("row bytes " << t.rowBytes << ", base " << base << ", rows " << r0 << "..+7, column " << c0);
          std::set<int64_t> groups;
          for (int64_t r = r0; r < r0 + 8; ++r)
            groups.insert((base + t.index(r, c0) * t.elemBytes) / kSwizzleChunkBytes % 8);
          CHECK(groups.size() == 8);
        }
    }
  }
}

TEST_CASE("unswizzled 64- and 32-byte rows conflict (the swizzle is needed)", "[swizzle]") {
  // The plain layout puts 8 rows of one chunk in 128 / rowBytes bank groups:
  // a 4-way conflict for 64-byte rows, 2-way for 32-byte rows.
  for (int64_t rowBytes : {32, 64}) {
    std::set<int64_t> groups;
    for (int64_t r = 0; r < 8; ++r)
      groups.insert(r * rowBytes / kSwizzleChunkBytes % 8);
    CHECK(groups.size() == size_t(128 / rowBytes));
  }
}

TEST_CASE("rows of one span are the TMA's swizzled byte layout", "[swizzle]") {
  // CU_TENSOR_MAP_SWIZZLE_{32,64,128}B (CUTLASS Swizzle<b, 4, 3> on byte
  // offsets from a tile aligned to the pattern's repeat): bits [4, 4 + b) of
  // the offset XOR bits [7, 7 + b), b = log2(span / 16).
  for (int64_t span : {32, 64, 128}) {
    Tile t{span, 64};
    int64_t bits = span == 128 ? 3 : span == 64 ? 2 : 1;
    int64_t mask = (int64_t(1) << bits) - 1;
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t c = 0; c < t.rowElems(); ++c) {
        int64_t plain = (r * t.rowElems() + c) * t.elemBytes;
        int64_t tma = plain ^ (((plain >> 7) & mask) << 4);
        INFO("span " << span << ", row " << r << ", column " << c);
        CHECK(t.index(r, c) * t.elemBytes == tma);
      }
  }
}
