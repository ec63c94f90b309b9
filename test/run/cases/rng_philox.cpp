/* TILE
# T.rng_init / T.rng_rand: curand's Philox4x32-10 streams, per thread. Each
# thread starts stream (seed, seq=tx, off=3) and draws 6 numbers in a serial
# loop (crossing a 4-word counter block); then a default-seq stream
# (seq = bx * threads + tx, off 0) drawn into a local buffer.
import tilelang.language as T

B, NT, K = 2, 4, 6

@T.prim_func
def draws(Seed: T.int64, A: T.Tensor((B, NT, K), T.uint32), D: T.Tensor((B, NT), T.uint32)):
    with T.Kernel(B, threads=NT) as bx:
        tx = T.get_thread_binding()
        T.rng_init(Seed, tx, 3)
        for k in T.serial(K):
            A[bx, tx, k] = T.rng_rand()
        T.rng_init(7)
        d = T.alloc_local((1,), T.uint32)
        d[0] = T.rng_rand()
        D[bx, tx] = d[0]
*/
// Philox4x32-10 as Random123 and curand define it (refs_rand.py has the same).
#include "harness.h"
#include "kernel.h"

namespace {
uint32_t philox(uint64_t seed, uint64_t seq, uint64_t pos) {
  uint64_t q = pos / 4;
  uint32_t c[4] = {uint32_t(q), uint32_t(q >> 32), uint32_t(seq), uint32_t(seq >> 32)};
  uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    if (r)
      k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0], p1 = uint64_t(0xCD9E8D57u) * c[2];
    uint32_t n[4] = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1), uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
    std::memcpy(c, n, sizeof c);
  }
  return c[pos % 4];
}
} // namespace

TILEC_TEST(rng_philox) {
  const int B = 2, NT = 4, K = 6;
  // Random123's known answer: Philox4x32-10 of counter 0, key 0 is 6627e8d5 ...
  expectEqual("known answer", std::vector<double>{double(philox(0, 0, 0))}, std::vector<double>{double(0x6627E8D5u)});
  const int64_t seed = 0x1234567890LL;
  auto a = zeros<uint32_t>(B * NT * K), d = zeros<uint32_t>(B * NT);
  expectStatus(draws(a.data(), d.data(), seed), TILEC_SUCCESS);
  std::vector<double> ra(B * NT * K), rd(B * NT);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < NT; ++t) {
      for (int k = 0; k < K; ++k)
        ra[(b * NT + t) * K + k] = philox(seed, t, 3 + k);
      rd[b * NT + t] = philox(7, b * NT + t, 0);
    }
  expectEqual("A", a, ra);
  expectEqual("D", d, rd);
}
