// TILE: ../../../examples/gemm/gemm_splitk.tile -D 'M=T.dynamic("M")' -D N=200 -D K=256 -D split_k=2 -D dtype=T.float16
// Split-K in the tile program (issue #6): grid (ceil(N / block_N), ceil(M / block_M), split_k),
// each block's K slice accumulated in fp32 and added into fp16 C with T.atomic_add. M and N are
// ragged against the tiles; C starts at 0.5 (not zero) to show the kernel adds into it.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_splitk_fp16) {
  const int M = 77, N = 200, K = 256;
  auto a = randomF16(size_t(M) * K), b = randomF16(size_t(K) * N);
  std::vector<uint16_t> c(size_t(M) * N, f32ToF16(0.5f));
  expectStatus(gemm_splitk(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto ref = matmulRef(M, N, K, [&](int i, int k) { return f16ToF32(a[size_t(i) * K + k]); },
                       [&](int k, int j) { return f16ToF32(b[size_t(k) * N + j]); });
  for (double &r : ref)
    r += 0.5;
  expectClose("C", decodeAll(c, kF16), ref, 4e-3, 4e-3);
}
