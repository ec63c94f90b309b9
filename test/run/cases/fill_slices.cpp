/* TILE
# T.fill / T.clear, copies of slices (A[a:b, c:d]), element-start copies
# ("the region starting here"), shared -> shared and unit-dimension copies;
# layout and swizzle hints are accepted and change nothing on the host.
import tilelang.language as T

M, N = 20, 30

@T.prim_func
def fill_slices(A: T.Tensor((M, N), T.float32), Out: T.Tensor((M, N), T.float32), Row: T.Tensor((N,), T.float32),
                Col: T.Tensor((M,), T.float32)):
    with T.Kernel(1, threads=32) as bx:
        s = T.alloc_shared((8, 16), T.float32)
        t = T.alloc_shared((8, 16), T.float32)
        r = T.alloc_fragment((N,), T.float32)
        c = T.alloc_shared((M,), T.float32)
        T.use_swizzle(panel_size=4, order="col")
        T.annotate_layout({s: T.make_swizzled_layout(s), t: T.make_swizzled_layout(t)})
        T.fill(s, 1.5)
        T.copy(s, Out[0, 0])
        T.copy(A[2:10, 4:20], s)
        T.copy(s, t)
        T.copy(t, Out[10:18, 10:26])
        T.clear(t)
        T.copy(t[0:2, 0:16], Out[18, 0])
        T.copy(A[5, 0:N], r)
        T.copy(r, Row)
        T.copy(A[0:M, 7], c)
        T.copy(c, Col)
*/
// Regions: slices, starts, unit dimensions dropped ([1, 30] vs [30]).
#include "harness.h"
#include "kernel.h"

TILEC_TEST(fill_slices) {
  const int M = 20, N = 30;
  auto a = randomF32(size_t(M) * N);
  std::vector<float> out(size_t(M) * N, -7.0f), row(N), col(M);
  expectStatus(fill_slices(a.data(), out.data(), row.data(), col.data()), TILEC_SUCCESS);
  std::vector<float> ref(size_t(M) * N, -7.0f), rrow(N), rcol(M);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j) {
      ref[size_t(i) * N + j] = 1.5f;
      ref[size_t(10 + i) * N + 10 + j] = a[size_t(2 + i) * N + 4 + j];
    }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 16; ++j)
      ref[size_t(18 + i) * N + j] = 0.0f;
  for (int j = 0; j < N; ++j)
    rrow[j] = a[size_t(5) * N + j];
  for (int i = 0; i < M; ++i)
    rcol[i] = a[size_t(i) * N + 7];
  expectEqual("Out", out, ref);
  expectEqual("Row", row, rrow);
  expectEqual("Col", col, rcol);
}
