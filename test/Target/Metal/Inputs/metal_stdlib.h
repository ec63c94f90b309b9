// Declarations of the Metal Shading Language that tilec's generated MSL uses,
// for a syntax and type check with `clang++ -fsyntax-only -x c++` on Linux,
// where no Metal compiler exists. Not Apple's header: written from the MSL
// specification for this check only; it covers what SPIRV-Cross 2021.01.15
// emits for tilec's kernels and fails (undeclared identifier) on anything new.
//
// What C++ cannot express, and so is not checked:
// - address spaces: `device`, `constant`, `threadgroup` and `thread` expand
//   to nothing, so a pointer passed to the wrong address space is not caught;
// - the attributes `[[buffer(n)]]`, `[[thread_position_in_threadgroup]]`, ...
//   (clang ignores them with -Wno-unknown-attributes; FileCheck checks them);
// - SPIRV-Cross's spvUnsafeArray overloads its operator[] on the address
//   space of `this`, which C++ cannot: the check deletes that template from
//   the MSL and this header declares it with the `thread` overloads only.
#ifndef TILEC_TEST_METAL_STDLIB_H
#define TILEC_TEST_METAL_STDLIB_H

#define kernel
#define device
#define constant
#define threadgroup
#define thread

typedef __SIZE_TYPE__ size_t;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef _Float16 half;

namespace metal {

template <typename T, int N> using vec = T __attribute__((ext_vector_type(N)));
#define TILEC_MTL_VECTORS(T)                                                                                          \
  typedef T T##2 __attribute__((ext_vector_type(2)));                                                                \
  typedef T T##3 __attribute__((ext_vector_type(3)));                                                                \
  typedef T T##4 __attribute__((ext_vector_type(4)));
TILEC_MTL_VECTORS(char)
TILEC_MTL_VECTORS(uchar)
TILEC_MTL_VECTORS(short)
TILEC_MTL_VECTORS(ushort)
TILEC_MTL_VECTORS(int)
TILEC_MTL_VECTORS(uint)
TILEC_MTL_VECTORS(long)
TILEC_MTL_VECTORS(ulong)
TILEC_MTL_VECTORS(half)
TILEC_MTL_VECTORS(float)
#undef TILEC_MTL_VECTORS

// Reinterpretation (as_type<T>(x)): same size required, as in MSL.
template <typename T, typename U> T as_type(U x) {
  static_assert(sizeof(T) == sizeof(U), "as_type needs types of one size");
  return __builtin_bit_cast(T, x);
}

// Math (scalar forms; the generated code is scalarized). MSL has no double
// and reads an unsuffixed literal (`128.0`, as SPIRV-Cross writes them) as
// float; C++ reads it as double, so double overloads (and templates for a
// float operand with such a literal) exist here only to accept them.
#define TILEC_MTL_FLOAT_FN1(name)                                                                                     \
  half name(half);                                                                                                   \
  float name(float);                                                                                                 \
  double name(double);
#define TILEC_MTL_FLOAT_FN2(name)                                                                                     \
  half name(half, half);                                                                                             \
  float name(float, float);                                                                                          \
  template <typename T, typename U> decltype(T() + U()) name(T, U);
#define TILEC_MTL_MATH                                                                                                \
  TILEC_MTL_FLOAT_FN1(exp) TILEC_MTL_FLOAT_FN1(exp2) TILEC_MTL_FLOAT_FN1(exp10) TILEC_MTL_FLOAT_FN1(log)           \
  TILEC_MTL_FLOAT_FN1(log2) TILEC_MTL_FLOAT_FN1(log10) TILEC_MTL_FLOAT_FN1(sqrt) TILEC_MTL_FLOAT_FN1(rsqrt)        \
  TILEC_MTL_FLOAT_FN1(sin) TILEC_MTL_FLOAT_FN1(cos) TILEC_MTL_FLOAT_FN1(tan) TILEC_MTL_FLOAT_FN1(tanh)             \
  TILEC_MTL_FLOAT_FN1(sinh) TILEC_MTL_FLOAT_FN1(cosh) TILEC_MTL_FLOAT_FN1(asin) TILEC_MTL_FLOAT_FN1(acos)          \
  TILEC_MTL_FLOAT_FN1(atan) TILEC_MTL_FLOAT_FN1(floor) TILEC_MTL_FLOAT_FN1(ceil) TILEC_MTL_FLOAT_FN1(trunc)         \
  TILEC_MTL_FLOAT_FN1(round) TILEC_MTL_FLOAT_FN1(rint) TILEC_MTL_FLOAT_FN1(fabs) TILEC_MTL_FLOAT_FN1(sign)          \
  TILEC_MTL_FLOAT_FN1(erf) TILEC_MTL_FLOAT_FN2(pow) TILEC_MTL_FLOAT_FN2(powr) TILEC_MTL_FLOAT_FN2(fmod)             \
  TILEC_MTL_FLOAT_FN2(fmin) TILEC_MTL_FLOAT_FN2(fmax) TILEC_MTL_FLOAT_FN2(atan2) TILEC_MTL_FLOAT_FN2(copysign)
TILEC_MTL_MATH
namespace precise {
TILEC_MTL_MATH
}
namespace fast {
TILEC_MTL_MATH
}
#undef TILEC_MTL_MATH
#undef TILEC_MTL_FLOAT_FN1
#undef TILEC_MTL_FLOAT_FN2

bool isnan(half);
bool isnan(double);
bool isnan(float);
bool isinf(half);
bool isinf(float);
bool isfinite(half);
bool isfinite(float);
template <typename T, typename U> bool isunordered(T, U);
bool signbit(half);
bool signbit(float);
template <typename T> T fma(T, T, T);
template <typename T> T abs(T);
template <typename T> T min(T, T);
template <typename T> T max(T, T);
template <typename T> T clamp(T, T, T);
template <typename T> T select(T, T, bool);
template <typename T> T mix(T, T, T);
template <typename T> T mulhi(T, T);
template <typename T> T popcount(T);
template <typename T> T clz(T);
template <typename T> T ctz(T);
template <typename T> T reverse_bits(T);

// Threadgroup and SIMD-group functions.
enum class mem_flags { mem_none = 0, mem_device = 1, mem_threadgroup = 2, mem_texture = 4 };
inline mem_flags operator|(mem_flags a, mem_flags b) { return mem_flags(int(a) | int(b)); }
void threadgroup_barrier(mem_flags);
void simdgroup_barrier(mem_flags);
template <typename T> T simd_shuffle(T, ushort);
template <typename T> T simd_shuffle_xor(T, ushort);
template <typename T> T simd_shuffle_up(T, ushort);
template <typename T> T simd_shuffle_down(T, ushort);
template <typename T> T simd_broadcast(T, ushort);
template <typename T> T simd_sum(T);
template <typename T> T simd_max(T);
template <typename T> T simd_min(T);

// Atomics (metal_atomic): 32-bit integers.
enum memory_order { memory_order_relaxed };
struct atomic_int {
  int value;
};
struct atomic_uint {
  uint value;
};
int atomic_fetch_add_explicit(atomic_int *, int, memory_order);
uint atomic_fetch_add_explicit(atomic_uint *, uint, memory_order);
int atomic_fetch_sub_explicit(atomic_int *, int, memory_order);
uint atomic_fetch_sub_explicit(atomic_uint *, uint, memory_order);
int atomic_fetch_max_explicit(atomic_int *, int, memory_order);
uint atomic_fetch_max_explicit(atomic_uint *, uint, memory_order);
int atomic_fetch_min_explicit(atomic_int *, int, memory_order);
uint atomic_fetch_min_explicit(atomic_uint *, uint, memory_order);
int atomic_load_explicit(atomic_int *, memory_order);
uint atomic_load_explicit(atomic_uint *, memory_order);
void atomic_store_explicit(atomic_int *, int, memory_order);
void atomic_store_explicit(atomic_uint *, uint, memory_order);

} // namespace metal

// SPIRV-Cross's array wrapper, `thread` overloads only (see above).
template <typename T, size_t Num> struct spvUnsafeArray {
  T elements[Num ? Num : 1];
  T &operator[](size_t pos) { return elements[pos]; }
  constexpr const T &operator[](size_t pos) const { return elements[pos]; }
};

#endif // TILEC_TEST_METAL_STDLIB_H
