/* TILE
# T.atomic_max / T.atomic_min on one element: many threads of two blocks into one element
# (float32, int32, uint32: the order does not change a maximum), and as a value with
# return_prev=True into distinct elements (the element's value before the update).
import tilelang.language as T

N = 64

@T.prim_func
def amax(X: T.Tensor((N,), T.float32), I: T.Tensor((N,), T.int32), U: T.Tensor((N,), T.uint32),
         MF: T.Tensor((2,), T.float32), MI: T.Tensor((2,), T.int32), MU: T.Tensor((2,), T.uint32),
         D: T.Tensor((N,), T.int32), P: T.Tensor((N,), T.int32), Q: T.Tensor((N,), T.float64)):
    with T.Kernel(2, threads=32) as bx:
        tx = T.get_thread_binding()
        i = bx * 32 + tx
        T.atomic_max(MF[0], X[i])
        T.atomic_min(MF[1], X[i])
        T.atomic_max(MI[0], I[i])
        T.atomic_min(MI[1], I[i], memory_order="relaxed")
        T.atomic_max(MU[0], U[i])
        T.atomic_min(MU[1], U[i])
        P[i] = T.atomic_max(D[i], I[i], return_prev=True)
        Q[i] = T.cast(T.atomic_min(MF[1], X[i], return_prev=True), "float64") * 0.0 + T.cast(i, "float64")
*/
// MF = (max X, min X), MI = (max I, min I), MU = (max U, min U) over their initial values; D = max(D0, I),
// P = D0. Q only checks that the value form compiles beside the statements (Q[i] = i).
#include "harness.h"
#include "kernel.h"

#include <algorithm>

TILEC_TEST(atomic_max_min) {
  const int N = 64;
  auto x = randomF32(N, -5, 5);
  auto i32 = randomInt<int32_t>(N, -1000000, 1000000);
  auto u32 = randomInt<uint32_t>(N, 0, 4000000000LL);
  std::vector<float> mf = {-100.0f, 100.0f};
  std::vector<int32_t> mi = {-2000000, 2000000};
  std::vector<uint32_t> mu = {0u, 0xFFFFFFFFu};
  auto d = randomInt<int32_t>(N, -1000000, 1000000);
  auto d0 = d;
  auto p = zeros<int32_t>(N);
  auto q = zeros<double>(N);
  // An initial value past every input: the result is the inputs' extreme.
  expectStatus(amax(x.data(), i32.data(), u32.data(), mf.data(), mi.data(), mu.data(), d.data(), p.data(), q.data()),
               TILEC_SUCCESS);
  std::vector<double> rmf = {*std::max_element(x.begin(), x.end()), *std::min_element(x.begin(), x.end())};
  std::vector<double> rmi = {double(*std::max_element(i32.begin(), i32.end())),
                             double(*std::min_element(i32.begin(), i32.end()))};
  std::vector<double> rmu = {double(*std::max_element(u32.begin(), u32.end())), 0xFFFFFFFF};
  rmu[1] = double(*std::min_element(u32.begin(), u32.end()));
  std::vector<double> rd(N), rp(N), rq(N);
  for (int k = 0; k < N; ++k) {
    rd[k] = std::max(d0[k], i32[k]);
    rp[k] = d0[k];
    rq[k] = k;
  }
  expectEqual("MF", mf, rmf);
  expectEqual("MI", mi, rmi);
  expectEqual("MU", mu, rmu);
  expectEqual("D", d, rd);
  expectEqual("P", p, rp);
  expectEqual("Q", q, rq);
}
