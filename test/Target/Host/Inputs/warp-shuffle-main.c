// Calls shfl (../warp-shuffle.tile) with X[t] = 10 t and prints each output row.
#include "shfl.h"
#include <stdio.h>

static void row(const char *name, const int *v) {
  printf("%s", name);
  for (int i = 0; i < 16; ++i)
    printf(" %d", v[i]);
  printf("\n");
}

int main(void) {
  int x[16], xr[16], down[16], up[16], loop[16];
  for (int i = 0; i < 16; ++i)
    x[i] = 10 * i;
  int status = shfl(x, xr, down, up, loop);
  printf("status %d\n", status);
  row("xor", xr);
  row("down", down);
  row("up", up);
  row("loop", loop);
  return 0;
}
