// TILE: ../kernels/reducer.tile
// T.alloc_reducer / T.finalize_reducer: sums (a fill counted once), maxima,
// minima, a gemv accumulated across a pipelined loop, a one-element total.
#include "harness.h"
#include "kernel.h"

#include <algorithm>

TILEC_TEST(reducer) {
  const int M = 45, N = 192;
  auto a = randomF32(size_t(M) * 64);
  std::vector<float> s(M, -7), mx(M, -7), mn(M, -7), sRef(M), mxRef(M), mnRef(M);
  for (int i = 0; i < M; ++i) {
    double acc = 1.0;
    float hi = -INFINITY, lo = INFINITY;
    for (int j = 0; j < 64; ++j) {
      float v = a[size_t(i) * 64 + j];
      acc += v, hi = std::max(hi, v), lo = std::min(lo, v);
    }
    sRef[i] = float(acc), mxRef[i] = hi, mnRef[i] = lo;
  }
  expectStatus(row_stats(a.data(), s.data(), mx.data(), mn.data(), M), TILEC_SUCCESS);
  expectClose("row sums", s, sRef, 1e-5, 1e-6);
  expectEqual("row maxima", mx, mxRef);
  expectEqual("row minima", mn, mnRef);

  auto A = randomF16(size_t(M) * N), x = randomF16(N);
  std::vector<float> y(M, -7), yRef(M);
  for (int i = 0; i < M; ++i) {
    double acc = 0;
    for (int j = 0; j < N; ++j)
      acc += double(f16ToF32(A[size_t(i) * N + j])) * f16ToF32(x[j]);
    yRef[i] = float(acc);
  }
  expectStatus(gemv_reducer(A.data(), x.data(), y.data(), M), TILEC_SUCCESS);
  expectClose("gemv y", y, yRef, 1e-5, 1e-5);

  auto t = randomF32(256);
  std::vector<float> b(1, -7), bRef(1, 0);
  double acc = 0;
  for (float v : t)
    acc += v;
  bRef[0] = float(acc);
  expectStatus(total(t.data(), b.data()), TILEC_SUCCESS);
  expectClose("total", b, bRef, 1e-5, 1e-6);
}
