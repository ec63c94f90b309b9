/* TILE
# Mixed-dtype arithmetic (spec §5 promotion) and the expression builtins of
# TileGenMath.cpp, computed on the host: values that show which dtype each
# operation ran in (an int8 sum that does not wrap, a uint8 product that
# does, float16 * float32 in float32), Python floor division against C's
# truncating one, ties-to-even rounding, reinterpret bits, T.dp4a.
import tilelang.language as T

N = 256
acc = T.float32

@T.prim_func
def promotion(H: T.Tensor((N,), T.float16), F: T.Tensor((N,), T.float32), A: T.Tensor((N,), T.int8),
              U8: T.Tensor((N,), T.uint8), I: T.Tensor((N,), T.int32), L: T.Tensor((N,), T.int64),
              OF: T.Tensor((8, N), T.float32), OI: T.Tensor((8, N), T.int64), OB: T.Tensor((N,), T.uint32),
              D: T.Tensor((N // 4,), T.int32), n: T.int32):
    with T.Kernel(N // 64, threads=64) as bx:
        for t in T.Parallel(64):
            i = bx * 64 + t
            OF[0, i] = H[i] * F[i]
            OF[1, i] = T.clamp(F[i] * 3, -1.0, 1.0)
            OF[2, i] = T.round(F[i] * 4) + T.trunc(F[i] * 4) * 10 + T.ceil(F[i]) * 100
            OF[3, i] = I[i] * 0.5 + T.Cast(acc, A[i]) + T.float32(2)
            OF[4, i] = T.if_then_else(H[i] < F[i], H[i], F[i])
            OF[5, i] = T.sin(F[i]) + T.max_value(T.float16)
            OF[6, i] = T.reinterpret(T.reinterpret(F[i], T.uint32) ^ T.uint32(2147483648), T.float32)
            OF[7, i] = T.floor(F[i] * 4) + i
            OI[0, i] = I[i] + L[i]
            OI[1, i] = A[i] * U8[i]
            OI[2, i] = A[i] + 1000
            OI[3, i] = T.floordiv(I[i], n) * 1000 + T.floormod(I[i], n)
            OI[4, i] = T.truncdiv(I[i], n) * 1000 + T.truncmod(I[i], n)
            OI[5, i] = (A[i] > 0) + I[i]
            OI[6, i] = T.shift_left(1, U8[i] % 8) + T.bitwise_and(I[i], 255)
            OI[7, i] = T.int32(F[i] * 100)
            OB[i] = T.reinterpret(F[i], T.uint32)
        a = T.alloc_local((4,), T.int8)
        b = T.alloc_local((4,), T.int8)
        c = T.alloc_local((1,), T.int32)
        tx = T.get_thread_binding()
        if tx < 16:
            for v in T.Serial(4):
                a[v] = A[bx * 64 + tx * 4 + v]
                b[v] = A[(bx * 64 + tx * 4 + v + 1) % N]
            c[0] = n
            T.dp4a(a[0], b[0], c[0])
            D[bx * 16 + tx] = c[0]

@T.prim_func
def helpers(L: T.Tensor((2, 256), T.int32), A: T.Tensor((2,), T.int32)):
    with T.Kernel(2, threads=256) as bx:
        tx = T.get_thread_binding()
        lane = T.get_lane_idx() + T.get_lane_idx(16) * 1000000
        L[T.get_block_binding(), tx] = lane + T.get_warp_idx() * 100 + T.get_warp_group_idx() * 10000
        T.assume(tx < 256)
        A[bx] = T.align_up(bx * 100 + 1, 64)

@T.prim_func
def reduce_widen(X: T.Tensor((32, 128), T.bfloat16), S: T.Tensor((2, 32), T.float32)):
    with T.Kernel(1, threads=128) as bx:
        x = T.alloc_fragment((32, 128), T.bfloat16)
        amax = T.alloc_fragment((32,), T.float32)
        total = T.alloc_fragment((32,), T.float32)
        T.copy(X[0, 0], x)
        T.reduce_absmax(x, amax, dim=1)
        T.reduce_sum(x, total, dim=1)
        T.copy(amax, S[0, 0])
        T.copy(total, S[1, 0])
*/
// Host numerics of dtype promotion and the spec §5 expression builtins.
#include "harness.h"
#include "kernel.h"

#include <cstring>

static int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
static uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

TILEC_TEST(promotion) {
  const int N = 256;
  const int32_t n = -7;
  auto h = randomF16(N, -4, 4);
  auto f = randomF32(N, -2, 2);
  for (int i = 0; i < 16; ++i)
    f[i] = float(i - 8) / 8.0f; // exact quarters and halves: rounding ties
  auto a = randomInt<int8_t>(N, -128, 127);
  auto u8 = randomInt<uint8_t>(N, 0, 255);
  auto ii = randomInt<int32_t>(N, -100000, 100000);
  auto l = randomInt<int64_t>(N, -(int64_t(1) << 40), int64_t(1) << 40);
  auto of = zeros<float>(8 * N);
  auto oi = zeros<int64_t>(8 * N);
  auto ob = zeros<uint32_t>(N);
  auto d = zeros<int32_t>(N / 4);
  expectStatus(promotion(h.data(), f.data(), a.data(), u8.data(), ii.data(), l.data(), of.data(), oi.data(), ob.data(),
                         d.data(), n),
               TILEC_SUCCESS);
  std::vector<std::vector<double>> rf(8, std::vector<double>(N));
  std::vector<std::vector<int64_t>> ri(8, std::vector<int64_t>(N));
  std::vector<uint32_t> rb(N);
  std::vector<int32_t> rd(N / 4);
  for (int i = 0; i < N; ++i) {
    float hf = f16ToF32(h[i]);
    rf[0][i] = hf * f[i];
    rf[1][i] = std::fmin(std::fmax(f[i] * 3.0f, -1.0f), 1.0f);
    rf[2][i] = std::nearbyint(f[i] * 4) + std::trunc(f[i] * 4) * 10 + std::ceil(f[i]) * 100;
    rf[3][i] = float(ii[i]) * 0.5f + float(a[i]) + 2.0f;
    rf[4][i] = hf < f[i] ? hf : f[i];
    rf[5][i] = std::sin(f[i]) + 65504.0f;
    rf[6][i] = -f[i];
    rf[7][i] = std::floor(f[i] * 4) + i;
    ri[0][i] = ii[i] + l[i];
    ri[1][i] = uint8_t(uint8_t(a[i]) * u8[i]);
    ri[2][i] = int32_t(a[i]) + 1000;
    ri[3][i] = floorDiv(ii[i], n) * 1000 + (ii[i] - floorDiv(ii[i], n) * n);
    ri[4][i] = (ii[i] / n) * 1000 + ii[i] % n;
    ri[5][i] = (a[i] > 0) + ii[i];
    ri[6][i] = (1 << (u8[i] % 8)) + (ii[i] & 255);
    ri[7][i] = int32_t(f[i] * 100.0f);
    rb[i] = bitsOf(f[i]);
  }
  for (int t = 0; t < N / 4; ++t) {
    int32_t s = n;
    for (int v = 0; v < 4; ++v)
      s += int32_t(a[t * 4 + v]) * int32_t(a[(t * 4 + v + 1) % N]);
    rd[t] = s;
  }
  const char *fn[8] = {"f16*f32 in f32",       "clamp",           "round/trunc/ceil",      "int*0.5 + Cast + float32()",
                       "if_then_else f16/f32", "sin + max_value", "reinterpret sign flip", "floor + index"};
  const char *in[8] = {
      "int32+int64", "int8*uint8 wraps as uint8", "int8+1000 in int32", "floordiv/floormod", "truncdiv/truncmod",
      "bool+int32",  "shift_left + bitwise_and",  "int32(float)"};
  for (int k = 0; k < 8; ++k) {
    std::vector<float> got(of.begin() + k * N, of.begin() + (k + 1) * N);
    expectClose(fn[k], got, rf[k], k == 5 ? 1e-6 : 0, k == 5 ? 1e-6 : 0);
    std::vector<int64_t> goti(oi.begin() + k * N, oi.begin() + (k + 1) * N);
    expectEqual(in[k], goti, ri[k]);
  }
  expectEqual("reinterpret bits", ob, rb);
  expectEqual("dp4a", d, rd);

  auto lanes = zeros<int32_t>(2 * 256);
  auto aligned = zeros<int32_t>(2);
  expectStatus(helpers(lanes.data(), aligned.data()), TILEC_SUCCESS);
  std::vector<int32_t> rl(2 * 256);
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 256; ++t)
      rl[b * 256 + t] = t % 32 + (t / 32) * 100 + (t / 128) * 10000 + (t % 16) * 1000000;
  expectEqual("lane/warp/warp group helpers", lanes, rl);
  expectEqual("align_up", aligned, std::vector<int32_t>{64, 128});

  // bfloat16 reduced into float32: each element converted, then reduced in float32.
  auto xb = randomBF16(32 * 128, -300, 300);
  auto sums = zeros<float>(2 * 32);
  expectStatus(reduce_widen(xb.data(), sums.data()), TILEC_SUCCESS);
  std::vector<double> ramax(32, 0), rsum(32, 0);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 128; ++c) {
      double v = bf16ToF32(xb[r * 128 + c]);
      ramax[r] = std::fmax(ramax[r], std::fabs(v));
      rsum[r] += v;
    }
  expectEqual("reduce_absmax bfloat16 -> float32", std::vector<float>(sums.begin(), sums.begin() + 32), ramax);
  expectClose("reduce_sum bfloat16 -> float32", std::vector<float>(sums.begin() + 32, sums.end()), rsum, 1e-5, 1e-3);
}
