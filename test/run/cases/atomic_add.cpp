// TILE: ../kernels/atomic_add.tile
// atomic_add region and element forms; an add at an index past the end of a
// global tensor (Count[5]) is dropped like a write.
#include "harness.h"
#include "kernel.h"
#include "atomic_add_check.h"

TILEC_TEST(atomic_add) { checkAtomicAdd(100, 2e-3, 2e-3); }
