// TILE: ../../../examples/gemm/gemm_layouts.tile -D trans_A=True -D trans_B=True -D block_M=256 -D threads=256
// TILEC-FLAGS: -D M=200 -D N=320 -D K=200
// The layouts GEMM in fp16 with A stored K x M and B N x K (both transposed), two warpgroups of
// 128 rows; M, N and K ragged.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(example_gemm_layout_tt) {
  const int M = 200, N = 320, K = 200;
  auto a = randomF16(size_t(K) * M), b = randomF16(size_t(N) * K);
  std::vector<uint16_t> c(size_t(M) * N, 0xFFFF);
  expectStatus(gemm(a.data(), b.data(), c.data()), TILEC_SUCCESS);
  expectGemm16(a, b, c, M, N, K, /*transA=*/true, /*transB=*/true, kF16, 2e-3, 1e-3);
}
