/* Runs cluster_rank (bench/cluster/cluster_rank.tile) of the host build over 6
 * blocks and prints each block's index and rank in its cluster of 2. */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int32_t y[6][2];
  for (int i = 0; i < 6; ++i)
    y[i][0] = y[i][1] = -7;
  printf("status %s\n", tilec_error_string(cluster_rank(&y[0][0], 6)));
  for (int i = 0; i < 6; ++i)
    printf("block %d rank %d\n", y[i][0], y[i][1]);
  return 0;
}
