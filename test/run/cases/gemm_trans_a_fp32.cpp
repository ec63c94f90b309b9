// TILE: ../kernels/gemm_general.tile -D trans_A=True
// fp32 GEMM with A stored K x M (transpose_A); M = 70 ragged against 32.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_trans_a_fp32) {
  const int M = 70, N = 96, K = 80;
  auto a = randomF32(size_t(K) * M), b = randomF32(size_t(K) * N);
  auto c = zeros<float>(size_t(M) * N);
  expectStatus(gemm_general(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto ref = matmulRef(M, N, K, [&](int i, int k) { return a[size_t(k) * M + i]; },
                       [&](int k, int j) { return b[size_t(k) * N + j]; });
  expectClose("C", c, ref, 1e-5, 1e-5);
}
