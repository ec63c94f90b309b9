// TILE: ../../../examples/softmax/softmax.tile -D N=200
// Row softmax in fp16 with fp32 math (reduce_max, exp2, reduce_sum); M = 10
// rows against block_M = 4.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_softmax) {
  const int M = 10, N = 200;
  auto x = randomF16(size_t(M) * N, -4, 4);
  auto y = zeros<uint16_t>(size_t(M) * N);
  expectStatus(softmax(x.data(), y.data(), M), TILEC_SUCCESS);
  std::vector<float> ref(size_t(M) * N);
  for (int i = 0; i < M; ++i) {
    float mx = -INFINITY, sum = 0;
    for (int j = 0; j < N; ++j)
      mx = std::fmax(mx, f16ToF32(x[size_t(i) * N + j]));
    for (int j = 0; j < N; ++j)
      sum += std::exp2((f16ToF32(x[size_t(i) * N + j]) - mx) * 1.4426950408889634f);
    for (int j = 0; j < N; ++j)
      ref[size_t(i) * N + j] = roundF16(std::exp2((f16ToF32(x[size_t(i) * N + j]) - mx) * 1.4426950408889634f) / sum);
  }
  expectClose("Y", decodeAll(y, kF16), ref, 2e-3, 1e-4);
}
