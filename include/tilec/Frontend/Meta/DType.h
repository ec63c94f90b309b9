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

namespace tilec {

/// Element types of buffers and scalars. `Index` is the type of loop
/// variables, block indices and untyped integer literals inside a kernel; it
/// is never spelled by users and converts freely to any integer dtype.
enum class DType : uint8_t {
  Float16, BFloat16, Float32, Float64, Float8E4M3, Float8E5M2,
  Int8, UInt8, Int16, Int32, Int64, UInt32, Bool, Int4, UInt4, Index,
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

} // namespace tilec

#endif // TILEC_FRONTEND_META_DTYPE_H
