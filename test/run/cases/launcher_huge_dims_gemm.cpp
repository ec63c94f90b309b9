// TILE: ../../../examples/gemm/gemm.tile -D N=256 -D K=128
// As launcher_huge_dims, for the GEMM: A is (M, 128) and C (M, 256) float16,
// so C's 512 bytes a row allow 2^39 rows; past that (and at 2^40, 2^52,
// 2^62, INT64_MAX, where M * 256 * 2 wraps int64) the launcher returns
// TILEC_ERROR_BAD_DIMENSION and touches nothing.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(launcher_huge_dims_gemm) {
  const int64_t M = 3, N = 256, K = 128;
  auto a = randomF16(size_t(M) * K, -1, 1), b = randomF16(size_t(K) * N, -1, 1);
  auto c = zeros<uint16_t>(size_t(M) * N);
  const int64_t bad[] = {(int64_t(1) << 39) + 1, int64_t(1) << 40, int64_t(1) << 52, int64_t(1) << 62, INT64_MAX};
  for (int64_t m : bad)
    expectStatus(gemm(a.data(), b.data(), c.data(), m), TILEC_ERROR_BAD_DIMENSION, ("M = " + std::to_string(m)).c_str());
  expectEqual("C untouched", c, zeros<uint16_t>(size_t(M) * N));
  expectStatus(gemm(a.data(), b.data(), c.data(), M), TILEC_SUCCESS, "M = 3");
}
