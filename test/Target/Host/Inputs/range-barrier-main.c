// Calls scan (../range-barrier.tile) with X[t] = t + 1 and checks Y[t] = (t + 1)(t + 2) / 2.
#include "scan.h"
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int32_t x[64], y[64];
  for (int t = 0; t < 64; ++t)
    x[t] = t + 1;
  int status = scan(x, y);
  int ok = 1;
  for (int t = 0; t < 64; ++t)
    ok &= y[t] == (t + 1) * (t + 2) / 2;
  printf("status %d ok %d\n", status, ok);
  return 0;
}
