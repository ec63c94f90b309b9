/* Uses the dispatch header of Inputs/scalars32.tile as a WebGPU host program
 * would: the uniform struct's layout and size, the bindings, the grid for
 * M = 101. */
#include "scalars32.h"

#include <stddef.h>
#include <stdio.h>

int main(void) {
  uint32_t grid[3];
  scalars32_wgpu_params p;
  p.M = 101;
  p.a = 1;
  p.s = 0.5f;
  scalars32_wgpu_grid(p.M, p.a, p.s, grid);
  if (sizeof p != SCALARS32_WGPU_UNIFORM_SIZE || SCALARS32_WGPU_BINDING_B != 1 || SCALARS32_WGPU_UNIFORM_BINDING != 2)
    return 1;
  printf("grid %u %u %u, uniform %d bytes at binding %d, a at %zu, s at %zu\n", grid[0], grid[1], grid[2],
         SCALARS32_WGPU_UNIFORM_SIZE, SCALARS32_WGPU_UNIFORM_BINDING, offsetof(scalars32_wgpu_params, a),
         offsetof(scalars32_wgpu_params, s));
  return 0;
}
