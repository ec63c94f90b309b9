// TILE: ../kernels/gemm_general.tile -D in_dtype=T.float8_e5m2 -D out_dtype=T.float16
// float8_e5m2 operands, fp32 accumulation, fp16 output.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_fp8_e5m2) {
  const int M = 64, N = 96, K = 80;
  std::vector<uint8_t> a(size_t(M) * K), b(size_t(K) * N);
  for (auto &v : a)
    v = f32ToE5M2(float(uniform(-2, 2)));
  for (auto &v : b)
    v = f32ToE5M2(float(uniform(-2, 2)));
  auto c = zeros<uint16_t>(size_t(M) * N);
  expectStatus(gemm_general(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto sums = matmulRef(M, N, K, [&](int i, int k) { return e5m2ToF32(a[size_t(i) * K + k]); },
                        [&](int k, int j) { return e5m2ToF32(b[size_t(k) * N + j]); });
  std::vector<float> ref(sums.size());
  for (size_t i = 0; i < sums.size(); ++i)
    ref[i] = roundF16(float(sums[i]));
  expectClose("C", decodeAll(c, kF16), ref, 1e-3, 1e-3);
}
