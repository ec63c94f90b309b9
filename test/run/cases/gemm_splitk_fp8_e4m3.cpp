// TILE: ../../../examples/gemm/gemm_fp8_splitk.tile -D 'M=T.dynamic("M")' -D N=200 -D K=512 -D split_k=4 -D block_M=128 -D block_N=256 -D threads=256
// fp8 split-K (issue #6): float8_e4m3 A (M x K) and B (N x K, transpose_B), grid (ceil(N / block_N),
// ceil(M / block_M), split_k), each block's K slice accumulated in fp32 and added into bf16 C with
// T.atomic_add. M and N are ragged against the tiles; C starts at 0.5 (not zero) to show the
// kernel adds into it.
#include "harness.h"
#include "kernel.h"
#include "splitk_fp8_check.h"

TILEC_TEST(gemm_splitk_fp8_e4m3) { checkSplitKFp8(130, 200, 512, 4, kE4M3, kBF16); }
