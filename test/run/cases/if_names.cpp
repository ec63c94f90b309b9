/* TILE
# Names assigned in the branches of an if/elif/else are visible after it:
# assigned in both branches, before and in one branch, in nested ifs, inside a
# T.Parallel body and inside a serial loop's body; a compile-time if binds its
# taken branch's names.
import tilelang.language as T

N = 64
bN = 16
with_offset = True

@T.prim_func
def if_names(X: T.Tensor((N,), T.int32), Y: T.Tensor((N,), T.int32), S: T.Tensor((N // bN, 2), T.int32),
             t: T.int32):
    with T.Kernel(N // bN, threads=32) as bx:
        x = T.alloc_fragment((bN,), T.int32)
        T.copy(X[bx * bN], x)
        if bx % 2 == 0:
            scale = 2
            shift = bx
        else:
            scale = X[bx * bN]
            shift = 100
        base = 7
        if t > bx:
            base = t - bx
        if with_offset:
            offset = 1000
        for i in T.Parallel(bN):
            v = x[i]
            if v > 50:
                w = v - 50
            elif v < -50:
                if v < -80:
                    w = 3
                else:
                    w = -v
            else:
                w = v * scale
            x[i] = w + shift + base + offset
        T.copy(x, Y[bx * bN])
        last = T.alloc_var(T.int32)
        last = 0
        for k in T.serial(bN):
            e = X[bx * bN + k]
            if e % 2 == 0:
                m = e // 2
            else:
                m = e * 3
            if m > last:
                last = m
        S[bx, 0] = last
        S[bx, 1] = scale + shift * base
*/
// Scalars merged after runtime ifs (scf.if results), checked against the same
// control flow in C++.
#include "harness.h"
#include "kernel.h"

static int32_t floordiv(int32_t a, int32_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
static int32_t floormod(int32_t a, int32_t b) { return a - floordiv(a, b) * b; }

TILEC_TEST(if_names) {
  const int N = 64, bN = 16;
  auto x = randomInt<int32_t>(N, -100, 100);
  auto y = zeros<int32_t>(N);
  auto s = zeros<int32_t>(size_t(N / bN) * 2);
  const int32_t t = 2;
  expectStatus(if_names(x.data(), y.data(), s.data(), t), TILEC_SUCCESS);
  std::vector<int32_t> ry(N), rs(size_t(N / bN) * 2);
  for (int b = 0; b < N / bN; ++b) {
    int32_t scale = b % 2 == 0 ? 2 : x[b * bN];
    int32_t shift = b % 2 == 0 ? b : 100;
    int32_t base = t > b ? t - b : 7;
    for (int i = 0; i < bN; ++i) {
      int32_t v = x[b * bN + i], w;
      if (v > 50)
        w = v - 50;
      else if (v < -50)
        w = v < -80 ? 3 : -v;
      else
        w = v * scale;
      ry[b * bN + i] = w + shift + base + 1000;
    }
    int32_t last = 0;
    for (int k = 0; k < bN; ++k) {
      int32_t e = x[b * bN + k];
      int32_t m = floormod(e, 2) == 0 ? floordiv(e, 2) : e * 3;
      if (m > last)
        last = m;
    }
    rs[b * 2 + 0] = last;
    rs[b * 2 + 1] = scale + shift * base;
  }
  expectEqual("Y", y, ry);
  expectEqual("S", s, rs);
}
