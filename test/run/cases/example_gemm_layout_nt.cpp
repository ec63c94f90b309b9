// TILE: ../../../examples/gemm/gemm_layouts.tile -D block_K=32 -D M=200 -D N=320 -D K=200
// The layouts GEMM: fp16, B stored N x K (transpose_B), block_K = 32; M, N and K
// ragged against the 128x128x32 tiles.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_gemm_layout_nt) {
  const int M = 200, N = 320, K = 200;
  auto a = randomF16(size_t(M) * K), b = randomF16(size_t(N) * K);
  std::vector<uint16_t> c(size_t(M) * N, 0xFFFF);
  expectStatus(gemm(a.data(), b.data(), c.data()), TILEC_SUCCESS);
  auto ref = matmulRef(
      M, N, K, [&](int i, int k) { return f16ToF32(a[size_t(i) * K + k]); },
      [&](int k, int j) { return f16ToF32(b[size_t(j) * K + k]); });
  std::vector<float> want(ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    want[i] = roundF16(float(ref[i]));
  expectClose("C", decodeAll(c, kF16), want, 2e-3, 1e-3);
}
