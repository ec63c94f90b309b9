/* Calls the launcher `twice` (Inputs/launcher-checks.tile) with bad arguments
 * and prints each status. Built against the host object, or (with -DCUDA)
 * against the CUDA object and a stand-in libcuda that prints every driver
 * call, so that the test sees which checks come before the driver. */
#include <stdint.h>
#include <stdio.h>

#ifdef CUDA
#define STUBS_PRINT
#include "driver-stubs.h"
#define CALL(a, b, m) twice(a, b, m, 0)
#else
#define CALL(a, b, m) twice(a, b, m)
#endif

static void call(const char *what, const float *a, float *b, int64_t m) {
  printf("%s: %s\n", what, tilec_error_string(CALL(a, b, m)));
}

int main(void) {
  const float *a = (const float *)(uintptr_t)0x10000;
  float *b = (float *)(uintptr_t)0x20000, *odd = (float *)(uintptr_t)0x20004;
  call("null A, M = 0", 0, b, 0);
  call("null B, M = 2^62", a, 0, (int64_t)1 << 62);
  call("M = 0", a, b, 0);
  call("M = -1", a, b, -1);
  call("M = 2^38 + 1", a, b, ((int64_t)1 << 38) + 1);
  call("M = 2^40", a, b, (int64_t)1 << 40);
  call("M = 2^52", a, b, (int64_t)1 << 52);
  call("M = 2^62", a, b, (int64_t)1 << 62);
  call("M = INT64_MAX", a, b, INT64_MAX);
  call("misaligned B, M = 2^62", a, odd, (int64_t)1 << 62);
#ifdef CUDA
  printf("driver calls: %d\n", driverCalls);
  /* Within the size limit (2^34 + 8 rows: 2^44 bytes) but 2^31 + 1 blocks: the
   * grid check, still before any driver call. */
  call("M = 2^34 + 8", a, b, ((int64_t)1 << 34) + 8);
  printf("driver calls: %d\n", driverCalls);
  call("M = 8", a, b, 8);
#endif
  return 0;
}
