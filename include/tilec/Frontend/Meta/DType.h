//===- DType.h - Element types of .tile buffers and scalars -----*- C++ -*-===//
//
// The dtypes of spec §4, their spellings and properties; shared by the meta
// interpreter (dtype values) and kernel code generation.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_META_DTYPE_H
#define TILEC_FRONTEND_META_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilec {

/// Element types of buffers and scalars. `Index` is the type of loop
/// variables, block indices and untyped integer literals inside a kernel; it
/// is never spelled by users and converts freely to any integer dtype.
enum class DType : uint8_t {
  Float16,
  BFloat16,
  Float32,
  Float64,
  Float8E4M3,
  Float8E5M2,
  Int8,
  UInt8,
  Int16,
  Int32,
  Int64,
  UInt32,
  Bool,
  Int4,
  UInt4,
  UInt16,
  UInt64,
  Float4E2M1, // float4_e2m1fn: packed two per byte in tensors, like int4
  Index,
};

/// Parses a dtype spelling (`float16`, `float8_e4m3fn`, `float` = float32,
/// ...); `Index` is not spellable.
std::optional<DType> parseDType(llvm::StringRef name);
/// The canonical spelling, e.g. "float8_e4m3".
llvm::StringRef dtypeName(DType t);
/// Every spellable dtype name, for suggestions.
llvm::ArrayRef<llvm::StringRef> allDTypeNames();
bool isFloatDType(DType t);
bool isIntegerDType(DType t); // includes Bool and Index
bool isUnsignedDType(DType t);
unsigned dtypeBits(DType t); // Index counts as 64

/// The dtype two scalars of different dtypes are computed in, by tile-lang's
/// rules (TVM's BinaryOpMatchTypes): float16/32/64 win over every other
/// dtype (two of them: the wider); then bfloat16, then a float8 kind; an
/// integer with a wider integer gives the wider (the same width, signed and
/// unsigned: the unsigned); bool gives way to any integer; `Index` acts as an
/// integer of at least 32 bits. nullopt where tile-lang has no rule (the two
/// float8 kinds).
std::optional<DType> promoteDTypes(DType a, DType b);
/// Why converting a value of `from` into `to` can change it ("integers
/// beyond 2^24 are rounded"), or "" when every value converts exactly.
/// `Index` values (loop variables, block and thread indices) are taken to be
/// below 2^24.
std::string conversionLoss(DType from, DType to);

} // namespace tilec

#endif // TILEC_FRONTEND_META_DTYPE_H
