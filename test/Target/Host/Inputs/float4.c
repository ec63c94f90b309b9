/* Checks `encode` and `decode` (Inputs/float4.tile) against the e2m1 table:
 * round to nearest, ties to the even code, saturating at 6; NaN gives +6. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const float values[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                                 -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

static uint16_t f16bits(float f) { /* exact for the inputs below (all fit in binary16 or overflow to inf) */
  if (isnan(f))
    return 0x7E00;
  uint32_t u;
  memcpy(&u, &f, 4);
  uint16_t sign = (u >> 16) & 0x8000;
  float a = fabsf(f);
  if (a >= 65536.0f)
    return sign | 0x7C00;
  if (a == 0.0f)
    return sign;
  int e;
  float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  if (e - 1 < -14)         /* subnormal in binary16 */
    return sign | (uint16_t)lrintf(a * 16777216.0f);
  return sign | (uint16_t)(((e - 1 + 15) << 10) + lrintf((m * 2.0f - 1.0f) * 1024.0f));
}

static float halfvalue(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : ldexpf(1.0f + m / 1024.0f, e - 15);
  return (h & 0x8000) ? -v : v;
}

int main(void) {
  const float in[32] = {0.0f,    0.25f,  0.26f,   0.75f,  0.74f,    1.25f,     1.75f, 2.5f,   2.6f,  3.5f,   5.0f,
                        5.1f,    6.0f,   7.0f,    100.0f, INFINITY, -INFINITY, NAN,   -0.25f, -0.3f, -1.25f, -5.0f,
                        -100.0f, 1e-30f, -1e-30f, 0.5f,   1.0f,     1.5f,      3.0f,  4.0f,   -6.0f, -NAN};
  const int want[32] = {0,  0, 1, 2, 1,  2,  4,  4, 5, 6, 6, 7, 7, 7, 7,  7,
                        15, 7, 8, 9, 10, 14, 15, 0, 8, 1, 2, 3, 5, 6, 15, 7};
  uint16_t h[32], bf[32];
  for (int i = 0; i < 32; ++i) {
    uint32_t u;
    memcpy(&u, &in[i], 4);
    bf[i] =
        (uint16_t)(u >> 16); /* every input is exact in bfloat16 except 0.26/0.74/2.6/5.1, which stay on their side */
    h[i] = f16bits(in[i]);
  }
  uint8_t q[16], qh[16], qb[16];
  int rc = encode(in, h, bf, q, qh, qb);
  int bad = 0;
  for (int i = 0; i < 32; ++i) {
    int c = (q[i / 2] >> (4 * (i % 2))) & 15, ch = (qh[i / 2] >> (4 * (i % 2))) & 15,
        cb = (qb[i / 2] >> (4 * (i % 2))) & 15;
    if (c != want[i] || ch != want[i] || cb != want[i]) {
      printf("encode %g: codes %d %d %d, want %d\n", in[i], c, ch, cb, want[i]);
      ++bad;
    }
  }
  printf("encode: %s, %d wrong\n", tilec_error_string(rc), bad);
  uint8_t codes[8];
  for (int i = 0; i < 8; ++i)
    codes[i] = (uint8_t)((2 * i) | ((2 * i + 1) << 4));
  float y[16];
  uint16_t yh[16], yb[16];
  rc = decode(codes, y, yh, yb);
  bad = 0;
  for (int i = 0; i < 16; ++i) {
    uint32_t u = (uint32_t)yb[i] << 16;
    float b;
    memcpy(&b, &u, 4);
    if (y[i] != values[i] || signbit(y[i]) != signbit(values[i]) || halfvalue(yh[i]) != values[i] || b != values[i]) {
      printf("decode %d: %g %g %g, want %g\n", i, y[i], halfvalue(yh[i]), b, values[i]);
      ++bad;
    }
  }
  printf("decode: %s, %d wrong\n", tilec_error_string(rc), bad);
  return 0;
}
