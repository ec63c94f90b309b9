// tile-lang's GEMM epilogue through a shared tile (C_local -> C_shared -> C) with B stored
// N x K and block_K = 32: the form that takes wgmma on sm_90a (the GPU kit's suite runs it
// there against this host build); M, N and K ragged.
// TILE: ../../Target/CUDA/hopper-shared-epilogue.tile
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_shared_epilogue_wgmma) {
  const int M = 1000, N = 200, K = 136;
  auto a = randomF16(size_t(M) * K), b = randomF16(size_t(N) * K);
  std::vector<uint16_t> c(size_t(M) * N, 0xFFFF);
  expectStatus(gemm(a.data(), b.data(), c.data()), TILEC_SUCCESS);
  expectGemm16(a, b, c, M, N, K, /*transA=*/false, /*transB=*/true, kF16, 2e-3, 1e-3);
}
