// Calls grid (../sync-grid.tile) with X[b][t] = 32 b + t; prints the row sums and checks
// Y[b][t] = S[(b + 1) % 4] + t.
#include "grid.h"
#include <stdio.h>

int main(void) {
  float x[4][32], y[4][32], s[4];
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 32; ++t)
      x[b][t] = (float)(32 * b + t);
  int status = grid(&x[0][0], &y[0][0], s);
  printf("status %d\n", status);
  printf("S %g %g %g %g\n", s[0], s[1], s[2], s[3]);
  int ok = 1;
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 32; ++t)
      ok &= y[b][t] == s[(b + 1) % 4] + t;
  printf("Y ok %d\n", ok);
  return 0;
}
