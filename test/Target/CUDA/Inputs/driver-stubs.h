/* A stand-in libcuda for the launcher tests (launcher-checks.c, derived-dims.c): every
 * driver call a CUDA launcher makes fails with CUDA_ERROR_INVALID_VALUE and is counted in
 * driverCalls (and printed, with STUBS_PRINT), so a test sees which checks come before the
 * driver. Include after the kernel's header (-include), which brings cuda.h. */
#include <stdio.h>

static int driverCalls;
#ifdef STUBS_PRINT
#define STUB_NOTE(name) printf("driver: " #name "\n")
#else
#define STUB_NOTE(name) ((void)0)
#endif
#define STUB(name, ...)                                                                                                \
  CUresult name(__VA_ARGS__) {                                                                                         \
    STUB_NOTE(name);                                                                                                   \
    ++driverCalls;                                                                                                     \
    return CUDA_ERROR_INVALID_VALUE;                                                                                   \
  }
STUB(cuCtxGetCurrent, CUcontext *ctx)
STUB(cuCtxGetDevice, CUdevice *dev)
STUB(cuDeviceGetAttribute, int *value, CUdevice_attribute attr, CUdevice dev)
STUB(cuModuleLoadData, CUmodule *module, const void *image)
STUB(cuModuleGetFunction, CUfunction *fn, CUmodule module, const char *name)
STUB(cuModuleUnload, CUmodule module)
STUB(cuFuncSetAttribute, CUfunction fn, CUfunction_attribute attr, int value)
STUB(cuLaunchKernel, CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
     unsigned shared, CUstream stream, void **params, void **extra)
