// GPU check of T.call_extern (docs/cuda.md, "Device code of T.import_source"): the kernels of
// test/Target/CUDA/extern-call.tile (a template over the element type, inline-PTX lop3,
// pointers into local, shared and global memory) and tile-lang's bitnet int8 x int2 decode GEMV
// (its decode_i2u_to_i8s CUDA source) against references computed here. run.sh builds it.
#include "bit.h"
#include "ext.h"

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                                          \
  do {                                                                                                                 \
    CUresult r_ = (x);                                                                                                 \
    if (r_ != CUDA_SUCCESS) {                                                                                          \
      const char *s_ = 0;                                                                                              \
      cuGetErrorString(r_, &s_);                                                                                       \
      printf("FAIL %s: %s\n", #x, s_ ? s_ : "?");                                                                      \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)
#define LAUNCH(x)                                                                                                      \
  do {                                                                                                                 \
    int s_ = (x);                                                                                                      \
    if (s_ != TILEC_SUCCESS) {                                                                                         \
      printf("FAIL %s: %s\n", #x, tilec_error_string(s_));                                                             \
      exit(1);                                                                                                         \
    }                                                                                                                  \
    CK(cuCtxSynchronize());                                                                                            \
  } while (0)

static CUdeviceptr upload(const void *p, size_t n) {
  CUdeviceptr d;
  CK(cuMemAlloc(&d, n));
  CK(cuMemcpyHtoD(d, p, n));
  return d;
}
static CUdeviceptr poisoned(size_t n) {
  CUdeviceptr d;
  CK(cuMemAlloc(&d, n));
  CK(cuMemsetD8(d, 0xAB, n));
  return d;
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  srand(12345);
  int bad = 0;

  // ext_local: B[r, i] = A[r, i] + A[r, 3 - i] (mirror_add), C[r] = (A[r, 0] & A[r, 1]) | A[r, 2] (lop3 0xEA).
  {
    int32_t A[256 * 4], B[256 * 4];
    uint32_t C[256];
    for (int i = 0; i < 256 * 4; ++i)
      A[i] = (int32_t)((unsigned)rand() * 2654435761u);
    CUdeviceptr dA = upload(A, sizeof A), dB = poisoned(sizeof B), dC = poisoned(sizeof C);
    LAUNCH(ext_local((const int32_t *)dA, (int32_t *)dB, (uint32_t *)dC, 0));
    CK(cuMemcpyDtoH(B, dB, sizeof B));
    CK(cuMemcpyDtoH(C, dC, sizeof C));
    int wrong = 0;
    for (int r = 0; r < 256; ++r) {
      for (int i = 0; i < 4; ++i)
        wrong += B[r * 4 + i] != (int32_t)((uint32_t)A[r * 4 + i] + (uint32_t)A[r * 4 + 3 - i]);
      uint32_t a = A[r * 4], b = A[r * 4 + 1], c = A[r * 4 + 2];
      wrong += C[r] != ((a & b) | c);
    }
    printf("ext_local   %s (%d wrong of %d)\n", wrong ? "FAIL" : "ok", wrong, 256 * 5);
    bad |= wrong != 0;
  }
  // ext_memory: Y[t] = 6 X[127 - t] (scale by 2 in shared, by 3 in global).
  {
    float X[128], Y[128];
    for (int i = 0; i < 128; ++i)
      X[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    CUdeviceptr dX = upload(X, sizeof X), dY = poisoned(sizeof Y);
    LAUNCH(ext_memory((const float *)dX, (float *)dY, 0));
    CK(cuMemcpyDtoH(Y, dY, sizeof Y));
    int wrong = 0;
    for (int t = 0; t < 128; ++t)
      wrong += Y[t] != (X[127 - t] * 2.0f) * 3.0f;
    printf("ext_memory  %s (%d wrong of 128)\n", wrong ? "FAIL" : "ok", wrong);
    bad |= wrong != 0;
  }
  // ext_parallel: B = 2 A (T.Parallel over a fragment).
  {
    int32_t A[256], B[256];
    for (int i = 0; i < 256; ++i)
      A[i] = rand() - RAND_MAX / 2;
    CUdeviceptr dA = upload(A, sizeof A), dB = poisoned(sizeof B);
    LAUNCH(ext_parallel((const int32_t *)dA, (int32_t *)dB, 0));
    CK(cuMemcpyDtoH(B, dB, sizeof B));
    int wrong = 0;
    for (int i = 0; i < 256; ++i)
      wrong += B[i] != (int32_t)(2u * (uint32_t)A[i]);
    printf("ext_parallel %s (%d wrong of 256)\n", wrong ? "FAIL" : "ok", wrong);
    bad |= wrong != 0;
  }
  // ext_var: A = 5 A in place (the address of a T.alloc_var).
  {
    int32_t A[64], R[64];
    for (int i = 0; i < 64; ++i)
      A[i] = rand() - RAND_MAX / 2;
    CUdeviceptr dA = upload(A, sizeof A);
    LAUNCH(ext_var((int32_t *)dA, 0));
    CK(cuMemcpyDtoH(R, dA, sizeof R));
    int wrong = 0;
    for (int i = 0; i < 64; ++i)
      wrong += R[i] != (int32_t)(5u * (uint32_t)A[i]);
    printf("ext_var     %s (%d wrong of 64)\n", wrong ? "FAIL" : "ok", wrong);
    bad |= wrong != 0;
  }
  // bitnet decode, M=3 N=100 K=1024: C[m, n] = sum_k A[m, k] * w(n, k), where the thread's 4
  // bytes q of B hold its 16 weights interleaved: element 4 i + j is (q[j] >> 2 i) & 3.
  {
    enum { M = 3, N = 100, K = 1024, KB = K / 4 };
    static int8_t A[M * K], Bq[N * KB];
    static int32_t C[M * N];
    for (int i = 0; i < M * K; ++i)
      A[i] = (int8_t)(rand() & 0xff);
    for (int i = 0; i < N * KB; ++i)
      Bq[i] = (int8_t)(rand() & 0xff);
    CUdeviceptr dA = upload(A, sizeof A), dB = upload(Bq, sizeof Bq), dC = poisoned(sizeof C);
    LAUNCH(bitnet_158_int8xint2_decode((const int8_t *)dA, (const int8_t *)dB, (int32_t *)dC, 0));
    CK(cuMemcpyDtoH(C, dC, sizeof C));
    int wrong = 0;
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        int32_t acc = 0;
        for (int k = 0; k < K; ++k) {
          int group = k / 16, e = k % 16, i = e / 4, j = e % 4;
          uint8_t q = (uint8_t)Bq[n * KB + group * 4 + j];
          acc += A[m * K + k] * ((q >> (2 * i)) & 3);
        }
        if (C[m * N + n] != acc && wrong++ < 3)
          printf("  C[%d, %d] = %d, expected %d\n", m, n, C[m * N + n], acc);
      }
    printf("bitnet      %s (%d wrong of %d)\n", wrong ? "FAIL" : "ok", wrong, M * N);
    bad |= wrong != 0;
  }
  printf("%s\n", bad ? "FAILED" : "ALL OK");
  return bad;
}
