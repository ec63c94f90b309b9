/* TILE
# Math on bf16 values (computed in f32 and rounded after every op on CPUs
# without bf16 arithmetic), fp16 scalar argument.
import tilelang.language as T

N = 300
bN = 128

@T.prim_func
def math_bf16(X: T.Tensor((N,), T.bfloat16), Y: T.Tensor((8, N), T.bfloat16), h: T.float16):
    with T.Kernel(T.ceildiv(N, bN), threads=128) as bx:
        x = T.alloc_fragment((bN,), T.bfloat16)
        y = T.alloc_fragment((8, bN), T.bfloat16)
        T.copy(X[bx * bN], x)
        for i in T.Parallel(bN):
            a = T.abs(x[i]) + 0.5
            y[0, i] = T.exp(x[i])
            y[1, i] = T.log(a)
            y[2, i] = T.sqrt(a)
            y[3, i] = T.rsqrt(a)
            y[4, i] = T.sigmoid(x[i])
            y[5, i] = T.tanh(x[i]) * T.cast(h, T.bfloat16)
            y[6, i] = T.exp2(x[i]) - T.log2(a)
            y[7, i] = T.max(x[i], 0.25) ** 2.0
        T.copy(y, Y[0, bx * bN])
*/
// exp, log, sqrt, rsqrt, sigmoid, tanh, exp2, log2, max, ** on bf16.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(math_bf16) {
  const int N = 300;
  auto x = randomBF16(N, -3, 3);
  auto y = zeros<uint16_t>(size_t(8) * N);
  const float h = 1.5f;
  expectStatus(math_bf16(x.data(), y.data(), f32ToF16(h)), TILEC_SUCCESS);
  std::vector<float> ref(size_t(8) * N);
  auto r = roundBF16;
  for (int i = 0; i < N; ++i) {
    float v = bf16ToF32(x[i]), a = r(std::fabs(v) + 0.5f);
    float row[8] = {r(std::exp(v)),
                    r(std::log(a)),
                    r(std::sqrt(a)),
                    r(1.0f / std::sqrt(a)),
                    r(1.0f / (1.0f + std::exp(-v))),
                    r(r(std::tanh(v)) * h),
                    r(r(std::exp2(v)) - r(std::log2(a))),
                    r(std::pow(std::fmax(v, 0.25f), 2.0f))};
    for (int k = 0; k < 8; ++k)
      ref[size_t(k) * N + i] = row[k];
  }
  expectClose("Y", decodeAll(y, kBF16), ref, 2e-2, 1e-2);
}
