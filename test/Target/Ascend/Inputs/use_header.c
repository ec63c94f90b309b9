/* A host program's use of a generated Ascend header: the grid size, and the
   parameter table walked for the tensors' element counts. */
#include "softmax.h"

#include <stdio.h>

int main(void) {
  int64_t args[3] = {0, 0, 21};
  int i, d;
  printf("blocks %lld %lld %lld\n", (long long)softmax_ascend_blocks(21), (long long)softmax_ascend_blocks(4),
         (long long)softmax_ascend_blocks(0));
  for (i = 0; i < softmax_ascend_param_count; ++i) {
    const tilec_ascend_param *p = &softmax_ascend_params[i];
    long long n = 1;
    if (p->kind != 0)
      continue;
    for (d = 0; d < p->rank; ++d)
      n *= p->dims[d] >= 0 ? p->dims[d] : args[-1 - p->dims[d]];
    printf("%s %s %lld %s\n", p->name, p->dtype, n, p->written ? "written" : "read");
  }
  return 0;
}
