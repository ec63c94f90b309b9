//===- FragmentLayoutTest.cpp - The fragment layout algebra ----------------===//
//
// Mixed-radix element -> (thread, register) maps: the canonical blocked
// layout and the mma accumulator cover every element exactly once per
// replica, projections keep the kept dimensions' placement, and the
// `#tile.fragment_layout` attribute carries a layout unchanged (text too).
//
//===----------------------------------------------------------------------===//
#include "tilec/Dialect/Tile/IR/FragmentLayout.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <catch2/catch_test_macros.hpp>

#include <map>
#include <string>
#include <vector>

using namespace tilec::tile;

namespace {
using Coord = std::vector<int64_t>;

/// The element register `reg` of thread `tid` holds.
Coord elementOf(const FragmentLayout &l, int64_t tid, int64_t reg) {
  Coord c;
  llvm::SmallVector<int64_t> r = l.regIndex(reg);
  for (unsigned d = 0; d < l.dims.size(); ++d)
    c.push_back(l.threadIndex(d, tid) + r[d]);
  return c;
}

/// How many (thread, register) pairs hold each element; fails the test on an
/// element outside the shape.
std::map<Coord, int64_t> holders(const FragmentLayout &l) {
  std::map<Coord, int64_t> n;
  for (int64_t t = 0; t < l.numThreads; ++t)
    for (int64_t r = 0; r < l.numRegs; ++r) {
      Coord c = elementOf(l, t, r);
      for (unsigned d = 0; d < c.size(); ++d) {
        REQUIRE(c[d] >= 0);
        REQUIRE(c[d] < l.shape[d]);
      }
      ++n[c];
    }
  return n;
}

int64_t numElements(const FragmentLayout &l) {
  int64_t n = 1;
  for (int64_t e : l.shape)
    n *= e;
  return n;
}

/// Every element is held by exactly numThreads / distinctThreads pairs.
void requireCover(const FragmentLayout &l) {
  std::map<Coord, int64_t> n = holders(l);
  REQUIRE((int64_t)n.size() == numElements(l));
  int64_t replicas = l.numThreads / l.distinctThreads();
  for (auto &[c, k] : n)
    REQUIRE(k == replicas);
}
} // namespace

TEST_CASE("canonical layouts cover every element once per replica", "[fragment-layout]") {
  struct Case {
    std::vector<int64_t> shape;
    int64_t threads, vector, maxInner;
  };
  std::vector<Case> cases = {{{64, 64}, 128, 4, 0}, {{128}, 128, 1, 0}, {{16, 8}, 256, 2, 0},
                             {{4, 32, 16}, 128, 8, 0}, {{64, 128}, 128, 8, 32}, {{3, 5}, 32, 4, 0}};
  for (const Case &c : cases) {
    FragmentLayout l = FragmentLayout::canonical(c.shape, c.threads, c.vector, c.maxInner);
    INFO(l.str());
    REQUIRE(l.numThreads == c.threads);
    requireCover(l);
  }
}

TEST_CASE("canonical layout places the inner vector first", "[fragment-layout]") {
  FragmentLayout l = FragmentLayout::canonical({64, 64}, 128, 4);
  REQUIRE(l.innerVectorWidth() == 4);
  // 16 threads cover a row of 64 in vectors of 4, the other 8 take rows.
  REQUIRE(elementOf(l, 0, 1) == Coord{0, 1});
  REQUIRE(elementOf(l, 1, 0) == Coord{0, 4});
  REQUIRE(elementOf(l, 16, 0) == Coord{1, 0});
  REQUIRE(l.numRegs == 64 * 64 / 128);
  REQUIRE(l.distinctThreads() == 128);
  REQUIRE(!l.isFullyReplicated());
}

TEST_CASE("a small shape replicates over the threads left over", "[fragment-layout]") {
  FragmentLayout l = FragmentLayout::canonical({8}, 128, 1);
  REQUIRE(l.distinctThreads() == 8);
  requireCover(l);
  FragmentLayout one = FragmentLayout::canonical({1}, 64, 1);
  REQUIRE(one.isFullyReplicated());
}

TEST_CASE("capping the inner threads moves threads to the rows", "[fragment-layout]") {
  FragmentLayout plain = FragmentLayout::canonical({64, 128}, 128, 8);
  FragmentLayout capped = FragmentLayout::canonical({64, 128}, 128, 8, 32);
  REQUIRE(plain.threadFields(1).front().count == 16);
  REQUIRE(capped.threadFields(1).front().count == 16);
  FragmentLayout capped8 = FragmentLayout::canonical({64, 128}, 128, 8, 8);
  REQUIRE(capped8.threadFields(1).front().count == 8);
  REQUIRE(capped8.threadFields(0).front().count == 16);
  requireCover(capped8);
}

TEST_CASE("mma accumulator: the m16n8 lane and register map", "[fragment-layout]") {
  FragmentLayout l = FragmentLayout::mmaAccumulator(16, 8, 1, 1);
  REQUIRE(l.numThreads == 32);
  REQUIRE(l.numRegs == 4);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t r = 0; r < 4; ++r)
      REQUIRE(elementOf(l, lane, r) == Coord{lane / 4 + 8 * (r / 2), 2 * (lane % 4) + r % 2});
  requireCover(l);
}

TEST_CASE("mma accumulator over several warps and tiles", "[fragment-layout]") {
  for (auto [m, n, wm, wn] : std::vector<std::array<int64_t, 4>>{{64, 32, 2, 2}, {128, 128, 2, 2}, {64, 64, 4, 1}}) {
    FragmentLayout l = FragmentLayout::mmaAccumulator(m, n, wm, wn);
    INFO(l.str());
    REQUIRE(l.numThreads == 32 * wm * wn);
    REQUIRE(l.distinctThreads() == l.numThreads);
    requireCover(l);
    // Warp w = warpN + warpsN * warpM owns rows [warpM * m / wm, ...).
    int64_t lastWarp = wm * wn - 1;
    Coord c = elementOf(l, 32 * lastWarp, 0);
    REQUIRE(c[0] == (lastWarp / wn) * (m / wm));
    REQUIRE(c[1] == (lastWarp % wn) * (n / wn));
  }
}

TEST_CASE("projection keeps the placement of the kept dimensions", "[fragment-layout]") {
  FragmentLayout l = FragmentLayout::mmaAccumulator(64, 32, 2, 2);
  for (unsigned keep : {0u, 1u}) {
    FragmentLayout p = l.project({keep});
    REQUIRE(p.shape == llvm::SmallVector<int64_t>{l.shape[keep]});
    REQUIRE(p.numThreads == l.numThreads);
    for (int64_t t = 0; t < l.numThreads; t += 7)
      for (int64_t r = 0; r < l.numRegs; ++r) {
        int64_t pr = l.projectReg({keep}, r);
        REQUIRE(pr >= 0);
        REQUIRE(pr < p.numRegs);
        REQUIRE(elementOf(p, t, pr)[0] == elementOf(l, t, r)[keep]);
      }
    // The dropped dimension's threads now replicate.
    std::map<Coord, int64_t> n = holders(p);
    REQUIRE((int64_t)n.size() == l.shape[keep]);
  }
  // Projecting onto every dimension is the identity.
  REQUIRE(l.project({0, 1}) == l);
}

TEST_CASE("flat fields round-trip", "[fragment-layout]") {
  FragmentLayout l = FragmentLayout::mmaAccumulator(64, 32, 2, 2);
  FragmentLayout back = FragmentLayout::fromFlatFields(l.shape, l.numThreads, l.numRegs, l.flatFields());
  REQUIRE(back == l);
  REQUIRE(back.str() == l.str());
}

TEST_CASE("a reshaped layout holds the same elements in the same registers", "[fragment-layout]") {
  auto flat = [](const Coord &c, llvm::ArrayRef<int64_t> shape) {
    int64_t f = 0;
    for (unsigned d = 0; d < c.size(); ++d)
      f = f * shape[d] + c[d];
    return f;
  };
  for (const FragmentLayout &l :
       {FragmentLayout::mmaAccumulator(64, 32, 2, 2), FragmentLayout::canonical({32, 16}, 128, 4)}) {
    for (llvm::SmallVector<int64_t> to : {llvm::SmallVector<int64_t>{l.shape[0], l.shape[1] / 4, 4},
                                          {l.shape[0] * l.shape[1]},
                                          {l.shape[1], l.shape[0]}}) {
      std::optional<FragmentLayout> v = l.reshape(to);
      REQUIRE(v);
      REQUIRE(v->numRegs == l.numRegs);
      requireCover(*v);
      for (int64_t t = 0; t < l.numThreads; ++t)
        for (int64_t r = 0; r < l.numRegs; ++r)
          REQUIRE(flat(elementOf(*v, t, r), v->shape) == flat(elementOf(l, t, r), l.shape));
    }
  }
  // A dimension of 4 registers cannot be seen as dimensions of 3.
  FragmentLayout odd = FragmentLayout::canonical({3, 4}, 1, 4);
  REQUIRE(!odd.reshape({4, 3}));
}

TEST_CASE("#tile.fragment_layout carries a layout", "[fragment-layout]") {
  mlir::MLIRContext ctx;
  ctx.loadDialect<TileDialect>();
  for (const FragmentLayout &l : {FragmentLayout::mmaAccumulator(64, 32, 2, 2),
                                  FragmentLayout::canonical({4, 32, 16}, 128, 8),
                                  FragmentLayout::canonical({8}, 128, 1)}) {
    auto attr = FragmentLayoutAttr::get(&ctx, l);
    REQUIRE(attr.getLayout() == l);
    REQUIRE(attr.getNumThreads() == l.numThreads);
    REQUIRE(attr.getRank() == (int64_t)l.shape.size());
    // The printed form parses back to the same (uniqued) attribute.
    std::string text;
    llvm::raw_string_ostream os(text);
    mlir::Attribute(attr).print(os);
    mlir::Attribute parsed = mlir::parseAttribute(text, &ctx);
    REQUIRE(parsed == attr);
  }
}

TEST_CASE("#tile.fragment_layout text form", "[fragment-layout]") {
  mlir::MLIRContext ctx;
  ctx.loadDialect<TileDialect>();
  mlir::Attribute a = mlir::parseAttribute("#tile.fragment_layout<shape = [16, 8], threads = 32, regs = 4, "
                                           "dims = [[thread(4, 8, 1), reg(2, 2, 8), reg(4, 1, 16)], [reg(1, 2, 1), thread(1, 4, 2), reg(4, 1, 8)]]>",
                                           &ctx);
  REQUIRE(a);
  REQUIRE(llvm::cast<FragmentLayoutAttr>(a).getLayout() == FragmentLayout::mmaAccumulator(16, 8, 1, 1));
}
