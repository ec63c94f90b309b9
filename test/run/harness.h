//===- harness.h - The numeric test harness of the host target --*- C++ -*-===//
//
// A case is one file under test/run/cases/: a `// TILE:` line naming the
// kernel and its tilec flags (or an embedded `/* TILE ... */` kernel with an
// optional `// TILEC-FLAGS:` line), then a C++ reference and checks:
//
//   // TILE: ../kernels/add.tile -D N=100
//   #include "harness.h"
//   #include "kernel.h"
//   TILEC_TEST(add) {
//     auto x = randomF32(100), y = zeros<float>(100);
//     expectStatus(add(x.data(), y.data()), 0);
//     ...; expectClose("y", y, ref, 1e-6);
//   }
//
// Helpers: deterministic random data, fp16/bf16/fp8 encoding and decoding
// (round to nearest even; fp8 saturates like the host target), and
// comparisons by relative error that report the worst element.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TEST_RUN_HARNESS_H
#define TILEC_TEST_RUN_HARNESS_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace harness {

inline int &failures() {
  static int count = 0;
  return count;
}

inline std::mt19937_64 &rng() {
  static std::mt19937_64 engine(20261129);
  return engine;
}

//===----------------------------------------------------------------------===//
// Narrow float formats
//===----------------------------------------------------------------------===//

/// A binary float format with `e` exponent and `m` mantissa bits.
struct Format {
  int width, e, m, bias;
  bool ieee;     ///< all-ones exponent is inf/NaN (false: e4m3fn, NaN only at all ones)
  bool saturate; ///< overflow gives the largest finite value
};
constexpr Format kF16{16, 5, 10, 15, true, false};
constexpr Format kBF16{16, 8, 7, 127, true, false};
constexpr Format kE5M2{8, 5, 2, 15, true, true};
constexpr Format kE4M3{8, 4, 3, 7, false, true};

inline float decode(uint32_t bits, const Format &f) {
  uint32_t sign = (bits >> (f.width - 1)) & 1, exp = (bits >> f.m) & ((1u << f.e) - 1), man = bits & ((1u << f.m) - 1);
  float v;
  if (f.ieee && exp == (1u << f.e) - 1)
    v = man ? NAN : INFINITY;
  else if (!f.ieee && exp == (1u << f.e) - 1 && man == (1u << f.m) - 1)
    v = NAN;
  else if (exp == 0)
    v = std::ldexp(float(man), 1 - f.bias - f.m);
  else
    v = std::ldexp(float(man | (1u << f.m)), int(exp) - f.bias - f.m);
  return sign ? -v : v;
}

/// Round to nearest even, by search over the finite encodings' neighbours.
inline uint32_t encode(double x, const Format &f) {
  uint32_t sign = std::signbit(x) ? 1u << (f.width - 1) : 0;
  uint32_t nan = f.ieee ? (((1u << f.e) - 1) << f.m) | (1u << (f.m - 1)) : (1u << (f.width - 1)) - 1;
  uint32_t inf = ((1u << f.e) - 1) << f.m;
  uint32_t maxFinite = f.ieee ? inf - 1 : nan - 1;
  if (std::isnan(x))
    return sign | nan;
  double a = std::fabs(x);
  if (std::isinf(a))
    return sign | (f.saturate ? maxFinite : inf);
  // Binary search the largest encoding whose value is <= a.
  uint32_t lo = 0, hi = maxFinite;
  while (lo < hi) {
    uint32_t mid = (lo + hi + 1) / 2;
    if (decode(mid, f) <= a)
      lo = mid;
    else
      hi = mid - 1;
  }
  double below = decode(lo, f);
  if (below == a)
    return sign | lo;
  double above = lo == maxFinite ? std::ldexp(1.0, (1 << (f.e - 1)) + (f.ieee ? 0 : 1)) : decode(lo + 1, f);
  uint32_t pick;
  if (a - below < above - a)
    pick = lo;
  else if (a - below > above - a)
    pick = lo + 1;
  else
    pick = (lo & 1) ? lo + 1 : lo;
  if (pick > maxFinite)
    pick = f.saturate ? maxFinite : inf;
  return sign | pick;
}

inline float f16ToF32(uint16_t h) { return decode(h, kF16); }
inline uint16_t f32ToF16(float x) { return uint16_t(encode(x, kF16)); }
inline float bf16ToF32(uint16_t h) { return decode(h, kBF16); }
inline uint16_t f32ToBF16(float x) { return uint16_t(encode(x, kBF16)); }
inline float e4m3ToF32(uint8_t v) { return decode(v, kE4M3); }
inline uint8_t f32ToE4M3(float x) { return uint8_t(encode(x, kE4M3)); }
inline float e5m2ToF32(uint8_t v) { return decode(v, kE5M2); }
inline uint8_t f32ToE5M2(float x) { return uint8_t(encode(x, kE5M2)); }
/// x rounded to the format (what storing it as that dtype keeps).
inline float roundF16(float x) { return f16ToF32(f32ToF16(x)); }
inline float roundBF16(float x) { return bf16ToF32(f32ToBF16(x)); }

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

inline double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng()); }
inline int64_t uniformInt(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng()); }

template <typename T> std::vector<T> zeros(size_t n) { return std::vector<T>(n, T(0)); }

inline std::vector<float> randomF32(size_t n, double lo = -1, double hi = 1) {
  std::vector<float> v(n);
  for (float &x : v)
    x = float(uniform(lo, hi));
  return v;
}
inline std::vector<double> randomF64(size_t n, double lo = -1, double hi = 1) {
  std::vector<double> v(n);
  for (double &x : v)
    x = uniform(lo, hi);
  return v;
}
/// Random values of a narrow format, as its bits.
inline std::vector<uint16_t> randomF16(size_t n, double lo = -1, double hi = 1) {
  std::vector<uint16_t> v(n);
  for (uint16_t &x : v)
    x = f32ToF16(float(uniform(lo, hi)));
  return v;
}
inline std::vector<uint16_t> randomBF16(size_t n, double lo = -1, double hi = 1) {
  std::vector<uint16_t> v(n);
  for (uint16_t &x : v)
    x = f32ToBF16(float(uniform(lo, hi)));
  return v;
}
template <typename T> std::vector<T> randomInt(size_t n, int64_t lo, int64_t hi) {
  std::vector<T> v(n);
  for (T &x : v)
    x = T(uniformInt(lo, hi));
  return v;
}

/// Packs signed 4-bit values two per byte, element 2i in the low nibble.
inline std::vector<uint8_t> packInt4(const std::vector<int> &values) {
  std::vector<uint8_t> packed((values.size() + 1) / 2, 0);
  for (size_t i = 0; i < values.size(); ++i)
    packed[i / 2] |= uint8_t((values[i] & 0xF) << ((i % 2) * 4));
  return packed;
}
inline int unpackInt4(const std::vector<uint8_t> &packed, size_t i, bool isSigned = true) {
  int nib = (packed[i / 2] >> ((i % 2) * 4)) & 0xF;
  return isSigned && nib >= 8 ? nib - 16 : nib;
}

/// Converts bits of a narrow format to floats.
inline std::vector<float> decodeAll(const std::vector<uint16_t> &bits, const Format &f) {
  std::vector<float> out(bits.size());
  for (size_t i = 0; i < bits.size(); ++i)
    out[i] = decode(bits[i], f);
  return out;
}
inline std::vector<float> decodeAll(const std::vector<uint8_t> &bits, const Format &f) {
  std::vector<float> out(bits.size());
  for (size_t i = 0; i < bits.size(); ++i)
    out[i] = decode(bits[i], f);
  return out;
}

/// Reference C[i][j] = sum_k a(i, k) * b(k, j), in double.
template <typename FA, typename FB> std::vector<double> matmulRef(int M, int N, int K, FA a, FB b) {
  std::vector<double> c(size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      double av = a(i, k);
      for (int j = 0; j < N; ++j)
        c[size_t(i) * N + j] += av * double(b(k, j));
    }
  return c;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

inline void fail(const std::string &what) {
  std::printf("FAIL: %s\n", what.c_str());
  ++failures();
}

inline void expectStatus(int got, int expected, const char *what = "launcher status") {
  if (got != expected)
    fail(std::string(what) + ": got " + std::to_string(got) + ", expected " + std::to_string(expected));
}

/// |got - ref| <= atol + rtol * |ref| for every element; reports the worst.
template <typename A, typename B>
void expectClose(const char *name, const std::vector<A> &got, const std::vector<B> &ref, double rtol, double atol = 0) {
  if (got.size() != ref.size()) {
    fail(std::string(name) + ": size " + std::to_string(got.size()) + " vs " + std::to_string(ref.size()));
    return;
  }
  size_t worst = 0, bad = 0;
  double worstExcess = -1;
  for (size_t i = 0; i < got.size(); ++i) {
    double g = double(got[i]), r = double(ref[i]);
    if ((std::isnan(g) && std::isnan(r)) || g == r)
      continue;
    double excess = std::fabs(g - r) - (atol + rtol * std::fabs(r));
    if (std::isnan(excess) || excess > 0)
      ++bad;
    if (std::isnan(excess) || excess > worstExcess) {
      worstExcess = std::isnan(excess) ? INFINITY : excess;
      worst = i;
    }
  }
  if (bad) {
    char line[256];
    std::snprintf(line, sizeof line, "%s: %zu of %zu elements differ; worst [%zu] got %.9g expected %.9g", name, bad,
                  got.size(), worst, double(got[worst]), double(ref[worst]));
    fail(line);
  } else {
    std::printf("ok: %s (%zu elements)\n", name, got.size());
  }
}

/// A 16-bit GEMM's C (M x N, format f) against the double product of its 16-bit operands
/// (A stored M x K, or K x M with transA; B K x N, or N x K with transB), rounded to f.
inline void expectGemm16(const std::vector<uint16_t> &a, const std::vector<uint16_t> &b, const std::vector<uint16_t> &c,
                         int M, int N, int K, bool transA, bool transB, const Format &f, double rtol, double atol) {
  auto ref = matmulRef(
      M, N, K, [&](int i, int k) { return decode(transA ? a[size_t(k) * M + i] : a[size_t(i) * K + k], f); },
      [&](int k, int j) { return decode(transB ? b[size_t(j) * K + k] : b[size_t(k) * N + j], f); });
  std::vector<float> want(ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    want[i] = decode(encode(float(ref[i]), f), f);
  expectClose("C", decodeAll(c, f), want, rtol, atol);
}

/// Exact equality (integers, bits).
template <typename A, typename B>
void expectEqual(const char *name, const std::vector<A> &got, const std::vector<B> &ref) {
  expectClose(name, got, ref, 0, 0);
}

} // namespace harness

/// Defines the case body and a main that runs it; the exit code is the
/// number of failed checks (0: pass).
#define TILEC_TEST(name)                                                                                               \
  static void tilecTestBody_##name();                                                                                  \
  int main() {                                                                                                         \
    tilecTestBody_##name();                                                                                            \
    if (harness::failures())                                                                                           \
      std::printf("%s: %d check(s) failed\n", #name, harness::failures());                                             \
    return harness::failures() ? 1 : 0;                                                                                \
  }                                                                                                                    \
  static void tilecTestBody_##name()

using namespace harness;

#endif // TILEC_TEST_RUN_HARNESS_H
