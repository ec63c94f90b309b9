// Shared by the atomic_add cases: runs kernels/atomic_add.tile on M rows and
// checks every output against a serial reference. Include after kernel.h.
#pragma once
#include "harness.h"

/// fp16 sums may differ from the serial order by rounding when blocks race
/// (`-j N`), hence the caller's fp16 tolerances.
inline void checkAtomicAdd(int M, double tol16, double tol16Abs) {
  const int N = 48, bM = 16, blocks = (M + bM - 1) / bM;
  auto x = randomF32(size_t(M) * N);
  auto out = randomF32(N);
  auto out16 = randomF16(N);
  std::vector<int32_t> count{7, 0};
  std::vector<double> total{0.5};
  auto out0 = out;
  auto out16f = decodeAll(out16, kF16);
  expectStatus(atomic_add(x.data(), out.data(), out16.data(), count.data(), total.data(), M), TILEC_SUCCESS);
  std::vector<double> ref(N);
  std::vector<float> ref16(N);
  double all = 0.5;
  for (int j = 0; j < N; ++j) {
    ref[j] = out0[j];
    float h = out16f[j];
    for (int b = 0; b < blocks; ++b) {
      float col = 0;
      for (int i = b * bM; i < std::min(M, (b + 1) * bM); ++i)
        col += x[size_t(i) * N + j];
      ref[j] += col;
      h = roundF16(h + roundF16(col));
      all += col;
    }
    ref16[j] = h;
  }
  expectClose("Out (fp32 region)", out, ref, 1e-5, 1e-5);
  expectClose("Out16 (fp16 region)", decodeAll(out16, kF16), ref16, tol16, tol16Abs);
  // Every one of a block's 64 threads adds 1.
  expectEqual("Count (int32 element)", count, std::vector<int32_t>{7 + 64 * blocks, 0});
  expectClose("Total (fp64 element)", total, std::vector<double>{all}, 1e-9, 1e-9);
}
