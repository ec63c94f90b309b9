// TILE: ../../../bench/hopper/gemm_fp8_splitk.tile -D 'M=T.dynamic("M")' -D N=200 -D K=512 -D split_k=4 -D block_M=128 -D block_N=256 -D threads=256
// fp8 split-K (issue #6): float8_e4m3 A (M x K) and B (N x K, transpose_B), grid (ceil(N / block_N),
// ceil(M / block_M), split_k), each block's K slice accumulated in fp32 and added into bf16 C with
// T.atomic_add. M and N are ragged against the tiles; C starts at 0.5 (not zero) to show the
// kernel adds into it.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_splitk_fp8_e4m3) {
  const int M = 130, N = 200, K = 512, split = 4, slice = K / split;
  std::vector<uint8_t> a(size_t(M) * K), b(size_t(N) * K);
  for (auto &v : a)
    v = f32ToE4M3(float(uniform(-2, 2)));
  for (auto &v : b)
    v = f32ToE4M3(float(uniform(-2, 2)));
  std::vector<uint16_t> c(size_t(M) * N, f32ToBF16(0.5f));
  expectStatus(gemm_fp8_splitk(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  // Bound per element: each slice's fp32 sum of exact products (128 adds: at most 128 * 2^-24 of
  // their absolute sum) is rounded to bf16 and each add into C rounds again, at most 2^-8 of the
  // value rounded, which is at most 0.5 + the slices' absolute sums in any order of the adds:
  // 2 * split roundings.
  std::vector<double> err(size_t(M) * N), zero(size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0.5, mag = 0.5, products = 0;
      for (int z = 0; z < split; ++z) {
        double s = 0;
        for (int k = z * slice; k < (z + 1) * slice; ++k) {
          double p = double(e4m3ToF32(a[size_t(i) * K + k])) * e4m3ToF32(b[size_t(j) * K + k]);
          s += p;
          products += std::fabs(p);
        }
        ref += s;
        mag += std::fabs(s);
      }
      double bound = 2 * split * std::ldexp(mag, -8) + std::ldexp(slice * products, -24);
      err[size_t(i) * N + j] = (bf16ToF32(c[size_t(i) * N + j]) - ref) / bound;
    }
  expectClose("(C - reference) / rounding bound", err, zero, 0, 1.0);
}
