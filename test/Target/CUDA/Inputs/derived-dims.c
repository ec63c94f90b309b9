/* Runs `derived` (Inputs/derived-dims.tile): on the host object it checks the
 * results of M = 5 (rows past each derived size untouched), then both builds
 * print the status of bad derived sizes. With -DCUDA it links against a
 * stand-in libcuda that prints every driver call: the checks come first. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef CUDA
#include "driver-stubs.h"
#define CALL(q, p, o, po, d, m) derived(q, p, o, po, d, m, 0)
#else
#define CALL(q, p, o, po, d, m) derived(q, p, o, po, d, m)
#endif

static float q[20 * 16], p[4 * 16], out[21 * 16], pout[4 * 16];
static int32_t dv[4];

static void call(const char *what, int64_t m) {
  printf("%s: %s\n", what, tilec_error_string(CALL(q, p, out, pout, dv, m)));
}

int main(void) {
  for (int i = 0; i < 20 * 16; ++i)
    q[i] = (float)i;
  for (int i = 0; i < 4 * 16; ++i)
    p[i] = (float)(100 + i), pout[i] = -1.0f;
  for (int i = 0; i < 21 * 16; ++i)
    out[i] = -1.0f;
  for (int i = 0; i < 4; ++i)
    dv[i] = -1;
#ifndef CUDA
  /* M = 5: 20 rows of Q and Out, 3 of P and POut, 3 elements of D. */
  call("M = 5", 5);
  int bad = 0;
  for (int i = 0; i < 21 * 16; ++i)
    bad += out[i] != (i < 20 * 16 ? 2.0f * (float)i : -1.0f);
  for (int i = 0; i < 4 * 16; ++i)
    bad += pout[i] != (i < 3 * 16 ? p[i] + 1.0f : -1.0f);
  for (int i = 0; i < 4; ++i)
    bad += dv[i] != (i < 3 ? i : -1);
  printf("M = 5: %d wrong elements\n", bad);
#endif
  call("M = 2 (M - 2 = 0)", 2);
  call("M = 1 (M - 2 = -1)", 1);
  call("M = 2^42 (Q over 2^48 bytes)", (int64_t)1 << 42);
  call("M = 2^61 (M * 4 wraps int64)", (int64_t)1 << 61);
  call("M = INT64_MAX", INT64_MAX);
#ifdef CUDA
  printf("driver calls: %d\n", driverCalls);
  call("M = 5", 5);
#endif
  return 0;
}
