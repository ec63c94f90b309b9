/* Runs the host saxpy kernel (OFFSET=1.5) on 1000 elements and checks every one. */
#ifdef SAXPY_HEADER
#include SAXPY_HEADER
#else
#include "saxpy.h"
#endif

#include <stdio.h>

#define N 1000

int main(void) {
  static float x[N], y[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = (float)(N - i);
  }
  int status = saxpy(x, y, N, 2.0f);
  if (status != TILEC_SUCCESS) {
    fprintf(stderr, "saxpy: %s\n", tilec_error_string(status));
    return 1;
  }
  for (int i = 0; i < N; ++i) {
    float want = 2.0f * (float)i + (float)(N - i) + 1.5f;
    if (y[i] != want) {
      fprintf(stderr, "y[%d] = %g, want %g\n", i, y[i], want);
      return 1;
    }
  }
  printf("saxpy host: %d elements ok\n", N);
  return 0;
}
