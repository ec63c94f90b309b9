// TILE: ../kernels/atomic_add.tile -j 4
// The same atomics with blocks on four CPU threads: additions race, so fp16
// results may differ from the serial order by rounding.
#include "harness.h"
#include "kernel.h"
#include "atomic_add_check.h"

TILEC_TEST(atomic_add_threads) { checkAtomicAdd(1000, 2e-2, 5e-2); }
