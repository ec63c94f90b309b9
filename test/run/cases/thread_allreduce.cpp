/* TILE
# tile-lang's thread all-reduce (T.attr + T.comm_reducer + T.tvm_thread_allreduce):
# threads (4, 8); every thread holds a partial value; the sum over threadIdx.y
# (the 8 threads that share tx), and the max over both indices, reach every
# thread, which writes them out.
import tilelang.language as T

B, TX, TY = 3, 4, 8

@T.prim_func
def allreduce(X: T.Tensor((B, TY, TX), T.float32), S: T.Tensor((B, TY, TX), T.float32),
              M: T.Tensor((B, TY, TX), T.int32)):
    with T.Kernel(B, threads=(TX, TY)) as bx:
        tx = T.get_thread_binding(0)
        ty = T.get_thread_binding(1)
        part = T.alloc_local((1,), T.float32)
        out = T.alloc_local((2,), T.float32)
        mx = T.alloc_local((1,), T.int32)
        part[0] = X[bx, ty, tx] * 2
        with T.attr(T.comm_reducer(lambda x, y: x + y, [T.cast(0, T.float32)]), "reduce_scope",
                    T.reinterpret(T.uint64(0), dtype="handle")):
            T.evaluate(T.tvm_thread_allreduce(T.uint32(1), part[0], True, out[1], ty, dtype="handle"))
        S[bx, ty, tx] = out[1]
        with T.attr(T.comm_reducer(lambda x, y: T.max(x, y), [T.int32(-1000)]), "reduce_scope",
                    T.reinterpret(T.uint64(0), dtype="handle")):
            T.evaluate(T.tvm_thread_allreduce(T.uint32(1), T.cast(X[bx, ty, tx] * 100, T.int32), True, mx[0],
                                              tx, ty, dtype="handle"))
        M[bx, ty, tx] = mx[0]
*/
// S[b, y, x] = sum over y' of 2 X[b, y', x]; M[b, y, x] = max over the block of int(100 X).
#include "harness.h"
#include "kernel.h"

TILEC_TEST(thread_allreduce) {
  const int B = 3, TX = 4, TY = 8, n = B * TX * TY;
  auto x = randomF32(n), s = zeros<float>(n);
  auto m = zeros<int32_t>(n);
  expectStatus(allreduce(x.data(), s.data(), m.data()), TILEC_SUCCESS);
  std::vector<double> rs(n), rm(n);
  for (int b = 0; b < B; ++b) {
    int mx = -1000;
    for (int i = 0; i < TX * TY; ++i)
      mx = std::max(mx, int32_t(x[b * TX * TY + i] * 100));
    for (int y = 0; y < TY; ++y)
      for (int xi = 0; xi < TX; ++xi) {
        float sum = 0;
        for (int y2 = 0; y2 < TY; ++y2)
          sum += x[(b * TY + y2) * TX + xi] * 2;
        rs[(b * TY + y) * TX + xi] = sum;
        rm[(b * TY + y) * TX + xi] = mx;
      }
  }
  expectClose("S", s, rs, 1e-6, 1e-6);
  expectEqual("M", m, rm);
}
