// TILE: ../kernels/gemm_general.tile -D trans_A=True -D trans_B=True -D in_dtype=T.float64 -D accum_dtype=T.float64 -D out_dtype=T.float64 -D N=100 -D K=50
// fp64 GEMM with both operands transposed; N and K ragged too.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_trans_ab_fp64) {
  const int M = 33, N = 100, K = 50;
  auto a = randomF64(size_t(K) * M), b = randomF64(size_t(N) * K);
  auto c = zeros<double>(size_t(M) * N);
  expectStatus(gemm_general(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto ref = matmulRef(M, N, K, [&](int i, int k) { return a[size_t(k) * M + i]; },
                       [&](int k, int j) { return b[size_t(j) * K + k]; });
  expectClose("C", c, ref, 1e-12, 1e-12);
}
