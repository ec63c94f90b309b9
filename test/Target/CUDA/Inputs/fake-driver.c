/* A stand-in for libcuda that lets a multi-arch gemm object run without a GPU.
 * Contexts carry a compute capability; cuModuleLoadData reads the fatbin's
 * entries (kind, sm) and refuses, as the driver does, an image with no cubin
 * of the device's major version at or below its minor one and no PTX at or
 * below its capability; launches print what the launcher chose. Built with
 * `-include <object>.h` (the launcher `gemm`). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  int major, minor;
  int failAttribute; /* cuFuncSetAttribute fails on this context */
} FakeContext;

static FakeContext *current;
static int tensorMaps;

CUresult cuCtxGetCurrent(CUcontext *ctx) {
  *ctx = (CUcontext)current;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *dev) {
  *dev = current->major * 10 + current->minor;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice dev) {
  if (attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
    *value = dev / 10;
  else if (attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
    *value = dev % 10;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

/* Fatbin: a 16-byte header (magic, version, header size, payload size), then
 * entries of (kind: 1 PTX / 2 ELF, header size, payload size, ..., sm at 28). */
CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  const unsigned char *p = (const unsigned char *)image;
  uint32_t magic;
  uint16_t headerSize;
  uint64_t total;
  memcpy(&magic, p, 4);
  memcpy(&headerSize, p + 6, 2);
  memcpy(&total, p + 8, 8);
  if (magic != 0xBA55ED50u)
    return CUDA_ERROR_INVALID_IMAGE;
  int cc = current->major * 10 + current->minor, fits = 0;
  printf("load:");
  for (uint64_t off = headerSize; off < headerSize + total;) {
    uint16_t kind;
    uint32_t entryHeader, sm;
    uint64_t size;
    memcpy(&kind, p + off, 2);
    memcpy(&entryHeader, p + off + 4, 4);
    memcpy(&size, p + off + 8, 8);
    memcpy(&sm, p + off + 28, 4);
    printf(" %s sm_%u", kind == 1 ? "ptx" : "elf", sm);
    if (kind == 2 && (int)sm / 10 == current->major && (int)sm % 10 <= current->minor)
      fits = 1;
    if (kind == 1 && (int)sm <= cc)
      fits = 1;
    off += entryHeader + size;
  }
  printf("%s\n", fits ? "" : " (no image for this device)");
  if (!fits)
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  *module = (CUmodule)current;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *fn, CUmodule module, const char *name) {
  *fn = (CUfunction)module;
  return strcmp(name, "gemm") == 0 ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuModuleUnload(CUmodule module) {
  printf("unload\n");
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction fn, CUfunction_attribute attr, int value) {
  printf("max dynamic shared: %d%s\n", value, ((FakeContext *)fn)->failAttribute ? " (refused)" : "");
  return ((FakeContext *)fn)->failAttribute ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
                                const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill fill) {
  ++tensorMaps;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream stream, void **params, void **extra) {
  printf("launch: grid %ux%ux%u block %ux%ux%u shared %u tensor maps %d\n", gx, gy, gz, bx, by, bz, shared,
         tensorMaps);
  tensorMaps = 0;
  return CUDA_SUCCESS;
}

/* Runs gemm (M = 256) on a context of capability major.minor. */
static void run(FakeContext *ctx) {
  current = ctx;
  printf("device %d.%d\n", ctx->major, ctx->minor);
  const uint16_t *a = (const uint16_t *)(uintptr_t)0x10000, *b = (const uint16_t *)(uintptr_t)0x20000;
  uint16_t *c = (uint16_t *)(uintptr_t)0x30000;
  printf("status %d\n", gemm(a, b, c, 256, 0));
}

/* A dynamic dimension whose grid the device cannot launch (M = 2^40: 2^33 block rows). */
static void runHuge(FakeContext *ctx) {
  current = ctx;
  printf("device %d.%d, M = 2^40\n", ctx->major, ctx->minor);
  const uint16_t *a = (const uint16_t *)(uintptr_t)0x10000, *b = (const uint16_t *)(uintptr_t)0x20000;
  uint16_t *c = (uint16_t *)(uintptr_t)0x30000;
  printf("status %d\n", gemm(a, b, c, (int64_t)1 << 40, 0));
}

int main(void) {
  static FakeContext ampere = {8, 6}, hopper = {9, 0}, turing = {7, 5}, blackwell = {10, 0}, ada = {8, 9};
  static FakeContext refusing = {8, 0, 1};
  run(&ampere);
  run(&ampere); /* cached: no second load */
  run(&hopper);
  run(&ampere); /* each context keeps its own image */
  run(&turing);
  run(&blackwell);
  run(&ada);
  run(&refusing); /* a failure after the load unloads the module */
  run(&refusing); /* and caches nothing: loaded and unloaded again */
  runHuge(&ampere); /* no launch: status 2 (bad dimension) */
  return 0;
}
