/* TILE
# Integer arithmetic per dtype: uint32 bitwise ops and logical shifts, int64
# products, int16 and uint8 wrap-around, int8 negation; scalar arguments of
# several dtypes (int8, uint32, int64, bool, float64).
import tilelang.language as T

N = 200
bN = 64

@T.prim_func
def integer_ops(U: T.Tensor((N,), T.uint32), L: T.Tensor((N,), T.int64), S: T.Tensor((N,), T.int16),
                B: T.Tensor((N,), T.uint8), C: T.Tensor((N,), T.int8),
                OU: T.Tensor((N,), T.uint32), OL: T.Tensor((N,), T.int64), OS: T.Tensor((N,), T.int16),
                OB: T.Tensor((N,), T.uint8), OC: T.Tensor((N,), T.int8), OD: T.Tensor((N,), T.float64),
                k8: T.int8, k32: T.uint32, k64: T.int64, flag: T.bool, scale: T.float64):
    with T.Kernel(T.ceildiv(N, bN), threads=64) as bx:
        for i in T.Parallel(bN):
            g = bx * bN + i
            u = U[g]
            OU[g] = ((u >> 3) ^ (u << 5)) & k32 | (~u & 255)
            OL[g] = L[g] * k64 - (L[g] >> 2)
            OS[g] = S[g] * 3 + 20000
            OB[g] = B[g] + B[g] * 2 + 100
            OC[g] = -C[g] + k8
            OD[g] = T.if_then_else(flag, T.cast(L[g], T.float64) * scale, scale)
*/
// Global tensors read and written directly inside T.Parallel (writes past N
// are dropped); unsigned shifts are logical.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(integer_ops) {
  const int N = 200;
  auto u = randomInt<uint32_t>(N, 0, UINT32_MAX);
  auto l = randomInt<int64_t>(N, -1000000000LL, 1000000000LL);
  auto s = randomInt<int16_t>(N, -32768, 32767);
  auto b = randomInt<uint8_t>(N, 0, 255);
  auto c = randomInt<int8_t>(N, -128, 127);
  auto ou = zeros<uint32_t>(N);
  auto ol = zeros<int64_t>(N);
  auto os = zeros<int16_t>(N);
  auto ob = zeros<uint8_t>(N);
  auto oc = zeros<int8_t>(N);
  auto od = zeros<double>(N);
  const int8_t k8 = -7;
  const uint32_t k32 = 0xF0F0F0F0u;
  const int64_t k64 = 3000000000LL;
  expectStatus(integer_ops(u.data(), l.data(), s.data(), b.data(), c.data(), ou.data(), ol.data(), os.data(),
                           ob.data(), oc.data(), od.data(), k8, k32, k64, true, 0.25),
               TILEC_SUCCESS);
  std::vector<int64_t> ru(N), rl(N), rs(N), rb(N), rc(N);
  std::vector<double> rd(N);
  for (int i = 0; i < N; ++i) {
    ru[i] = uint32_t((((u[i] >> 3) ^ (u[i] << 5)) & k32) | (~u[i] & 255u));
    rl[i] = l[i] * k64 - (l[i] >> 2);
    rs[i] = int16_t(uint16_t(s[i] * 3 + 20000));
    rb[i] = uint8_t(b[i] + b[i] * 2 + 100);
    rc[i] = int8_t(uint8_t(-c[i] + k8));
    rd[i] = double(l[i]) * 0.25;
  }
  expectEqual("uint32 bitwise", ou, ru);
  expectEqual("int64", ol, rl);
  expectEqual("int16 wraps", os, rs);
  expectEqual("uint8 wraps", ob, rb);
  expectEqual("int8", oc, rc);
  expectEqual("float64 from int64 and scalars", od, rd);
}
