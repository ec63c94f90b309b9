// TILE: ../../../examples/gemm/gemm_fp8_splitk.tile -D 'M=T.dynamic("M")' -D N=200 -D K=512 -D split_k=2 -D dtype=T.float8_e5m2 -D out_dtype=T.float16
// fp8 split-K (issue #6): float8_e5m2 A (M x K) and B (N x K, transpose_B), grid (ceil(N / block_N),
// ceil(M / block_M), split_k), each block's K slice accumulated in fp32 and added into fp16 C with
// T.atomic_add. M and N are ragged against the tiles; C starts at 0.5 (not zero) to show the
// kernel adds into it.
#include "harness.h"
#include "kernel.h"
#include "splitk_fp8_check.h"

TILEC_TEST(gemm_splitk_fp8_e5m2) { checkSplitKFp8(77, 200, 512, 2, kE5M2, kF16); }
