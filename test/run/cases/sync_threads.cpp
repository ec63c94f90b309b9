/* TILE
# T.sync_threads between per-thread stretches that exchange values through
# shared memory (each thread reads what another wrote), with its named-barrier
# form T.sync_threads(id, count) and T.sync_warp(); tilec places these barriers
# itself, so the explicit ones are checked and change nothing.
import tilelang.language as T

B, NT = 3, 64

@T.prim_func
def exchange(X: T.Tensor((B, NT), T.float32), Y: T.Tensor((B, NT), T.float32), Z: T.Tensor((B, NT), T.float32)):
    with T.Kernel(B, threads=NT) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((NT,), T.float32)
        t = T.alloc_shared((NT,), T.float32)
        s[tx] = X[bx, tx] * 2
        T.sync_threads()
        t[tx] = s[NT - 1 - tx] + s[(tx + 1) % NT]
        T.sync_threads(1, NT)
        Y[bx, tx] = t[(tx + 5) % NT]
        T.sync_warp()
        for i in T.Parallel(NT):
            s[i] = t[i] * 0.5
        T.sync_threads()
        Z[bx, tx] = s[NT - 1 - tx]
*/
// t[i] = 2 x[63 - i] + 2 x[(i + 1) % 64]; Y[i] = t[(i + 5) % 64]; Z[i] = t[63 - i] / 2.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(sync_threads) {
  const int B = 3, NT = 64;
  auto x = randomF32(size_t(B) * NT), y = zeros<float>(size_t(B) * NT), z = zeros<float>(size_t(B) * NT);
  expectStatus(exchange(x.data(), y.data(), z.data()), TILEC_SUCCESS);
  std::vector<double> ry(size_t(B) * NT), rz(size_t(B) * NT);
  for (int b = 0; b < B; ++b) {
    std::vector<float> t(NT);
    for (int i = 0; i < NT; ++i)
      t[i] = x[b * NT + NT - 1 - i] * 2 + x[b * NT + (i + 1) % NT] * 2;
    for (int i = 0; i < NT; ++i) {
      ry[b * NT + i] = t[(i + 5) % NT];
      rz[b * NT + i] = t[NT - 1 - i] * 0.5f;
    }
  }
  expectEqual("Y", y, ry);
  expectEqual("Z", z, rz);
}
