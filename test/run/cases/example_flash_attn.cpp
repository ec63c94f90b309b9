// TILE: ../../../examples/flash_attention/flash_attn.tile -D batch=2 -D heads=2 -D seq_len=256 -D dim=64
// FlashAttention forward (online softmax over 128-row K/V blocks) against softmax(Q K^T / sqrt(d)) V
// computed in double from the same fp16 inputs; [batch, seq, heads, dim] layout.
#include "harness.h"
#include "kernel.h"

#include <cmath>

TILEC_TEST(example_flash_attn) {
  const int B = 2, S = 256, H = 2, D = 64;
  const size_t n = size_t(B) * S * H * D;
  auto q = randomF16(n), k = randomF16(n), v = randomF16(n);
  std::vector<uint16_t> o(n, 0xFFFF);
  expectStatus(flash_attn(q.data(), k.data(), v.data(), o.data()), TILEC_SUCCESS);
  auto at = [&](const std::vector<uint16_t> &t, int b, int s, int h, int d) {
    return double(f16ToF32(t[((size_t(b) * S + s) * H + h) * D + d]));
  };
  std::vector<float> ref(n);
  std::vector<double> p(S);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < S; ++i) {
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < S; ++j) {
          double dot = 0;
          for (int d = 0; d < D; ++d)
            dot += at(q, b, i, h, d) * at(k, b, j, h, d);
          p[j] = dot / std::sqrt(double(D));
          mx = std::max(mx, p[j]);
        }
        for (int j = 0; j < S; ++j)
          sum += (p[j] = std::exp(p[j] - mx));
        for (int d = 0; d < D; ++d) {
          double acc = 0;
          for (int j = 0; j < S; ++j)
            acc += p[j] * at(v, b, j, h, d);
          ref[((size_t(b) * S + i) * H + h) * D + d] = float(acc / sum);
        }
      }
  // P is rounded to fp16 before P V (as in tile-lang) and O to fp16 at the end.
  expectClose("O", decodeAll(o, kF16), ref, 2e-3, 2e-4);
}
