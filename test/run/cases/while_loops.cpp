/* TILE
# Kernel-level `while` (SIMT, spec §6): a block-uniform loop with a T.Parallel inside that
# runs bx + 1 trips, and a per-thread loop whose trip count is each thread's own (the
# ceiling square root of its thread index).
import tilelang.language as T

@T.prim_func
def while_loops(A: T.Tensor((4, 64), T.float32), B: T.Tensor((4, 64), T.float32),
                N: T.Tensor((128,), T.int32)):
    with T.Kernel(4, threads=128) as bx:
        s = T.alloc_shared((64,), T.float32)
        k = T.alloc_var(T.int32)
        k = 0
        T.clear(s)
        while k < bx + 1:
            for i in T.Parallel(64):
                s[i] = s[i] + A[bx, i]
            k = k + 1
        T.copy(s, B[bx, 0])
        tx = T.get_thread_binding()
        n = T.alloc_var(T.int32)
        n = 0
        while n * n < tx:
            n = n + 1
        if bx == 0:
            N[tx] = n
*/
// B[b] = (b + 1) * A[b]; N[t] = ceil(sqrt(t)).
#include "harness.h"
#include "kernel.h"

#include <cmath>

TILEC_TEST(while_loops) {
  auto a = randomF32(4 * 64);
  std::vector<float> b(4 * 64, 42.0f), ref(4 * 64);
  std::vector<int32_t> n(128, -1), nref(128);
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 64; ++i) {
      float acc = 0.0f;
      for (int k = 0; k <= r; ++k)
        acc += a[r * 64 + i];
      ref[r * 64 + i] = acc;
    }
  for (int t = 0; t < 128; ++t) {
    int v = 0;
    while (v * v < t)
      ++v;
    nref[t] = v;
  }
  expectStatus(while_loops(a.data(), b.data(), n.data()), TILEC_SUCCESS);
  expectEqual("B", b, ref);
  expectEqual("N", n, nref);
}
