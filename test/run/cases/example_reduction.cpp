// TILE: ../../../examples/reduction/row_sum.tile -D N=3000
// Row sums with reduce_sum(clear=False) accumulating over a serial loop;
// N = 3000 is not a multiple of block_N = 1024, M = 37 not of block_M = 8.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_reduction) {
  const int M = 37, N = 3000;
  auto x = randomF32(size_t(M) * N);
  auto out = zeros<float>(M);
  expectStatus(row_sum(x.data(), out.data(), M), TILEC_SUCCESS);
  std::vector<double> ref(M, 0.0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      ref[i] += x[size_t(i) * N + j];
  expectClose("Out", out, ref, 1e-4, 1e-4);
}
