// Calls imp (../import-source.tile) with A[t] = t and prints B at 0, 1, 2, 63.
#include "imp.h"
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int32_t a[64], b[64];
  for (int t = 0; t < 64; ++t)
    a[t] = t;
  int status = imp(a, b);
  printf("status %d B %d %d %d %d\n", status, b[0], b[1], b[2], b[63]);
  return 0;
}
