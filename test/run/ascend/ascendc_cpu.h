//===- ascendc_cpu.h - A CPU model of the Ascend C API subset tilec emits -*- C++ -*-===//
//
// Header-only, written by the tilec project from the public Ascend C API
// reference (hiascend.com); not Huawei's code and not its CPU simulator. It
// implements exactly the API the ascend target emits, with the documented
// semantics, and aborts with a message on every misuse it can see:
//
// - Unified Buffer: 192 KiB per core (Atlas A2); TPipe::InitBuffer beyond it;
//   a LocalTensor access outside its TBuf. The UB starts each core filled
//   with 0xFF bytes (NaN as float/half), so reading what nothing wrote shows.
// - DataCopy (GM <-> UB, count mode): count * sizeof(T) a multiple of 32
//   bytes, the UB address 32-byte aligned. DataCopyPad: exact bytes to GM;
//   into UB whole 32-byte blocks, the bytes past blockLen left undefined
//   (filled with 0xFF here) unless padded.
// - Vector instructions (count mode): every operand 32-byte aligned, count
//   > 0 and within every operand, operands identical or disjoint, the
//   element types each instruction takes.
// - GlobalTensor: every access inside the size given to SetGlobalBuffer.
// - Pipes: each UB byte remembers the pipe (MTE2, V, S, MTE3) that last wrote
//   or read it. Using it from another pipe without PipeBarrier<PIPE_ALL>()
//   in between is a hazard (scalar after scalar and queue-ordered MTE
//   transfers are ordered by hardware); vector after vector needs
//   PipeBarrier<PIPE_V>() (the reference's own example).
// - SetAtomicAdd<T>: UB -> GM transfers add elementwise until SetAtomicNone,
//   which the kernel must reach before it returns.
//
// A test runs a kernel with ascendc_cpu::launch(blockDim, kernel, args...),
// which calls it once per block index on a fresh core.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TEST_RUN_ASCEND_ASCENDC_CPU_H
#define TILEC_TEST_RUN_ASCEND_ASCENDC_CPU_H

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#define __global__
#define __aicore__
#define __gm__
#define GM_ADDR uint8_t *

using half = _Float16;

enum pipe_t { PIPE_S = 0, PIPE_V = 1, PIPE_M = 2, PIPE_MTE1 = 3, PIPE_MTE2 = 4, PIPE_MTE3 = 5, PIPE_ALL = 6 };

namespace ascendc_cpu {

[[noreturn]] inline void misuse(const char *format, ...) {
  std::va_list args;
  va_start(args, format);
  std::fprintf(stderr, "ascendc_cpu: misuse: ");
  std::vfprintf(stderr, format, args);
  std::fprintf(stderr, "\n");
  va_end(args);
  std::abort();
}

constexpr size_t kUnifiedBufferBytes = 192 * 1024;

inline const char *pipeName(int p) {
  switch (p) {
  case PIPE_S: return "S";
  case PIPE_V: return "V";
  case PIPE_MTE2: return "MTE2";
  case PIPE_MTE3: return "MTE3";
  default: return "?";
  }
}

/// One AI Core's state while a block runs.
struct Core {
  alignas(64) uint8_t ub[kUnifiedBufferBytes];
  /// Per UB byte: 1 + the pipe that last wrote it (0: ordered for everyone),
  /// bit 0x80 once a PipeBarrier<PIPE_V> ordered a vector write.
  uint8_t writer[kUnifiedBufferBytes];
  /// Per UB byte: 1 + the pipe that last read it, if not S (0: none).
  uint8_t reader[kUnifiedBufferBytes];
  size_t touchedLo = kUnifiedBufferBytes, touchedHi = 0;
  int64_t blockIdx = 0, blockNum = 1;
  /// SetAtomicAdd<T>'s element type (size and kind), 0 when none.
  int atomicKind = 0;
  size_t ubUsed = 0;
  bool pipeAlive = false;

  void reset() {
    std::memset(ub, 0xFF, sizeof ub);
    std::memset(writer, 0, sizeof writer);
    std::memset(reader, 0, sizeof reader);
    touchedLo = kUnifiedBufferBytes, touchedHi = 0;
    ubUsed = 0;
    pipeAlive = false;
    atomicKind = 0;
  }

  /// Checks a use of [at, at + n) by `pipe`, then records it.
  void use(int pipe, size_t at, size_t n, bool write, const char *what) {
    if (at + n > kUnifiedBufferBytes)
      misuse("%s: UB bytes [%zu, %zu) are outside the Unified Buffer", what, at, at + n);
    for (size_t b = at; b < at + n; ++b) {
      int w = writer[b];
      if (w) {
        int wp = (w & 0x7F) - 1;
        bool orderedV = (w & 0x80) != 0;
        bool ok = (wp == pipe && (pipe == PIPE_S || pipe == PIPE_MTE2 || pipe == PIPE_MTE3)) ||
                  (wp == PIPE_V && pipe == PIPE_V && orderedV);
        if (!ok)
          misuse("%s: UB byte %zu was written by PIPE_%s and is %s by PIPE_%s without a barrier in between", what, b,
                 pipeName(wp), write ? "written" : "read", pipeName(pipe));
      }
      if (write && reader[b]) {
        int rp = reader[b] - 1;
        if (rp != pipe)
          misuse("%s: UB byte %zu was read by PIPE_%s and is overwritten by PIPE_%s without a barrier in between",
                 what, b, pipeName(rp), pipeName(pipe));
      }
      if (write) {
        writer[b] = static_cast<uint8_t>(pipe + 1);
      } else if (pipe != PIPE_S) {
        reader[b] = static_cast<uint8_t>(pipe + 1);
      }
    }
    touchedLo = std::min(touchedLo, at);
    touchedHi = std::max(touchedHi, at + n);
  }

  void barrier(int pipe) {
    if (touchedHi <= touchedLo)
      return;
    if (pipe == PIPE_ALL) {
      std::memset(writer + touchedLo, 0, touchedHi - touchedLo);
      std::memset(reader + touchedLo, 0, touchedHi - touchedLo);
      touchedLo = kUnifiedBufferBytes, touchedHi = 0;
      return;
    }
    for (size_t b = touchedLo; b < touchedHi; ++b) {
      if ((writer[b] & 0x7F) == pipe + 1)
        writer[b] |= 0x80;
      if (reader[b] == pipe + 1)
        reader[b] = 0;
    }
  }
};

inline Core &core() {
  static Core *c = new Core();
  return *c;
}

/// Runs `kernel(args...)` once per block index 0 .. blockDim-1, each on a
/// freshly reset core (the blocks of one launch run one after another).
template <class... P, class... A> void launch(uint32_t blockDim, void (*kernel)(P...), A... args) {
  if (blockDim == 0)
    misuse("launch with blockDim 0");
  for (uint32_t b = 0; b < blockDim; ++b) {
    core().reset();
    core().blockIdx = b;
    core().blockNum = blockDim;
    kernel(static_cast<P>(args)...);
    if (core().pipeAlive)
      misuse("the kernel's TPipe outlived the kernel");
    if (core().atomicKind)
      misuse("the kernel returned with SetAtomicAdd still in effect (no SetAtomicNone)");
  }
}

template <class T> constexpr bool isOneOf() { return false; }
template <class T, class U, class... R> constexpr bool isOneOf() { return std::is_same_v<T, U> || isOneOf<T, R...>(); }

template <class T> constexpr int atomicKindOf() {
  return std::is_same_v<T, float> ? 1 : std::is_same_v<T, half> ? 2 : std::is_same_v<T, int32_t> ? 3 : 4;
}

/// Writes `n` elements to GM: stores, or adds under SetAtomicAdd<T>.
template <class T> void writeGlobal(T *to, const T *from, size_t n, const char *what) {
  int kind = core().atomicKind;
  if (!kind) {
    std::memcpy(to, from, n * sizeof(T));
    return;
  }
  if (kind != atomicKindOf<T>())
    misuse("%s: SetAtomicAdd's element type differs from the transfer's", what);
  for (size_t i = 0; i < n; ++i)
    to[i] = static_cast<T>(to[i] + from[i]);
}

} // namespace ascendc_cpu

namespace AscendC {

inline int64_t GetBlockIdx() { return ascendc_cpu::core().blockIdx; }
inline int64_t GetBlockNum() { return ascendc_cpu::core().blockNum; }

/// Until SetAtomicNone, every UB -> GM transfer adds into global memory.
template <class T> inline void SetAtomicAdd() {
  static_assert(ascendc_cpu::isOneOf<T, half, float, int16_t, int32_t>(), "SetAtomicAdd takes half, float, int16, int32");
  ascendc_cpu::core().atomicKind = ascendc_cpu::atomicKindOf<T>();
}
inline void SetAtomicNone() { ascendc_cpu::core().atomicKind = 0; }

template <pipe_t pipe> inline void PipeBarrier() {
  static_assert(pipe != PIPE_S, "PipeBarrier<PIPE_S>() is a hardware error (the reference's constraint)");
  ascendc_cpu::core().barrier(pipe);
}

enum class TPosition { GM, VECIN, VECOUT, VECCALC, A1, A2, B1, B2, CO1, CO2 };
using QuePosition = TPosition;

enum class RoundMode { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };

template <class T> class GlobalTensor {
public:
  void SetGlobalBuffer(T *buffer, uint64_t bufferSize) {
    if (!buffer)
      ascendc_cpu::misuse("SetGlobalBuffer with a null pointer");
    data = buffer, size = bufferSize;
  }
  T GetValue(uint64_t offset) const {
    check(offset, 1, "GlobalTensor::GetValue");
    return data[offset];
  }
  void SetValue(uint64_t offset, T value) {
    check(offset, 1, "GlobalTensor::SetValue");
    data[offset] = value;
  }
  GlobalTensor operator[](uint64_t offset) const {
    if (offset > size)
      ascendc_cpu::misuse("GlobalTensor[%llu] of a tensor of %llu elements", (unsigned long long)offset,
                          (unsigned long long)size);
    GlobalTensor t;
    t.data = data + offset, t.size = size - offset;
    return t;
  }
  uint64_t GetSize() const { return size; }
  T *GetPhyAddr() const { return data; }
  void check(uint64_t offset, uint64_t n, const char *what) const {
    if (!data)
      ascendc_cpu::misuse("%s on a GlobalTensor without SetGlobalBuffer", what);
    if (offset + n > size)
      ascendc_cpu::misuse("%s: elements [%llu, %llu) outside the tensor's %llu", what, (unsigned long long)offset,
                          (unsigned long long)(offset + n), (unsigned long long)size);
  }

private:
  T *data = nullptr;
  uint64_t size = 0;
};

template <class T> class LocalTensor {
public:
  LocalTensor() = default;
  LocalTensor(size_t byteAddr, uint32_t count) : addr(byteAddr), size(count), valid(true) {}
  T GetValue(uint32_t i) const {
    check(i, 1, "LocalTensor::GetValue");
    ascendc_cpu::core().use(PIPE_S, addr + i * sizeof(T), sizeof(T), false, "LocalTensor::GetValue");
    T v;
    std::memcpy(&v, ascendc_cpu::core().ub + addr + i * sizeof(T), sizeof(T));
    return v;
  }
  void SetValue(uint32_t i, T v) {
    check(i, 1, "LocalTensor::SetValue");
    ascendc_cpu::core().use(PIPE_S, addr + i * sizeof(T), sizeof(T), true, "LocalTensor::SetValue");
    std::memcpy(ascendc_cpu::core().ub + addr + i * sizeof(T), &v, sizeof(T));
  }
  LocalTensor operator[](uint32_t offset) const {
    if (!valid || offset > size)
      ascendc_cpu::misuse("LocalTensor[%u] of a tensor of %u elements", offset, size);
    return LocalTensor(addr + offset * sizeof(T), size - offset);
  }
  uint32_t GetSize() const { return size; }
  size_t byteAddr() const { return addr; }
  T *ptr() const { return reinterpret_cast<T *>(ascendc_cpu::core().ub + addr); }
  void check(uint32_t i, uint32_t n, const char *what) const {
    if (!valid)
      ascendc_cpu::misuse("%s on a LocalTensor that no TBuf gave", what);
    if (static_cast<uint64_t>(i) + n > size)
      ascendc_cpu::misuse("%s: elements [%u, %llu) outside the tensor's %u", what, i,
                          (unsigned long long)(static_cast<uint64_t>(i) + n), size);
  }

private:
  size_t addr = 0;
  uint32_t size = 0;
  bool valid = false;
};

template <TPosition pos> class TBuf {
public:
  template <class T> LocalTensor<T> Get() const {
    if (!bytes)
      ascendc_cpu::misuse("TBuf::Get before TPipe::InitBuffer");
    return LocalTensor<T>(addr, static_cast<uint32_t>(bytes / sizeof(T)));
  }
  template <class T> LocalTensor<T> Get(uint32_t count) const {
    if (count * sizeof(T) > bytes)
      ascendc_cpu::misuse("TBuf::Get(%u) beyond the buffer's %zu bytes", count, bytes);
    return LocalTensor<T>(addr, count);
  }
  size_t addr = 0, bytes = 0;
};

class TPipe {
public:
  TPipe() {
    if (ascendc_cpu::core().pipeAlive)
      ascendc_cpu::misuse("a second TPipe in one kernel");
    ascendc_cpu::core().pipeAlive = true;
  }
  ~TPipe() { ascendc_cpu::core().pipeAlive = false; }
  template <TPosition pos> void InitBuffer(TBuf<pos> &buf, uint32_t len) {
    if (buf.bytes)
      ascendc_cpu::misuse("InitBuffer twice on one TBuf");
    if (len == 0)
      ascendc_cpu::misuse("InitBuffer of 0 bytes");
    size_t bytes = (len + 31) / 32 * 32;
    ascendc_cpu::Core &c = ascendc_cpu::core();
    if (c.ubUsed + bytes > ascendc_cpu::kUnifiedBufferBytes)
      ascendc_cpu::misuse("InitBuffer: %zu + %zu bytes exceed the Unified Buffer's %zu", c.ubUsed, bytes,
                          ascendc_cpu::kUnifiedBufferBytes);
    buf.addr = c.ubUsed, buf.bytes = bytes;
    c.ubUsed += bytes;
  }
};

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;  ///< bytes
  uint32_t srcStride = 0; ///< GM -> UB: bytes between GM blocks; UB -> GM: 32-byte blocks between UB blocks
  uint32_t dstStride = 0; ///< GM -> UB: 32-byte blocks between UB blocks; UB -> GM: bytes between GM blocks
  uint32_t rsv = 0;
};

template <class T> struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = 0;
};

namespace detail {
template <class T> void checkCountCopy(const LocalTensor<T> &local, uint32_t count, const char *what) {
  if (count == 0)
    ascendc_cpu::misuse("%s with count 0", what);
  if ((count * sizeof(T)) % 32 != 0)
    ascendc_cpu::misuse("%s: %u elements of %zu bytes are not a whole number of 32-byte blocks (use DataCopyPad)",
                        what, count, sizeof(T));
  if (local.byteAddr() % 32 != 0)
    ascendc_cpu::misuse("%s: UB address %zu is not 32-byte aligned", what, local.byteAddr());
  local.check(0, count, what);
}
} // namespace detail

template <class T> void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
  detail::checkCountCopy(dst, count, "DataCopy(GM -> UB)");
  src.check(0, count, "DataCopy(GM -> UB)");
  ascendc_cpu::core().use(PIPE_MTE2, dst.byteAddr(), count * sizeof(T), true, "DataCopy(GM -> UB)");
  std::memcpy(dst.ptr(), src.GetPhyAddr(), count * sizeof(T));
}

template <class T> void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
  detail::checkCountCopy(src, count, "DataCopy(UB -> GM)");
  dst.check(0, count, "DataCopy(UB -> GM)");
  ascendc_cpu::core().use(PIPE_MTE3, src.byteAddr(), count * sizeof(T), false, "DataCopy(UB -> GM)");
  ascendc_cpu::writeGlobal(dst.GetPhyAddr(), src.ptr(), count, "DataCopy(UB -> GM)");
}

/// The element types DataCopyPad takes on Atlas A2 (API reference, CANN 8.0).
template <class T> constexpr bool padCopyType() {
  return ascendc_cpu::isOneOf<T, half, int16_t, uint16_t, float, int32_t, uint32_t, int8_t, uint8_t, int64_t, uint64_t,
                              double>();
}

template <class T>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
                 const DataCopyPadExtParams<T> &pad) {
  static_assert(padCopyType<T>(), "DataCopyPad does not take this element type");
  const char *what = "DataCopyPad(GM -> UB)";
  if (p.blockCount == 0 || p.blockLen == 0 || p.blockLen % sizeof(T) != 0)
    ascendc_cpu::misuse("%s: blockCount %u, blockLen %u bytes (must be > 0 and whole elements)", what, p.blockCount,
                        p.blockLen);
  if (dst.byteAddr() % 32 != 0)
    ascendc_cpu::misuse("%s: UB address %zu is not 32-byte aligned", what, dst.byteAddr());
  size_t ubBlock = (p.blockLen + 31) / 32 * 32;
  size_t gmAt = 0, ubAt = 0;
  for (uint16_t b = 0; b < p.blockCount; ++b) {
    src.check(gmAt / sizeof(T), p.blockLen / sizeof(T), what);
    dst.check(ubAt / sizeof(T), ubBlock / sizeof(T), what);
    ascendc_cpu::core().use(PIPE_MTE2, dst.byteAddr() + ubAt, ubBlock, true, what);
    uint8_t *to = reinterpret_cast<uint8_t *>(dst.ptr()) + ubAt;
    std::memcpy(to, reinterpret_cast<const uint8_t *>(src.GetPhyAddr()) + gmAt, p.blockLen);
    // The rest of the last 32-byte block: the padding value where asked,
    // else undefined (0xFF here).
    std::memset(to + p.blockLen, 0xFF, ubBlock - p.blockLen);
    if (pad.isPad)
      for (size_t e = 0; e < pad.rightPadding && p.blockLen + (e + 1) * sizeof(T) <= ubBlock; ++e)
        std::memcpy(to + p.blockLen + e * sizeof(T), &pad.paddingValue, sizeof(T));
    gmAt += p.blockLen + p.srcStride;
    ubAt += ubBlock + p.dstStride * 32;
  }
}

template <class T>
void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p) {
  static_assert(padCopyType<T>(), "DataCopyPad does not take this element type");
  const char *what = "DataCopyPad(UB -> GM)";
  if (p.blockCount == 0 || p.blockLen == 0 || p.blockLen % sizeof(T) != 0)
    ascendc_cpu::misuse("%s: blockCount %u, blockLen %u bytes (must be > 0 and whole elements)", what, p.blockCount,
                        p.blockLen);
  if (src.byteAddr() % 32 != 0)
    ascendc_cpu::misuse("%s: UB address %zu is not 32-byte aligned", what, src.byteAddr());
  size_t ubBlock = (p.blockLen + 31) / 32 * 32;
  size_t gmAt = 0, ubAt = 0;
  for (uint16_t b = 0; b < p.blockCount; ++b) {
    dst.check(gmAt / sizeof(T), p.blockLen / sizeof(T), what);
    src.check(ubAt / sizeof(T), p.blockLen / sizeof(T), what);
    ascendc_cpu::core().use(PIPE_MTE3, src.byteAddr() + ubAt, p.blockLen, false, what);
    ascendc_cpu::writeGlobal(reinterpret_cast<T *>(reinterpret_cast<uint8_t *>(dst.GetPhyAddr()) + gmAt),
                             reinterpret_cast<const T *>(reinterpret_cast<const uint8_t *>(src.ptr()) + ubAt),
                             p.blockLen / sizeof(T), what);
    gmAt += p.blockLen + p.dstStride;
    ubAt += ubBlock + p.srcStride * 32;
  }
}

//===----------------------------------------------------------------------===//
// Vector instructions (count mode)
//===----------------------------------------------------------------------===//

namespace detail {

template <class T> void vectorOperand(const LocalTensor<T> &t, int32_t count, const char *what) {
  if (count <= 0)
    ascendc_cpu::misuse("%s with count %d", what, count);
  if (t.byteAddr() % 32 != 0)
    ascendc_cpu::misuse("%s: operand at UB address %zu is not 32-byte aligned", what, t.byteAddr());
  t.check(0, static_cast<uint32_t>(count), what);
}

/// Operands of one instruction must be the same range or disjoint.
inline void overlap(size_t a, size_t an, size_t b, size_t bn, const char *what) {
  bool disjoint = a + an <= b || b + bn <= a;
  if (!disjoint && !(a == b && an == bn))
    ascendc_cpu::misuse("%s: operands partly overlap in UB ([%zu, %zu) and [%zu, %zu))", what, a, a + an, b, b + bn);
}

template <class T> void floatOnly(const char *what) {
  static_assert(ascendc_cpu::isOneOf<T, half, float>(), "this vector instruction takes half or float");
  (void)what;
}

/// dst[i] = f(src[i]) for i < count, on PIPE_V.
template <class D, class S, class F>
void unary(const LocalTensor<D> &dst, const LocalTensor<S> &src, int32_t count, const char *what, F f) {
  vectorOperand(dst, count, what);
  vectorOperand(src, count, what);
  overlap(dst.byteAddr(), count * sizeof(D), src.byteAddr(), count * sizeof(S), what);
  ascendc_cpu::Core &c = ascendc_cpu::core();
  c.use(PIPE_V, src.byteAddr(), count * sizeof(S), false, what);
  c.use(PIPE_V, dst.byteAddr(), count * sizeof(D), true, what);
  S *s = src.ptr();
  D *d = dst.ptr();
  for (int32_t i = 0; i < count; ++i)
    d[i] = f(s[i]);
}

template <class T, class F>
void binary(const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b, int32_t count,
            const char *what, F f) {
  vectorOperand(dst, count, what);
  vectorOperand(a, count, what);
  vectorOperand(b, count, what);
  size_t n = count * sizeof(T);
  overlap(dst.byteAddr(), n, a.byteAddr(), n, what);
  overlap(dst.byteAddr(), n, b.byteAddr(), n, what);
  ascendc_cpu::Core &c = ascendc_cpu::core();
  c.use(PIPE_V, a.byteAddr(), n, false, what);
  c.use(PIPE_V, b.byteAddr(), n, false, what);
  c.use(PIPE_V, dst.byteAddr(), n, true, what);
  T *x = a.ptr(), *y = b.ptr(), *d = dst.ptr();
  for (int32_t i = 0; i < count; ++i)
    d[i] = f(x[i], y[i]);
}

template <class T> T fromFloat(float v) { return static_cast<T>(v); }

} // namespace detail

#define TILEC_ASC_BINARY(NAME, EXPR)                                                                                   \
  template <class T>                                                                                                   \
  void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b, int32_t count) {             \
    static_assert(ascendc_cpu::isOneOf<T, half, float, int16_t, int32_t>(), #NAME " takes half, float, int16, int32"); \
    detail::binary(dst, a, b, count, #NAME, [](T x, T y) { return static_cast<T>(EXPR); });                           \
  }
TILEC_ASC_BINARY(Add, x + y)
TILEC_ASC_BINARY(Sub, x - y)
TILEC_ASC_BINARY(Mul, x * y)
TILEC_ASC_BINARY(Max, x > y ? x : y)
TILEC_ASC_BINARY(Min, x < y ? x : y)
#undef TILEC_ASC_BINARY

template <class T> void Div(const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b, int32_t count) {
  detail::floatOnly<T>("Div");
  detail::binary(dst, a, b, count, "Div", [](T x, T y) { return static_cast<T>(x / y); });
}

template <class T> void Adds(const LocalTensor<T> &dst, const LocalTensor<T> &src, T scalar, int32_t count) {
  static_assert(ascendc_cpu::isOneOf<T, half, float, int16_t, int32_t>(), "Adds takes half, float, int16, int32");
  detail::unary(dst, src, count, "Adds", [scalar](T x) { return static_cast<T>(x + scalar); });
}

template <class T> void Muls(const LocalTensor<T> &dst, const LocalTensor<T> &src, T scalar, int32_t count) {
  static_assert(ascendc_cpu::isOneOf<T, half, float, int16_t, int32_t>(), "Muls takes half, float, int16, int32");
  detail::unary(dst, src, count, "Muls", [scalar](T x) { return static_cast<T>(x * scalar); });
}

#define TILEC_ASC_UNARY(NAME, EXPR)                                                                                    \
  template <class T> void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t count) {                  \
    detail::floatOnly<T>(#NAME);                                                                                       \
    detail::unary(dst, src, count, #NAME, [](T t) {                                                                    \
      float x = static_cast<float>(t);                                                                                 \
      return static_cast<T>(EXPR);                                                                                     \
    });                                                                                                                \
  }
TILEC_ASC_UNARY(Exp, std::exp(x))
TILEC_ASC_UNARY(Ln, std::log(x))
TILEC_ASC_UNARY(Abs, std::fabs(x))
TILEC_ASC_UNARY(Sqrt, std::sqrt(x))
TILEC_ASC_UNARY(Rsqrt, 1.0f / std::sqrt(x))
#undef TILEC_ASC_UNARY

/// The advanced-API Tanh with its temporary space passed in: at least the
/// minimum of GetTanhMaxMinTmpSize (256 bytes x 1 for float, x 4 for half,
/// per the reference's tiling code), 32-byte aligned, apart from the operands.
template <class T>
void Tanh(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
          uint32_t count) {
  detail::floatOnly<T>("Tanh");
  uint32_t need = 256 * (std::is_same_v<T, float> ? 1 : 4);
  if (sharedTmpBuffer.byteAddr() % 32 != 0)
    ascendc_cpu::misuse("Tanh: sharedTmpBuffer is not 32-byte aligned");
  sharedTmpBuffer.check(0, need, "Tanh (sharedTmpBuffer below GetTanhMaxMinTmpSize's minimum)");
  for (size_t at : {dst.byteAddr(), src.byteAddr()})
    if (sharedTmpBuffer.byteAddr() < at + count * sizeof(T) && at < sharedTmpBuffer.byteAddr() + need)
      ascendc_cpu::misuse("Tanh: sharedTmpBuffer overlaps an operand");
  ascendc_cpu::core().use(PIPE_V, sharedTmpBuffer.byteAddr(), need, true, "Tanh");
  detail::unary(dst, src, static_cast<int32_t>(count), "Tanh",
                [](T t) { return static_cast<T>(std::tanh(static_cast<float>(t))); });
}

template <class T> void Duplicate(const LocalTensor<T> &dst, T scalar, int32_t count) {
  static_assert(ascendc_cpu::isOneOf<T, half, float, int16_t, uint16_t, int32_t, uint32_t>(),
                "Duplicate takes 16- and 32-bit element types");
  detail::vectorOperand(dst, count, "Duplicate");
  ascendc_cpu::core().use(PIPE_V, dst.byteAddr(), count * sizeof(T), true, "Duplicate");
  T *d = dst.ptr();
  for (int32_t i = 0; i < count; ++i)
    d[i] = scalar;
}

template <class D, class S> void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, RoundMode mode, int32_t count) {
  constexpr bool widen = std::is_same_v<S, half> && std::is_same_v<D, float>;
  constexpr bool narrow = std::is_same_v<S, float> && std::is_same_v<D, half>;
  static_assert(widen || narrow, "the model's Cast takes half <-> float only");
  if (widen && mode != RoundMode::CAST_NONE)
    ascendc_cpu::misuse("Cast half -> float takes RoundMode::CAST_NONE");
  if (narrow && mode != RoundMode::CAST_NONE && mode != RoundMode::CAST_RINT)
    ascendc_cpu::misuse("Cast float -> half: the model implements CAST_NONE and CAST_RINT (round to nearest even)");
  // _Float16 conversion rounds to nearest even.
  detail::unary(dst, src, count, "Cast", [](S x) { return static_cast<D>(x); });
}

namespace detail {
/// ReduceSum/Max/Min (first `count` elements): dst[0] = the result. Within
/// one 256-byte repeat a binary tree, repeats combined in order (the
/// reference's "mode two" of Atlas A2 for this prototype).
template <class T, class F>
void reduce(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, int32_t count,
            const char *what, F combine) {
  floatOnly<T>(what);
  vectorOperand(src, count, what);
  if (dst.byteAddr() % sizeof(T) != 0)
    ascendc_cpu::misuse("%s: dst is not %zu-byte aligned", what, sizeof(T));
  dst.check(0, 1, what);
  int32_t perRepeat = 256 / sizeof(T);
  int32_t repeats = (count + perRepeat - 1) / perRepeat;
  // The sharedTmpBuffer holds one partial result per repeat (rounded up to
  // a 32-byte block).
  uint32_t needWork = static_cast<uint32_t>((repeats + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T)));
  if (work.byteAddr() % 32 != 0)
    ascendc_cpu::misuse("%s: sharedTmpBuffer is not 32-byte aligned", what);
  work.check(0, needWork, what);
  overlap(src.byteAddr(), count * sizeof(T), work.byteAddr(), needWork * sizeof(T), what);
  overlap(dst.byteAddr(), sizeof(T), src.byteAddr(), count * sizeof(T), what);
  ascendc_cpu::Core &c = ascendc_cpu::core();
  c.use(PIPE_V, src.byteAddr(), count * sizeof(T), false, what);
  c.use(PIPE_V, work.byteAddr(), needWork * sizeof(T), true, what);
  c.use(PIPE_V, dst.byteAddr(), sizeof(T), true, what);
  T *s = src.ptr();
  T result = 0;
  for (int32_t r = 0; r < repeats; ++r) {
    int32_t n = std::min(perRepeat, count - r * perRepeat);
    T lane[128];
    for (int32_t i = 0; i < n; ++i)
      lane[i] = s[r * perRepeat + i];
    for (int32_t width = n; width > 1;) {
      int32_t pairs = width / 2;
      for (int32_t i = 0; i < pairs; ++i)
        lane[i] = combine(lane[2 * i], lane[2 * i + 1]);
      if (width % 2)
        lane[pairs] = lane[width - 1];
      width = pairs + width % 2;
    }
    result = r == 0 ? lane[0] : combine(result, lane[0]);
  }
  dst.ptr()[0] = result;
}
} // namespace detail

template <class T>
void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, int32_t count) {
  detail::reduce(dst, src, work, count, "ReduceSum", [](T a, T b) { return static_cast<T>(a + b); });
}
template <class T>
void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, int32_t count,
               bool calIndex = false) {
  if (calIndex)
    ascendc_cpu::misuse("ReduceMax: the model does not implement calIndex");
  detail::reduce(dst, src, work, count, "ReduceMax", [](T a, T b) { return a > b ? a : b; });
}
template <class T>
void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, int32_t count,
               bool calIndex = false) {
  if (calIndex)
    ascendc_cpu::misuse("ReduceMin: the model does not implement calIndex");
  detail::reduce(dst, src, work, count, "ReduceMin", [](T a, T b) { return a < b ? a : b; });
}

} // namespace AscendC

#endif // TILEC_TEST_RUN_ASCEND_ASCENDC_CPU_H
