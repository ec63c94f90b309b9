/* TILE
# T.im2col gathers a convolution's input patches into a (block_M, block_K) tile:
# row m of the GEMM is output pixel (n, oh, ow), column k is (kh, kw, c) of the
# NHWC image, 0 where the patch reaches the padding. Three uses: stride 2 / pad
# 1 into shared memory, dilation 2 into a slice of a 3-D fragment, and a conv
# with T.gemm over the gathered tiles (a runtime batch size N).
import tilelang.language as T

H, W, C, KH = 7, 7, 4, 3
N = T.dynamic("N")
OH = (H + 2 * 1 - (KH - 1) - 1) // 2 + 1
KDIM = KH * KH * C  # 36
BM, BK = 16, 16

@T.prim_func
def im2col_kernel(Img: T.Tensor((N, H, W, C), T.float32), Col: T.Tensor((64, 48), T.float32),
                  Dil: T.Tensor((64, 48), T.float32), Wt: T.Tensor((KDIM, 8), T.float32),
                  Out: T.Tensor((64, 8), T.float32)):
    with T.Kernel(4, 3, threads=64) as (bm, bk):
        tile = T.alloc_shared((BM, BK), T.float32)
        T.im2col(Img, tile, bm, bk, KH, 2, 1, 1)
        T.copy(tile, Col[bm * BM, bk * BK])
        frag = T.alloc_fragment((2, BM, BK), T.float32)
        T.clear(frag)
        T.im2col(Img, frag[1, :, :], bm, bk, KH, 1, 2, 0)
        T.copy(frag[1, :, :], Dil[bm * BM, bk * BK])
    with T.Kernel(4, threads=128) as bm:
        a = T.alloc_shared((BM, BK), T.float32)
        b = T.alloc_shared((BK, 8), T.float32)
        acc = T.alloc_fragment((BM, 8), T.float32)
        T.clear(acc)
        for k in T.Pipelined(T.ceildiv(KDIM, BK), num_stages=2):
            T.c2d_im2col(Img, a, bm, k, KH, 2, 1, 1)
            T.copy(Wt[k * BK, 0], b)
            T.gemm(a, b, acc)
        T.copy(acc, Out[bm * BM, 0])
*/
// Col and Dil follow tile-lang's im2col index formula for every (m, k) of the
// tiles, including rows past the last pixel (0) and columns past KDIM (whatever
// in-bounds element the formula names); Out is the convolution itself.
#include "harness.h"
#include "kernel.h"

namespace {
const int H = 7, W = 7, C = 4, KH = 3, KDIM = KH * KH * C;

double patch(const std::vector<float> &img, int n, int m, int k, int stride, int dil, int pad) {
  int oh = (H + 2 * pad - (KH - 1) * dil - 1) / stride + 1, ow = (W + 2 * pad - (KH - 1) * dil - 1) / stride + 1;
  int b = m / (oh * ow), ih = (m % (oh * ow)) / ow * stride + k / (KH * C) * dil - pad;
  int iw = m % ow * stride + (k / C) % KH * dil - pad, c = k % C;
  if (b >= n || ih < 0 || ih >= H || iw < 0 || iw >= W)
    return 0;
  return img[((size_t(b) * H + ih) * W + iw) * C + c];
}
} // namespace

TILEC_TEST(im2col) {
  const int n = 3; // 3 * 16 pixels of stride 2: rows 48..63 are past the last one
  auto img = randomF32(size_t(n) * H * W * C), wt = randomF32(size_t(KDIM) * 8);
  auto col = zeros<float>(64 * 48), dil = zeros<float>(64 * 48), out = zeros<float>(64 * 8);
  expectStatus(im2col_kernel(img.data(), col.data(), dil.data(), wt.data(), out.data(), n), TILEC_SUCCESS);
  std::vector<double> rc(64 * 48), rd(64 * 48), ro(64 * 8, 0.0);
  for (int m = 0; m < 64; ++m)
    for (int k = 0; k < 48; ++k) {
      rc[m * 48 + k] = patch(img, n, m, k, 2, 1, 1);
      rd[m * 48 + k] = patch(img, n, m, k, 1, 2, 0);
    }
  for (int m = 0; m < 64; ++m)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < KDIM; ++k)
        ro[m * 8 + j] += patch(img, n, m, k, 2, 1, 1) * wt[k * 8 + j];
  expectEqual("Col", col, rc);
  expectEqual("Dil", dil, rd);
  expectClose("Out", out, ro, 1e-5, 1e-5);
}
