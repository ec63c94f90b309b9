/* TILE
# T.fill / T.clear of one element of a shared buffer after a fill of the whole buffer.
import tilelang.language as T

@T.prim_func
def fill_element(B: T.Tensor((4,), T.int32)):
    with T.Kernel(1, threads=32) as bx:
        s = T.alloc_shared((4,), T.int32)
        T.fill(s, 1)
        T.fill(s[2], 7)
        T.clear(s[3])
        T.copy(s, B)
*/
#include "harness.h"
#include "kernel.h"

TILEC_TEST(fill_element) {
  std::vector<int32_t> b(4, -1), ref = {1, 1, 7, 0};
  expectStatus(fill_element(b.data()), TILEC_SUCCESS);
  expectEqual("B", b, ref);
}
