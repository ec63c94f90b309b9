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
  expectGemm16(a, b, c, M, N, K, /*transA=*/false, /*transB=*/true, kF16, 2e-3, 1e-3);
}
