/* TILE
# tile-lang's warp votes (T.any_sync, T.all_sync, T.ballot_sync, T.ballot, T.activemask), warp
# matches (T.match_any_sync, T.match_all_sync), block syncs with a predicate
# (T.syncthreads_count / _and / _or) and the bit scans T.__ffs / T.__fns, on predicates drawn
# from data, with lane masks, in blocks of 48 threads (the second warp has 16 lanes).
import tilelang.language as T

B, NT = 3, 48

@T.prim_func
def votes(X: T.Tensor((B, NT), T.int32), Any: T.Tensor((B, NT), T.int32), All: T.Tensor((B, NT), T.int32),
          Bal: T.Tensor((B, NT), T.int64), Bal2: T.Tensor((B, NT), T.int64), Cnt: T.Tensor((B, NT), T.int32),
          MAny: T.Tensor((B, NT), T.int32), MAll: T.Tensor((B, NT), T.int32), Act: T.Tensor((B, NT), T.int64),
          Ffs: T.Tensor((B, NT), T.int32), Fns: T.Tensor((B, NT), T.int32)):
    with T.Kernel(B, threads=NT) as bx:
        tx = T.get_thread_binding()
        v = X[bx, tx]
        Any[bx, tx] = T.any_sync(v % 7 == 0) + 2 * T.any_sync(v % 5 == 0, 0x0000FFFF)
        All[bx, tx] = (T.all_sync(v % 9 != 0) + 2 * T.all_sync(v % 2 == 0, mask=0x3) +
                       4 * T.syncthreads_and(v % 23 != 0) + 8 * T.syncthreads_or(v % 29 == 0))
        Bal[bx, tx] = T.cast(T.ballot_sync(v % 3 == 0, 0xF0F0F0F0), "int64")
        Bal2[bx, tx] = T.cast(T.ballot(v % 2), "int64")
        Cnt[bx, tx] = T.syncthreads_count(v % 4 == 1)
        MAny[bx, tx] = T.cast(T.match_any_sync(v % 4), "int32")
        MAll[bx, tx] = T.cast(T.match_all_sync(v // 1000), "int32") + T.cast(T.match_all_sync(v % 3, 0x3), "int32")
        Act[bx, tx] = T.cast(T.activemask(), "int64")
        Ffs[bx, tx] = T.__ffs(v)
        Fns[bx, tx] = T.cast(T.__fns(v, tx % 32, tx % 5 - 2), "int32")
*/
// CUDA's semantics over each warp's lanes (the mask's lanes that the block has) and over the block.
#include "harness.h"
#include "kernel.h"

#include <cstdint>

static uint32_t fns(uint32_t mask, int base, int offset) {
  if (offset == 0)
    return (mask >> base) & 1 ? uint32_t(base) : 0xffffffffu;
  int count = (offset > 0 ? offset : -offset) - 1, inc = offset > 0 ? 1 : -1;
  for (int pos = base; pos >= 0 && pos < 32; pos += inc)
    if ((mask >> pos) & 1) {
      if (count == 0)
        return uint32_t(pos);
      --count;
    }
  return 0xffffffffu;
}

TILEC_TEST(warp_vote) {
  const int B = 3, NT = 48;
  const size_t n = size_t(B) * NT;
  // Ranges that make each vote come out both ways in some warp.
  auto x = randomInt<int32_t>(n, -3000, 3000);
  for (int b = 0; b < B; ++b) // block 1: every value in [0, 1000) for match_all_sync(v // 1000)
    for (int t = 0; t < NT; ++t)
      if (b == 1)
        x[b * NT + t] = int32_t(uniformInt(0, 999));
  auto any = zeros<int32_t>(n), all = zeros<int32_t>(n), cnt = zeros<int32_t>(n), many = zeros<int32_t>(n),
       mall = zeros<int32_t>(n), ffs = zeros<int32_t>(n), fnsOut = zeros<int32_t>(n);
  auto bal = zeros<int64_t>(n), bal2 = zeros<int64_t>(n), act = zeros<int64_t>(n);
  expectStatus(votes(x.data(), any.data(), all.data(), bal.data(), bal2.data(), cnt.data(), many.data(), mall.data(),
                     act.data(), ffs.data(), fnsOut.data()),
               TILEC_SUCCESS);
  std::vector<double> rAny(n), rAll(n), rBal(n), rBal2(n), rCnt(n), rMany(n), rMall(n), rAct(n), rFfs(n), rFns(n);
  auto pyMod = [](int a, int m) { return ((a % m) + m) % m; }; // Python's % (floors)
  auto pyDiv = [](int a, int m) { return (a - (((a % m) + m) % m)) / m; };
  for (int b = 0; b < B; ++b) {
    const int32_t *xb = &x[b * NT];
    int blockAnd = 1, blockOr = 0, count = 0;
    for (int t = 0; t < NT; ++t) {
      blockAnd &= pyMod(xb[t], 23) != 0;
      blockOr |= pyMod(xb[t], 29) == 0;
      count += pyMod(xb[t], 4) == 1;
    }
    for (int t = 0; t < NT; ++t) {
      int base = t - t % 32, lanes = NT - base < 32 ? NT - base : 32;
      auto vote = [&](uint32_t mask, auto pred) {
        uint32_t bits = 0;
        for (int j = 0; j < lanes; ++j)
          if ((mask >> j) & 1 && pred(xb[base + j]))
            bits |= 1u << j;
        return bits;
      };
      auto laneMask = [&](uint32_t mask) { return lanes == 32 ? mask : mask & ((1u << lanes) - 1); };
      int v = xb[t];
      rAny[b * NT + t] = (vote(~0u, [&](int a) { return pyMod(a, 7) == 0; }) != 0) +
                         2 * (vote(0xFFFF, [&](int a) { return pyMod(a, 5) == 0; }) != 0);
      rAll[b * NT + t] = (vote(~0u, [&](int a) { return pyMod(a, 9) != 0; }) == laneMask(~0u)) +
                         2 * (vote(0x3, [&](int a) { return pyMod(a, 2) == 0; }) == laneMask(0x3)) + 4 * blockAnd +
                         8 * blockOr;
      rBal[b * NT + t] = vote(0xF0F0F0F0, [&](int a) { return pyMod(a, 3) == 0; });
      rBal2[b * NT + t] = vote(~0u, [&](int a) { return pyMod(a, 2) != 0; });
      rCnt[b * NT + t] = count;
      rMany[b * NT + t] = int32_t(vote(~0u, [&](int a) { return pyMod(a, 4) == pyMod(v, 4); }));
      uint32_t m1 = vote(~0u, [&](int a) { return pyDiv(a, 1000) == pyDiv(v, 1000); }) == laneMask(~0u) ? ~0u : 0u;
      uint32_t m2 = vote(0x3, [&](int a) { return pyMod(a, 3) == pyMod(v, 3); }) == laneMask(0x3) ? 0x3u : 0u;
      rMall[b * NT + t] = int32_t(m1 + m2);
      rAct[b * NT + t] = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
      rFfs[b * NT + t] = v == 0 ? 0 : __builtin_ctz(uint32_t(v)) + 1;
      rFns[b * NT + t] = int32_t(fns(uint32_t(v), t % 32, pyMod(t, 5) - 2));
    }
  }
  expectEqual("Any", any, rAny);
  expectEqual("All", all, rAll);
  expectEqual("Bal", bal, rBal);
  expectEqual("Bal2", bal2, rBal2);
  expectEqual("Cnt", cnt, rCnt);
  expectEqual("MAny", many, rMany);
  expectEqual("MAll", mall, rMall);
  expectEqual("Act", act, rAct);
  expectEqual("Ffs", ffs, rFfs);
  expectEqual("Fns", fnsOut, rFns);
}
