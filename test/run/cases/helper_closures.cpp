/* TILE
# Helper functions as tile-lang's dequantize examples write them: a helper that
# returns a function (`make_unpack(bits)(val, pos, dtype)`, called with kernel
# values: inlined), whose body converts with `.astype(dtype)` on its own
# parameter; a helper with a nested `def` that it passes to T.Layout; and
# T.make_mma_swizzle_layout / tilelang.cuda.intrinsics.make_mma_swizzle_layout
# as shared-memory layout hints.
import tilelang.language as T
from tilelang.cuda.intrinsics import make_mma_swizzle_layout

def make_unpack(nbit):
    mask = (1 << nbit) - 1

    def unpack(val, pos, dtype):
        return ((val >> (pos * nbit)) & mask).astype(dtype)

    return unpack

def transposed_layout(buf):
    rows, cols = buf.shape

    def transform(i, j):
        return [(i * cols + j) % rows, (i * cols + j) // rows]

    return T.Layout(buf.shape, transform)

@T.prim_func
def unpack4(P: T.Tensor((4, 16), T.uint8), U: T.Tensor((4, 32), T.float32), S: T.Tensor((4, 32), T.float16)):
    with T.Kernel(4, threads=32) as bx:
        s = T.alloc_shared((16, 64), T.float16)
        t = T.alloc_shared((4, 8), T.float32)
        T.annotate_layout({s: make_mma_swizzle_layout(s), t: transposed_layout(t)})
        tx = T.get_thread_binding()
        U[bx, tx] = make_unpack(4)(P[bx, tx // 2], tx % 2, "float32") * 2
        t[tx // 8, tx % 8] = make_unpack(4)(P[bx, tx // 2], tx % 2, T.float32)
        s[bx, tx] = t[tx // 8, tx % 8]
        S[bx, tx] = s[bx, tx] + 1
*/
// U[b, i] = 2 * nibble i of P[b] (low nibble first); S[b, i] = nibble + 1.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(helper_closures) {
  auto p = randomInt<uint8_t>(4 * 16, 0, 255);
  auto u = zeros<float>(4 * 32);
  auto s = zeros<uint16_t>(4 * 32);
  expectStatus(unpack4(p.data(), u.data(), s.data()), TILEC_SUCCESS);
  std::vector<double> ru(4 * 32), rs(4 * 32);
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 32; ++i) {
      int nib = (p[b * 16 + i / 2] >> (4 * (i % 2))) & 15;
      ru[b * 32 + i] = 2.0 * nib;
      rs[b * 32 + i] = nib + 1;
    }
  expectEqual("U", u, ru);
  expectEqual("S", decodeAll(s, kF16), rs);
}
