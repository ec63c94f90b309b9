/* TILE
# A view of a fragment (T.reshape): a gemm accumulates into S [32, 16], the
# view R = S as [32, 4, 4] is rescaled element-wise and row-summed over its
# last dimension, and the gemm's own buffer S is written out after the view
# changed it (both name the same elements).
import tilelang.language as T

@T.prim_func
def views_fragment(A: T.Tensor((64, 32), T.float16), B: T.Tensor((16, 32), T.float16),
                   W: T.Tensor((4, 4), T.float32), L: T.Tensor((64, 4), T.float32),
                   S_out: T.Tensor((64, 16), T.float32)):
    with T.Kernel(2, threads=128) as bx:
        a = T.alloc_shared((32, 32), T.float16)
        b = T.alloc_shared((16, 32), T.float16)
        w = T.alloc_fragment((4, 4), T.float32)
        S = T.alloc_fragment((32, 16), T.float32)
        R = T.reshape(S, (32, 4, 4))
        l = T.alloc_fragment((32, 4), T.float32)
        T.copy(A[bx * 32, 0], a)
        T.copy(B, b)
        T.copy(W, w)
        T.gemm(a, b, S, transpose_B=True, clear_accum=True)
        for i, j, k in T.Parallel(32, 4, 4):
            R[i, j, k] = T.max(R[i, j, k], 0) * w[j, k]
        T.reduce_sum(R, l, dim=-1)
        T.copy(l, L[bx * 32, 0])
        T.copy(S, S_out[bx * 32, 0])
*/
// S = relu(A B^T) * W (W broadcast over the 16 columns as [4, 4]); L = row sums of S in groups of 4.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(views_fragment) {
  auto a = randomF16(64 * 32), b = randomF16(16 * 32);
  auto w = randomF32(16);
  std::vector<float> l(64 * 4, 42.0f), s(64 * 16, 42.0f), lref(64 * 4, 0.0f), sref(64 * 16);
  std::vector<double> ab = matmulRef(
      64, 16, 32, [&](int i, int k) { return f16ToF32(a[i * 32 + k]); },
      [&](int k, int j) { return f16ToF32(b[j * 32 + k]); });
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 16; ++j) {
      sref[i * 16 + j] = float(std::max(ab[i * 16 + j], 0.0) * w[j]);
      lref[i * 4 + j / 4] += sref[i * 16 + j];
    }
  expectStatus(views_fragment(a.data(), b.data(), w.data(), l.data(), s.data()), TILEC_SUCCESS);
  expectClose("S", s, sref, 1e-4, 1e-5);
  expectClose("L", l, lref, 1e-4, 1e-5);
}
