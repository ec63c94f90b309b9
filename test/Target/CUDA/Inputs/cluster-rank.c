/* Runs cluster_rank (bench/cluster/cluster_rank.tile) of the host build over 6
 * blocks and prints each block's index and rank in its cluster of 2, then
 * cluster_rank_2d over 4 x 4 blocks in clusters of 2 x 2. */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int32_t y[6][2];
  for (int i = 0; i < 6; ++i)
    y[i][0] = y[i][1] = -7;
  printf("status %s\n", tilec_error_string(cluster_rank(&y[0][0], 6)));
  for (int i = 0; i < 6; ++i)
    printf("block %d rank %d\n", y[i][0], y[i][1]);
  int32_t z[4][4];
  printf("status %s\n", tilec_error_string(cluster_rank_2d(&z[0][0], 4)));
  for (int i = 0; i < 4; ++i)
    printf("row %d: %d %d %d %d\n", i, z[i][0], z[i][1], z[i][2], z[i][3]);
  return 0;
}
