// TILE: ../../../examples/gemm/gemm_layouts.tile -D trans_A=True -D trans_B=False -D dtype=T.bfloat16
// TILEC-FLAGS: -D M=200 -D N=320 -D K=200
// The layouts GEMM in bf16 with A stored K x M (transpose_A) and B K x N; M, N and K ragged.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_gemm_layout_tn) {
  const int M = 200, N = 320, K = 200;
  auto a = randomBF16(size_t(K) * M), b = randomBF16(size_t(K) * N);
  std::vector<uint16_t> c(size_t(M) * N, 0xFFFF);
  expectStatus(gemm(a.data(), b.data(), c.data()), TILEC_SUCCESS);
  auto ref = matmulRef(
      M, N, K, [&](int i, int k) { return bf16ToF32(a[size_t(k) * M + i]); },
      [&](int k, int j) { return bf16ToF32(b[size_t(k) * N + j]); });
  std::vector<float> want(ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    want[i] = roundBF16(float(ref[i]));
  expectClose("C", decodeAll(c, kBF16), want, 1e-2, 1e-2);
}
