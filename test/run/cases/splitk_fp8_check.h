// Shared by the fp8 split-K cases: runs gemm_fp8_splitk (A M x K and B N x K in fp8 format `in`,
// C M x N in 16-bit format `out`, starting at 0.5 so the kernel must add into it) and checks
// every element against a bound on its rounding error. Include after kernel.h.
#pragma once
#include "harness.h"

#include <cmath>

inline void checkSplitKFp8(int M, int N, int K, int split, const Format &in, const Format &out) {
  const int slice = K / split;
  std::vector<uint8_t> a(size_t(M) * K), b(size_t(N) * K);
  for (auto &v : a)
    v = uint8_t(encode(float(uniform(-2, 2)), in));
  for (auto &v : b)
    v = uint8_t(encode(float(uniform(-2, 2)), in));
  std::vector<uint16_t> c(size_t(M) * N, uint16_t(encode(0.5, out)));
  expectStatus(gemm_fp8_splitk(a.data(), b.data(), c.data(), M), TILEC_SUCCESS);
  // Bound per element: each slice's fp32 sum of exact products (slice adds: at most slice * 2^-24
  // of their absolute sum) is rounded to `out` and each add into C rounds again, at most half an
  // ulp (2^-(mantissa bits + 1)) of the value rounded, which is at most 0.5 + the slices' absolute
  // sums in any order of the adds: 2 * split roundings.
  std::vector<double> err(size_t(M) * N), zero(size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0.5, mag = 0.5, products = 0;
      for (int z = 0; z < split; ++z) {
        double s = 0;
        for (int k = z * slice; k < (z + 1) * slice; ++k) {
          double p = double(decode(a[size_t(i) * K + k], in)) * decode(b[size_t(j) * K + k], in);
          s += p;
          products += std::fabs(p);
        }
        ref += s;
        mag += std::fabs(s);
      }
      double bound = 2 * split * std::ldexp(mag, -(out.m + 1)) + std::ldexp(slice * products, -24);
      err[size_t(i) * N + j] = (decode(c[size_t(i) * N + j], out) - ref) / bound;
    }
  expectClose("(C - reference) / rounding bound", err, zero, 0, 1.0);
}
