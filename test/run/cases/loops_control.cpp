/* TILE
# Every loop form and scalar control construct: T.serial, range with a step,
# T.unroll, T.Pipelined, nested T.Parallel, if/elif/else, x if c else y,
# T.if_then_else, alloc_var, alloc_local, floor // and %, min/max, and the
# thread index (each thread's loc[3]; the T.Parallel storing S reads thread 0's).
import tilelang.language as T

N = 64
bN = 16

@T.prim_func
def loops_control(X: T.Tensor((N,), T.int32), Y: T.Tensor((N,), T.int32), S: T.Tensor((N // bN, 4), T.int64)):
    with T.Kernel(N // bN, threads=32) as bx:
        x = T.alloc_fragment((bN,), T.int32)
        loc = T.alloc_local((4,), T.int64)
        acc = T.alloc_var(T.int64)
        T.copy(X[bx * bN], x)
        for i in T.Parallel(bN):
            v = x[i]
            if v % 3 == 0:
                x[i] = v // 3
            elif v < -50:
                x[i] = T.max(v, -60) * 2
            else:
                x[i] = T.if_then_else(v > 40, T.min(v, 45), -v if v < 0 else v + 1000)
        T.copy(x, Y[bx * bN])
        acc = 0
        for k in T.serial(bN):
            acc = acc + T.cast(X[bx * bN + k], T.int64)
        loc[0] = acc
        acc = 0
        for k in range(1, bN, 3):
            acc = acc + T.cast(X[bx * bN + k], T.int64) * k
        loc[1] = acc
        for u in T.unroll(2):
            loc[2 + u] = T.cast((X[bx * bN + u] - 7) % 5 + (X[bx * bN + u] - 7) // 5 * 100, T.int64)
        for p in T.Pipelined(1, 3, num_stages=2):
            loc[3] = loc[3] + p + T.get_thread_binding(0)
        for j in T.Parallel(4):
            S[bx, j] = loc[j]
*/
// Loops and control flow on int32/int64; floor division and modulo of
// negative numbers follow Python.
#include "harness.h"
#include "kernel.h"

static int64_t floordiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
static int64_t floormod(int64_t a, int64_t b) { return a - floordiv(a, b) * b; }

TILEC_TEST(loops_control) {
  const int N = 64, bN = 16;
  auto x = randomInt<int32_t>(N, -100, 100);
  auto y = zeros<int32_t>(N);
  auto s = zeros<int64_t>(size_t(N / bN) * 4);
  expectStatus(loops_control(x.data(), y.data(), s.data()), TILEC_SUCCESS);
  std::vector<int64_t> ry(N), rs(size_t(N / bN) * 4);
  for (int i = 0; i < N; ++i) {
    int64_t v = x[i];
    if (floormod(v, 3) == 0)
      ry[i] = floordiv(v, 3);
    else if (v < -50)
      ry[i] = std::max<int64_t>(v, -60) * 2;
    else
      ry[i] = v > 40 ? std::min<int64_t>(v, 45) : (v < 0 ? -v : v + 1000);
  }
  for (int b = 0; b < N / bN; ++b) {
    int64_t sum = 0, weighted = 0;
    for (int k = 0; k < bN; ++k)
      sum += x[b * bN + k];
    for (int k = 1; k < bN; k += 3)
      weighted += int64_t(x[b * bN + k]) * k;
    rs[b * 4 + 0] = sum;
    rs[b * 4 + 1] = weighted;
    rs[b * 4 + 2] = floormod(x[b * bN] - 7, 5) + floordiv(x[b * bN] - 7, 5) * 100;
    rs[b * 4 + 3] = floormod(x[b * bN + 1] - 7, 5) + floordiv(x[b * bN + 1] - 7, 5) * 100 + 1 + 2;
  }
  expectEqual("Y", y, ry);
  expectEqual("S", s, rs);
}
