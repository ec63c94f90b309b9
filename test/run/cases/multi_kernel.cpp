// TILE: ../kernels/multi_kernel.tile
// Two T.Kernel blocks per kernel function, with and without a T.alloc_global
// workspace; the workspace size, the null-workspace error and its name.
#include "harness.h"
#include "kernel.h"

#include <cstdlib>

TILEC_TEST(multi_kernel) {
  const int M = 75, N = 96, K = 256;
  auto a = randomF16(size_t(M) * K), b = randomF16(size_t(K) * N);
  std::vector<double> ref(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += double(f16ToF32(a[size_t(i) * K + k])) * f16ToF32(b[size_t(k) * N + j]);
      ref[size_t(i) * N + j] = acc;
    }

  // The workspace: 4 x M x N floats on one 256-byte boundary.
  size_t bytes = splitk_two_kernels_workspace_size(M);
  size_t expected = (size_t(4) * M * N * 4 + 255) / 256 * 256;
  if (bytes != expected)
    fail("workspace size " + std::to_string(bytes) + ", expected " + std::to_string(expected));
  std::vector<float> c(size_t(M) * N, -7.0f);
  expectStatus(splitk_two_kernels(a.data(), b.data(), c.data(), M, nullptr), TILEC_ERROR_NO_WORKSPACE,
               "null workspace");
  if (std::string(tilec_error_string(TILEC_ERROR_NO_WORKSPACE)) != "TILEC_ERROR_NO_WORKSPACE")
    fail(std::string("tilec_error_string: ") + tilec_error_string(TILEC_ERROR_NO_WORKSPACE));
  void *workspace = std::malloc(bytes);
  std::memset(workspace, 0xFF, bytes); // NaN partials unless the first block writes them all
  expectStatus(splitk_two_kernels(a.data(), b.data(), c.data(), M, workspace), TILEC_SUCCESS);
  expectClose("splitk C", c, ref, 1e-5, 1e-5);
  expectStatus(splitk_two_kernels(a.data(), b.data(), c.data(), 0, workspace), TILEC_ERROR_BAD_DIMENSION, "M = 0");
  std::free(workspace);

  // No workspace: the second T.Kernel reads rows the first one wrote.
  auto x = randomF32(size_t(M) * 64);
  std::vector<float> y(size_t(M) * 64, -7.0f), x0 = x;
  const float alpha = 1.5f;
  expectStatus(scale_then_shift(x.data(), y.data(), M, alpha), TILEC_SUCCESS);
  std::vector<float> yRef(y.size()), xRef(x.size());
  for (size_t i = 0; i < y.size(); ++i)
    yRef[i] = x0[i] * alpha;
  for (int r = 0; r < M; ++r)
    for (int j = 0; j < 64; ++j)
      xRef[size_t(r) * 64 + j] = yRef[size_t(r) * 64 + j] + yRef[size_t((r + 1) % M) * 64 + j];
  expectClose("scale Y", y, yRef, 1e-6);
  expectClose("shift X", x, xRef, 1e-6);
}
