//===- DType.cpp - Dtype spellings and properties -------------------------===//
//
// The dtype table of spec §4 (with tile-lang's aliases, `"float"` = float32).
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Meta/DType.h"

#include "llvm/ADT/SmallVector.h"

using namespace tilec;

namespace {
struct DTypeName {
  const char *name;
  DType type;
  bool canonical;
};
const DTypeName dtypeNames[] = {
    {"float16", DType::Float16, true},
    {"bfloat16", DType::BFloat16, true},
    {"float32", DType::Float32, true},
    {"float64", DType::Float64, true},
    {"float8_e4m3", DType::Float8E4M3, true},
    {"float8_e4m3fn", DType::Float8E4M3, false},
    {"float8_e5m2", DType::Float8E5M2, true},
    {"int8", DType::Int8, true},
    {"uint8", DType::UInt8, true},
    {"int16", DType::Int16, true},
    {"int32", DType::Int32, true},
    {"int64", DType::Int64, true},
    {"uint32", DType::UInt32, true},
    {"bool", DType::Bool, true},
    {"int4", DType::Int4, true},
    {"uint4", DType::UInt4, true},
    {"uint16", DType::UInt16, true},
    {"uint64", DType::UInt64, true},
    {"float4_e2m1fn", DType::Float4E2M1, true},
    // tile-lang's and NumPy's aliases.
    {"float", DType::Float32, false},
    {"half", DType::Float16, false},
    {"double", DType::Float64, false},
    {"int", DType::Int32, false},
    {"long", DType::Int64, false},
    {"short", DType::Int16, false},
    {"uint", DType::UInt32, false},
    {"float8_e5m2fn", DType::Float8E5M2, false},
    // TF32 is float32 storage; tile-lang's tensor cores round its GEMM
    // operands to a 10-bit mantissa, tilec computes it as float32
    // (docs/differences.md).
    {"tfloat32", DType::Float32, false},
};
} // namespace

std::optional<DType> tilec::parseDType(llvm::StringRef name) {
  for (const DTypeName &d : dtypeNames)
    if (name == d.name)
      return d.type;
  return std::nullopt;
}

llvm::StringRef tilec::dtypeName(DType t) {
  if (t == DType::Index)
    return "index";
  for (const DTypeName &d : dtypeNames)
    if (d.type == t && d.canonical)
      return d.name;
  return "?";
}

llvm::ArrayRef<llvm::StringRef> tilec::allDTypeNames() {
  static const llvm::SmallVector<llvm::StringRef, 24> names = [] {
    llvm::SmallVector<llvm::StringRef, 24> v;
    for (const DTypeName &d : dtypeNames)
      if (d.canonical || llvm::StringRef(d.name) == "float8_e4m3fn")
        v.push_back(d.name);
    return v;
  }();
  return names;
}

bool tilec::isFloatDType(DType t) {
  switch (t) {
  case DType::Float16: case DType::BFloat16: case DType::Float32: case DType::Float64:
  case DType::Float8E4M3:
  case DType::Float8E5M2:
  case DType::Float4E2M1:
    return true;
  default:
    return false;
  }
}

bool tilec::isIntegerDType(DType t) { return !isFloatDType(t); }

bool tilec::isUnsignedDType(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64 || t == DType::UInt4 || t == DType::Bool;
}

unsigned tilec::dtypeBits(DType t) {
  switch (t) {
  case DType::Float16: case DType::BFloat16: case DType::Int16: case DType::UInt16: return 16;
  case DType::Float32: case DType::Int32: case DType::UInt32: return 32;
  case DType::Float64: case DType::Int64: case DType::UInt64: case DType::Index: return 64;
  case DType::Float8E4M3: case DType::Float8E5M2: case DType::Int8: case DType::UInt8: return 8;
  case DType::Bool: return 1;
  case DType::Int4:
  case DType::UInt4:
  case DType::Float4E2M1:
    return 4;
  }
  return 32;
}

namespace {
bool isIEEEFloat(DType t) { return t == DType::Float16 || t == DType::Float32 || t == DType::Float64; }
/// The narrow floats (float8 kinds and float4_e2m1fn): after bfloat16, and
/// two different ones do not mix.
bool isFloat8(DType t) { return t == DType::Float8E4M3 || t == DType::Float8E5M2 || t == DType::Float4E2M1; }
/// Significant bits (the implicit one included) and exponent bits of a float dtype.
unsigned significandBits(DType t) {
  switch (t) {
  case DType::Float16:
    return 11;
  case DType::BFloat16:
    return 8;
  case DType::Float32:
    return 24;
  case DType::Float64:
    return 53;
  case DType::Float8E4M3:
    return 4;
  case DType::Float8E5M2:
    return 3;
  case DType::Float4E2M1:
    return 2;
  default:
    return 0;
  }
}
unsigned exponentBits(DType t) {
  switch (t) {
  case DType::Float16:
    return 5;
  case DType::BFloat16:
  case DType::Float32:
    return 8;
  case DType::Float64:
    return 11;
  case DType::Float8E4M3:
    return 4;
  case DType::Float8E5M2:
    return 5;
  case DType::Float4E2M1:
    return 2;
  default:
    return 0;
  }
}
} // namespace

std::optional<DType> tilec::promoteDTypes(DType a, DType b) {
  if (a == b)
    return a;
  // 1. Floats: IEEE float16/32/64 first (two of them: the wider), then
  //    bfloat16, then float8; the other operand is converted.
  if (isIEEEFloat(a) && isIEEEFloat(b))
    return dtypeBits(a) >= dtypeBits(b) ? a : b;
  for (DType t : {a, b})
    if (isIEEEFloat(t))
      return t;
  for (DType t : {a, b})
    if (t == DType::BFloat16)
      return t;
  if (isFloat8(a) && isFloat8(b))
    return std::nullopt;
  for (DType t : {a, b})
    if (isFloat8(t))
      return t;
  // 2. Integers. Index (an int32 loop variable in tile-lang) with a narrower
  //    integer or bool gives int32, with a 32- or 64-bit one that one.
  if (a == DType::Index || b == DType::Index) {
    DType other = a == DType::Index ? b : a;
    return dtypeBits(other) >= 32 ? other : DType::Int32;
  }
  if (a == DType::Bool)
    return b;
  if (b == DType::Bool)
    return a;
  if (dtypeBits(a) != dtypeBits(b))
    return dtypeBits(a) > dtypeBits(b) ? a : b;
  return isUnsignedDType(a) ? a : b;
}

std::string tilec::conversionLoss(DType from, DType to) {
  if (from == to)
    return "";
  std::string f = dtypeName(from).str(), t = dtypeName(to).str();
  if (isFloatDType(to)) {
    unsigned sig = significandBits(to);
    if (isIntegerDType(from)) {
      unsigned magnitude = from == DType::Index  ? 24
                           : from == DType::Bool ? 1
                                                 : dtypeBits(from) - (isUnsignedDType(from) ? 0 : 1);
      if (magnitude <= sig)
        return "";
      return (from == DType::Index ? std::string("indices") : f + " values") + " beyond 2^" + std::to_string(sig) +
             " are rounded";
    }
    if (significandBits(from) <= sig && exponentBits(from) <= exponentBits(to))
      return "";
    if (exponentBits(from) > exponentBits(to))
      return f + " values outside " + t + "'s range overflow or flush to zero";
    return f + " values are rounded to " + t + "'s " + std::to_string(sig) + " significant bits";
  }
  if (isFloatDType(from))
    return "the fraction is dropped";
  if (from == DType::Index || to == DType::Bool)
    return "";
  if (!isUnsignedDType(from) && isUnsignedDType(to))
    return "negative values wrap around";
  if (dtypeBits(to) < dtypeBits(from))
    return "values outside " + t + "'s range wrap around";
  return "";
}
