// TILE: ../../../examples/gemm/gemm.tile -D N=320 -D K=200
// The spec's GEMM in fp16 (fp32 accumulation); M, N and K all ragged against
// the 128x128x64 tiles.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_gemm_fp16) {
  const int M = 200, N = 320, K = 200;
  auto a = randomF16(size_t(M) * K), b = randomF16(size_t(K) * N);
  std::vector<uint16_t> c(size_t(M) * N, 0xFFFF);
  expectStatus(gemm(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  std::vector<float> ref(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += f16ToF32(a[size_t(i) * K + k]) * f16ToF32(b[size_t(k) * N + j]);
      ref[size_t(i) * N + j] = roundF16(acc);
    }
  expectClose("C", decodeAll(c, kF16), ref, 2e-3, 1e-3);
}
