/* Calls the print.tile kernel (see print.tile). */
#include <stdio.h>

int show(const float *X, float v);

int main(void) {
  float x[4] = {1.5f, -2.0f, 0.25f, 8.0f};
  int rc = show(x, 3.0f);
  fflush(stdout);
  return rc;
}
