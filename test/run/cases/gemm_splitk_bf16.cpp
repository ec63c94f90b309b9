// TILE: ../../../examples/gemm/gemm_splitk.tile -D 'M=T.dynamic("M")' -D N=200 -D K=512 -D split_k=4 -D dtype=T.bfloat16 -D block_M=128 -D block_N=256 -D threads=256
// Split-K in the tile program (issue #6): grid (ceil(N / block_N), ceil(M / block_M), split_k),
// each block's K slice accumulated in fp32 and added into bf16 C with T.atomic_add. M and N are
// ragged against the tiles; C starts at 0.5 (not zero) to show the kernel adds into it.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_splitk_bf16) {
  const int M = 130, N = 200, K = 512;
  auto a = randomBF16(size_t(M) * K), b = randomBF16(size_t(K) * N);
  std::vector<uint16_t> c(size_t(M) * N, f32ToBF16(0.5f));
  expectStatus(gemm_splitk(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto ref = matmulRef(M, N, K, [&](int i, int k) { return bf16ToF32(a[size_t(i) * K + k]); },
                       [&](int k, int j) { return bf16ToF32(b[size_t(k) * N + j]); });
  for (double &r : ref)
    r += 0.5;
  // Each of the 4 slices' sums (|x| < 8 here) is rounded to bf16 (half an ulp: <= 2^-6) and each
  // add into C rounds again (<= 2^-6 while |C| < 8): 8 roundings of at most 2^-6 = 0.125.
  expectClose("C", decodeAll(c, kBF16), ref, 1e-2, 0.125);
}
