// TILE: ../../../examples/layernorm/layernorm.tile -D N=512
// LayerNorm in fp16 with fp32 statistics (reduce_sum twice, rsqrt); M = 5
// rows against block_M = 2.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_layernorm) {
  const int M = 5, N = 512;
  auto x = randomF16(size_t(M) * N, -2, 2), gamma = randomF16(N, 0.5, 1.5), beta = randomF16(N);
  auto y = zeros<uint16_t>(size_t(M) * N);
  expectStatus(layernorm(x.data(), gamma.data(), beta.data(), y.data(), M), TILEC_SUCCESS);
  std::vector<float> ref(size_t(M) * N);
  for (int i = 0; i < M; ++i) {
    double mean = 0, var = 0;
    for (int j = 0; j < N; ++j)
      mean += f16ToF32(x[size_t(i) * N + j]);
    mean /= N;
    for (int j = 0; j < N; ++j) {
      double d = f16ToF32(x[size_t(i) * N + j]) - mean;
      var += d * d;
    }
    double inv = 1.0 / std::sqrt(var / N + 1e-5);
    for (int j = 0; j < N; ++j)
      ref[size_t(i) * N + j] =
          roundF16(float((f16ToF32(x[size_t(i) * N + j]) - mean) * inv * f16ToF32(gamma[j]) + f16ToF32(beta[j])));
  }
  expectClose("Y", decodeAll(y, kF16), ref, 5e-3, 5e-3);
}
