/* TILE
# float32 -> float16 / bfloat16 / float8_e4m3 / float8_e5m2 and back through
# fragments; float64 -> float16 directly (one rounding).
import tilelang.language as T

N = 4096
block = 1024

@T.prim_func
def convert_floats(X: T.Tensor((N,), T.float32), D: T.Tensor((N,), T.float64),
                   H: T.Tensor((N,), T.float16), BH: T.Tensor((N,), T.bfloat16),
                   E4: T.Tensor((N,), T.float8_e4m3), E5: T.Tensor((N,), T.float8_e5m2),
                   DH: T.Tensor((N,), T.float16), Back: T.Tensor((4, N), T.float32)):
    with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
        x = T.alloc_fragment((block,), T.float32)
        h = T.alloc_fragment((block,), T.float16)
        bh = T.alloc_fragment((block,), T.bfloat16)
        e4 = T.alloc_fragment((block,), T.float8_e4m3)
        e5 = T.alloc_fragment((block,), T.float8_e5m2)
        T.copy(X[bx * block], x)
        T.copy(x, h)
        T.copy(x, bh)
        T.copy(x, e4)
        T.copy(x, e5)
        T.copy(h, H[bx * block])
        T.copy(bh, BH[bx * block])
        T.copy(e4, E4[bx * block])
        T.copy(e5, E5[bx * block])
        T.copy(D[bx * block:(bx + 1) * block], DH[bx * block:(bx + 1) * block])
        T.copy(h, Back[0, bx * block])
        T.copy(bh, Back[1, bx * block])
        T.copy(e4, Back[2, bx * block])
        T.copy(e5, Back[3, bx * block])
*/
// Software float conversions of the host target against the harness's
// reference encoder: round to nearest even (ties included), subnormals,
// overflow (inf for f16/bf16, saturation for fp8), NaN, signed zero.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(convert_floats) {
  const int N = 4096;
  std::vector<float> x(N);
  std::vector<double> d(N);
  for (int i = 0; i < N; ++i) {
    switch (i % 8) {
    case 0: x[i] = float(uniform(-2, 2)); break;
    case 1: x[i] = float(uniform(-1e-6, 1e-6)); break;   // f16/fp8 subnormals and underflow
    case 2: x[i] = float(uniform(-70000, 70000)); break; // f16 overflow, fp8 saturation
    case 3: x[i] = std::ldexp(1.0f + float(uniformInt(0, 2047)) / 2048.0f, int(uniformInt(-20, 20))); break; // ties
    case 4: x[i] = float(uniform(-500, 500)); break;
    case 5: x[i] = std::ldexp(float(uniform(-1, 1)), int(uniformInt(-130, -100))); break; // bf16 subnormals
    case 6: x[i] = (i / 8) % 4 == 0 ? INFINITY : (i / 8) % 4 == 1 ? -INFINITY : (i / 8) % 4 == 2 ? NAN : -0.0f; break;
    default: x[i] = float(uniform(-0.1, 0.1)); break;
    }
    d[i] = i % 2 ? double(x[i]) + uniform(-1e-9, 1e-9) : uniform(-3, 3);
  }
  auto h = zeros<uint16_t>(N), bh = zeros<uint16_t>(N), dh = zeros<uint16_t>(N);
  auto e4 = zeros<uint8_t>(N), e5 = zeros<uint8_t>(N);
  auto back = zeros<float>(size_t(4) * N);
  expectStatus(convert_floats(x.data(), d.data(), h.data(), bh.data(), e4.data(), e5.data(), dh.data(), back.data()),
               TILEC_SUCCESS);
  std::vector<uint32_t> rh(N), rbh(N), re4(N), re5(N), rdh(N);
  std::vector<float> rback(size_t(4) * N);
  for (int i = 0; i < N; ++i) {
    rh[i] = encode(x[i], kF16);
    rbh[i] = encode(x[i], kBF16);
    re4[i] = encode(x[i], kE4M3);
    re5[i] = encode(x[i], kE5M2);
    rdh[i] = encode(d[i], kF16);
    rback[i] = decode(rh[i], kF16);
    rback[N + i] = decode(rbh[i], kBF16);
    rback[2 * N + i] = decode(re4[i], kE4M3);
    rback[3 * N + i] = decode(re5[i], kE5M2);
  }
  // NaN payloads may differ: compare NaNs as NaNs.
  auto canon = [](std::vector<uint32_t> bits, const Format &f) {
    for (uint32_t &b : bits)
      if (std::isnan(decode(b, f)))
        b = 0xFFFFFFFF;
    return bits;
  };
  auto canonGot = [&](const auto &v, const Format &f) {
    std::vector<uint32_t> out(v.begin(), v.end());
    return canon(out, f);
  };
  expectEqual("float32 -> float16", canonGot(h, kF16), canon(rh, kF16));
  expectEqual("float32 -> bfloat16", canonGot(bh, kBF16), canon(rbh, kBF16));
  expectEqual("float32 -> float8_e4m3", canonGot(e4, kE4M3), canon(re4, kE4M3));
  expectEqual("float32 -> float8_e5m2", canonGot(e5, kE5M2), canon(re5, kE5M2));
  expectEqual("float64 -> float16", canonGot(dh, kF16), canon(rdh, kF16));
  expectEqual("narrow -> float32", back, rback);
}
