/* Runs the sm_90a saxpy kernel on 1000 elements on the first CUDA device and checks every one. */
#include "saxpy.h"

#include <cuda.h>
#include <stdio.h>

#define N 1000

static int check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "%s failed (%d)\n", what, (int)r);
    return 1;
  }
  return 0;
}

int main(void) {
  static float x[N], y[N];
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr dx, dy;
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = (float)(N - i);
  }
  if (check(cuInit(0), "cuInit") || check(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
      check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
      check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent") || check(cuMemAlloc(&dx, sizeof x), "cuMemAlloc") ||
      check(cuMemAlloc(&dy, sizeof y), "cuMemAlloc") || check(cuMemcpyHtoD(dx, x, sizeof x), "cuMemcpyHtoD") ||
      check(cuMemcpyHtoD(dy, y, sizeof y), "cuMemcpyHtoD"))
    return 1;
  int status = saxpy((const float *)dx, (float *)dy, N, 2.0f, 0);
  if (status != TILEC_SUCCESS) {
    fprintf(stderr, "saxpy: %s\n", tilec_error_string(status));
    return 1;
  }
  if (check(cuCtxSynchronize(), "cuCtxSynchronize") || check(cuMemcpyDtoH(y, dy, sizeof y), "cuMemcpyDtoH"))
    return 1;
  for (int i = 0; i < N; ++i) {
    float want = 2.0f * (float)i + (float)(N - i);
    if (y[i] != want) {
      fprintf(stderr, "y[%d] = %g, want %g\n", i, y[i], want);
      return 1;
    }
  }
  printf("saxpy sm_90a: %d elements ok\n", N);
  return 0;
}
