// TILE: ../../../examples/gemm/gemm_bf16.tile -D M=200 -D N=192 -D K=136
// The factory-form bf16 GEMM with B stored transposed (N x K); ragged M and K.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_gemm_bf16) {
  const int M = 200, N = 192, K = 136;
  auto a = randomBF16(size_t(M) * K), b = randomBF16(size_t(N) * K);
  auto c = zeros<uint16_t>(size_t(M) * N);
  expectStatus(gemm_bf16(a.data(), b.data(), c.data()), TILEC_SUCCESS);
  std::vector<float> ref(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += bf16ToF32(a[size_t(i) * K + k]) * bf16ToF32(b[size_t(j) * K + k]);
      ref[size_t(i) * N + j] = roundBF16(acc);
    }
  expectClose("C", decodeAll(c, kBF16), ref, 1e-2, 1e-2);
}
