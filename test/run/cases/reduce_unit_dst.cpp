/* TILE
# Full 1-D reductions into (1,) destinations, tile-lang's usual form: every kind,
# dim=0 and dim=-1, clear=False, fragment and shared, float32 and int32, and the
# result read back as s[0] inside a T.Parallel.
import tilelang.language as T

M, N = 6, 100

@T.prim_func
def reduce_unit(X: T.Tensor((M, N), T.float32), Init: T.Tensor((M,), T.float32), R: T.Tensor((M, 6), T.float32),
                Y: T.Tensor((M, N), T.float32), XI: T.Tensor((M, N), T.int32), RI: T.Tensor((M, 2), T.int32)):
    with T.Kernel(M, threads=64) as bx:
        x = T.alloc_fragment((N,), T.float32)
        s = T.alloc_fragment((1,), T.float32)
        xs = T.alloc_shared((N,), T.float32)
        ss = T.alloc_shared((1,), T.float32)
        xi = T.alloc_fragment((N,), T.int32)
        si = T.alloc_fragment((1,), T.int32)
        T.copy(X[bx, 0], x)
        T.copy(X[bx, 0], xs)
        T.copy(XI[bx, 0], xi)
        T.reduce_max(x, s)
        T.copy(s, R[bx, 0])
        T.copy(Init[bx], s)
        T.reduce_min(x, s, dim=0, clear=False)
        T.copy(s, R[bx, 1])
        T.reduce_abssum(xs, ss, dim=0)
        T.copy(ss, R[bx, 2])
        T.copy(Init[bx], ss)
        T.reduce_absmax(xs, ss, dim=-1, clear=False)
        T.copy(ss, R[bx, 3])
        T.reduce_sum(x, s, dim=0)
        T.copy(s, R[bx, 4])
        for i in T.Parallel(N):
            x[i] = x[i] / s[0]
        T.copy(x, Y[bx, 0])
        T.reduce_sum(x, s, dim=0)
        T.copy(s, R[bx, 5])
        T.reduce_sum(xi, si, dim=0)
        T.copy(si, RI[bx, 0])
        T.fill(si, 7)
        T.reduce_max(xi, si, dim=0, clear=False)
        T.copy(si, RI[bx, 1])
*/
// Each (1,) destination holds the reduction of its row; Y is the row divided by
// its sum (read from the (1,) fragment in T.Parallel).
#include "harness.h"
#include "kernel.h"

TILEC_TEST(reduce_unit_dst) {
  const int M = 6, N = 100;
  auto x = randomF32(size_t(M) * N, 0.25, 2), init = randomF32(M, -3, 3);
  for (int b = 0; b < M; ++b) // negative elements for min/abs
    x[size_t(b) * N + b] = -float(b + 1);
  auto xi = randomInt<int32_t>(size_t(M) * N, -1000, 1000);
  auto r = zeros<float>(size_t(M) * 6), y = zeros<float>(size_t(M) * N);
  auto ri = zeros<int32_t>(size_t(M) * 2);
  expectStatus(reduce_unit(x.data(), init.data(), r.data(), y.data(), xi.data(), ri.data()), TILEC_SUCCESS);
  std::vector<double> rr(size_t(M) * 6), ry(size_t(M) * N), rri(size_t(M) * 2);
  for (int b = 0; b < M; ++b) {
    double mx = -INFINITY, mn = INFINITY, sum = 0, asum = 0, amax = 0, norm = 0;
    int64_t isum = 0, imax = 7;
    for (int j = 0; j < N; ++j) {
      double v = x[size_t(b) * N + j];
      mx = std::fmax(mx, v), mn = std::fmin(mn, v), sum += v, asum += std::fabs(v), amax = std::fmax(amax, std::fabs(v));
      int64_t w = xi[size_t(b) * N + j];
      isum += w, imax = std::max(imax, w);
    }
    for (int j = 0; j < N; ++j) {
      ry[size_t(b) * N + j] = double(float(x[size_t(b) * N + j] / float(sum)));
      norm += ry[size_t(b) * N + j];
    }
    double row[6] = {mx, std::fmin(init[b], mn), asum, std::fmax(init[b], amax), sum, norm};
    for (int k = 0; k < 6; ++k)
      rr[size_t(b) * 6 + k] = row[k];
    rri[size_t(b) * 2] = double(isum), rri[size_t(b) * 2 + 1] = double(imax);
  }
  expectClose("float reductions", r, rr, 1e-5, 1e-5);
  expectClose("Y", y, ry, 1e-5, 1e-5);
  expectEqual("int32 reductions", ri, rri);
}
