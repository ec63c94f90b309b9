// TILE: ../../../examples/elementwise/scale_bias_gelu.tile -D N=300
// y = gelu_tanh(x * scale + bias) in fp16 with fp32 math; N = 300 is not a
// multiple of block_N = 256, M = 70 not a multiple of block_M = 64.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_elementwise) {
  const int M = 70, N = 300;
  auto x = randomF16(size_t(M) * N, -3, 3), bias = randomF16(N);
  auto y = zeros<uint16_t>(size_t(M) * N);
  const float scale = 1.25f;
  expectStatus(scale_bias_gelu(x.data(), bias.data(), y.data(), M, scale), TILEC_SUCCESS);
  std::vector<float> ref(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float v = f16ToF32(x[size_t(i) * N + j]) * scale + f16ToF32(bias[j]);
      float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
      ref[size_t(i) * N + j] = roundF16(0.5f * v * (1.0f + std::tanh(inner)));
    }
  expectClose("Y", decodeAll(y, kF16), ref, 2e-3, 1e-3);
}
