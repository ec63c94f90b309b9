/* TILE
# Integer division and modulo by divisors read from data, zeros and INT_MIN
# by -1 among them: on the host these trapped (SIGFPE); now each gives the
# value docs/differences.md defines.
import tilelang.language as T

N = 16

@T.prim_func
def int_div_zero(A: T.Tensor((N,), T.int32), D: T.Tensor((N,), T.int32), W: T.Tensor((N,), T.int64),
                 E: T.Tensor((N,), T.int64), U: T.Tensor((N,), T.uint32), V: T.Tensor((N,), T.uint32),
                 Q: T.Tensor((N,), T.int32), R: T.Tensor((N,), T.int32), TQ: T.Tensor((N,), T.int32),
                 TR: T.Tensor((N,), T.int32), CQ: T.Tensor((N,), T.int32), WQ: T.Tensor((N,), T.int64),
                 WR: T.Tensor((N,), T.int64), UQ: T.Tensor((N,), T.uint32), UR: T.Tensor((N,), T.uint32)):
    with T.Kernel(1, threads=16) as bx:
        for i in T.Parallel(N):
            Q[i] = A[i] // D[i]
            R[i] = A[i] % D[i]
            TQ[i] = T.truncdiv(A[i], D[i])
            TR[i] = T.truncmod(A[i], D[i])
            CQ[i] = T.ceildiv(A[i], D[i])
            WQ[i] = W[i] // E[i]
            WR[i] = W[i] % E[i]
            UQ[i] = U[i] // V[i]
            UR[i] = U[i] % V[i]
*/
// Quotients by 0 are 0 and remainders by 0 the dividend (q * 0 + r == x
// still holds); INT_MIN // -1 wraps to INT_MIN with remainder 0; every other
// lane is Python's (floor) or C's (trunc) result.
#include "harness.h"
#include "kernel.h"

#include <climits>

static int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
static int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

TILEC_TEST(int_div_zero) {
  const int N = 16;
  std::vector<int32_t> a = {7, -7, 7, -7, 0, INT32_MIN, INT32_MIN, 5, -5, 100, 3, INT32_MAX, -1, 9, -9, 1};
  std::vector<int32_t> d = {2, 2, -2, 0, 0, -1, 0, 0, 3, 7, -1, 0, 0, -4, 4, 1};
  std::vector<int64_t> w(N), e(N);
  std::vector<uint32_t> u(N), v(N);
  for (int i = 0; i < N; ++i) {
    w[i] = i == 5 ? INT64_MIN : int64_t(a[i]) * 1000;
    e[i] = d[i];
    u[i] = uint32_t(a[i]);
    v[i] = uint32_t(d[i] < 0 ? 3 : d[i]);
  }
  auto q = zeros<int32_t>(N), r = zeros<int32_t>(N), tq = zeros<int32_t>(N), tr = zeros<int32_t>(N),
       cq = zeros<int32_t>(N);
  auto wq = zeros<int64_t>(N), wr = zeros<int64_t>(N);
  auto uq = zeros<uint32_t>(N), ur = zeros<uint32_t>(N);
  expectStatus(int_div_zero(a.data(), d.data(), w.data(), e.data(), u.data(), v.data(), q.data(), r.data(), tq.data(),
                            tr.data(), cq.data(), wq.data(), wr.data(), uq.data(), ur.data()),
               TILEC_SUCCESS);
  std::vector<int32_t> rq(N), rr(N), rtq(N), rtr(N), rcq(N);
  std::vector<int64_t> rwq(N), rwr(N);
  std::vector<uint32_t> ruq(N), rur(N);
  for (int i = 0; i < N; ++i) {
    int64_t x = a[i], y = d[i];
    bool wraps = x == INT32_MIN && y == -1;
    rq[i] = y == 0 ? 0 : wraps ? INT32_MIN : int32_t(floorDiv(x, y));
    rr[i] = y == 0 ? a[i] : wraps ? 0 : int32_t(floorMod(x, y));
    rtq[i] = y == 0 ? 0 : wraps ? INT32_MIN : int32_t(x / y);
    rtr[i] = y == 0 ? a[i] : wraps ? 0 : int32_t(x % y);
    rcq[i] = y == 0 ? 0 : wraps ? INT32_MIN : int32_t(-floorDiv(-x, y));
    bool wwraps = w[i] == INT64_MIN && e[i] == -1;
    rwq[i] = e[i] == 0 ? 0 : wwraps ? INT64_MIN : floorDiv(w[i], e[i]);
    rwr[i] = e[i] == 0 ? w[i] : wwraps ? 0 : floorMod(w[i], e[i]);
    ruq[i] = v[i] == 0 ? 0 : u[i] / v[i];
    rur[i] = v[i] == 0 ? u[i] : u[i] % v[i];
  }
  expectEqual("a // d", q, rq);
  expectEqual("a % d", r, rr);
  expectEqual("T.truncdiv", tq, rtq);
  expectEqual("T.truncmod", tr, rtr);
  expectEqual("T.ceildiv", cq, rcq);
  expectEqual("int64 //", wq, rwq);
  expectEqual("int64 %", wr, rwr);
  expectEqual("uint32 //", uq, ruq);
  expectEqual("uint32 %", ur, rur);
}
