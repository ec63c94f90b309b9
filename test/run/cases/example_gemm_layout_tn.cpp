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
  expectGemm16(a, b, c, M, N, K, /*transA=*/true, /*transB=*/false, kBF16, 1e-2, 1e-2);
}
