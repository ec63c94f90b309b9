// TILE: ../kernels/gemm_general.tile -D in_dtype=T.uint8 -D accum_dtype=T.int32 -D out_dtype=T.int16 -D K=40
// uint8 GEMM (zero extension) into int32, stored as int16 (truncation).
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_uint8_int16) {
  const int M = 32, N = 96, K = 40;
  auto a = randomInt<uint8_t>(size_t(M) * K, 0, 255), b = randomInt<uint8_t>(size_t(K) * N, 0, 255);
  auto c = zeros<int16_t>(size_t(M) * N);
  expectStatus(gemm_general(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto sums = matmulRef(M, N, K, [&](int i, int k) { return a[size_t(i) * K + k]; },
                        [&](int k, int j) { return b[size_t(k) * N + j]; });
  std::vector<int64_t> ref(sums.size());
  for (size_t i = 0; i < sums.size(); ++i)
    ref[i] = int16_t(uint16_t(uint32_t(int64_t(sums[i]))));
  expectEqual("C", c, ref);
}
