/* TILE
# T.gemm_sp: C += dense(A, E) @ B for a 2:4-sparse A given as its kept values
# (M, K / 2) and ordered 2-bit column indices packed four groups to an int16
# (E: (M, K / 16)); two K steps accumulate, B transposed in the second kernel.
import tilelang.language as T

M, N, K, BK = 32, 16, 64, 32

@T.prim_func
def spmm(A: T.Tensor((M, K // 2), T.float16), E: T.Tensor((M, K // 16), T.int16), B: T.Tensor((K, N), T.float16),
         BT: T.Tensor((N, K), T.float16), C: T.Tensor((M, N), T.float32), CT: T.Tensor((M, N), T.float32)):
    with T.Kernel(1, threads=128) as bx:
        a = T.alloc_shared((M, BK // 2), T.float16)
        e = T.alloc_shared((M, BK // 16), T.int16)
        b = T.alloc_shared((BK, N), T.float16)
        bt = T.alloc_shared((N, BK), T.float16)
        acc = T.alloc_fragment((M, N), T.float32)
        acc2 = T.alloc_fragment((M, N), T.float32)
        T.clear(acc)
        T.clear(acc2)
        for k in T.Pipelined(K // BK, num_stages=2):
            T.copy(A[0, k * BK // 2], a)
            T.copy(E[0, k * BK // 16], e)
            T.copy(B[k * BK, 0], b)
            T.copy(BT[0, k * BK], bt)
            T.gemm_sp(a, e, b, acc)
            T.gemm_sp(a, e, bt, acc2, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
        T.copy(acc, C)
        T.copy(acc2, CT)
*/
// Group g of four dense columns keeps A[:, 2g], A[:, 2g + 1] at the columns of
// the 2-bit fields at bits 4 (g % 4) and 4 (g % 4) + 2 of E[:, g / 4].
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_sp) {
  const int M = 32, N = 16, K = 64;
  auto a = randomF16(M * K / 2), b = randomF16(K * N);
  std::vector<uint16_t> bt(N * K);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n)
      bt[n * K + k] = b[k * N + n];
  std::vector<int16_t> e(M * K / 16, 0);
  std::vector<float> dense(M * K, 0);
  const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (int m = 0; m < M; ++m)
    for (int g = 0; g < K / 4; ++g) {
      const int *p = pairs[uniformInt(0, 5)];
      e[m * (K / 16) + g / 4] = int16_t(uint16_t(e[m * (K / 16) + g / 4]) | ((p[0] | p[1] << 2) << (4 * (g % 4))));
      dense[m * K + 4 * g + p[0]] = f16ToF32(a[m * K / 2 + 2 * g]);
      dense[m * K + 4 * g + p[1]] = f16ToF32(a[m * K / 2 + 2 * g + 1]);
    }
  auto c = zeros<float>(M * N), ct = zeros<float>(M * N);
  expectStatus(spmm(a.data(), e.data(), b.data(), bt.data(), c.data(), ct.data()), TILEC_SUCCESS);
  std::vector<double> rc(M * N, 0.0);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k)
        rc[m * N + n] += double(dense[m * K + k]) * f16ToF32(b[k * N + n]);
  expectClose("C", c, rc, 1e-4, 1e-4);
  expectClose("CT", ct, rc, 1e-4, 1e-4);
}
