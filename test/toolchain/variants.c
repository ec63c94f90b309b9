/* Two -D variants of one host kernel and its CUDA build, in one C program:
 * their headers are included together (distinct include guards from their
 * output paths) and their objects link (distinct symbols from --kernel-name
 * and --kernel-prefix). The host variants run and are checked; the CUDA
 * launcher is linked, never called (no GPU is assumed). */
#include "v1/scaled_add.h"
#include "v2/scaled_add.h"
#ifdef TILEC_TEST_CUDA
#include "cuda/scaled_add.h"
#endif

#include <math.h>
#include <stdio.h>

#define N 1000

static int check(const char *name, const float *a, const float *b, const float *c, float scale) {
  int bad = 0;
  for (int i = 0; i < N; ++i) {
    float want = a[i] * scale + b[i];
    if (fabsf(c[i] - want) > 1e-5f * (1.0f + fabsf(want))) {
      if (bad++ < 5)
        fprintf(stderr, "%s: C[%d] = %g, expected %g\n", name, i, c[i], want);
    }
  }
  return bad;
}

int main(void) {
  static float a[N], b[N], c1[N], c2[N];
  for (int i = 0; i < N; ++i) {
    a[i] = (float)(i % 17) - 8.0f;
    b[i] = 0.25f * (float)(i % 5);
    c1[i] = c2[i] = NAN;
  }
  if (scaled_add_v1(a, b, c1) != TILEC_SUCCESS || scaled_add_v2(a, b, c2) != TILEC_SUCCESS) {
    fprintf(stderr, "a launcher failed\n");
    return 1;
  }
  int bad = check("scaled_add_v1", a, b, c1, 2.0f) + check("scaled_add_v2", a, b, c2, -3.0f);
#ifdef TILEC_TEST_CUDA
  int (*volatile cudaLauncher)(const float *, const float *, float *, CUstream) = cuda_scaled_add;
  if (!cudaLauncher)
    ++bad;
#endif
  if (bad)
    return 1;
  printf("scaled_add_v1 (scale 2) and scaled_add_v2 (scale -3): %d elements each correct\n", N);
  return 0;
}
