// TILE: ../kernels/gemm_general.tile
// Bad launcher arguments return an error code and touch nothing: null
// pointers (TILEC_ERROR_NULL_POINTER, checked first), zero or negative
// dynamic dimensions (TILEC_ERROR_BAD_DIMENSION).
#include "harness.h"
#include "kernel.h"

TILEC_TEST(launcher_errors) {
  const int M = 8, N = 96, K = 80;
  auto a = randomF32(size_t(M) * K), b = randomF32(size_t(K) * N);
  std::vector<float> c(size_t(M) * N, 3.0f);
  expectStatus(gemm_general(nullptr, b.data(), c.data(), M), TILEC_ERROR_NULL_POINTER, "null A");
  expectStatus(gemm_general(a.data(), nullptr, c.data(), M), TILEC_ERROR_NULL_POINTER, "null B");
  expectStatus(gemm_general(a.data(), b.data(), nullptr, M), TILEC_ERROR_NULL_POINTER, "null C");
  expectStatus(gemm_general(nullptr, nullptr, nullptr, 0), TILEC_ERROR_NULL_POINTER, "null and zero");
  expectStatus(gemm_general(a.data(), b.data(), c.data(), 0), TILEC_ERROR_BAD_DIMENSION, "M = 0");
  expectStatus(gemm_general(a.data(), b.data(), c.data(), -5), TILEC_ERROR_BAD_DIMENSION, "M = -5");
  expectStatus(gemm_general(a.data(), b.data(), c.data(), INT64_MIN), TILEC_ERROR_BAD_DIMENSION, "M = INT64_MIN");
  expectEqual("C untouched", c, std::vector<float>(c.size(), 3.0f));
  expectStatus(gemm_general(a.data(), b.data(), c.data(), M), TILEC_SUCCESS, "valid call");
}
