/* TILE
# Every reduce kind along both dimensions, with clear=True and clear=False
# (combining with the destination's old contents).
import tilelang.language as T

M, N = 24, 40
bM = 8

@T.prim_func
def reduce_kinds(X: T.Tensor((M, N), T.float32), Init: T.Tensor((M,), T.float32), R: T.Tensor((10, M), T.float32),
                 C: T.Tensor((2, N), T.float32), I: T.Tensor((M, N), T.int32), RI: T.Tensor((3, M), T.int32)):
    with T.Kernel(T.ceildiv(M, bM), threads=64) as bx:
        x = T.alloc_fragment((bM, N), T.float32)
        r = T.alloc_fragment((bM,), T.float32)
        col = T.alloc_shared((N,), T.float32)
        xi = T.alloc_fragment((bM, N), T.int32)
        ri = T.alloc_fragment((bM,), T.int32)
        T.copy(X[bx * bM, 0], x)
        T.copy(I[bx * bM, 0], xi)
        T.reduce_max(x, r, dim=1)
        T.copy(r, R[0, bx * bM])
        T.reduce_min(x, r, dim=1)
        T.copy(r, R[1, bx * bM])
        T.reduce_sum(x, r, dim=1)
        T.copy(r, R[2, bx * bM])
        T.reduce_abssum(x, r, dim=-1)
        T.copy(r, R[3, bx * bM])
        T.reduce_absmax(x, r, dim=1)
        T.copy(r, R[4, bx * bM])
        T.copy(Init[bx * bM], r)
        T.reduce_max(x, r, dim=1, clear=False)
        T.copy(r, R[5, bx * bM])
        T.copy(Init[bx * bM], r)
        T.reduce_sum(x, r, dim=1, clear=False)
        T.copy(r, R[6, bx * bM])
        T.copy(Init[bx * bM], r)
        T.reduce_min(x, r, dim=1, clear=False)
        T.copy(r, R[7, bx * bM])
        T.copy(Init[bx * bM], r)
        T.reduce_abssum(x, r, dim=1, clear=False)
        T.copy(r, R[8, bx * bM])
        T.copy(Init[bx * bM], r)
        T.reduce_absmax(x, r, dim=1, clear=False)
        T.copy(r, R[9, bx * bM])
        if bx == 0:
            T.reduce_sum(x, col, dim=0)
            T.copy(col, C[0, 0])
            T.reduce_max(x, col, dim=0)
            T.copy(col, C[1, 0])
        T.reduce_max(xi, ri, dim=1)
        T.copy(ri, RI[0, bx * bM])
        T.reduce_sum(xi, ri, dim=1)
        T.copy(ri, RI[1, bx * bM])
        T.reduce_absmax(xi, ri, dim=1)
        T.copy(ri, RI[2, bx * bM])
*/
// reduce_{max,min,sum,abssum,absmax}, dim=1 / -1 / 0, clear=False, fp32 and int32.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(reduce_kinds) {
  const int M = 24, N = 40, bM = 8;
  auto x = randomF32(size_t(M) * N, -5, 5), init = randomF32(M, -3, 3);
  auto xi = randomInt<int32_t>(size_t(M) * N, -1000, 1000);
  auto r = zeros<float>(size_t(10) * M), c = zeros<float>(size_t(2) * N);
  auto ri = zeros<int32_t>(size_t(3) * M);
  expectStatus(reduce_kinds(x.data(), init.data(), r.data(), c.data(), xi.data(), ri.data()), TILEC_SUCCESS);
  std::vector<double> rr(size_t(10) * M), rc(size_t(2) * N, 0.0), rri(size_t(3) * M);
  for (int i = 0; i < M; ++i) {
    double mx = -INFINITY, mn = INFINITY, sum = 0, asum = 0, amax = 0;
    int64_t imx = INT64_MIN, isum = 0, iamax = 0;
    for (int j = 0; j < N; ++j) {
      double v = x[size_t(i) * N + j];
      mx = std::fmax(mx, v), mn = std::fmin(mn, v), sum += v, asum += std::fabs(v), amax = std::fmax(amax, std::fabs(v));
      int64_t w = xi[size_t(i) * N + j];
      imx = std::max(imx, w), isum += w, iamax = std::max<int64_t>(iamax, w < 0 ? -w : w);
    }
    double in = init[i];
    double row[10] = {mx, mn, sum, asum, amax, std::fmax(in, mx), in + sum, std::fmin(in, mn), in + asum,
                      std::fmax(in, amax)};
    for (int k = 0; k < 10; ++k)
      rr[size_t(k) * M + i] = row[k];
    rri[i] = double(imx), rri[M + i] = double(isum), rri[2 * M + i] = double(iamax);
  }
  for (int j = 0; j < N; ++j) {
    double mx = -INFINITY;
    for (int i = 0; i < bM; ++i)
      rc[j] += x[size_t(i) * N + j], mx = std::fmax(mx, x[size_t(i) * N + j]);
    rc[N + j] = mx;
  }
  expectClose("float reductions", r, rr, 1e-5, 1e-5);
  expectClose("dim=0 reductions", c, rc, 1e-5, 1e-5);
  expectEqual("int32 reductions", ri, rri);
}
