/* TILE
# Reinterpreting views of global tensors: T.Tensor(shape, dtype, buf.data)
# inside the body, T.reshape and T.view; copies through a rank-2 view of a
# rank-4 input and of a rank-3 output, element stores through a rank-1 view.
import tilelang.language as T

@T.prim_func
def views(A: T.Tensor((2, 3, 4, 8), T.float32), B: T.Tensor((4, 6, 8), T.float32),
          C: T.Tensor((4, 4, 4), T.float32)):
    with T.Kernel(3, threads=32) as bx:
        A2 = T.Tensor((24, 8), T.float32, A.data)
        B2 = T.reshape(B, (24, 8))
        s = T.alloc_shared((8, 8), T.float32)
        T.copy(A2[bx * 8, 0], s)
        for i, j in T.Parallel(8, 8):
            s[i, j] = s[i, j] * 3.0
        T.copy(s, B2[bx * 8:(bx + 1) * 8, :])
        if bx == 0:
            C1 = T.view(C, shape=[64])
            for k in T.serial(2):
                C1[k * 32 + T.get_thread_binding()] = T.cast(k * 32 + T.get_thread_binding(), T.float32)
*/
// B is A times 3 in A's row-major order; C[i] = i.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(views) {
  auto a = randomF32(2 * 3 * 4 * 8);
  std::vector<float> b(4 * 6 * 8, 42.0f), ref(a.size()), c(64, -1.0f), cref(64);
  for (size_t i = 0; i < a.size(); ++i)
    ref[i] = a[i] * 3.0f;
  for (int i = 0; i < 64; ++i)
    cref[i] = float(i);
  expectStatus(views(a.data(), b.data(), c.data()), TILEC_SUCCESS);
  expectEqual("B", b, ref);
  expectEqual("C", c, cref);
}
