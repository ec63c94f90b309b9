// TILE: ../kernels/gemm_general.tile -D in_dtype=T.int8 -D accum_dtype=T.int32 -D out_dtype=T.int32 -D trans_B=True
// int8 x int8 -> int32 GEMM (B as N x K), exact.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_int8) {
  const int M = 45, N = 96, K = 80;
  auto a = randomInt<int8_t>(size_t(M) * K, -128, 127), b = randomInt<int8_t>(size_t(N) * K, -128, 127);
  auto c = zeros<int32_t>(size_t(M) * N);
  expectStatus(gemm_general(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto ref = matmulRef(M, N, K, [&](int i, int k) { return a[size_t(i) * K + k]; },
                       [&](int k, int j) { return b[size_t(j) * K + k]; });
  expectEqual("C", c, ref);
}
