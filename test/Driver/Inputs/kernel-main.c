/* A program with its own main() and the C library beside a kernel exported
   with --kernel-name or --kernel-prefix. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(void) {
  float a[64], b[64];
  for (int i = 0; i < 64; ++i)
    a[i] = (float)i;
  memset(b, 0, sizeof b);
  int status = KERNEL(a, b);
  printf("status %d b[3] %g exp(0) %g\n", status, b[3], exp(0.0));
  return status;
}
