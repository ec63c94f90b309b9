// TILE: ../../../examples/gemm/gemm.tile -D dtype=T.float32 -D N=256 -D K=96
// The same GEMM with -D overrides making it fp32 throughout.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_gemm_fp32) {
  const int M = 130, N = 256, K = 96;
  auto a = randomF32(size_t(M) * K), b = randomF32(size_t(K) * N);
  auto c = zeros<float>(size_t(M) * N);
  expectStatus(gemm(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  std::vector<float> ref(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += a[size_t(i) * K + k] * b[size_t(k) * N + j];
      ref[size_t(i) * N + j] = acc;
    }
  expectClose("C", c, ref, 1e-5, 1e-5);
}
