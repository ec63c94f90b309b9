//===- Ops.cpp - Python operators on compile-time values ------------------===//
//
// The one expression core: binary, unary and comparison operators with
// Python's rules over every value kind, used by the meta interpreter and by
// kernel code generation when both operands are compile-time values.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/ConstEval.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Meta/BigInt.h"

#include <cmath>

using namespace tilec;
using namespace tilec::meta;
using ast::BinaryOp;
using ast::CompareOp;
using ast::UnaryOp;
using K = Value::Kind;

static ConstResult fail(std::string msg) { return ConstResult::failure(std::move(msg)); }
static ConstResult ok(Value v) { return ConstResult::of(std::move(v)); }

//===----------------------------------------------------------------------===//
// Size expressions
//===----------------------------------------------------------------------===//

SizeRef tilec::meta::toSize(const Value &v) {
  if (const SizeExpr *e = v.getSize())
    return std::static_pointer_cast<SizeObj>(v.getObjectRef())->size;
  auto c = std::make_shared<SizeExpr>();
  c->op = SizeExpr::Op::Const;
  c->constant = v.getInt();
  (void)c;
  return c;
}

Value tilec::meta::sizeOp(SizeExpr::Op op, const Value &lhs, const Value &rhs) {
  using Op = SizeExpr::Op;
  bool lc = lhs.isIntLike(), rc = rhs.isIntLike();
  // Identities keep the expressions small.
  if (rc && ((op == Op::Add || op == Op::Sub) && rhs.getInt() == 0))
    return lhs;
  if (lc && op == Op::Add && lhs.getInt() == 0)
    return rhs;
  if (rc && (op == Op::Mul || op == Op::FloorDiv) && rhs.getInt() == 1)
    return lhs;
  if (lc && op == Op::Mul && lhs.getInt() == 1)
    return rhs;
  if ((lc && op == Op::Mul && lhs.getInt() == 0) || (rc && op == Op::Mul && rhs.getInt() == 0))
    return Value::ofInt(0);
  if (rc && op == Op::Mod && rhs.getInt() == 1)
    return Value::ofInt(0);
  if (op == Op::Sub && equals(lhs, rhs))
    return Value::ofInt(0);
  // (x + a) + b -> x + (a + b), (x + a) - b -> x + (a - b).
  if ((op == Op::Add || op == Op::Sub) && rc && lhs.getSize() && lhs.getSize()->op == Op::Add &&
      lhs.getSize()->rhs->op == Op::Const) {
    int64_t a = lhs.getSize()->rhs->constant, b = rhs.getInt(), c;
    if (!(op == Op::Add ? __builtin_add_overflow(a, b, &c) : __builtin_sub_overflow(a, b, &c))) {
      auto x = std::make_shared<SizeExpr>();
      *x = *lhs.getSize()->lhs;
      return sizeOp(Op::Add, Value::ofSize(x), Value::ofInt(c));
    }
  }
  auto e = std::make_shared<SizeExpr>();
  e->op = op;
  e->lhs = toSize(lhs);
  e->rhs = toSize(rhs);
  return Value::ofSize(e);
}

static ConstResult sizeBinary(BinaryOp op, const Value &lhs, const Value &rhs) {
  using Op = SizeExpr::Op;
  for (const Value *v : {&lhs, &rhs})
    if (!v->isIntLike() && !v->is(K::Dynamic))
      return fail(("operator '" + ast::spelling(op) + "' cannot be applied to " + lhs.describe() + " and " +
                   rhs.describe())
                      .str());
  switch (op) {
  case BinaryOp::Add: return ok(sizeOp(Op::Add, lhs, rhs));
  case BinaryOp::Sub: return ok(sizeOp(Op::Sub, lhs, rhs));
  case BinaryOp::Mul: return ok(sizeOp(Op::Mul, lhs, rhs));
  case BinaryOp::FloorDiv:
    if (rhs.isIntLike() && rhs.getInt() == 0)
      return fail("integer division by zero");
    return ok(sizeOp(Op::FloorDiv, lhs, rhs));
  case BinaryOp::Mod:
    if (rhs.isIntLike() && rhs.getInt() == 0)
      return fail("integer modulo by zero");
    return ok(sizeOp(Op::Mod, lhs, rhs));
  case BinaryOp::Div: {
    ConstResult res = fail("'/' on two integers is not allowed; use '//' for floor division");
    res.isIntTrueDiv = true;
    return res;
  }
  default:
    return fail(("operator '" + ast::spelling(op) + "' cannot be applied to a runtime dimension at compile time")
                    .str());
  }
}

//===----------------------------------------------------------------------===//
// Numbers
//===----------------------------------------------------------------------===//

/// The int64 fast path; a result that leaves int64 goes to bigBinary.
static ConstResult binaryInts(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  auto big = [&] { return bigBinary(op, Value::ofInt(a), Value::ofInt(b)); };
  switch (op) {
  case BinaryOp::Add:
    if (__builtin_add_overflow(a, b, &r))
      return big();
    return ok(Value::ofInt(r));
  case BinaryOp::Sub:
    if (__builtin_sub_overflow(a, b, &r))
      return big();
    return ok(Value::ofInt(r));
  case BinaryOp::Mul:
    if (__builtin_mul_overflow(a, b, &r))
      return big();
    return ok(Value::ofInt(r));
  case BinaryOp::Div: {
    ConstResult res = fail("'/' on two integers is not allowed; use '//' for floor division");
    res.isIntTrueDiv = true;
    return res;
  }
  case BinaryOp::FloorDiv:
    if (b == 0) return fail("integer division by zero");
    if (a == INT64_MIN && b == -1)
      return big();
    return ok(Value::ofInt(floorDiv(a, b)));
  case BinaryOp::Mod:
    if (b == 0) return fail("integer modulo by zero");
    return ok(Value::ofInt(floorMod(a, b)));
  case BinaryOp::Pow: {
    if (b < 0) {
      if (a == 0) return fail("0 cannot be raised to a negative power");
      return ok(Value::ofFloat(std::pow(double(a), double(b))));
    }
    if (a == 0 || a == 1) return ok(Value::ofInt(b == 0 ? 1 : a));
    if (a == -1) return ok(Value::ofInt(b % 2 == 0 ? 1 : -1));
    int64_t acc = 1;
    for (int64_t k = 0; k < b; ++k)
      if (__builtin_mul_overflow(acc, a, &acc))
        return big();
    return ok(Value::ofInt(acc));
  }
  case BinaryOp::BitAnd: return ok(Value::ofInt(a & b));
  case BinaryOp::BitOr: return ok(Value::ofInt(a | b));
  case BinaryOp::BitXor: return ok(Value::ofInt(a ^ b));
  case BinaryOp::Shl:
    if (b < 0) return fail("negative shift count");
    if (a == 0) return ok(Value::ofInt(0));
    if (b >= 63 || a > (INT64_MAX >> b) || a < (INT64_MIN >> b))
      return big();
    return ok(Value::ofInt(int64_t(uint64_t(a) << b)));
  case BinaryOp::Shr:
    if (b < 0) return fail("negative shift count");
    return ok(Value::ofInt(b >= 64 ? (a < 0 ? -1 : 0) : (a >> b)));
  case BinaryOp::MatMul:
    break;
  }
  return fail("operator '@' cannot be applied to two integers");
}

static ConstResult binaryFloats(BinaryOp op, double a, double b) {
  switch (op) {
  case BinaryOp::Add: return ok(Value::ofFloat(a + b));
  case BinaryOp::Sub: return ok(Value::ofFloat(a - b));
  case BinaryOp::Mul: return ok(Value::ofFloat(a * b));
  case BinaryOp::Div:
    if (b == 0) return fail("float division by zero");
    return ok(Value::ofFloat(a / b));
  case BinaryOp::FloorDiv:
    if (b == 0) return fail("float division by zero");
    return ok(Value::ofFloat(std::floor(a / b)));
  case BinaryOp::Mod: {
    if (b == 0) return fail("float modulo by zero");
    double r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0)))
      r += b;
    else if (r == 0)
      r = std::copysign(0.0, b); // Python: a zero result has the divisor's sign
    return ok(Value::ofFloat(r));
  }
  case BinaryOp::Pow:
    if (a == 0 && b < 0) return fail("0.0 cannot be raised to a negative power");
    return ok(Value::ofFloat(std::pow(a, b)));
  default:
    return fail(("operator '" + ast::spelling(op) + "' needs integer operands, got a float").str());
  }
}

bool tilec::checkBinaryResult(const ConstResult &r, DiagnosticEmitter &diags, llvm::SMRange opRange,
                              llvm::SMRange range) {
  if (r.isIntTrueDiv) {
    diags.emit(DiagID::sema_int_true_div, opRange);
    return false;
  }
  if (r.error.empty())
    return true;
  if (llvm::StringRef(r.error).contains("by zero"))
    diags.emit(DiagID::sema_division_by_zero, range);
  else
    diags.emit(DiagID::sema_const_error, range, r.error);
  return false;
}

//===----------------------------------------------------------------------===//
// Sequences and containers
//===----------------------------------------------------------------------===//

static constexpr size_t kMaxRepeat = size_t(1) << 24;

static ConstResult repeat(const Value &seq, int64_t n) {
  if (n < 0 || (seq.is(K::Str) ? seq.getStr().empty() : seq.getElts().empty()))
    n = 0;
  if (seq.is(K::Str)) {
    if (!seq.getStr().empty() && size_t(n) > kMaxRepeat / seq.getStr().size())
      return fail("string repetition is too large");
    std::string r;
    for (int64_t k = 0; k < n; ++k)
      r += seq.getStr();
    return ok(Value::ofStr(r));
  }
  auto elts = seq.getElts();
  if (!elts.empty() && size_t(n) > kMaxRepeat / elts.size())
    return fail("sequence repetition is too large");
  std::vector<Value> r;
  for (int64_t k = 0; k < n; ++k)
    r.insert(r.end(), elts.begin(), elts.end());
  return ok(seq.is(K::List) ? Value::ofList(std::move(r)) : Value::ofTuple(std::move(r)));
}

static std::optional<ConstResult> containerBinary(BinaryOp op, const Value &lhs, const Value &rhs) {
  K lk = lhs.getKind(), rk = rhs.getKind();
  if (op == BinaryOp::Add && lk == rk && (lk == K::Str || lk == K::Tuple || lk == K::List)) {
    if (lk == K::Str)
      return ok(Value::ofStr((lhs.getStr() + rhs.getStr()).str()));
    std::vector<Value> elts(lhs.getElts().begin(), lhs.getElts().end());
    elts.insert(elts.end(), rhs.getElts().begin(), rhs.getElts().end());
    return ok(lk == K::List ? Value::ofList(std::move(elts)) : Value::ofTuple(std::move(elts)));
  }
  if (op == BinaryOp::Mul) {
    bool ls = lk == K::Str || lk == K::Tuple || lk == K::List;
    bool rs = rk == K::Str || rk == K::Tuple || rk == K::List;
    if ((ls && rhs.isBigInt()) || (rs && lhs.isBigInt()))
      return fail("cannot repeat a sequence by " + (ls ? rhs : lhs).describe());
    if (ls && rhs.isIntLike())
      return repeat(lhs, rhs.getInt());
    if (rs && lhs.isIntLike())
      return repeat(rhs, lhs.getInt());
  }
  if (op == BinaryOp::Mod && lk == K::Str) {
    std::string err;
    std::string r = formatPercent(lhs.getStr(), rhs, err);
    if (!err.empty())
      return fail(err);
    return ok(Value::ofStr(r));
  }
  if (op == BinaryOp::BitOr && lk == K::Dict && rk == K::Dict) {
    std::vector<std::pair<Value, Value>> items(*lhs.dictItems());
    items.insert(items.end(), rhs.dictItems()->begin(), rhs.dictItems()->end());
    return ok(Value::ofDict(std::move(items)));
  }
  if (lk == K::Set && rk == K::Set &&
      (op == BinaryOp::BitOr || op == BinaryOp::BitAnd || op == BinaryOp::Sub || op == BinaryOp::BitXor)) {
    auto in = [](const Value &v, llvm::ArrayRef<Value> s) {
      return llvm::any_of(s, [&](const Value &w) { return equals(v, w); });
    };
    std::vector<Value> r;
    auto a = lhs.getElts(), b = rhs.getElts();
    for (const Value &v : a)
      if (op == BinaryOp::BitOr || (op == BinaryOp::BitAnd) == in(v, b))
        r.push_back(v);
    if (op == BinaryOp::BitOr || op == BinaryOp::BitXor)
      for (const Value &v : b)
        if (op == BinaryOp::BitOr || !in(v, a))
          r.push_back(v);
    return ok(Value::ofSet(std::move(r)));
  }
  return std::nullopt;
}

ConstResult tilec::applyBinary(BinaryOp op, const Value &lhs, const Value &rhs) {
  if (lhs.is(K::Harness) || rhs.is(K::Harness)) {
    const Value &h = lhs.is(K::Harness) ? lhs : rhs;
    return ok(makeHarness(lhs.str() + " " + ast::spelling(op).str() + " " + rhs.str(), h.as<HarnessObj>()->origin));
  }
  if (std::optional<ConstResult> r = containerBinary(op, lhs, rhs))
    return *r;
  if (lhs.is(K::Dynamic) || rhs.is(K::Dynamic))
    return sizeBinary(op, lhs, rhs);
  if (!(lhs.isNumber() || lhs.isBigInt()) || !(rhs.isNumber() || rhs.isBigInt()))
    return fail(("operator '" + ast::spelling(op) + "' cannot be applied to " + lhs.describe() + " and " +
                 rhs.describe())
                    .str());
  if (lhs.isBigInt() || rhs.isBigInt()) {
    if (lhs.isInteger() && rhs.isInteger())
      return bigBinary(op, lhs, rhs);
    // With a float: the int converts to a float, as in Python.
    ConstResult x = intToFloat(lhs.isBigInt() ? lhs : rhs);
    if (!x.error.empty())
      return x;
    return binaryFloats(op, lhs.getFloat(), rhs.getFloat());
  }
  if (lhs.isIntLike() && rhs.isIntLike()) {
    ConstResult r = binaryInts(op, lhs.getInt(), rhs.getInt());
    // bool & bool stays a bool, as in Python.
    if (r.error.empty() && lhs.is(K::Bool) && rhs.is(K::Bool) &&
        (op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor))
      r.value = Value::ofBool(r.value.getInt() != 0);
    return r;
  }
  return binaryFloats(op, lhs.getFloat(), rhs.getFloat());
}

ConstResult tilec::applyUnary(UnaryOp op, const Value &v) {
  if (v.is(K::Harness))
    return ok(makeHarness(ast::spelling(op).str() + v.str(), v.as<HarnessObj>()->origin));
  if (op == UnaryOp::Not) {
    if (v.is(K::Dynamic))
      return fail("the truth value of runtime dimension '" + v.getStr().str() + "' is not known at compile time");
    return ok(Value::ofBool(!v.truthy()));
  }
  if (v.is(K::Dynamic)) {
    if (op == UnaryOp::Pos)
      return ok(v);
    if (op == UnaryOp::Neg)
      return ok(sizeOp(SizeExpr::Op::Sub, Value::ofInt(0), v));
  }
  if (v.isBigInt()) {
    if (op == UnaryOp::Neg)
      return bigNegate(v);
    if (op == UnaryOp::Invert)
      return bigInvert(v);
    if (op == UnaryOp::Pos)
      return ok(v);
  }
  if (!v.isNumber())
    return fail(("operator '" + ast::spelling(op) + "' cannot be applied to " + v.describe()).str());
  switch (op) {
  case UnaryOp::Pos:
    return ok(v.is(K::Bool) ? Value::ofInt(v.getInt()) : v);
  case UnaryOp::Neg:
    if (v.is(K::Float))
      return ok(Value::ofFloat(-v.getFloat()));
    if (v.getInt() == INT64_MIN)
      return bigNegate(v);
    return ok(Value::ofInt(-v.getInt()));
  case UnaryOp::Invert:
    if (v.is(K::Float))
      return fail("operator '~' needs an integer operand, got a float");
    return ok(Value::ofInt(~v.getInt()));
  default:
    return fail("unsupported unary operator");
  }
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

/// -1, 0, 1, or nullopt when the values are not ordered.
static std::optional<int> order(const Value &a, const Value &b) {
  // Integers against integers and floats compare exactly (2**53 + 1 > 2.0**53).
  bool ai = a.isInteger(), bi = b.isInteger();
  if ((ai && (bi || b.is(K::Float))) || (bi && a.is(K::Float))) {
    if (ai && bi)
      return compareInts(a, b);
    if (ai)
      return compareIntFloat(a, b.getFloat());
    std::optional<int> c = compareIntFloat(b, a.getFloat());
    return c ? std::optional<int>(-*c) : std::nullopt;
  }
  if (a.isNumber() && b.isNumber()) {
    if (a.isIntLike() && b.isIntLike())
      return a.getInt() < b.getInt() ? -1 : a.getInt() > b.getInt();
    double x = a.getFloat(), y = b.getFloat();
    if (x != x || y != y)
      return std::nullopt;
    return x < y ? -1 : x > y;
  }
  if (a.is(K::Str) && b.is(K::Str)) {
    int c = a.getStr().compare(b.getStr());
    return c < 0 ? -1 : c > 0;
  }
  if (a.getKind() == b.getKind() && (a.is(K::Tuple) || a.is(K::List))) {
    auto x = a.getElts(), y = b.getElts();
    for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
      if (equals(x[k], y[k]))
        continue;
      return order(x[k], y[k]);
    }
    return x.size() < y.size() ? -1 : x.size() > y.size();
  }
  return std::nullopt;
}

static ConstResult contains(const Value &item, const Value &box, bool negate) {
  bool found = false;
  switch (box.getKind()) {
  case K::Tuple: case K::List: case K::Set:
    found = llvm::any_of(box.getElts(), [&](const Value &e) { return equals(item, e); });
    break;
  case K::Dict:
    found = box.as<DictObj>()->find(item) != nullptr;
    break;
  case K::Str:
    if (!item.is(K::Str))
      return fail("'in <string>' requires a string as left operand, not " + item.describe());
    found = box.getStr().contains(item.getStr());
    break;
  case K::Object:
    if (NamedObj *r = asObject(box, "range")) {
      if (!item.isIntLike())
        break;
      int64_t start = r->fields.lookup("start").getInt(), step = r->fields.lookup("step").getInt(),
              n = r->fields.lookup("len").getInt(), x = item.getInt();
      __int128 off = (__int128)x - start;
      found = off % step == 0 && off / step >= 0 && off / step < n;
      break;
    }
    [[fallthrough]];
  default:
    return fail("'in' needs a container on its right, got " + box.describe());
  }
  return ok(Value::ofBool(found != negate));
}

ConstResult tilec::applyCompare(CompareOp op, const Value &lhs, const Value &rhs) {
  if (lhs.is(K::Harness) || rhs.is(K::Harness)) {
    const Value &h = lhs.is(K::Harness) ? lhs : rhs;
    return ok(makeHarness(lhs.str() + " " + ast::spelling(op).str() + " " + rhs.str(), h.as<HarnessObj>()->origin));
  }
  if (op == CompareOp::Is || op == CompareOp::IsNot) {
    bool same;
    if (lhs.is(K::None) || rhs.is(K::None) || lhs.is(K::Bool) || rhs.is(K::Bool))
      same = lhs.getKind() == rhs.getKind() && (lhs.is(K::None) || lhs.getInt() == rhs.getInt());
    else if (lhs.getObject() || rhs.getObject())
      same = lhs.getObject() == rhs.getObject();
    else
      same = lhs.getKind() == rhs.getKind() && equals(lhs, rhs);
    return ok(Value::ofBool(op == CompareOp::Is ? same : !same));
  }
  if (op == CompareOp::In || op == CompareOp::NotIn)
    return contains(lhs, rhs, op == CompareOp::NotIn);
  if (op == CompareOp::Eq || op == CompareOp::Ne) {
    if ((lhs.is(K::Dynamic) || rhs.is(K::Dynamic)) && !equals(lhs, rhs))
      return fail("runtime dimension '" + (lhs.is(K::Dynamic) ? lhs : rhs).getStr().str() +
                  "' cannot be compared at compile time");
    bool same = equals(lhs, rhs);
    return ok(Value::ofBool(op == CompareOp::Eq ? same : !same));
  }
  if (lhs.is(K::Dynamic) || rhs.is(K::Dynamic))
    return fail("runtime dimension '" + (lhs.is(K::Dynamic) ? lhs : rhs).getStr().str() +
                "' cannot be compared at compile time");
  std::optional<int> c = order(lhs, rhs);
  if (!c) {
    if ((lhs.isNumber() || lhs.isBigInt()) && (rhs.isNumber() || rhs.isBigInt()))
      return ok(Value::ofBool(false)); // NaN
    return fail(("operator '" + ast::spelling(op) + "' cannot compare " + lhs.describe() + " and " + rhs.describe())
                    .str());
  }
  bool r = op == CompareOp::Lt ? *c < 0 : op == CompareOp::Le ? *c <= 0 : op == CompareOp::Gt ? *c > 0 : *c >= 0;
  return ok(Value::ofBool(r));
}
