// Calls add_scale (../iket-markers.tile): C[i] = (A[i] + B[i]) * Scale[0] for i < 10; C[10] is never written.
#include "iket.h"
#include <stdio.h>

int main(void) {
  float a[10], b[10], scale[1] = {0.5f}, c[11];
  for (int i = 0; i < 10; ++i) {
    a[i] = (float)i * 4.0f;
    b[i] = 3.0f + (float)i;
  }
  c[10] = 99.0f;
  int status = add_scale(a, b, scale, c);
  printf("status %d\n", status);
  for (int i = 0; i < 10; ++i)
    printf("%g%s", (double)c[i], i == 9 ? "\n" : " ");
  printf("%g\n", (double)c[10]);
  return 0;
}
