/* TILE
# A shared buffer next to a pipelined gemm's staged tiles, written before the
# loop and read after it (a bias row). On sm_90+ the staged tiles come in by
# TMA, which needs them on 1 KB boundaries of the shared window: the whole
# window is aligned, so the bias row does not move under the last B stage.
# (Before 2026-11-30 only the staged tiles were shifted, by up to 1008 bytes,
# onto the bias row.)
import tilelang.language as T

M = T.dynamic("M")
N, K = 256, 320


@T.prim_func
def gemm_bias(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16), Bias: T.Tensor((N,), T.float16),
              C: T.Tensor((M, N), T.float16)):
    with T.Kernel(T.ceildiv(N, 128), T.ceildiv(M, 128), threads=128) as (bx, by):
        A_s = T.alloc_shared((128, 64), T.float16)
        B_s = T.alloc_shared((64, 128), T.float16)
        bias_s = T.alloc_shared((128,), T.float16)
        C_f = T.alloc_fragment((128, 128), T.float32)
        T.copy(Bias[bx * 128], bias_s)
        T.clear(C_f)
        for k in T.Pipelined(T.ceildiv(K, 64), num_stages=3):
            T.copy(A[by * 128, k * 64], A_s)
            T.copy(B[k * 64, bx * 128], B_s)
            T.gemm(A_s, B_s, C_f)
        for i, j in T.Parallel(128, 128):
            C_f[i, j] = C_f[i, j] + T.cast(bias_s[j], T.float32)
        T.copy(C_f, C[by * 128, bx * 128])
*/
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_bias_shared) {
  const int M = 200, N = 256, K = 320;
  auto a = randomF16(size_t(M) * K), b = randomF16(size_t(K) * N), bias = randomF16(N);
  std::vector<uint16_t> c(size_t(M) * N, 0xFFFF);
  expectStatus(gemm_bias(a.data(), b.data(), bias.data(), c.data(), M), TILEC_SUCCESS);
  std::vector<float> ref(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += f16ToF32(a[size_t(i) * K + k]) * f16ToF32(b[size_t(k) * N + j]);
      ref[size_t(i) * N + j] = roundF16(acc + f16ToF32(bias[j]));
    }
  expectClose("C", decodeAll(c, kF16), ref, 2e-3, 1e-3);
}
