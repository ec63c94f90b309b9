// TILE: ../../../examples/softmax/softmax.tile
// Dynamic dimensions whose tensors would be over 2^48 bytes (LaunchLimits.h:
// the element count, byte size or an index would overflow, or no address
// space holds them) return TILEC_ERROR_BAD_DIMENSION before anything runs,
// never a fault: X and Y are (M, 1024) float16, so 2^37 rows is the most.
// A null pointer still wins over a bad dimension (the order CUDA's launcher
// checks in too).
#include "harness.h"
#include "kernel.h"

TILEC_TEST(launcher_huge_dims) {
  const int64_t N = 1024;
  auto x = randomF16(size_t(4) * N, -4, 4);
  auto y = zeros<uint16_t>(size_t(4) * N);
  const int64_t bad[] = {(int64_t(1) << 37) + 1, int64_t(1) << 40, int64_t(1) << 52, int64_t(1) << 62,
                         INT64_MAX - 1, INT64_MAX};
  for (int64_t m : bad)
    expectStatus(softmax(x.data(), y.data(), m), TILEC_ERROR_BAD_DIMENSION, ("M = " + std::to_string(m)).c_str());
  expectStatus(softmax(nullptr, y.data(), int64_t(1) << 62), TILEC_ERROR_NULL_POINTER, "null X, M = 2^62");
  expectEqual("Y untouched", y, zeros<uint16_t>(size_t(4) * N));
  expectStatus(softmax(x.data(), y.data(), 4), TILEC_SUCCESS, "M = 4");
}
