// TILE: ../kernels/gemm_general.tile -j 4 -D block_M=16 -D block_N=32
// `-j 4`: blocks run on four CPU threads (many small blocks); the result
// equals the serial one (no cross-block reductions here).
#include "harness.h"
#include "kernel.h"

TILEC_TEST(threads) {
  const int M = 203, N = 96, K = 80;
  auto a = randomF32(size_t(M) * K), b = randomF32(size_t(K) * N);
  for (int rep = 0; rep < 3; ++rep) {
    auto c = zeros<float>(size_t(M) * N);
    expectStatus(gemm_general(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
    auto ref = matmulRef(M, N, K, [&](int i, int k) { return a[size_t(i) * K + k]; },
                         [&](int k, int j) { return b[size_t(k) * N + j]; });
    expectClose("C", c, ref, 1e-5, 1e-5);
  }
}
