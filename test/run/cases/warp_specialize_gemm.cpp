/* TILE
# A hand-written warp-specialized GEMM in tile-lang's style (T.ws regions, a
# ring of mbarriers, T.tma_copy, T.wgmma_gemm, register hints): warp group 1
# produces the tiles, warp group 0 multiplies, and warp group 1's threads
# record their ids. tilec runs the regions in program order (docs/cuda.md):
# the result must be the plain GEMM's, and only group 1's threads write Seen.
# The same kernel is the sm_90a check of the GPU kit (compile with
# -target=sm_90a).
import tilelang.language as T

M, N, K = 256, 128, 192
block_M, block_N, block_K = 128, 128, 64


@T.prim_func
def ws_gemm(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16), C: T.Tensor((M, N), T.float16),
            Seen: T.Tensor((128,), T.int32)):
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
        A_s = T.alloc_shared((block_M, block_K), T.float16)
        B_s = T.alloc_shared((block_K, block_N), T.float16)
        C_f = T.alloc_fragment((block_M, block_N), T.float32)
        bars = T.alloc_barrier([128, 128, 128, 128])
        T.disable_warp_group_reg_alloc()
        with T.ws(0):
            T.clear(C_f)
        for ko in range(T.ceildiv(K, block_K)):
            with T.ws(1):
                T.dec_max_nreg(40)
                T.barrier_wait(bars[ko % 2 + 2], ((ko // 2) % 2) ^ 1)
                T.tma_copy(A[by * block_M:(by + 1) * block_M, ko * block_K:(ko + 1) * block_K], A_s,
                           barrier=bars[ko % 2])
                T.tma_copy(B[ko * block_K, bx * block_N], B_s, barrier=bars[ko % 2])
                T.barrier_arrive(bars[ko % 2])
            with T.ws(0):
                T.set_max_nreg(232, 1)
                T.mbarrier_wait_parity(mbarrier=bars[ko % 2], parity=(ko // 2) % 2)
                T.wgmma_gemm(A_s, B_s, C_f)
                T.wait_wgmma(0)
                T.mbarrier_arrive(mbarrier=bars[ko % 2 + 2])
        with T.ws(1):
            tx = T.get_thread_binding()
            if bx == 0 and by == 0:
                Seen[tx - 128] = tx
        with T.ws(0):
            T.copy(C_f, C[by * block_M, bx * block_N])
*/
#include "harness.h"
#include "kernel.h"

TILEC_TEST(warp_specialize_gemm) {
  const int M = 256, N = 128, K = 192;
  auto a = randomF16(size_t(M) * K), b = randomF16(size_t(K) * N);
  std::vector<uint16_t> c(size_t(M) * N, 0xFFFF);
  std::vector<int32_t> seen(128, -1);
  expectStatus(ws_gemm(a.data(), b.data(), c.data(), seen.data()), TILEC_SUCCESS);
  std::vector<double> ref = matmulRef(
      M, N, K, [&](int i, int k) { return f16ToF32(a[size_t(i) * K + k]); },
      [&](int k, int j) { return f16ToF32(b[size_t(k) * N + j]); });
  std::vector<float> refC(ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    refC[i] = roundF16(float(ref[i]));
  expectClose("C", decodeAll(c, kF16), refC, 2e-3, 1e-3);
  std::vector<int32_t> want(128);
  for (int t = 0; t < 128; ++t)
    want[t] = 128 + t;
  expectEqual("Seen", seen, want);
}
