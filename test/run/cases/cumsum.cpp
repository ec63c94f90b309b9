/* TILE
# Inclusive prefix sums: along dim 1 forwards, along dim 0 in reverse, and in
# place on a 1-D shared buffer (dst omitted), in fp32 and int32.
import tilelang.language as T

M, N = 16, 50
bM = 8

@T.prim_func
def cumsum(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32), Z: T.Tensor((M, N), T.float32),
           V: T.Tensor((M,), T.int32), W: T.Tensor((M,), T.int32)):
    with T.Kernel(T.ceildiv(M, bM), threads=32) as bx:
        x = T.alloc_fragment((bM, N), T.float32)
        y = T.alloc_fragment((bM, N), T.float32)
        v = T.alloc_shared((bM,), T.int32)
        T.copy(X[bx * bM, 0], x)
        T.cumsum(x, y, dim=1)
        T.copy(y, Y[bx * bM, 0])
        T.cumsum(x, y, dim=0, reverse=True)
        T.copy(y, Z[bx * bM, 0])
        T.copy(V[bx * bM], v)
        T.cumsum(v)
        T.copy(v, W[bx * bM])
*/
// cumsum forwards / reverse / in place; dimensions 0 and 1.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(cumsum) {
  const int M = 16, N = 50, bM = 8;
  auto x = randomF32(size_t(M) * N);
  auto v = randomInt<int32_t>(M, -100, 100);
  auto y = zeros<float>(size_t(M) * N), z = zeros<float>(size_t(M) * N);
  auto w = zeros<int32_t>(M);
  expectStatus(cumsum(x.data(), y.data(), z.data(), v.data(), w.data()), TILEC_SUCCESS);
  std::vector<double> ry(size_t(M) * N), rz(size_t(M) * N), rw(M);
  for (int i = 0; i < M; ++i) {
    double acc = 0;
    for (int j = 0; j < N; ++j)
      ry[size_t(i) * N + j] = acc += x[size_t(i) * N + j];
  }
  for (int b = 0; b < M / bM; ++b)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int i = bM - 1; i >= 0; --i)
        rz[size_t(b * bM + i) * N + j] = acc += x[size_t(b * bM + i) * N + j];
    }
  for (int b = 0; b < M / bM; ++b) {
    int64_t acc = 0;
    for (int i = 0; i < bM; ++i)
      rw[b * bM + i] = double(acc += v[b * bM + i]);
  }
  expectClose("cumsum dim=1", y, ry, 1e-5, 1e-5);
  expectClose("cumsum dim=0 reverse", z, rz, 1e-5, 1e-5);
  expectEqual("cumsum in place (int32)", w, rw);
}
