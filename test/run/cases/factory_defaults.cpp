/* TILE
# tile-lang's factory idiom with @tilelang.jit: parameters with and without
# defaults; -D gives the required one and overrides a default.
import tilelang
import tilelang.language as T

@tilelang.jit(out_idx=[-1])
def scaled_add(N, block=64, scale=2.0, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype), C: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            a = T.alloc_fragment((block,), dtype)
            b = T.alloc_fragment((block,), dtype)
            T.copy(A[bx * block], a)
            T.copy(B[bx * block], b)
            for i in T.Parallel(block):
                a[i] = a[i] * scale + b[i]
            T.copy(a, C[bx * block])
    return main
*/
// TILEC-FLAGS: -D N=1000 -D scale=-3.0 -D dtype=float64
// Exported as the factory's name; N = 1000 against block = 64.
#include "harness.h"
#include "kernel.h"

TILEC_TEST(factory_defaults) {
  const int N = 1000;
  auto a = randomF64(N), b = randomF64(N);
  auto c = zeros<double>(N);
  expectStatus(scaled_add(a.data(), b.data(), c.data()), TILEC_SUCCESS);
  std::vector<double> ref(N);
  for (int i = 0; i < N; ++i)
    ref[i] = a[i] * -3.0 + b[i];
  expectEqual("C", c, ref);
}
