/* TILE
# User layouts (T.annotate_layout) on the host: a T.Layout on a global tensor
# stores its elements in the layout's order, as tile-lang does (scatter writes
# X in FlashAttention's dQ order, gather reads it back through the same
# layout; S = 24 leaves the second block ragged); a T.Fragment changes
# nothing the program computes (frag_scale). frag_scale is also the sm_90a
# check of the honoured fragment layout for the GPU kit.
import tilelang.language as T

B, S, D = 2, 24, 16


def make_x_layout(X):
    # as tile-lang's FlashAttention backward stores dQ: 8x8 blocks in mma order
    return T.Layout(X.shape, lambda b, s, d: [b, s // 8, d // 8, d % 2, 4 * (s % 8) + (d % 8) // 2])


@T.prim_func
def scatter(Src: T.Tensor((B, S, D), T.float32), X: T.Tensor((B, S, D), T.float32)):
    with T.Kernel(T.ceildiv(S, 16), B, threads=128) as (bx, bz):
        T.annotate_layout({X: make_x_layout(X)})
        tile = T.alloc_fragment((16, D), T.float32)
        T.copy(Src[bz, bx * 16:(bx + 1) * 16, :], tile)
        for i, j in T.Parallel(16, D):
            X[bz, bx * 16 + i, j] = tile[i, j] * 2


@T.prim_func
def gather(X: T.Tensor((B, S, D), T.float32), Y: T.Tensor((B, S, D), T.float16)):
    with T.Kernel(T.ceildiv(S, 16), B, threads=128) as (bx, bz):
        T.annotate_layout({X: make_x_layout(X)})
        T.copy(X[bz, bx * 16:(bx + 1) * 16, :], Y[bz, bx * 16:(bx + 1) * 16, :])


@T.prim_func
def frag_scale(Src: T.Tensor((64, 64), T.float32), Dst: T.Tensor((64, 64), T.float32)):
    with T.Kernel(1, threads=128) as bx:
        F = T.alloc_fragment((64, 64), T.float32)
        T.annotate_layout({F: T.Fragment(F.shape, forward_thread_fn=lambda i, j: (i % 32) * 4 + j // 16,
                                         forward_index_fn=lambda i, j: (i // 32) * 16 + j % 16)})
        T.copy(Src, F)
        for i, j in T.Parallel(64, 64):
            F[i, j] = F[i, j] * 3 + T.cast(i, T.float32)
        T.copy(F, Dst)
*/
#include "harness.h"
#include "kernel.h"

TILEC_TEST(layout_global) {
  const int B = 2, S = 24, D = 16;
  auto src = randomF32(size_t(B) * S * D);
  std::vector<float> x(src.size(), -7.0f);
  std::vector<uint16_t> y(src.size(), 0xFFFF);
  expectStatus(scatter(src.data(), x.data()), TILEC_SUCCESS);
  expectStatus(gather(x.data(), y.data()), TILEC_SUCCESS);
  // X holds 2 * Src in tile-lang's order: element (b, s, d) at the row-major
  // offset of [b, s // 8, d // 8, d % 2, 4 * (s % 8) + (d % 8) // 2] in the
  // output shape [B, S / 8, D / 8, 2, 32].
  std::vector<float> wantX(x.size()), wantY(y.size());
  for (int b = 0; b < B; ++b)
    for (int s = 0; s < S; ++s)
      for (int d = 0; d < D; ++d) {
        size_t off = (((size_t(b) * (S / 8) + s / 8) * (D / 8) + d / 8) * 2 + d % 2) * 32 + 4 * (s % 8) + (d % 8) / 2;
        size_t e = (size_t(b) * S + s) * D + d;
        wantX[off] = 2 * src[e];
        wantY[e] = roundF16(2 * src[e]);
      }
  expectEqual("X", x, wantX);
  expectClose("Y", decodeAll(y, kF16), wantY, 0, 0);

  auto fsrc = randomF32(64 * 64);
  std::vector<float> dst(fsrc.size(), -1.0f), want(fsrc.size());
  expectStatus(frag_scale(fsrc.data(), dst.data()), TILEC_SUCCESS);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      want[i * 64 + j] = fsrc[i * 64 + j] * 3 + float(i);
  expectEqual("Dst", dst, want);
}
