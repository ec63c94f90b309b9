//===- Value.cpp - Meta values: construction, repr, equality --------------===//
//
// Constructors of the reference kinds, Python truthiness, repr/str text,
// descriptions for messages, `==` and size-expression text.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Meta/Value.h"

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Meta/BigInt.h"

#include "llvm/ADT/Twine.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tilec;
using namespace tilec::meta;

Object::~Object() = default;

static std::string sizeText(const SizeExpr &e, int parentPrec);

static int precOf(SizeExpr::Op op) {
  switch (op) {
  case SizeExpr::Op::Add: case SizeExpr::Op::Sub: return 1;
  case SizeExpr::Op::Mul: case SizeExpr::Op::FloorDiv: case SizeExpr::Op::Mod: return 2;
  default: return 3;
  }
}

static std::string sizeText(const SizeExpr &e, int parentPrec) {
  switch (e.op) {
  case SizeExpr::Op::Const: return std::to_string(e.constant);
  case SizeExpr::Op::Dim: return e.name;
  case SizeExpr::Op::Min: return "min(" + sizeText(*e.lhs, 0) + ", " + sizeText(*e.rhs, 0) + ")";
  case SizeExpr::Op::Max: return "max(" + sizeText(*e.lhs, 0) + ", " + sizeText(*e.rhs, 0) + ")";
  default: break;
  }
  const char *op = e.op == SizeExpr::Op::Add ? " + " : e.op == SizeExpr::Op::Sub ? " - "
                 : e.op == SizeExpr::Op::Mul ? " * " : e.op == SizeExpr::Op::FloorDiv ? " // " : " % ";
  int p = precOf(e.op);
  std::string r = sizeText(*e.lhs, p) + op + sizeText(*e.rhs, p + 1);
  return p < parentPrec ? "(" + r + ")" : r;
}

std::string SizeExpr::str() const { return sizeText(*this, 0); }

void SizeExpr::collectDims(std::vector<std::string> &out) const {
  if (op == Op::Dim) {
    if (std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(name);
    return;
  }
  if (lhs)
    lhs->collectDims(out);
  if (rhs)
    rhs->collectDims(out);
}

Value Value::ofDynamic(std::string name) {
  auto e = std::make_shared<SizeExpr>();
  e->op = SizeExpr::Op::Dim;
  e->name = std::move(name);
  return ofSize(e);
}

Value Value::ofSize(SizeRef size) {
  if (size->op == SizeExpr::Op::Const)
    return ofInt(size->constant);
  Value v(Kind::Dynamic);
  v.s = size->str();
  auto o = std::make_shared<SizeObj>();
  o->size = std::move(size);
  v.obj = o;
  return v;
}

Value Value::ofList(std::vector<Value> items) {
  Value v(Kind::List);
  auto o = std::make_shared<ListObj>();
  o->items = std::move(items);
  v.obj = o;
  return v;
}

Value Value::ofSet(std::vector<Value> items) {
  Value v(Kind::Set);
  auto o = std::make_shared<ListObj>();
  for (Value &x : items) {
    bool dup = false;
    for (const Value &y : o->items)
      dup |= equals(x, y);
    if (!dup)
      o->items.push_back(std::move(x));
  }
  v.obj = o;
  return v;
}

Value Value::ofDict(std::vector<std::pair<Value, Value>> items) {
  Value v(Kind::Dict);
  auto o = std::make_shared<DictObj>();
  for (auto &[k, x] : items) {
    if (Value *old = o->find(k))
      *old = std::move(x);
    else
      o->items.emplace_back(std::move(k), std::move(x));
  }
  v.obj = o;
  return v;
}

Value Value::ofSlice(Value lower, Value upper, Value step) {
  Value v(Kind::Slice);
  v.elts = {std::move(lower), std::move(upper), std::move(step)};
  return v;
}

llvm::ArrayRef<Value> Value::getElts() const {
  if ((kind == Kind::List || kind == Kind::Set) && obj)
    return static_cast<ListObj *>(obj.get())->items;
  return elts;
}

const SizeExpr *Value::getSize() const {
  if (kind != Kind::Dynamic || !obj)
    return nullptr;
  return static_cast<SizeObj *>(obj.get())->size.get();
}

bool Value::isPlainDim() const {
  const SizeExpr *e = getSize();
  return e && e->op == SizeExpr::Op::Dim;
}

std::vector<Value> *Value::listItems() const {
  if ((kind == Kind::List || kind == Kind::Set) && obj)
    return &static_cast<ListObj *>(obj.get())->items;
  return nullptr;
}

std::vector<std::pair<Value, Value>> *Value::dictItems() const {
  if (kind == Kind::Dict && obj)
    return &static_cast<DictObj *>(obj.get())->items;
  return nullptr;
}

Value *DictObj::find(const Value &key) {
  for (auto &[k, v] : items)
    if (equals(k, key))
      return &v;
  return nullptr;
}

int FunctionObj::paramIndex(llvm::StringRef n) const {
  for (size_t k = 0; k < params.size(); ++k)
    if (params[k].name == n)
      return int(k);
  return -1;
}

bool Value::truthy() const {
  switch (kind) {
  case Kind::None: case Kind::Invalid: return false;
  case Kind::Int: case Kind::Bool: return i != 0;
  case Kind::Float: return f != 0.0;
  case Kind::Str: return !s.empty();
  case Kind::Tuple: return !elts.empty();
  case Kind::List: case Kind::Set: return !getElts().empty();
  case Kind::Dict: return !dictItems()->empty();
  case Kind::Object:
    if (NamedObj *r = asObject(*this, "range"))
      return r->fields.lookup("len").getInt() != 0;
    return true;
  default: return true;
  }
}

std::optional<DType> Value::asDType() const {
  if (kind == Kind::DType)
    return dt;
  if (kind == Kind::Str)
    return parseDType(s);
  return std::nullopt;
}

static std::string floatText(double f) {
  if (f != f)
    return "nan";
  if (f == 1.0 / 0.0)
    return "inf";
  if (f == -1.0 / 0.0)
    return "-inf";
  // The shortest digits that read back exactly (to_chars), laid out as
  // Python's repr: positional for exponents in [-4, 16), else scientific.
  char buf[64];
  std::string sci(buf, std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::scientific).ptr);
  std::string sign = sci[0] == '-' ? "-" : "";
  size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(sign.size(), e - sign.size()))
    if (c != '.')
      digits += c;
  int exp = std::atoi(sci.c_str() + e + 1);
  if (exp >= -4 && exp < 16) {
    if (exp < 0)
      return sign + "0." + std::string(size_t(-exp - 1), '0') + digits;
    if (digits.size() <= size_t(exp) + 1)
      return sign + digits + std::string(size_t(exp) + 1 - digits.size(), '0') + ".0";
    return sign + digits.substr(0, size_t(exp) + 1) + "." + digits.substr(size_t(exp) + 1);
  }
  char eb[16];
  snprintf(eb, sizeof(eb), "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return sign + digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "") + eb;
}

static std::string quote(llvm::StringRef s) {
  bool dq = s.contains('\'') && !s.contains('"');
  std::string r(1, dq ? '"' : '\'');
  for (char c : s) {
    if (c == '\\') r += "\\\\";
    else if (c == '\n') r += "\\n";
    else if (c == '\t') r += "\\t";
    else if (c == (dq ? '"' : '\'')) r += std::string("\\") + c;
    else r += c;
  }
  return r + (dq ? '"' : '\'');
}

static std::string join(llvm::ArrayRef<Value> vs) {
  std::string r;
  for (size_t k = 0; k < vs.size(); ++k)
    r += (k ? ", " : "") + vs[k].str();
  return r;
}

std::string Value::str() const {
  switch (kind) {
  case Kind::Invalid: return "<error>";
  case Kind::None: return "None";
  case Kind::Ellipsis: return "Ellipsis";
  case Kind::Int: return std::to_string(i);
  case Kind::BigInt:
    return (isNegativeInt(*this) ? "-" : "") + intDigits(*this, 10);
  case Kind::Bool: return i ? "True" : "False";
  case Kind::Float: return floatText(f);
  case Kind::Str: return quote(s);
  case Kind::DType: return ("T." + dtypeName(dt)).str();
  case Kind::Dynamic: return s;
  case Kind::Policy: return "T.GemmWarpPolicy." + s;
  case Kind::Tuple: return "(" + join(elts) + (elts.size() == 1 ? ",)" : ")");
  case Kind::List: return "[" + join(getElts()) + "]";
  case Kind::Set: return getElts().empty() ? "set()" : "{" + join(getElts()) + "}";
  case Kind::Dict: {
    std::string r = "{";
    bool first = true;
    for (auto &[k, v] : *dictItems()) {
      r += (first ? "" : ", ") + k.str() + ": " + v.str();
      first = false;
    }
    return r + "}";
  }
  case Kind::Slice:
    return "slice(" + elts[0].str() + ", " + elts[1].str() + ", " + elts[2].str() + ")";
  case Kind::Function: return "<function " + as<FunctionObj>()->name + ">";
  case Kind::Macro: return "<macro " + as<FunctionObj>()->name + ">";
  case Kind::Builtin: return "<built-in " + as<BuiltinObj>()->name + ">";
  case Kind::Module: return "<module '" + as<ModuleObj>()->name + "'>";
  case Kind::Kernel: return "<kernel " + as<KernelObj>()->exportName + ">";
  case Kind::Harness: return as<HarnessObj>()->text;
  case Kind::Object: {
    auto *o = as<NamedObj>();
    return o->text.empty() ? "<" + o->typeName + ">" : o->text;
  }
  }
  return "";
}

std::string Value::toDisplay() const {
  if (kind == Kind::DType)
    return dtypeName(dt).str(); // str(T.float16) is 'float16', as in tile-lang
  return kind == Kind::Str ? s : str();
}

std::string Value::describe() const {
  switch (kind) {
  case Kind::Invalid: return "an invalid value";
  case Kind::None: return "None";
  case Kind::Ellipsis: return "Ellipsis";
  case Kind::Int: return "an integer";
  case Kind::BigInt: {
    // The messages of every API that needs a machine integer end up here.
    std::string text = str();
    if (text.size() > 40)
      text = text.substr(0, 20) + "..." + text.substr(text.size() - 6);
    return "the integer " + text + ", which does not fit in 64 bits (it has " + std::to_string(bitLength(*this)) +
           " bits)";
  }
  case Kind::Bool: return "a bool";
  case Kind::Float: return "a float";
  case Kind::Str: return "a string";
  case Kind::DType: return "a dtype";
  case Kind::Tuple: return "a tuple";
  case Kind::Dynamic: return isPlainDim() ? "a runtime dimension" : "a runtime size expression";
  case Kind::Policy: return "a GemmWarpPolicy";
  case Kind::List: return "a list";
  case Kind::Dict: return "a dict";
  case Kind::Set: return "a set";
  case Kind::Slice: return "a slice";
  case Kind::Function: return "function '" + as<FunctionObj>()->name + "'";
  case Kind::Macro: return "macro '" + as<FunctionObj>()->name + "'";
  case Kind::Builtin: return "'" + as<BuiltinObj>()->name + "'";
  case Kind::Module: return "module '" + as<ModuleObj>()->name + "'";
  case Kind::Kernel: return "kernel '" + as<KernelObj>()->name + "'";
  case Kind::Harness: return "harness value '" + as<HarnessObj>()->text + "'";
  case Kind::Object: return "a " + as<NamedObj>()->typeName;
  }
  return "a value";
}

bool tilec::meta::equals(const Value &a, const Value &b) {
  using K = Value::Kind;
  if (a.isBigInt() || b.isBigInt()) {
    if (a.isInteger() && b.isInteger())
      return compareInts(a, b) == 0;
  }
  if ((a.isInteger() && b.is(K::Float)) || (a.is(K::Float) && b.isInteger())) // exactly, as Python
    return compareIntFloat(a.isInteger() ? a : b, (a.isInteger() ? b : a).getFloat()) == 0;
  if (a.isBigInt() || b.isBigInt())
    return false;
  if (a.isNumber() && b.isNumber()) {
    if (a.isIntLike() && b.isIntLike())
      return a.getInt() == b.getInt();
    return a.getFloat() == b.getFloat();
  }
  if (auto x = a.asDType(); x && (a.is(K::DType) || b.is(K::DType)))
    if (auto y = b.asDType())
      return *x == *y;
  if (a.getKind() != b.getKind())
    return false;
  switch (a.getKind()) {
  case K::None: case K::Ellipsis: return true;
  case K::Str: case K::Policy: case K::Dynamic: return a.getStr() == b.getStr();
  case K::DType: return a.getDType() == b.getDType();
  case K::Tuple: case K::List: case K::Slice: {
    auto x = a.getElts(), y = b.getElts();
    if (x.size() != y.size())
      return false;
    for (size_t k = 0; k < x.size(); ++k)
      if (!equals(x[k], y[k]))
        return false;
    return true;
  }
  case K::Set: {
    auto x = a.getElts(), y = b.getElts();
    if (x.size() != y.size())
      return false;
    for (const Value &v : x)
      if (std::none_of(y.begin(), y.end(), [&](const Value &w) { return equals(v, w); }))
        return false;
    return true;
  }
  case K::Dict: {
    auto *x = a.dictItems(), *y = b.dictItems();
    if (x->size() != y->size())
      return false;
    for (auto &[k, v] : *x) {
      Value *w = b.as<DictObj>()->find(k);
      if (!w || !equals(v, *w))
        return false;
    }
    return true;
  }
  default:
    return a.getObject() == b.getObject();
  }
}

bool tilec::meta::isHashable(const Value &v) {
  switch (v.getKind()) {
  case Value::Kind::List: case Value::Kind::Dict: case Value::Kind::Set: return false;
  case Value::Kind::Tuple:
    return llvm::all_of(v.getElts(), isHashable);
  default: return true;
  }
}

Value tilec::meta::makeObject(std::string typeName, std::vector<std::pair<std::string, Value>> fields,
                              std::string text) {
  auto o = std::make_shared<NamedObj>();
  o->typeName = std::move(typeName);
  for (auto &[k, v] : fields)
    o->fields[k] = std::move(v);
  o->text = std::move(text);
  return Value::ofObject(Value::Kind::Object, o);
}

NamedObj *tilec::meta::asObject(const Value &v, llvm::StringRef typeName) {
  if (!v.is(Value::Kind::Object))
    return nullptr;
  auto *o = v.as<NamedObj>();
  return o && o->typeName == typeName ? o : nullptr;
}

Value tilec::meta::makeHarness(std::string text, llvm::SMRange origin) {
  auto o = std::make_shared<HarnessObj>();
  o->text = std::move(text);
  o->origin = origin;
  return Value::ofObject(Value::Kind::Harness, o);
}

bool tilec::meta::deferredHarness(const Value &v) {
  return v.is(Value::Kind::Harness) && !v.as<HarnessObj>()->unknownPrimitive.empty();
}
