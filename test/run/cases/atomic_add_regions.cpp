/* TILE
# Region T.atomic_adds that become element atomic adds: into a tensor with a
# T.Layout (each element lands where the layout places it; S = 24 leaves the
# second block ragged), and a 2-D value added into a region of a 4-D tensor
# with unit leading dimensions (tile-lang's dV[b, h, s0:s1, :] += dv_shared).
import tilelang.language as T

B, S, D = 2, 24, 16


def make_x_layout(X):
    return T.Layout(X.shape, lambda b, s, d: [b, s // 8, d // 8, d % 2, 4 * (s % 8) + (d % 8) // 2])


@T.prim_func
def accumulate(Src: T.Tensor((B, S, D), T.float32), X: T.Tensor((B, S, D), T.float32),
               Y: T.Tensor((B, 2, S, D), T.float32)):
    with T.Kernel(T.ceildiv(S, 16), B, threads=128) as (bx, bz):
        T.annotate_layout({X: make_x_layout(X)})
        tile = T.alloc_shared((16, D), T.float32)
        T.copy(Src[bz, bx * 16:(bx + 1) * 16, :], tile)
        for rep in T.serial(3):
            T.atomic_add(X[bz, bx * 16:(bx + 1) * 16, :], tile)
        T.atomic_add(Y[bz, 1, bx * 16:(bx + 1) * 16, :], tile)
*/
// X (zeroed) holds 3 Src in the layout's element order; Y[:, 1] holds Src, Y[:, 0] stays 0.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(atomic_add_regions) {
  const int B = 2, S = 24, D = 16;
  auto src = randomF32(size_t(B) * S * D);
  auto x = zeros<float>(size_t(B) * S * D), y = zeros<float>(size_t(B) * 2 * S * D);
  expectStatus(accumulate(src.data(), x.data(), y.data()), TILEC_SUCCESS);
  std::vector<double> rx(x.size(), 0.0), ry(y.size(), 0.0);
  for (int b = 0; b < B; ++b)
    for (int s = 0; s < S; ++s)
      for (int d = 0; d < D; ++d) {
        // physical index [b, s/8, d/8, d%2, 4(s%8) + (d%8)/2] of extents [B, S/8, D/8, 2, 32], row-major
        size_t off = ((((size_t(b) * (S / 8) + s / 8) * (D / 8) + d / 8) * 2 + d % 2) * 32) + 4 * (s % 8) + (d % 8) / 2;
        float v = src[(size_t(b) * S + s) * D + d];
        rx[off] = double(v + v + v);
        ry[((size_t(b) * 2 + 1) * S + s) * D + d] = v;
      }
  expectClose("X", x, rx, 1e-6, 1e-6);
  expectEqual("Y", y, ry);
}
