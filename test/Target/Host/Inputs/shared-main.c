/* Links against the shared library built from shared.tile. */
#include <stdio.h>

int twice(const double *X, double *Y, long long N);

int main(void) {
  double x[5] = {1, 2, 3, 4, 5}, y[5] = {0};
  int rc = twice(x, y, 5);
  printf("rc=%d y=%g %g %g %g %g\n", rc, y[0], y[1], y[2], y[3], y[4]);
  printf("bad=%d\n", twice(x, y, 0));
  return 0;
}
