/* TILE
# DeepGEMM-style promotion as tile-lang writes it: each k tile's gemm starts
# from a cleared fragment (clear_accum=True) and T.Parallel adds it into the
# total. Ragged M (dynamic), N (96 over 64-column blocks) and K (80 over
# 32-deep tiles: the last tile is half zero padding).
import tilelang.language as T

M = T.dynamic("M")
N, K = 96, 80
block_M, block_N, block_K = 32, 64, 32


@T.prim_func
def gemm_promoted(A: T.Tensor((M, K), T.float8_e4m3), B: T.Tensor((N, K), T.float8_e4m3),
                  C: T.Tensor((M, N), T.float32)):
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_s = T.alloc_shared((block_M, block_K), T.float8_e4m3)
        B_s = T.alloc_shared((block_N, block_K), T.float8_e4m3)
        C_local = T.alloc_fragment((block_M, block_N), T.float32)
        C_acc = T.alloc_fragment((block_M, block_N), T.float32)
        T.clear(C_acc)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
            T.copy(A[by * block_M, k * block_K], A_s)
            T.copy(B[bx * block_N, k * block_K], B_s)
            T.gemm(A_s, B_s, C_local, transpose_B=True, clear_accum=True)
            for i, j in T.Parallel(block_M, block_N):
                C_acc[i, j] += C_local[i, j]
        T.copy(C_acc, C[by * block_M, bx * block_N])
*/
// The host target's semantics of the promoted fp8 GEMM form (the sm_90a
// Hopper path lowers the same source to wgmma + register adds): the result
// is the plain product. Were clear_accum ignored, the k tiles would be
// counted 3, 2 and 1 times, far outside the tolerance.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemm_promoted_accum) {
  const int M = 45, N = 96, K = 80;
  std::vector<uint8_t> a(size_t(M) * K), b(size_t(N) * K);
  for (auto &v : a)
    v = f32ToE4M3(float(uniform(-4, 4)));
  for (auto &v : b)
    v = f32ToE4M3(float(uniform(-4, 4)));
  std::vector<float> c(size_t(M) * N, NAN);
  expectStatus(gemm_promoted(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  auto ref = matmulRef(M, N, K, [&](int i, int k) { return e4m3ToF32(a[size_t(i) * K + k]); },
                       [&](int k, int j) { return e4m3ToF32(b[size_t(j) * K + k]); });
  expectClose("C", c, ref, 1e-5, 1e-4);
}
