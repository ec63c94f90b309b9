// Hand-written CUDA C++ equivalent of examples/gemm/gemm.tile, for the
// compile-time comparison (`python3 bench/kit.py compile-time`): C = A @ B in fp16 with
// fp32 accumulation, 128x128x64 block tiles, 4 warps of 64x64, a 3-stage
// cp.async ring of XOR-swizzled shared tiles, ldmatrix (.trans for B) and
// mma.sync.m16n8k16, bounds-checked for a ragged M. N = K = 4096 as there.
#include <cstdint>
#include <cuda_fp16.h>

namespace {
constexpr int BM = 128, BN = 128, BK = 64, STAGES = 3, N = 4096, K = 4096;

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
// Element offset of (r, c) in a tile with `cols` fp16 per row: 16-byte chunks XOR row % 8.
__device__ __forceinline__ int swz(int r, int c, int cols) {
  return r * cols + ((((c >> 3) ^ (r & 7))) << 3) + (c & 7);
}
__device__ __forceinline__ void cpAsync16(void *dst, const void *src, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem(dst)), "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void ldsm4(uint32_t (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem(p)));
}
__device__ __forceinline__ void ldsm4t(uint32_t (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem(p)));
}
__device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
} // namespace

extern "C" __global__ void __launch_bounds__(128) gemm_mma(const half *A, const half *B, half *C, int64_t M) {
  extern __shared__ __align__(128) half sm[];
  half *As = sm, *Bs = sm + STAGES * BM * BK;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int by = blockIdx.y, bx = blockIdx.x;
  const int wm = warp / 2, wn = warp % 2;
  float acc[4][8][4] = {};
  auto load = [&](int kt, int s) {
    for (int i = tid; i < BM * BK / 8; i += 128) { // A: 128 x 64
      int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
      int64_t gr = int64_t(by) * BM + r;
      bool ok = gr < M;
      cpAsync16(As + s * BM * BK + swz(r, c, BK), A + (ok ? gr : 0) * K + kt * BK + c, ok);
    }
    for (int i = tid; i < BK * BN / 8; i += 128) { // B: 64 x 128
      int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
      cpAsync16(Bs + s * BK * BN + swz(r, c, BN), B + int64_t(kt * BK + r) * N + bx * BN + c, true);
    }
  };
  const int kTiles = K / BK;
  for (int s = 0; s < STAGES - 1; ++s) {
    load(s, s);
    asm volatile("cp.async.commit_group;\n");
  }
  for (int kt = 0; kt < kTiles; ++kt) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
    __syncthreads();
    if (kt + STAGES - 1 < kTiles)
      load(kt + STAGES - 1, (kt + STAGES - 1) % STAGES);
    asm volatile("cp.async.commit_group;\n");
    const half *as = As + (kt % STAGES) * BM * BK, *bs = Bs + (kt % STAGES) * BK * BN;
#pragma unroll
    for (int kk = 0; kk < BK / 16; ++kk) {
      uint32_t af[4][4], bf[4][4];
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
        ldsm4(af[mi], as + swz(wm * 64 + mi * 16 + (lane % 16), kk * 16 + (lane / 16) * 8, BK));
#pragma unroll
      for (int nj = 0; nj < 4; ++nj)
        ldsm4t(bf[nj], bs + swz(kk * 16 + (lane % 16), wn * 64 + nj * 16 + (lane / 16) * 8, BN));
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 8; ++ni)
          mma(acc[mi][ni], af[mi], bf[ni / 2][(ni % 2) * 2], bf[ni / 2][(ni % 2) * 2 + 1]);
    }
  }
  asm volatile("cp.async.wait_group 0;\n");
#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 8; ++ni)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int64_t r = int64_t(by) * BM + wm * 64 + mi * 16 + lane / 4 + h * 8;
        int c = bx * BN + wn * 64 + ni * 8 + (lane % 4) * 2;
        if (r < M)
          *reinterpret_cast<__half2 *>(C + r * N + c) = __floats2half2_rn(acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
      }
}
