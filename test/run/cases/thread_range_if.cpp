/* TILE
# Tile operations under a condition on the thread index (tile-lang runs them
# on the threads of the range): the then branch (threads [0, 32)) takes row
# maxima, the else branch (threads [32, 96)) a weighted sum of rows through
# shared memory and a per-thread store of each of its thread ids.
import tilelang.language as T

N = 4
R = 4
H = 64


@T.prim_func
def thread_range_if(X: T.Tensor((N, R, H), T.float32), W: T.Tensor((N, R), T.float32),
                    Mx: T.Tensor((N, R), T.float32), S: T.Tensor((N, H), T.float32),
                    Ids: T.Tensor((N, 64), T.int32)):
    with T.Kernel(N, threads=96) as i:
        tx = T.get_thread_binding()
        if tx < 32:
            x = T.alloc_fragment((R, H), T.float32)
            m = T.alloc_fragment((R,), T.float32)
            T.copy(X[i, 0, 0], x)
            T.reduce_max(x, m, dim=1)
            T.copy(m, Mx[i, 0])
        else:
            w = T.alloc_shared((R,), T.float32)
            for j in T.Parallel(R):
                w[j] = W[i, j] + 1.0
            xl = T.alloc_fragment((R, H), T.float32)
            T.copy(X[i, 0, 0], xl)
            acc = T.alloc_fragment((H,), T.float32)
            T.clear(acc)
            for r in T.serial(R):
                p = w[r]
                for h in T.Parallel(H):
                    acc[h] += p * xl[r, h]
            T.copy(acc, S[i, 0])
            Ids[i, tx - 32] = tx
*/
#include "harness.h"
#include "kernel.h"

#include <algorithm>

TILEC_TEST(thread_range_if) {
  const int N = 4, R = 4, H = 64;
  auto x = harness::randomF32(N * R * H);
  auto w = harness::randomF32(N * R);
  auto mx = harness::zeros<float>(N * R), s = harness::zeros<float>(N * H);
  auto ids = harness::zeros<int32_t>(N * 64);
  harness::expectStatus(thread_range_if(x.data(), w.data(), mx.data(), s.data(), ids.data()), TILEC_SUCCESS);
  std::vector<double> rmx(N * R), rs(N * H, 0.0);
  std::vector<int32_t> rids(N * 64);
  for (int n = 0; n < N; ++n) {
    for (int r = 0; r < R; ++r) {
      const float *row = &x[(n * R + r) * H];
      rmx[n * R + r] = *std::max_element(row, row + H);
      for (int h = 0; h < H; ++h)
        rs[n * H + h] += double(w[n * R + r] + 1.0f) * row[h];
    }
    for (int t = 0; t < 64; ++t)
      rids[n * 64 + t] = t + 32;
  }
  harness::expectClose("Mx", mx, rmx, 0);
  harness::expectClose("S", s, rs, 1e-5, 1e-6);
  harness::expectClose("Ids", ids, rids, 0);
}
