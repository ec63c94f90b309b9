//===- ConstEval.cpp - Dtypes, constant values and Python arithmetic ------===//
//
// Compile-time values and their operators with Python semantics (floor
// division and modulo, exact integers with overflow detection), linear forms
// and name suggestions.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/ConstEval.h"
#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdio>
#include <cmath>

using namespace tilec;
using ast::BinaryOp;
using ast::CompareOp;
using ast::UnaryOp;

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

namespace {
struct DTypeName {
  const char *name;
  DType type;
};
const DTypeName dtypeNames[] = {
    {"float16", DType::Float16},       {"bfloat16", DType::BFloat16},      {"float32", DType::Float32},
    {"float64", DType::Float64},       {"float8_e4m3", DType::Float8E4M3}, {"float8_e4m3fn", DType::Float8E4M3},
    {"float8_e5m2", DType::Float8E5M2}, {"int8", DType::Int8},              {"uint8", DType::UInt8},
    {"int16", DType::Int16},           {"int32", DType::Int32},            {"int64", DType::Int64},
    {"uint32", DType::UInt32},         {"bool", DType::Bool},              {"int4", DType::Int4},
    {"uint4", DType::UInt4},
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
    if (d.type == t)
      return d.name;
  return "?";
}

llvm::ArrayRef<llvm::StringRef> tilec::allDTypeNames() {
  static const llvm::SmallVector<llvm::StringRef, 16> names = [] {
    llvm::SmallVector<llvm::StringRef, 16> v;
    for (const DTypeName &d : dtypeNames)
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

//===----------------------------------------------------------------------===//
// Integer helpers and linear forms
//===----------------------------------------------------------------------===//

int64_t tilec::floorDiv(int64_t a, int64_t b) {
  if (b == -1) // avoids INT64_MIN / -1 trapping; wraps like two's complement
    return int64_t(0 - uint64_t(a));
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

int64_t tilec::floorMod(int64_t a, int64_t b) {
  if (b == -1)
    return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

int64_t tilec::ceilDiv(int64_t a, int64_t b) {
  if (b == -1)
    return int64_t(0 - uint64_t(a));
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

LinearForm LinearForm::ofConstant(int64_t c) {
  LinearForm f;
  f.constant = c;
  return f;
}

LinearForm LinearForm::ofSymbol(unsigned id) {
  LinearForm f;
  f.terms.push_back({id, 1});
  return f;
}

std::optional<LinearForm> LinearForm::add(const LinearForm &o) const {
  LinearForm r;
  if (__builtin_add_overflow(constant, o.constant, &r.constant))
    return std::nullopt;
  size_t i = 0, j = 0;
  while (i < terms.size() || j < o.terms.size()) {
    if (j == o.terms.size() || (i < terms.size() && terms[i].first < o.terms[j].first)) {
      r.terms.push_back(terms[i++]);
    } else if (i == terms.size() || o.terms[j].first < terms[i].first) {
      r.terms.push_back(o.terms[j++]);
    } else {
      int64_t c;
      if (__builtin_add_overflow(terms[i].second, o.terms[j].second, &c))
        return std::nullopt;
      if (c != 0)
        r.terms.push_back({terms[i].first, c});
      ++i;
      ++j;
    }
  }
  return r;
}

std::optional<LinearForm> LinearForm::scale(int64_t k) const {
  LinearForm r;
  if (k == 0)
    return r;
  if (__builtin_mul_overflow(constant, k, &r.constant))
    return std::nullopt;
  for (auto [sym, c] : terms) {
    int64_t p;
    if (__builtin_mul_overflow(c, k, &p))
      return std::nullopt;
    r.terms.push_back({sym, p});
  }
  return r;
}

std::optional<LinearForm> LinearForm::sub(const LinearForm &o) const {
  std::optional<LinearForm> neg = o.scale(-1);
  if (!neg)
    return std::nullopt;
  return add(*neg);
}

std::optional<LinearForm> LinearForm::mul(const LinearForm &o) const {
  if (o.isConstant())
    return scale(o.constant);
  if (isConstant())
    return o.scale(constant);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// ConstValue
//===----------------------------------------------------------------------===//

bool ConstValue::truthy() const {
  switch (kind) {
  case Kind::None: case Kind::Invalid: return false;
  case Kind::Int: case Kind::Bool: return i != 0;
  case Kind::Float: return f != 0.0;
  case Kind::Str: return !s.empty();
  case Kind::Tuple: return !elts.empty();
  default: return true;
  }
}

std::optional<DType> ConstValue::asDType() const {
  if (kind == Kind::DType)
    return dt;
  if (kind == Kind::Str)
    return parseDType(s);
  return std::nullopt;
}

std::string ConstValue::str() const {
  switch (kind) {
  case Kind::Invalid: return "<error>";
  case Kind::None: return "None";
  case Kind::Int: return std::to_string(i);
  case Kind::Bool: return i ? "True" : "False";
  case Kind::Float: {
    char buf[64];
    snprintf(buf, sizeof(buf), "%.17g", f);
    std::string r = buf;
    if (r.find_first_of(".eEn") == std::string::npos)
      r += ".0";
    return r;
  }
  case Kind::Str: return "'" + s + "'";
  case Kind::DType: return ("T." + dtypeName(dt)).str();
  case Kind::Dynamic: return s;
  case Kind::Policy: return "T.GemmWarpPolicy." + s;
  case Kind::Tuple: {
    std::string r = "(";
    for (size_t k = 0; k < elts.size(); ++k)
      r += (k ? ", " : "") + elts[k].str();
    return r + (elts.size() == 1 ? ",)" : ")");
  }
  }
  return "";
}

llvm::StringRef ConstValue::describe() const {
  switch (kind) {
  case Kind::Invalid: return "an invalid value";
  case Kind::None: return "None";
  case Kind::Int: return "an integer";
  case Kind::Bool: return "a bool";
  case Kind::Float: return "a float";
  case Kind::Str: return "a string";
  case Kind::DType: return "a dtype";
  case Kind::Tuple: return "a tuple";
  case Kind::Dynamic: return "a runtime dimension";
  case Kind::Policy: return "a GemmWarpPolicy";
  }
  return "a value";
}

static ConstResult fail(std::string msg) {
  ConstResult r;
  r.error = std::move(msg);
  return r;
}

static ConstResult ok(ConstValue v) {
  ConstResult r;
  r.value = std::move(v);
  return r;
}

static ConstResult binaryInts(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
  case BinaryOp::Add:
    if (__builtin_add_overflow(a, b, &r)) return fail("integer overflow in '+'");
    return ok(ConstValue::ofInt(r));
  case BinaryOp::Sub:
    if (__builtin_sub_overflow(a, b, &r)) return fail("integer overflow in '-'");
    return ok(ConstValue::ofInt(r));
  case BinaryOp::Mul:
    if (__builtin_mul_overflow(a, b, &r)) return fail("integer overflow in '*'");
    return ok(ConstValue::ofInt(r));
  case BinaryOp::Div: {
    ConstResult res = fail("'/' on two integers is not allowed; use '//' for floor division");
    res.isIntTrueDiv = true;
    return res;
  }
  case BinaryOp::FloorDiv:
    if (b == 0) return fail("integer division by zero");
    return ok(ConstValue::ofInt(floorDiv(a, b)));
  case BinaryOp::Mod:
    if (b == 0) return fail("integer modulo by zero");
    return ok(ConstValue::ofInt(floorMod(a, b)));
  case BinaryOp::Pow: {
    if (b < 0)
      return ok(ConstValue::ofFloat(std::pow(double(a), double(b))));
    int64_t acc = 1;
    for (int64_t k = 0; k < b; ++k) {
      if (__builtin_mul_overflow(acc, a, &acc)) return fail("integer overflow in '**'");
      if (acc == 0 || acc == 1) break;
    }
    if (acc == -1 || (a == -1))
      acc = (b % 2 == 0) ? 1 : -1;
    return ok(ConstValue::ofInt(acc));
  }
  case BinaryOp::BitAnd: return ok(ConstValue::ofInt(a & b));
  case BinaryOp::BitOr: return ok(ConstValue::ofInt(a | b));
  case BinaryOp::BitXor: return ok(ConstValue::ofInt(a ^ b));
  case BinaryOp::Shl:
    if (b < 0) return fail("negative shift count");
    if (b >= 63 || (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b))))
      return a == 0 ? ok(ConstValue::ofInt(0)) : fail("integer overflow in '<<'");
    return ok(ConstValue::ofInt(int64_t(uint64_t(a) << b)));
  case BinaryOp::Shr:
    if (b < 0) return fail("negative shift count");
    return ok(ConstValue::ofInt(b >= 64 ? (a < 0 ? -1 : 0) : (a >> b)));
  case BinaryOp::MatMul: break;
  }
  return fail("unsupported operator");
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

ConstResult tilec::applyBinary(BinaryOp op, const ConstValue &lhs, const ConstValue &rhs) {
  if (lhs.getKind() == ConstValue::Kind::Str && rhs.getKind() == ConstValue::Kind::Str && op == BinaryOp::Add)
    return ok(ConstValue::ofStr((lhs.getStr() + rhs.getStr()).str()));
  if (lhs.getKind() == ConstValue::Kind::Tuple && rhs.getKind() == ConstValue::Kind::Tuple &&
      op == BinaryOp::Add) {
    std::vector<ConstValue> elts(lhs.getElts().begin(), lhs.getElts().end());
    elts.insert(elts.end(), rhs.getElts().begin(), rhs.getElts().end());
    return ok(ConstValue::ofTuple(std::move(elts)));
  }
  if (!lhs.isNumber() || !rhs.isNumber())
    return fail(("operator '" + ast::spelling(op) + "' cannot be applied to " + lhs.describe() + " and " +
                 rhs.describe())
                    .str());
  if (lhs.isIntLike() && rhs.isIntLike())
    return binaryInts(op, lhs.getInt(), rhs.getInt());
  double a = lhs.getFloat(), b = rhs.getFloat();
  switch (op) {
  case BinaryOp::Add: return ok(ConstValue::ofFloat(a + b));
  case BinaryOp::Sub: return ok(ConstValue::ofFloat(a - b));
  case BinaryOp::Mul: return ok(ConstValue::ofFloat(a * b));
  case BinaryOp::Div:
    if (b == 0) return fail("float division by zero");
    return ok(ConstValue::ofFloat(a / b));
  case BinaryOp::FloorDiv:
    if (b == 0) return fail("float division by zero");
    return ok(ConstValue::ofFloat(std::floor(a / b)));
  case BinaryOp::Mod: {
    if (b == 0) return fail("float modulo by zero");
    double r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0)))
      r += b;
    return ok(ConstValue::ofFloat(r));
  }
  case BinaryOp::Pow: return ok(ConstValue::ofFloat(std::pow(a, b)));
  default:
    return fail(("operator '" + ast::spelling(op) + "' needs integer operands, got a float").str());
  }
}

ConstResult tilec::applyUnary(UnaryOp op, const ConstValue &v) {
  if (op == UnaryOp::Not)
    return ok(ConstValue::ofBool(!v.truthy()));
  if (!v.isNumber())
    return fail(("operator '" + ast::spelling(op) + "' cannot be applied to " + v.describe()).str());
  switch (op) {
  case UnaryOp::Pos:
    return ok(v.getKind() == ConstValue::Kind::Bool ? ConstValue::ofInt(v.getInt()) : v);
  case UnaryOp::Neg:
    if (v.getKind() == ConstValue::Kind::Float)
      return ok(ConstValue::ofFloat(-v.getFloat()));
    if (v.getInt() == INT64_MIN)
      return fail("integer overflow in unary '-'");
    return ok(ConstValue::ofInt(-v.getInt()));
  case UnaryOp::Invert:
    if (v.getKind() == ConstValue::Kind::Float)
      return fail("operator '~' needs an integer operand, got a float");
    return ok(ConstValue::ofInt(~v.getInt()));
  default:
    return fail("unsupported unary operator");
  }
}

ConstResult tilec::applyCompare(CompareOp op, const ConstValue &lhs, const ConstValue &rhs) {
  using K = ConstValue::Kind;
  if (op == CompareOp::Is || op == CompareOp::IsNot) {
    bool same = lhs.getKind() == rhs.getKind() && lhs.str() == rhs.str();
    return ok(ConstValue::ofBool(op == CompareOp::Is ? same : !same));
  }
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    if (rhs.getKind() != K::Tuple)
      return fail("'in' needs a tuple on its right");
    bool found = false;
    for (const ConstValue &e : rhs.getElts())
      found |= e.str() == lhs.str();
    return ok(ConstValue::ofBool(op == CompareOp::In ? found : !found));
  }
  if (lhs.isNumber() && rhs.isNumber()) {
    bool r = false;
    if (lhs.isIntLike() && rhs.isIntLike()) {
      int64_t a = lhs.getInt(), b = rhs.getInt();
      r = op == CompareOp::Eq ? a == b : op == CompareOp::Ne ? a != b : op == CompareOp::Lt ? a < b
        : op == CompareOp::Le ? a <= b : op == CompareOp::Gt ? a > b : a >= b;
    } else {
      double a = lhs.getFloat(), b = rhs.getFloat();
      r = op == CompareOp::Eq ? a == b : op == CompareOp::Ne ? a != b : op == CompareOp::Lt ? a < b
        : op == CompareOp::Le ? a <= b : op == CompareOp::Gt ? a > b : a >= b;
    }
    return ok(ConstValue::ofBool(r));
  }
  if (op == CompareOp::Eq || op == CompareOp::Ne) {
    bool same = lhs.getKind() == rhs.getKind() && lhs.str() == rhs.str();
    // A dtype equals its string spelling.
    if (auto a = lhs.asDType())
      if (auto b = rhs.asDType())
        same = *a == *b;
    return ok(ConstValue::ofBool(op == CompareOp::Eq ? same : !same));
  }
  if (lhs.getKind() == K::Str && rhs.getKind() == K::Str) {
    int c = lhs.getStr().compare(rhs.getStr());
    bool r = op == CompareOp::Lt ? c < 0 : op == CompareOp::Le ? c <= 0 : op == CompareOp::Gt ? c > 0 : c >= 0;
    return ok(ConstValue::ofBool(r));
  }
  return fail(("operator '" + ast::spelling(op) + "' cannot compare " + lhs.describe() + " and " +
               rhs.describe())
                  .str());
}

//===----------------------------------------------------------------------===//
// Scopes and suggestions
//===----------------------------------------------------------------------===//

const ConstEntry *ConstScope::lookup(llvm::StringRef name) const {
  for (const ConstScope *s = this; s; s = s->parent) {
    auto it = s->table.find(name);
    if (it != s->table.end())
      return &it->second;
  }
  return nullptr;
}

void ConstScope::collectNames(llvm::SmallVectorImpl<llvm::StringRef> &out) const {
  for (const ConstScope *s = this; s; s = s->parent)
    for (const auto &entry : s->table)
      out.push_back(entry.getKey());
}

llvm::StringRef tilec::closestName(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates) {
  llvm::StringRef best;
  unsigned bestDist = ~0u;
  unsigned limit = std::max<unsigned>(1, name.size() / 3);
  for (llvm::StringRef c : candidates) {
    if (c == name || c.empty())
      continue;
    unsigned d = name.edit_distance(c, /*AllowReplacements=*/true, limit + 1);
    // Also match case-insensitively (T.parallel vs T.Parallel).
    if (name.equals_insensitive(c))
      d = 0;
    if (d <= limit && d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  return best;
}

std::string tilec::didYouMean(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates) {
  llvm::StringRef best = closestName(name, candidates);
  if (best.empty())
    return "";
  return ("; did you mean '" + best + "'?").str();
}
