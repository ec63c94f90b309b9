// Calls cpasync and cpbar (../cp-async.tile): A[i][j] = 32 i + j; checks that B is A reversed and
// prints rows of Z; cpbar's B must equal its A (f16 bits, copied unchanged).
#include "cpasync.h"
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int32_t a[4][32], b[4][32], z[16][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 32; ++j)
      a[i][j] = 32 * i + j;
  uint16_t ha[8][8], hb[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      ha[i][j] = (uint16_t)(0x3c00 + 8 * i + j), hb[i][j] = 0;
  int s1 = cpasync(&a[0][0], &b[0][0], &z[0][0]);
  int s2 = cpbar(&ha[0][0], &hb[0][0]);
  printf("status %d %d\n", s1, s2);
  int ok = 1;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 32; ++j)
      ok &= b[i][j] == a[3 - i][31 - j];
  printf("B ok %d\n", ok);
  int rows[] = {0, 1, 2, 15};
  for (int r = 0; r < 4; ++r)
    printf("Z%d %d %d %d %d\n", rows[r], z[rows[r]][0], z[rows[r]][1], z[rows[r]][2], z[rows[r]][3]);
  ok = 1;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      ok &= hb[i][j] == ha[i][j];
  printf("bar ok %d\n", ok);
  return 0;
}
