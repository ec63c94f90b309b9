/* TILE
# Copies between global and fragment buffers convert element types: integers
# extend by their signedness, narrow by truncation, bool is != 0.
import tilelang.language as T

N = 100
block = 64

@T.prim_func
def convert_ints(I8: T.Tensor((N,), T.int8), U8: T.Tensor((N,), T.uint8), I16: T.Tensor((N,), T.int16),
                 I64: T.Tensor((N,), T.int64), U32: T.Tensor((N,), T.uint32), B: T.Tensor((N,), T.bool),
                 O1: T.Tensor((N,), T.int32), O2: T.Tensor((N,), T.float32), O3: T.Tensor((N,), T.float64),
                 O4: T.Tensor((N,), T.int32), O5: T.Tensor((N,), T.float64), O6: T.Tensor((N,), T.int32),
                 O7: T.Tensor((N,), T.uint8), O8: T.Tensor((N,), T.bool)):
    with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
        a = T.alloc_fragment((block,), T.int32)
        b = T.alloc_fragment((block,), T.float32)
        c = T.alloc_fragment((block,), T.float64)
        d = T.alloc_fragment((block,), T.int32)
        e = T.alloc_fragment((block,), T.float64)
        f = T.alloc_fragment((block,), T.int32)
        g = T.alloc_shared((block,), T.uint8)
        h = T.alloc_shared((block,), T.bool)
        T.copy(I8[bx * block], a)
        T.copy(U8[bx * block], b)
        T.copy(I16[bx * block], c)
        T.copy(I64[bx * block], d)
        T.copy(U32[bx * block], e)
        T.copy(B[bx * block], f)
        T.copy(I16[bx * block], g)
        T.copy(I8[bx * block], h)
        T.copy(a, O1[bx * block])
        T.copy(b, O2[bx * block])
        T.copy(c, O3[bx * block])
        T.copy(d, O4[bx * block])
        T.copy(e, O5[bx * block])
        T.copy(f, O6[bx * block])
        T.copy(g, O7[bx * block])
        T.copy(h, O8[bx * block])
*/
// int8, uint8, int16, int64, uint32 and bool through copies (N = 100 is not
// a multiple of the 64-element block: the last block reads zeros and drops
// writes past the end).
#include "harness.h"
#include "kernel.h"

TILEC_TEST(convert_ints) {
  const int N = 100;
  auto i8 = randomInt<int8_t>(N, -128, 127);
  auto u8 = randomInt<uint8_t>(N, 0, 255);
  auto i16 = randomInt<int16_t>(N, -32768, 32767);
  auto i64 = randomInt<int64_t>(N, INT64_MIN / 2, INT64_MAX / 2);
  auto u32 = randomInt<uint32_t>(N, 0, UINT32_MAX);
  std::vector<uint8_t> bools(N);
  for (int i = 0; i < N; ++i)
    bools[i] = uint8_t(i % 3 == 0);
  auto o1 = zeros<int32_t>(N), o4 = zeros<int32_t>(N), o6 = zeros<int32_t>(N);
  auto o2 = zeros<float>(N);
  auto o3 = zeros<double>(N), o5 = zeros<double>(N);
  auto o7 = zeros<uint8_t>(N), o8 = zeros<uint8_t>(N);
  expectStatus(convert_ints(i8.data(), u8.data(), i16.data(), i64.data(), u32.data(),
                            reinterpret_cast<const bool *>(bools.data()), o1.data(), o2.data(), o3.data(), o4.data(),
                            o5.data(), o6.data(), o7.data(), reinterpret_cast<bool *>(o8.data())),
               TILEC_SUCCESS);
  std::vector<int64_t> r1(N), r4(N), r6(N), r7(N), r8(N);
  std::vector<double> r2(N), r3(N), r5(N);
  for (int i = 0; i < N; ++i) {
    r1[i] = i8[i];
    r2[i] = u8[i];
    r3[i] = i16[i];
    r4[i] = int32_t(uint32_t(uint64_t(i64[i])));
    r5[i] = u32[i];
    r6[i] = bools[i];
    r7[i] = uint8_t(i16[i]);
    r8[i] = i8[i] != 0;
  }
  expectEqual("int8 -> int32", o1, r1);
  expectEqual("uint8 -> float32", o2, r2);
  expectEqual("int16 -> float64", o3, r3);
  expectEqual("int64 -> int32 (truncates)", o4, r4);
  expectEqual("uint32 -> float64", o5, r5);
  expectEqual("bool -> int32", o6, r6);
  expectEqual("int16 -> uint8 (truncates)", o7, r7);
  expectEqual("int8 -> bool", o8, r8);
}
