// Calls checked (../device-assert.tile) with A = 0..7 (A[7] = argv[1]) and Lim = 7: B[0] = A[0] + 1,
// B[i] = A[i]; A[7] > 7 fails the kernel's assert (the process aborts).
#include "dassert.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int a[8] = {1, 1, 2, 3, 4, 5, 6, 7}, lim[1] = {7}, b[8] = {0};
  a[7] = argc > 1 ? atoi(argv[1]) : 7;
  if (a[7] <= 7)
    a[7] = 7;
  int status = checked(a, lim, b);
  printf("status %d\n", status);
  for (int i = 0; i < 8; ++i)
    printf("%d%s", b[i], i == 7 ? "\n" : " ");
  return 0;
}
