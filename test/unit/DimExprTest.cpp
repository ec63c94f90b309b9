//===- DimExprTest.cpp - Derived dimensions of the launcher ABI -----------===//
//
// parseDimExpr reads the frontend's size-expression text back against a
// signature's dynamic dimensions; buildDimExpr and buildCheckedDimExpr,
// evaluated with plain integers, give Python's values (floored `//` and `%`)
// and flag intermediate values over the limit.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/KernelABI.h"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>

using namespace tilec;

namespace {
KernelSignature signature() {
  KernelSignature sig;
  sig.name = "k";
  KernelArg a;
  a.kind = KernelArg::Kind::Tensor;
  a.name = "A";
  a.dtype = "float32";
  sig.args.push_back(a);
  for (const char *n : {"M", "seq_len"}) {
    KernelArg d;
    d.kind = KernelArg::Kind::DynamicDim;
    d.name = n;
    d.dtype = "int64";
    sig.args.push_back(d);
  }
  return sig;
}

/// buildDimExpr's builder over __int128 values, the arguments from `args`.
struct Eval {
  std::vector<int64_t> args;
  int64_t clamp = 0;
  __int128 constant(int64_t v) { return v; }
  __int128 arg(unsigned i) { return clamp ? std::min<uint64_t>(uint64_t(args[i]), uint64_t(clamp)) : args[i]; }
  __int128 add(__int128 x, __int128 y) { return x + y; }
  __int128 sub(__int128 x, __int128 y) { return x - y; }
  __int128 mul(__int128 x, __int128 y) { return x * y; }
  __int128 sdiv(__int128 x, __int128 y) { return x / y; }
  __int128 srem(__int128 x, __int128 y) { return x % y; }
  __int128 smin(__int128 x, __int128 y) { return x < y ? x : y; }
  __int128 smax(__int128 x, __int128 y) { return x > y ? x : y; }
  __int128 slt(__int128 x, __int128 y) { return x < y; }
  __int128 select(__int128 c, __int128 x, __int128 y) { return c ? x : y; }
  __int128 bor(__int128 x, __int128 y) { return x | y; }
};

int64_t value(llvm::StringRef text, int64_t m, int64_t seq) {
  KernelSignature sig = signature();
  std::optional<DimExprRef> e = parseDimExpr(text, sig);
  REQUIRE(e);
  Eval ev{{0, m, seq}};
  return int64_t(buildDimExpr<Eval, __int128>(**e, ev));
}
} // namespace

TEST_CASE("dimension texts", "[abi][dims]") {
  KernelSignature sig = signature();
  std::optional<DimExprRef> c = parseDimExpr("64", sig);
  REQUIRE(c);
  CHECK((*c)->isConstant());
  std::optional<DimExprRef> d = parseDimExpr("seq_len", sig);
  REQUIRE(d);
  CHECK((*d)->isArg());
  CHECK((*d)->arg == 2);
  std::optional<DimExprRef> e = parseDimExpr("seq_len * 4", sig);
  REQUIRE(e);
  CHECK((*e)->isDerived());
  CHECK_FALSE(parseDimExpr("N", sig));            // not a dynamic dimension of the signature
  CHECK_FALSE(parseDimExpr("M // seq_len", sig)); // divides only by a positive constant
  CHECK_FALSE(parseDimExpr("M % 0", sig));
  CHECK_FALSE(parseDimExpr("M *", sig));
  CHECK_FALSE(parseDimExpr("(M + 1", sig));
  CHECK_FALSE(parseDimExpr("?", sig));
}

TEST_CASE("derived dimensions evaluate as Python does", "[abi][dims]") {
  CHECK(value("seq_len * 4", 0, 50) == 200);
  CHECK(value("(M + 1) // 2", 7, 0) == 4);
  CHECK(value("M - 8 // 3", 7, 0) == 5);    // precedence: 8 // 3 first
  CHECK(value("(M - 8) // 3", 7, 0) == -1); // floored, not truncated
  CHECK(value("(M - 8) % 3", 7, 0) == 2);   // Python's sign of the divisor
  CHECK(value("(M - 8) // 3 + 10", 7, 0) == 9);
  CHECK(value("min(M, seq_len) * 2", 7, 3) == 6);
  CHECK(value("max(M, seq_len) + -1", 7, 3) == 6);
  CHECK(value("M - seq_len - 1", 7, 3) == 3); // left-associative
}

TEST_CASE("the launchers' check flags values over the limit", "[abi][dims]") {
  KernelSignature sig = signature();
  const int64_t limit = int64_t(1) << 48;
  auto checked = [&](llvm::StringRef text, int64_t m, bool &over) {
    std::optional<DimExprRef> e = parseDimExpr(text, sig);
    REQUIRE(e);
    Eval ev{{0, m, 1}, limit + 1};
    __int128 bad = 0;
    __int128 v = buildCheckedDimExpr<Eval, __int128>(**e, ev, bad, limit);
    over = bad != 0;
    return int64_t(v);
  };
  bool over = false;
  CHECK(checked("M * 4", 1000, over) == 4000);
  CHECK_FALSE(over);
  checked("M * 4", int64_t(1) << 61, over); // wraps int64; clamped here
  CHECK(over);
  checked("M * 4 // 8", int64_t(1) << 47, over); // 2^49 on the way, 2^46 at the end
  CHECK(over);
  CHECK(checked("(M + 1) // 2", 9, over) == 5);
  CHECK_FALSE(over);
}
