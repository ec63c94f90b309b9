/* TILE
# Packed int4/uint4 tensors (two per byte, element i of the row-major tensor
# in byte i / 2, low nibble first): unpack to int32, compute, pack back.
import tilelang.language as T

M, N = 5, 37
bM, bN = 4, 16

@T.prim_func
def int4_packed(X: T.Tensor((M, N), T.int4), U: T.Tensor((M, N), T.uint4), Y: T.Tensor((M, N), T.int32),
                Z: T.Tensor((M, N), T.int4)):
    with T.Kernel(T.ceildiv(N, bN), T.ceildiv(M, bM), threads=32) as (bx, by):
        x = T.alloc_fragment((bM, bN), T.int32)
        u = T.alloc_fragment((bM, bN), T.int32)
        z = T.alloc_fragment((bM, bN), T.int4)
        T.copy(X[by * bM, bx * bN], x)
        T.copy(U[by * bM, bx * bN], u)
        for i, j in T.Parallel(bM, bN):
            x[i, j] = x[i, j] * 16 + u[i, j]
            z[i, j] = T.cast(u[i, j] - 8, T.int4)
        T.copy(x, Y[by * bM, bx * bN])
        T.copy(z, Z[by * bM, bx * bN])
*/
// int4 and uint4 inputs (odd row length, so rows share bytes), int4 output
// written nibble by nibble from several blocks.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(int4_packed) {
  const int M = 5, N = 37, n = M * N;
  std::vector<int> xs(n), us(n);
  for (int i = 0; i < n; ++i) {
    xs[i] = int(uniformInt(-8, 7));
    us[i] = int(uniformInt(0, 15));
  }
  auto x = packInt4(xs), u = packInt4(us);
  auto y = zeros<int32_t>(n);
  std::vector<uint8_t> z(x.size(), 0xAA);
  expectStatus(int4_packed(x.data(), u.data(), y.data(), z.data()), TILEC_SUCCESS);
  std::vector<int> ry(n), rz(n), gz(n);
  for (int i = 0; i < n; ++i) {
    ry[i] = xs[i] * 16 + us[i];
    rz[i] = us[i] - 8;
    gz[i] = unpackInt4(z, i);
  }
  expectEqual("Y = X * 16 + U", y, ry);
  expectEqual("Z = int4(U - 8)", gz, rz);
}
