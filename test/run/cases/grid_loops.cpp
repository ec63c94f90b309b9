/* TILE
# TIR's T.grid(m, n, ...): a nest of serial loops, outermost first, over a runtime and a
# constant extent, run by every thread (each takes its own rows), and a three-deep nest.
import tilelang.language as T

M = T.dynamic("M")
N = 6

@T.prim_func
def grid(A: T.Tensor((M, N), T.float32), B: T.Tensor((M, N), T.float32), C: T.Tensor((4,), T.int32)):
    with T.Kernel(1, threads=4) as bx:
        tx = T.get_thread_binding()
        for i, j in T.grid(T.ceildiv(M, 4), N):
            r = i * 4 + tx
            if r < M:
                B[r, j] = A[r, j] * 2 + j
        acc = T.alloc_var(T.int32, init=0)
        for a, b, c in T.grid(2, 3, 4):
            acc = acc + (a * 100 + b * 10 + c) * (tx + 1)
        C[tx] = acc
*/
// B[r, j] = 2 A[r, j] + j; C[t] = (t + 1) * sum over the 2x3x4 nest of 100a + 10b + c.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(grid_loops) {
  const int N = 6;
  for (int M : {1, 7, 13}) {
    auto a = randomF32(size_t(M) * N), b = zeros<float>(size_t(M) * N);
    auto c = zeros<int32_t>(4);
    expectStatus(grid(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
    std::vector<double> rb(size_t(M) * N), rc(4);
    for (int r = 0; r < M; ++r)
      for (int j = 0; j < N; ++j)
        rb[r * N + j] = double(a[r * N + j] * 2 + float(j));
    int sum = 0;
    for (int x = 0; x < 2; ++x)
      for (int y = 0; y < 3; ++y)
        for (int z = 0; z < 4; ++z)
          sum += x * 100 + y * 10 + z;
    for (int t = 0; t < 4; ++t)
      rc[t] = double(sum * (t + 1));
    expectClose("B", b, rb, 1e-6);
    expectEqual("C", c, rc);
  }
}
