// mma.sync throughput ceiling on this GPU: every warp issues independent
// mma.sync.m16n8k16 (bf16 in, f32 accumulate) on register operands only: no
// memory traffic, no address arithmetic. `acc` independent accumulators per
// warp (8 here: enough to cover the tensor pipe's latency); the loop runs
// `iters` times. The result is written so the work is not dead.
// Built by `python3 bench/kit.py build --suites peak` (nvcc -arch=sm_90 -O3 -cubin).
#include <cstdint>

extern "C" __global__ void mma_peak(float *out, int iters) {
  uint32_t a0 = threadIdx.x, a1 = a0 * 3u, a2 = a0 * 5u, a3 = a0 * 7u, b0 = a0 * 11u, b1 = a0 * 13u;
  float c[8][4];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      c[i][j] = 0.f;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 8; ++i)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                   "{%0,%1,%2,%3};"
                   : "+f"(c[i][0]), "+f"(c[i][1]), "+f"(c[i][2]), "+f"(c[i][3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    s += c[i][0] + c[i][1] + c[i][2] + c[i][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
