//===- ConstEvalTest.cpp - Python-exact constant arithmetic and linear forms ===//
//
// Floor division/modulo follow Python (toward negative infinity, sign of the
// divisor); linear forms prove slice extents such as (i+1)*b - i*b constant.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/ConstEval.h"

#include <catch2/catch_test_macros.hpp>

using namespace tilec;
using ast::BinaryOp;

TEST_CASE("floorDiv and floorMod match Python", "[consteval]") {
  CHECK(floorDiv(7, 2) == 3);
  CHECK(floorDiv(-7, 2) == -4);
  CHECK(floorDiv(7, -2) == -4);
  CHECK(floorDiv(-7, -2) == 3);
  CHECK(floorMod(7, 3) == 1);
  CHECK(floorMod(-7, 3) == 2);
  CHECK(floorMod(7, -3) == -2);
  CHECK(floorMod(-7, -3) == -1);
  CHECK(floorDiv(INT64_MIN, -1) == INT64_MIN); // wraps instead of trapping
  CHECK(floorMod(INT64_MIN, -1) == 0);
  CHECK(ceilDiv(4096, 128) == 32);
  CHECK(ceilDiv(4097, 128) == 33);
  CHECK(ceilDiv(-7, 2) == -3);
}

TEST_CASE("applyBinary on constants", "[consteval]") {
  auto i = [](int64_t v) { return ConstValue::ofInt(v); };
  CHECK(applyBinary(BinaryOp::FloorDiv, i(-7), i(2)).value.getInt() == -4);
  CHECK(applyBinary(BinaryOp::Mod, i(-7), i(2)).value.getInt() == 1);
  CHECK(applyBinary(BinaryOp::Pow, i(2), i(10)).value.getInt() == 1024);
  CHECK(applyBinary(BinaryOp::Pow, i(-1), i(7)).value.getInt() == -1);
  CHECK(applyBinary(BinaryOp::Div, i(1), i(2)).isIntTrueDiv);
  CHECK(applyBinary(BinaryOp::Div, ConstValue::ofFloat(1), i(2)).value.getFloat() == 0.5);
  CHECK(!applyBinary(BinaryOp::FloorDiv, i(1), i(0)).error.empty());
  // Past int64 the result is exact (an arbitrary-precision int), as in Python.
  CHECK(applyBinary(BinaryOp::Mul, i(INT64_MAX), i(2)).value.str() == "18446744073709551614");
  CHECK(applyBinary(BinaryOp::Shl, i(1), i(64)).value.str() == "18446744073709551616");
  CHECK(applyBinary(BinaryOp::Mod, ConstValue::ofFloat(-1.5), i(1)).value.getFloat() == 0.5);
}

TEST_CASE("dtype spellings", "[consteval]") {
  CHECK(parseDType("float8_e4m3fn") == DType::Float8E4M3);
  CHECK(parseDType("float8_e4m3") == DType::Float8E4M3);
  CHECK(!parseDType("float17").has_value());
  CHECK(!parseDType("index").has_value());
  CHECK(ConstValue::ofStr("bfloat16").asDType() == DType::BFloat16);
  CHECK(isUnsignedDType(DType::UInt4));
  CHECK(dtypeBits(DType::Int4) == 4);
}

TEST_CASE("linear forms simplify slice extents", "[consteval]") {
  // i*64 : (i+1)*64  ->  extent 64.
  LinearForm i = LinearForm::ofSymbol(0);
  LinearForm lo = *i.scale(64);
  LinearForm hi = *i.add(LinearForm::ofConstant(1))->mul(LinearForm::ofConstant(64));
  std::optional<LinearForm> ext = hi.sub(lo);
  REQUIRE(ext);
  CHECK(ext->isConstant());
  CHECK(ext->constant == 64);

  // by*bm + k : by*bm + k + 16 over two symbols.
  LinearForm by = LinearForm::ofSymbol(1), k = LinearForm::ofSymbol(2);
  LinearForm a = *by.scale(128)->add(k);
  LinearForm b = *a.add(LinearForm::ofConstant(16));
  CHECK(b.sub(a)->constant == 16);
  CHECK(b.sub(a)->isConstant());

  // i*i is not linear; i*64 - j*64 is not constant.
  CHECK(!i.mul(i).has_value());
  CHECK(!lo.sub(*by.scale(64))->isConstant());
  // Terms cancel exactly, so equal forms compare equal.
  CHECK(*a.sub(a) == LinearForm::ofConstant(0));
  // Overflow is reported, not wrapped.
  CHECK(!LinearForm::ofConstant(INT64_MAX).add(LinearForm::ofConstant(1)).has_value());
}

TEST_CASE("name suggestions", "[consteval]") {
  llvm::StringRef names[] = {"alloc_shared", "alloc_fragment", "Parallel", "copy"};
  CHECK(closestName("alloc_shard", names) == "alloc_shared");
  CHECK(closestName("parallel", names) == "Parallel");
  CHECK(closestName("zzzzzz", names).empty());
  CHECK(didYouMean("cpy", names) == "; did you mean 'copy'?");
}
