/* TILE
# A Python float in a kernel is tile-lang's float32 FloatImm (spec §5): with
# a float16 or bfloat16 operand the operation runs in float32 and rounds once
# where it is stored, whether or not the value is exact in the narrow dtype;
# a float64 operand keeps float64 and the literal's full double value.
import tilelang.language as T

N = 256
scale = 128**-0.5  # not exact in float16 (linear attention's DK**-0.5)

@T.prim_func
def literal_dtype(H: T.Tensor((N,), T.float16), B: T.Tensor((N,), T.bfloat16), D: T.Tensor((N,), T.float64),
                  OF: T.Tensor((4, N), T.float32), OH: T.Tensor((N,), T.float16), OD: T.Tensor((N,), T.float64)):
    with T.Kernel(N // 64, threads=64) as bx:
        for t in T.Parallel(64):
            i = bx * 64 + t
            OF[0, i] = H[i] * scale
            OF[1, i] = H[i] + 1.0
            OF[2, i] = B[i] * 0.1
            OF[3, i] = T.max(H[i], 0.3) + H[i] * 0.5
            OH[i] = H[i] * scale
            OD[i] = D[i] * 0.1
*/
// Host numerics of the float-literal rule: float32 arithmetic next to
// float16/bfloat16 (exact literals too), float64 next to float64.
#include "harness.h"
#include "kernel.h"

#include <cmath>

TILEC_TEST(float_literal_dtype) {
  const int N = 256;
  auto h = randomF16(N, -4, 4);
  auto bf = randomBF16(N, -4, 4);
  auto d = randomF64(N, -4, 4);
  auto of = zeros<float>(4 * N);
  auto oh = zeros<uint16_t>(N);
  auto od = zeros<double>(N);
  expectStatus(literal_dtype(h.data(), bf.data(), d.data(), of.data(), oh.data(), od.data()), TILEC_SUCCESS);
  const float scale = float(1.0 / std::sqrt(128.0));
  std::vector<std::vector<float>> rf(4, std::vector<float>(N));
  std::vector<float> rh(N), rhNarrow(N);
  std::vector<double> rd(N);
  for (int i = 0; i < N; ++i) {
    float hf = f16ToF32(h[i]);
    rf[0][i] = hf * scale;                        // float32 product, not float16(scale)
    rf[1][i] = hf + 1.0f;                         // 1.0 is exact in float16: still float32
    rf[2][i] = bf16ToF32(bf[i]) * 0.1f;           // bfloat16 * 0.1 in float32
    rf[3][i] = std::fmax(hf, 0.3f) + hf * 0.5f;   // T.max and * in float32
    rh[i] = roundF16(hf * scale);                 // one rounding, at the store
    rhNarrow[i] = roundF16(hf * roundF16(scale)); // what float16(scale) would give
    rd[i] = d[i] * 0.1;                           // the double 0.1, not float32(0.1)
  }
  const char *names[4] = {"f16 * inexact literal in f32", "f16 + 1.0 in f32", "bf16 * 0.1 in f32",
                          "T.max(f16, 0.3) + f16 * 0.5 in f32"};
  for (int k = 0; k < 4; ++k)
    expectEqual(names[k], std::vector<float>(of.begin() + k * N, of.begin() + (k + 1) * N), rf[k]);
  expectEqual("f16 * inexact literal stored as f16", decodeAll(oh, harness::kF16), rh);
  expectEqual("f64 * 0.1 in f64", od, rd);
  // The case tells the two rules apart: float16(scale) changes some products.
  int differ = 0;
  for (int i = 0; i < N; ++i)
    differ += rh[i] != rhNarrow[i];
  if (differ == 0)
    fail("no element tells float32 from float16 arithmetic");
}
