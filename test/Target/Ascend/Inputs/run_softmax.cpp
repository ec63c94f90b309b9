// Runs a generated softmax kernel (k.cpp, included) on the Ascend C CPU model
// and checks that every row of the result sums to 1.
#include "ascendc_cpu.h"

#include "k.cpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int64_t n = std::atoi(argv[1]), m = 5;
  std::vector<half> x(m * n), y(m * n);
  for (int64_t i = 0; i < m * n; ++i)
    x[i] = static_cast<half>(std::sin(0.37 * i));
  ascendc_cpu::launch(2, softmax, reinterpret_cast<GM_ADDR>(x.data()), reinterpret_cast<GM_ADDR>(y.data()), m);
  for (int64_t r = 0; r < m; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < n; ++c)
      sum += static_cast<double>(y[r * n + c]);
    if (std::fabs(sum - 1) > 1e-2) {
      std::printf("row %lld sums to %g\n", (long long)r, sum);
      return 1;
    }
  }
  std::printf("rows sum to 1\n");
  return 0;
}
