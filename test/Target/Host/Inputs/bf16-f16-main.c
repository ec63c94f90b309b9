// Calls bf16_f16 (../bf16-f16-copy.tile) on bfloat16 values and prints the float16 and bfloat16 results.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "bf16-f16.h"

static float fromBf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

int main(void) {
  // 1.5, -2.25, 3.140625, 100.5, 0.1 (rounded), -7 as bfloat16 bits
  uint16_t x[16] = {0x3FC0, 0xC010, 0x4049, 0x42C9, 0x3DCD, 0xC0E0};
  _Float16 y[16];
  uint16_t z[16];
  int status = bf16_f16(x, (uint16_t *)y, z);
  printf("status %d\n", status);
  for (int i = 0; i < 6; ++i)
    printf("%g %g\n", (double)y[i], (double)fromBf16(z[i]));
  return 0;
}
