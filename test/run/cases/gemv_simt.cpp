/* TILE
# Per-thread GEMV kernels written as tile-lang's examples write them: plain
# statements indexed by T.get_thread_binding run on every thread (spec §6).
# naive: thread tn computes output row tn; coop: the threads load A's slice
# into shared memory together (one element each) and every thread then reads
# all of it, so the host must finish the loads of every thread first (the
# GPU's barrier); splitk: a (8, 4) block, the 4 threads of a row add their
# partial sums into shared memory atomically, and a tile copy writes the
# block's 8 results. N and K are ragged against the blocks.
import tilelang.language as T

N = T.dynamic("N")
K = 200


@T.prim_func
def naive_gemv(A: T.Tensor((K,), T.float16), B: T.Tensor((N, K), T.float16), C: T.Tensor((N,), T.float16)):
    with T.Kernel(T.ceildiv(N, 32), threads=32) as bn:
        tn = T.get_thread_binding(0)
        A_shared = T.alloc_shared((16,), T.float16)
        B_shared = T.alloc_shared((32, 16), T.float16)
        C_reg = T.alloc_local((1,), T.float32)
        T.clear(C_reg)
        for bk in T.serial(T.ceildiv(K, 16)):
            for tk in T.serial(16):
                A_shared[tk] = A[bk * 16 + tk]
                B_shared[tn, tk] = B[bn * 32 + tn, bk * 16 + tk]
            for tk in T.serial(16):
                C_reg[0] += A_shared[tk].astype(T.float32) * B_shared[tn, tk].astype(T.float32)
        C[bn * 32 + tn] = C_reg[0]


@T.prim_func
def coop_gemv(A: T.Tensor((K,), T.float16), B: T.Tensor((N, K), T.float16), C: T.Tensor((N,), T.float32)):
    with T.Kernel(T.ceildiv(N, 32), threads=32) as bn:
        tn = T.get_thread_binding()
        row = bn * 32 + tn
        A_shared = T.alloc_shared((32,), T.float32)
        acc = T.alloc_var(T.float32)
        acc = 0.0
        for bk in T.serial(T.ceildiv(K, 32)):
            A_shared[tn] = A[bk * 32 + tn]
            for tk in T.serial(32):
                acc += A_shared[tk] * B[row, bk * 32 + tk].astype(T.float32)
        if row < N:
            C[row] = acc


@T.prim_func
def splitk_gemv(A: T.Tensor((K,), T.float16), B: T.Tensor((N, K), T.float16), C: T.Tensor((N,), T.float32)):
    with T.Kernel(T.ceildiv(N, 8), threads=(8, 4)) as bn:
        tn = T.get_thread_binding(0)
        tk = T.get_thread_binding(1)
        A_local = T.alloc_local((4,), T.float16)
        B_local = T.alloc_local((4,), T.float16)
        C_shared = T.alloc_shared((8,), T.float32)
        C_accum = T.alloc_local((1,), T.float32)
        if tk == 0:
            C_shared[tn] = 0
        T.clear(C_accum)
        for bk in T.serial(T.ceildiv(K, 16)):
            for k in T.serial(4):
                A_local[k] = A[bk * 16 + tk * 4 + k]
                B_local[k] = B[bn * 8 + tn, bk * 16 + tk * 4 + k]
            for k in T.serial(4):
                C_accum[0] += A_local[k].astype(T.float32) * B_local[k].astype(T.float32)
        T.atomic_add(C_shared[tn], C_accum[0])
        T.copy(C_shared, C[bn * 8])
*/
#include "harness.h"
#include "kernel.h"

TILEC_TEST(gemv_simt) {
  const int N = 203, K = 200;
  auto a = randomF16(K), b = randomF16(size_t(N) * K);
  std::vector<double> ref(N);
  for (int n = 0; n < N; ++n) {
    double acc = 0;
    for (int k = 0; k < K; ++k)
      acc += double(f16ToF32(a[k])) * f16ToF32(b[size_t(n) * K + k]);
    ref[n] = acc;
  }
  std::vector<float> refF16(N);
  for (int n = 0; n < N; ++n)
    refF16[n] = roundF16(float(ref[n]));

  std::vector<uint16_t> c16(N, 0xFFFF);
  expectStatus(naive_gemv(a.data(), b.data(), c16.data(), N), TILEC_SUCCESS);
  expectClose("naive C", decodeAll(c16, kF16), refF16, 2e-3, 1e-3);

  std::vector<float> c(N, -7.0f);
  expectStatus(coop_gemv(a.data(), b.data(), c.data(), N), TILEC_SUCCESS);
  expectClose("coop C", c, ref, 1e-5, 1e-5);

  std::fill(c.begin(), c.end(), -7.0f);
  expectStatus(splitk_gemv(a.data(), b.data(), c.data(), N), TILEC_SUCCESS);
  expectClose("splitk C", c, ref, 1e-5, 1e-5);
}
