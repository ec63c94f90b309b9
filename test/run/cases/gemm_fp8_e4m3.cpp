// TILE: ../kernels/gemm_general.tile -D in_dtype=T.float8_e4m3 -D trans_B=True
// float8_e4m3 operands (decoded in software), fp32 accumulation and output.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_fp8_e4m3) {
  const int M = 40, N = 96, K = 80;
  std::vector<uint8_t> a(size_t(M) * K), b(size_t(N) * K);
  for (auto &v : a)
    v = f32ToE4M3(float(uniform(-4, 4)));
  for (auto &v : b)
    v = f32ToE4M3(float(uniform(-4, 4)));
  auto c = zeros<float>(size_t(M) * N);
  expectStatus(gemm_general(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto ref = matmulRef(M, N, K, [&](int i, int k) { return e4m3ToF32(a[size_t(i) * K + k]); },
                       [&](int k, int j) { return e4m3ToF32(b[size_t(j) * K + k]); });
  expectClose("C", c, ref, 1e-5, 1e-4);
}
