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
  auto ref = matmulRef(
      M, N, K, [&](int i, int k) { return f16ToF32(a[size_t(k) * M + i]); },
      [&](int k, int j) { return f16ToF32(b[size_t(j) * K + k]); });
  std::vector<float> want(ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    want[i] = roundF16(float(ref[i]));
  expectClose("C", decodeAll(c, kF16), want, 2e-3, 1e-3);
}
