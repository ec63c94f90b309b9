//===- MetaValueTest.cpp - Meta values and the shared operator core -------===//
//
// Python's rules on compile-time values: arbitrary-precision integers
// (never a silent wrap), floats, strings, containers, comparisons,
// size expressions over runtime dimensions, and format specs.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/ConstEval.h"

#include <catch2/catch_test_macros.hpp>

using namespace tilec;
using namespace tilec::meta;
using ast::BinaryOp;
using ast::CompareOp;
using ast::UnaryOp;

static Value I(int64_t v) { return Value::ofInt(v); }
static Value F(double v) { return Value::ofFloat(v); }
static Value S(const char *s) { return Value::ofStr(s); }

TEST_CASE("integers leave int64 exactly, as Python's do, up to a size limit", "[meta]") {
  auto text = [](const ConstResult &r) { return r.error.empty() ? r.value.str() : "error: " + r.error; };
  CHECK(text(applyBinary(BinaryOp::FloorDiv, I(INT64_MIN), I(-1))) == "9223372036854775808");
  CHECK(text(applyBinary(BinaryOp::Pow, I(2), I(63))) == "9223372036854775808");
  CHECK(applyBinary(BinaryOp::Pow, I(2), I(62)).value.getInt() == (int64_t(1) << 62));
  CHECK(text(applyUnary(UnaryOp::Neg, I(INT64_MIN))) == "9223372036854775808");
  CHECK(text(applyBinary(BinaryOp::Add, I(INT64_MAX), I(1))) == "9223372036854775808");
  CHECK(text(applyBinary(BinaryOp::Sub, I(INT64_MIN), I(1))) == "-9223372036854775809");
  CHECK(text(applyBinary(BinaryOp::Shl, I(3), I(62))) == "13835058055282163712");
  CHECK(applyBinary(BinaryOp::Shl, I(-1), I(62)).value.getInt() == INT64_MIN / 2);
  CHECK(applyBinary(BinaryOp::Pow, I(-1), I(INT64_MAX)).value.getInt() == -1);
  CHECK(applyBinary(BinaryOp::Pow, I(2), I(-1)).value.getFloat() == 0.5);
  // Back in int64 range, a result is an Int again (the fast path).
  Value big = applyBinary(BinaryOp::Pow, I(2), I(64)).value;
  CHECK(big.isBigInt());
  CHECK(applyBinary(BinaryOp::FloorDiv, big, I(4)).value.getKind() == Value::Kind::Int);
  CHECK(equals(big, F(18446744073709551616.0)));
  CHECK(!big.isIntLike()); // APIs that need a machine integer reject it
  CHECK(!applyBinary(BinaryOp::Pow, I(2), I(1000000000)).error.empty());
  CHECK(!applyBinary(BinaryOp::Shl, I(1), I(20000)).error.empty());
}

TEST_CASE("bools are ints, and stay bools under bitwise operators", "[meta]") {
  Value t = Value::ofBool(true);
  CHECK(applyBinary(BinaryOp::Add, t, t).value.getInt() == 2);
  CHECK(applyBinary(BinaryOp::BitAnd, t, Value::ofBool(false)).value.getKind() == Value::Kind::Bool);
  CHECK(equals(t, I(1)));
  CHECK(equals(I(1), F(1.0)));
}

TEST_CASE("sequences and strings", "[meta]") {
  Value t = Value::ofTuple({I(1), I(2)});
  CHECK(applyBinary(BinaryOp::Add, t, Value::ofTuple({I(3)})).value.str() == "(1, 2, 3)");
  CHECK(applyBinary(BinaryOp::Mul, Value::ofList({I(0)}), I(3)).value.str() == "[0, 0, 0]");
  CHECK(applyBinary(BinaryOp::Mul, S("ab"), I(2)).value.getStr() == "abab");
  CHECK(applyBinary(BinaryOp::Mod, S("%d-%s"), Value::ofTuple({I(4), S("x")})).value.getStr() == "4-x");
  CHECK(!applyBinary(BinaryOp::Mod, S("%d %d"), I(4)).error.empty());
  CHECK(applyCompare(CompareOp::Lt, Value::ofTuple({I(1), I(2)}), Value::ofTuple({I(1), I(3)})).value.truthy());
  CHECK(applyCompare(CompareOp::In, I(2), t).value.truthy());
  CHECK(applyCompare(CompareOp::In, S("ell"), S("hello")).value.truthy());
  CHECK(!applyCompare(CompareOp::Lt, S("a"), I(1)).error.empty());
  Value d = Value::ofDict({{S("a"), I(1)}});
  CHECK(applyCompare(CompareOp::In, S("a"), d).value.truthy());
  CHECK(applyBinary(BinaryOp::BitOr, d, Value::ofDict({{S("b"), I(2)}})).value.str() == "{'a': 1, 'b': 2}");
}

TEST_CASE("lists are shared references, as in Python", "[meta]") {
  Value a = Value::ofList({I(1)});
  Value b = a;
  b.listItems()->push_back(I(2));
  CHECK(a.getElts().size() == 2);
  CHECK(applyCompare(CompareOp::Is, a, b).value.truthy());
  CHECK(!applyCompare(CompareOp::Is, a, Value::ofList({I(1), I(2)})).value.truthy());
  CHECK(applyCompare(CompareOp::Eq, a, Value::ofList({I(1), I(2)})).value.truthy());
}

TEST_CASE("dtypes: spellings, aliases, equality with strings", "[meta]") {
  CHECK(parseDType("float") == DType::Float32);
  CHECK(equals(Value::ofDType(DType::Float16), S("float16")));
  CHECK(!equals(Value::ofDType(DType::Float16), S("float32")));
  CHECK(Value::ofDType(DType::BFloat16).str() == "T.bfloat16");
}

TEST_CASE("arithmetic on runtime dimensions builds size expressions", "[meta]") {
  Value m = Value::ofDynamic("M");
  ConstResult r = applyBinary(BinaryOp::Mul, m, I(2));
  REQUIRE(r.error.empty());
  CHECK(r.value.getKind() == Value::Kind::Dynamic);
  CHECK(r.value.getStr() == "M * 2");
  CHECK(applyBinary(BinaryOp::Add, applyBinary(BinaryOp::Add, m, I(1)).value, I(0)).value.getStr() == "M + 1");
  CHECK(applyBinary(BinaryOp::FloorDiv, applyBinary(BinaryOp::Add, m, I(1)).value, I(2)).value.getStr() ==
        "(M + 1) // 2");
  CHECK(applyBinary(BinaryOp::Mul, m, I(1)).value.isPlainDim());
  CHECK(applyBinary(BinaryOp::Sub, m, m).value.getInt() == 0);
  CHECK(applyBinary(BinaryOp::Div, m, I(2)).isIntTrueDiv);
  CHECK(!applyCompare(CompareOp::Lt, m, I(2)).error.empty());
  CHECK(!applyBinary(BinaryOp::Pow, m, I(2)).error.empty());
}

TEST_CASE("format specs", "[meta]") {
  std::string err;
  CHECK(formatWithSpec(I(42), ">5", err) == "   42");
  CHECK(formatWithSpec(I(42), "05d", err) == "00042");
  CHECK(formatWithSpec(I(255), "#x", err) == "0xff");
  CHECK(formatWithSpec(F(3.14159), ".2f", err) == "3.14");
  CHECK(formatWithSpec(I(1234567), ",", err) == "1,234,567");
  CHECK(formatWithSpec(S("ab"), "^6", err) == "  ab  ");
  CHECK(formatWithSpec(F(-0.5), "+.1f", err) == "-0.5");
  CHECK(err.empty());
  formatWithSpec(S("x"), "d", err);
  CHECK(!err.empty());
  CHECK(F(0.1).str() == "0.1");
  CHECK(F(1e20).str() == "1e+20");
  CHECK(F(2).str() == "2.0");
}
