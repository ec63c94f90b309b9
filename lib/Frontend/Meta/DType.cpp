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
    {"float16", DType::Float16, true},        {"bfloat16", DType::BFloat16, true},
    {"float32", DType::Float32, true},        {"float64", DType::Float64, true},
    {"float8_e4m3", DType::Float8E4M3, true}, {"float8_e4m3fn", DType::Float8E4M3, false},
    {"float8_e5m2", DType::Float8E5M2, true}, {"int8", DType::Int8, true},
    {"uint8", DType::UInt8, true},            {"int16", DType::Int16, true},
    {"int32", DType::Int32, true},            {"int64", DType::Int64, true},
    {"uint32", DType::UInt32, true},          {"bool", DType::Bool, true},
    {"int4", DType::Int4, true},              {"uint4", DType::UInt4, true},
    // tile-lang's and NumPy's aliases.
    {"float", DType::Float32, false},         {"half", DType::Float16, false},
    {"double", DType::Float64, false},        {"int", DType::Int32, false},
    {"long", DType::Int64, false},            {"short", DType::Int16, false},
    {"uint", DType::UInt32, false},
    {"float8_e5m2fn", DType::Float8E5M2, false},
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
  case DType::Float8E4M3: case DType::Float8E5M2:
    return true;
  default:
    return false;
  }
}

bool tilec::isIntegerDType(DType t) { return !isFloatDType(t); }

bool tilec::isUnsignedDType(DType t) {
  return t == DType::UInt8 || t == DType::UInt32 || t == DType::UInt4 || t == DType::Bool;
}

unsigned tilec::dtypeBits(DType t) {
  switch (t) {
  case DType::Float16: case DType::BFloat16: case DType::Int16: return 16;
  case DType::Float32: case DType::Int32: case DType::UInt32: return 32;
  case DType::Float64: case DType::Int64: case DType::Index: return 64;
  case DType::Float8E4M3: case DType::Float8E5M2: case DType::Int8: case DType::UInt8: return 8;
  case DType::Bool: return 1;
  case DType::Int4: case DType::UInt4: return 4;
  }
  return 32;
}
