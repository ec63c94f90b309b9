/* Uses the dispatch header of Inputs/scalars.tile as a Metal host program
 * would: the parameter struct's layout and the grid for M = 101. */
#include "scalars.h"

#include <stddef.h>
#include <stdio.h>

int main(void) {
  uint32_t grid[3];
  scalars_mtl_params p;
  p.M = 101;
  p.a = 1;
  p.b = 2;
  p.s = 0.5f;
  scalars_mtl_grid(p.M, p.a, p.b, p.s, grid);
  if (sizeof p < SCALARS_MTL_PARAMS_SIZE || SCALARS_MTL_BUFFER_B != 1 || scalars_mtl_buffers[1][0] != 1)
    return 1;
  printf("grid %u %u %u, params %d bytes, b at %zu, s at %zu\n", grid[0], grid[1], grid[2], SCALARS_MTL_PARAMS_SIZE,
         offsetof(scalars_mtl_params, b), offsetof(scalars_mtl_params, s));
  return 0;
}
