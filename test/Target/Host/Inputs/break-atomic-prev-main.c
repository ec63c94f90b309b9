// Calls brk (../break-atomic-prev.tile) with X[t] = t + 1 for t % 3 == 0, else -t; checks that Out's
// first Count entries are the threads with X[t] > 0, each once, and that Acc[t] = 1232 + t
// (12 from the nested loops, 2 x 110 + 1000 from the unrolled one).
#include "brk.h"
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int32_t x[64], out[64] = {0}, count[1], trips[1], h[4], acc[64];
  for (int t = 0; t < 64; ++t)
    x[t] = t % 3 == 0 ? t + 1 : -t;
  int status = brk(x, out, count, trips, h, acc);
  printf("status %d\n", status);
  int seen[64] = {0}, ok = 1;
  for (int i = 0; i < count[0] && i < 64; ++i) {
    int t = out[i];
    ok &= t >= 0 && t < 64 && x[t] > 0 && !seen[t];
    if (t >= 0 && t < 64)
      seen[t] = 1;
  }
  printf("count %d set ok %d\n", count[0], ok);
  printf("trips %d H %d %d %d %d\n", trips[0], h[0], h[1], h[2], h[3]);
  ok = 1;
  for (int t = 0; t < 64; ++t)
    ok &= acc[t] == 1232 + t;
  printf("acc ok %d\n", ok);
  return 0;
}
