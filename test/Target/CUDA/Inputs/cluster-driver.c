/* A stand-in for libcuda that prints the launches of Inputs/cluster-kernels.tile's
 * launchers: cuLaunchKernelEx's whole configuration and attributes (so the test
 * sees the CUlaunchConfig / CUlaunchAttribute layout the launcher builds), and
 * counts driver calls, so that the test sees the grid checks come first. Built
 * with `-include <object>.h`. */
#include <stdint.h>
#include <stdio.h>

static int driverCalls;
static int context = 1;

CUresult cuCtxGetCurrent(CUcontext *ctx) {
  ++driverCalls;
  *ctx = (CUcontext)&context;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  ++driverCalls;
  *module = (CUmodule)&context;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *fn, CUmodule module, const char *name) {
  ++driverCalls;
  printf("function %s\n", name);
  *fn = (CUfunction)name;
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) { return CUDA_SUCCESS; }

CUresult cuFuncSetAttribute(CUfunction fn, CUfunction_attribute attr, int value) {
  ++driverCalls;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream stream, void **params, void **extra) {
  ++driverCalls;
  printf("cuLaunchKernel %s: grid %ux%ux%u block %ux%ux%u shared %u\n", (const char *)fn, gx, gy, gz, bx, by, bz,
         shared);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction fn, void **params, void **extra) {
  ++driverCalls;
  printf("cuLaunchKernelEx %s: grid %ux%ux%u block %ux%ux%u shared %u stream %p attributes %u%s\n", (const char *)fn,
         c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ, c->sharedMemBytes,
         (void *)c->hStream, c->numAttrs, extra ? " extra" : "");
  for (unsigned i = 0; i < c->numAttrs; ++i)
    if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      printf("  cluster %ux%ux%u\n", c->attrs[i].value.clusterDim.x, c->attrs[i].value.clusterDim.y,
             c->attrs[i].value.clusterDim.z);
    else
      printf("  attribute %d\n", (int)c->attrs[i].id);
  /* The kernel's parameters: X's pointers (allocated, aligned), offset, sizes. */
  printf("  X %p %p, offset %lld, sizes %lld x %lld\n", *(void **)params[0], *(void **)params[1],
         (long long)*(int64_t *)params[2], (long long)*(int64_t *)params[3], (long long)*(int64_t *)params[4]);
  return CUDA_SUCCESS;
}

typedef int (*Launcher)(const float *, float *, int64_t, CUstream);

static void call(const char *name, Launcher f, int64_t m) {
  const float *x = (const float *)(uintptr_t)0x10000;
  float *y = (float *)(uintptr_t)0x20000;
  int before = driverCalls;
  int status = f(x, y, m, (CUstream)(uintptr_t)0x5000);
  printf("%s, M = %lld: %s, %d driver calls\n", name, (long long)m, tilec_error_string(status), driverCalls - before);
}

int main(void) {
  call("cluster_rows", cluster_rows, 8);   /* 2 blocks: one cluster */
  call("cluster_rows", cluster_rows, 32);  /* 8 blocks */
  call("cluster_rows", cluster_rows, 4);   /* 1 block: not a multiple of 2 */
  call("cluster_rows", cluster_rows, 12);  /* 3 blocks */
  call("cluster_tiles", cluster_tiles, 8); /* 2x2 blocks */
  call("cluster_tiles", cluster_tiles, 9); /* 2x3 blocks */
  call("plain_rows", plain_rows, 12);      /* no clusters: cuLaunchKernel */
  return 0;
}
