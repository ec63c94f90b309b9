//===- PyBuiltins.cpp - Python's builtin functions at the meta level ------===//
//
// len range min max abs sum any all int float bool str round divmod pow
// isinstance enumerate zip sorted reversed list tuple dict set print and the
// other builtins spec §3 lists, plus exception constructors for `raise`.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"
#include "tilec/Frontend/Meta/BigInt.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace tilec;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

namespace {
/// Checks the positional count (and that no keyword is given unless
/// `keywords` lists it); reports and returns false otherwise.
bool arity(Interpreter &in, CallArgs &a, llvm::StringRef name, size_t lo, size_t hi,
           std::initializer_list<llvm::StringRef> keywords = {}) {
  for (size_t k = 0; k < a.kwargs.size(); ++k)
    if (std::find(keywords.begin(), keywords.end(), a.kwargs[k].first) == keywords.end()) {
      in.error(DiagID::meta_call_error, a.range, name, "got an unexpected keyword argument '" + a.kwargs[k].first + "'");
      return false;
    }
  if (a.args.size() < lo || a.args.size() > hi) {
    std::string want = lo == hi ? std::to_string(lo) : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                                                      : std::to_string(lo) + " to " + std::to_string(hi);
    in.error(DiagID::meta_call_error, a.range, name,
             "takes " + want + " argument" + (hi == 1 && lo == 1 ? "" : "s") + " but " + std::to_string(a.args.size()) +
                 " were given");
    return false;
  }
  for (size_t k = 0; k < a.args.size(); ++k)
    if (!in.requireConcrete(a.args[k], a.rangeOf(k, "")))
      return false;
  return true;
}

bool number(Interpreter &in, CallArgs &a, size_t k, llvm::StringRef name) {
  if (a.args[k].isNumber() || a.args[k].isBigInt())
    return true;
  in.error(DiagID::meta_error, a.rangeOf(k, ""), (name + "() needs a number, got " + a.args[k].describe()).str());
  return false;
}

Value minMax(Interpreter &in, CallArgs &a, bool isMax) {
  const char *name = isMax ? "max" : "min";
  if (!arity(in, a, name, 1, SIZE_MAX, {"key", "default"}))
    return Value();
  std::vector<Value> items;
  if (a.args.size() == 1) {
    std::optional<std::vector<Value>> l = in.toList(a.args[0], a.rangeOf(0, ""));
    if (!l)
      return Value();
    items = std::move(*l);
  } else {
    items = a.args;
  }
  if (items.empty()) {
    if (const Value *d = a.kw("default"))
      return *d;
    in.error(DiagID::meta_call_error, a.range, name, "arg is an empty sequence");
    return Value();
  }
  const Value *key = a.kw("key");
  auto keyOf = [&](const Value &v) -> Value {
    if (!key)
      return v;
    CallArgs c;
    c.args = {v};
    c.argRanges = {a.range};
    c.range = a.range;
    c.calleeRange = a.range;
    return in.call(*key, c);
  };
  Value best = items[0], bestKey = keyOf(best);
  if (!bestKey.isValid())
    return Value();
  for (size_t k = 1; k < items.size(); ++k) {
    Value kv = keyOf(items[k]);
    if (!kv.isValid())
      return Value();
    if (kv.is(K::Dynamic) || bestKey.is(K::Dynamic)) {
      if (key) {
        in.error(DiagID::meta_error, a.range, "runtime dimensions cannot be compared at compile time");
        return Value();
      }
      best = bestKey = sizeOp(isMax ? SizeExpr::Op::Max : SizeExpr::Op::Min, best, items[k]);
      continue;
    }
    ConstResult r = applyCompare(isMax ? ast::CompareOp::Gt : ast::CompareOp::Lt, kv, bestKey);
    if (!r.error.empty()) {
      in.error(DiagID::meta_error, a.range, r.error);
      return Value();
    }
    if (r.value.truthy()) {
      best = items[k];
      bestKey = kv;
    }
  }
  return best;
}

Value toIntValue(Interpreter &in, CallArgs &a) {
  if (!arity(in, a, "int", 0, 2, {"base"}))
    return Value();
  if (a.args.empty())
    return Value::ofInt(0);
  const Value &x = a.args[0];
  if (x.isInteger())
    return x.isBigInt() ? x : Value::ofInt(x.getInt());
  if (x.is(K::Dynamic))
    return x;
  if (x.is(K::Float)) {
    if (!std::isfinite(x.getFloat())) {
      in.error(DiagID::sema_const_error, a.range, "cannot convert float " + x.str() + " to an integer");
      return Value();
    }
    return floatToInt(x.getFloat());
  }
  if (x.is(K::Str)) {
    int64_t base = 10;
    if (a.args.size() == 2 && a.args[1].isIntLike())
      base = a.args[1].getInt();
    else if (const Value *b = a.kw("base"); b && b->isIntLike())
      base = b->getInt();
    std::string err;
    std::optional<Value> v = parsePyInt(x.getStr(), base, err);
    if (!v) {
      in.error(err.empty() ? DiagID::meta_error : DiagID::sema_const_error, a.range,
               err.empty() ? "invalid literal for int(): " + x.str() : err);
      return Value();
    }
    return *v;
  }
  in.error(DiagID::meta_error, a.range, "int() cannot convert " + x.describe());
  return Value();
}

Value toFloatValue(Interpreter &in, CallArgs &a) {
  if (!arity(in, a, "float", 0, 1))
    return Value();
  if (a.args.empty())
    return Value::ofFloat(0);
  const Value &x = a.args[0];
  if (x.isNumber())
    return Value::ofFloat(x.getFloat());
  if (x.isBigInt()) {
    ConstResult r = intToFloat(x);
    if (!r.error.empty())
      in.error(DiagID::sema_const_error, a.range, r.error);
    return r.value;
  }
  if (x.is(K::Str)) {
    std::string s = llvm::StringRef(x.getStr()).trim().lower();
    if (s == "inf" || s == "+inf" || s == "infinity")
      return Value::ofFloat(INFINITY);
    if (s == "-inf" || s == "-infinity")
      return Value::ofFloat(-INFINITY);
    if (s == "nan")
      return Value::ofFloat(NAN);
    double d;
    if (!llvm::StringRef(s).getAsDouble(d))
      return Value::ofFloat(d);
  }
  in.error(DiagID::meta_error, a.range, "float() cannot convert " + x.str());
  return Value();
}

Value roundValue(Interpreter &in, CallArgs &a) {
  if (!arity(in, a, "round", 1, 2, {"ndigits"}) || !number(in, a, 0, "round"))
    return Value();
  const Value &x = a.args[0];
  const Value *nd = a.get(1, "ndigits");
  if (x.isInteger() && (!nd || nd->is(K::None) || nd->isIntLike())) {
    ConstResult r = roundInt(x, nd && nd->isIntLike() ? nd->getInt() : 0);
    if (!r.error.empty())
      in.error(DiagID::sema_const_error, a.range, r.error);
    return r.value;
  }
  if (!nd || nd->is(K::None)) {
    double r = std::nearbyint(x.getFloat()); // banker's rounding, as Python
    if (!std::isfinite(r)) {
      in.error(DiagID::sema_const_error, a.range, "cannot convert float " + x.str() + " to an integer");
      return Value();
    }
    return floatToInt(r);
  }
  if (!nd->isIntLike())
    return Value();
  double scale = std::pow(10.0, double(nd->getInt()));
  return Value::ofFloat(std::nearbyint(x.getFloat() * scale) / scale);
}

/// The callable-type builtins isinstance understands.
bool isInstanceOf(const Value &v, const Value &type) {
  if (type.is(K::Tuple))
    return llvm::any_of(type.getElts(), [&](const Value &t) { return isInstanceOf(v, t); });
  auto *b = type.as<BuiltinObj>();
  if (!type.is(K::Builtin) || !b)
    return false;
  llvm::StringRef n = b->name;
  switch (v.getKind()) {
  case K::Int:
  case K::BigInt:
    return n == "int";
  case K::Bool: return n == "bool" || n == "int";
  case K::Float: return n == "float";
  case K::Str: return n == "str";
  case K::Tuple: return n == "tuple";
  case K::List: return n == "list";
  case K::Dict: return n == "dict";
  case K::Set: return n == "set";
  case K::Slice:
    return n == "slice";
  case K::Dynamic: return n == "int";
  default: return false;
  }
}

Value sortedValue(Interpreter &in, CallArgs &a) {
  if (!arity(in, a, "sorted", 1, 1, {"key", "reverse"}))
    return Value();
  std::optional<std::vector<Value>> items = in.toList(a.args[0], a.rangeOf(0, ""));
  if (!items)
    return Value();
  const Value *key = a.kw("key");
  bool reverse = a.kw("reverse") && a.kw("reverse")->truthy();
  std::vector<std::pair<Value, Value>> keyed;
  for (Value &v : *items) {
    Value k = v;
    if (key) {
      CallArgs c;
      c.args = {v};
      c.argRanges = {a.range};
      c.range = c.calleeRange = a.range;
      k = in.call(*key, c);
      if (!k.isValid())
        return Value();
    }
    keyed.emplace_back(k, v);
  }
  std::string err;
  std::stable_sort(keyed.begin(), keyed.end(), [&](const auto &x, const auto &y) {
    ConstResult r = applyCompare(ast::CompareOp::Lt, reverse ? y.first : x.first, reverse ? x.first : y.first);
    if (!r.error.empty())
      err = r.error;
    return r.error.empty() && r.value.truthy();
  });
  if (!err.empty()) {
    in.error(DiagID::meta_error, a.range, err);
    return Value();
  }
  std::vector<Value> out;
  for (auto &[k, v] : keyed)
    out.push_back(v);
  return Value::ofList(std::move(out));
}

Value callOne(Interpreter &in, const Value &f, std::vector<Value> args, llvm::SMRange range) {
  CallArgs c;
  c.args = std::move(args);
  c.argRanges.assign(c.args.size(), range);
  c.range = c.calleeRange = range;
  return in.call(f, c);
}

/// list(x) / tuple(x) / set(x): the items of any iterable, or an empty one.
Value sequenceBuiltin(const char *name, Value (*make)(std::vector<Value>)) {
  return makeBuiltin(name, [name, make](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, name, 0, 1))
      return Value();
    if (a.args.empty())
      return make({});
    std::optional<std::vector<Value>> items = in.toList(a.args[0], a.rangeOf(0, ""));
    return items ? make(std::move(*items)) : Value();
  });
}

Value exceptionType(std::string name) {
  return makeBuiltin(name, [name](Interpreter &, CallArgs &a) -> Value {
    std::string text = name + "(";
    for (size_t k = 0; k < a.args.size(); ++k)
      text += (k ? ", " : "") + a.args[k].str();
    text += ")";
    return makeObject("exception", {{"args", Value::ofTuple(a.args)}}, text);
  });
}
} // namespace

namespace {
/// len range min max abs sum any all int float bool str repr round divmod pow isinstance callable.
void registerScalarBuiltins(llvm::StringMap<Value> &t) {
  t["len"] = makeBuiltin("len", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "len", 1, 1))
      return Value();
    const Value &x = a.args[0];
    if (x.is(K::Str))
      return Value::ofInt(int64_t(x.getStr().size()));
    if (x.is(K::Dict))
      return Value::ofInt(int64_t(x.dictItems()->size()));
    if (x.isSequence() || x.is(K::Set))
      return Value::ofInt(int64_t(x.getElts().size()));
    if (NamedObj *r = asObject(x, "range"))
      return r->fields.lookup("len");
    if (NamedObj *tt = asObject(x, "TensorType"))
      return Value::ofInt(int64_t(tt->fields["shape"].getElts().size()));
    in.error(DiagID::meta_error, a.range, x.describe() + " has no len()");
    return Value();
  });
  t["range"] = makeBuiltin("range", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "range", 1, 3))
      return Value();
    int64_t v[3] = {0, 0, 1};
    for (size_t k = 0; k < a.args.size(); ++k) {
      if (a.args[k].is(K::Dynamic)) {
        in.error(DiagID::meta_error, a.rangeOf(k, ""),
                 "range() over runtime dimension '" + a.args[k].getStr().str() +
                     "' cannot run at compile time; use it inside a kernel");
        return Value();
      }
      std::optional<int64_t> x = expectInt(in, a.args[k], a.rangeOf(k, ""), "a range() argument");
      if (!x)
        return Value();
      v[k] = *x;
    }
    if (a.args.size() == 1)
      return makeRange(0, v[0], 1);
    if (v[2] == 0) {
      in.error(DiagID::meta_error, a.range, "range() arg 3 must not be zero");
      return Value();
    }
    Value r = makeRange(v[0], v[1], a.args.size() == 3 ? v[2] : 1);
    if (asObject(r, "range")->fields.lookup("len").getInt() < 0) { // more than 2**63 - 1 elements
      in.error(DiagID::sema_const_error, a.range, "range() has more elements than a 64-bit length can count");
      return Value();
    }
    return r;
  });
  t["min"] = makeBuiltin("min", [](Interpreter &in, CallArgs &a) { return minMax(in, a, false); });
  t["max"] = makeBuiltin("max", [](Interpreter &in, CallArgs &a) { return minMax(in, a, true); });
  t["abs"] = makeBuiltin("abs", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "abs", 1, 1) || !number(in, a, 0, "abs"))
      return Value();
    const Value &x = a.args[0];
    if (x.is(K::Float))
      return Value::ofFloat(std::fabs(x.getFloat()));
    if (x.isBigInt() || x.getInt() == INT64_MIN)
      return bigAbs(x).value; // abs of a value within the limit stays within it
    return Value::ofInt(x.getInt() < 0 ? -x.getInt() : x.getInt());
  });
  t["sum"] = makeBuiltin("sum", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "sum", 1, 2, {"start"}))
      return Value();
    std::optional<std::vector<Value>> items = in.toList(a.args[0], a.rangeOf(0, ""));
    if (!items)
      return Value();
    Value acc = a.args.size() == 2 ? a.args[1] : a.kw("start") ? *a.kw("start") : Value::ofInt(0);
    for (const Value &v : *items) {
      ConstResult r = applyBinary(ast::BinaryOp::Add, acc, v);
      if (!r.error.empty()) {
        in.error(DiagID::meta_error, a.range, r.error);
        return Value();
      }
      acc = r.value;
    }
    return acc;
  });
  for (bool isAll : {false, true})
    t[isAll ? "all" : "any"] = makeBuiltin(isAll ? "all" : "any", [isAll](Interpreter &in, CallArgs &a) -> Value {
      if (!arity(in, a, isAll ? "all" : "any", 1, 1))
        return Value();
      std::optional<std::vector<Value>> items = in.toList(a.args[0], a.rangeOf(0, ""));
      if (!items)
        return Value();
      for (const Value &v : *items) {
        if (!in.requireConcrete(v, a.range))
          return Value();
        if (v.truthy() != isAll)
          return Value::ofBool(!isAll);
      }
      return Value::ofBool(isAll);
    });
  t["int"] = makeBuiltin("int", toIntValue);
  t["float"] = makeBuiltin("float", toFloatValue);
  t["bool"] = makeBuiltin("bool", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "bool", 0, 1))
      return Value();
    if (!a.args.empty() && a.args[0].is(K::Dynamic)) {
      in.error(DiagID::meta_truth_unknown, a.range, "runtime dimension '" + a.args[0].getStr().str() + "'");
      return Value();
    }
    return Value::ofBool(!a.args.empty() && a.args[0].truthy());
  });
  t["str"] = makeBuiltin("str", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "str", 0, 1))
      return Value();
    return Value::ofStr(a.args.empty() ? "" : a.args[0].toDisplay());
  });
  t["repr"] = makeBuiltin("repr", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "repr", 1, 1))
      return Value();
    return Value::ofStr(a.args[0].str());
  });
  t["round"] = makeBuiltin("round", roundValue);
  t["divmod"] = makeBuiltin("divmod", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "divmod", 2, 2))
      return Value();
    ConstResult q = applyBinary(ast::BinaryOp::FloorDiv, a.args[0], a.args[1]);
    ConstResult r = applyBinary(ast::BinaryOp::Mod, a.args[0], a.args[1]);
    if (!q.error.empty() || !r.error.empty()) {
      in.error(DiagID::meta_error, a.range, q.error.empty() ? r.error : q.error);
      return Value();
    }
    return Value::ofTuple({q.value, r.value});
  });
  t["pow"] = makeBuiltin("pow", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "pow", 2, 3))
      return Value();
    bool hasMod = a.args.size() == 3;
    if (hasMod && !llvm::all_of(a.args, [](const Value &v) { return v.isInteger(); })) {
      in.error(DiagID::meta_error, a.range, "pow() 3rd argument not allowed unless all arguments are integers");
      return Value();
    }
    ConstResult r =
        hasMod ? powMod(a.args[0], a.args[1], a.args[2]) : applyBinary(ast::BinaryOp::Pow, a.args[0], a.args[1]);
    if (!r.error.empty()) {
      in.error(DiagID::meta_error, a.range, r.error);
      return Value();
    }
    return r.value;
  });
  t["isinstance"] = makeBuiltin("isinstance", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "isinstance", 2, 2))
      return Value();
    return Value::ofBool(isInstanceOf(a.args[0], a.args[1]));
  });
  t["callable"] = makeBuiltin("callable", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "callable", 1, 1))
      return Value();
    K k = a.args[0].getKind();
    return Value::ofBool(k == K::Function || k == K::Builtin || k == K::Macro || k == K::Kernel);
  });
}

/// enumerate zip sorted reversed list tuple set dict.
void registerSequenceBuiltins(llvm::StringMap<Value> &t) {
  t["enumerate"] = makeBuiltin("enumerate", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "enumerate", 1, 2, {"start"}))
      return Value();
    std::optional<std::vector<Value>> items = in.toList(a.args[0], a.rangeOf(0, ""));
    if (!items)
      return Value();
    const Value *s = a.get(1, "start");
    int64_t start = s && s->isIntLike() ? s->getInt() : 0;
    std::vector<Value> out;
    for (size_t k = 0; k < items->size(); ++k)
      out.push_back(Value::ofTuple({Value::ofInt(start + int64_t(k)), (*items)[k]}));
    return Value::ofList(std::move(out));
  });
  t["zip"] = makeBuiltin("zip", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "zip", 0, SIZE_MAX, {"strict"}))
      return Value();
    std::vector<std::vector<Value>> lists;
    size_t n = SIZE_MAX;
    for (size_t k = 0; k < a.args.size(); ++k) {
      std::optional<std::vector<Value>> l = in.toList(a.args[k], a.rangeOf(k, ""));
      if (!l)
        return Value();
      n = std::min(n, l->size());
      lists.push_back(std::move(*l));
    }
    std::vector<Value> out;
    for (size_t i = 0; !lists.empty() && i < n; ++i) {
      std::vector<Value> row;
      for (auto &l : lists)
        row.push_back(l[i]);
      out.push_back(Value::ofTuple(std::move(row)));
    }
    return Value::ofList(std::move(out));
  });
  t["sorted"] = makeBuiltin("sorted", sortedValue);
  t["reversed"] = makeBuiltin("reversed", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "reversed", 1, 1))
      return Value();
    std::optional<std::vector<Value>> items = in.toList(a.args[0], a.rangeOf(0, ""));
    if (!items)
      return Value();
    std::reverse(items->begin(), items->end());
    return Value::ofList(std::move(*items));
  });
  t["slice"] = makeBuiltin("slice", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "slice", 1, 3))
      return Value();
    if (a.args.size() == 1)
      return Value::ofSlice(Value::none(), a.args[0], Value::none());
    return Value::ofSlice(a.args[0], a.args[1], a.args.size() == 3 ? a.args[2] : Value::none());
  });
  t["list"] = sequenceBuiltin("list", Value::ofList);
  t["tuple"] = sequenceBuiltin("tuple", Value::ofTuple);
  t["set"] = sequenceBuiltin("set", Value::ofSet);
  t["frozenset"] = t["set"];
  t["dict"] = makeBuiltin("dict", [](Interpreter &in, CallArgs &a) -> Value {
    std::vector<std::pair<Value, Value>> items;
    if (a.args.size() > 1) {
      in.error(DiagID::meta_call_error, a.range, "dict", "takes at most 1 positional argument");
      return Value();
    }
    if (a.args.size() == 1) {
      if (a.args[0].is(K::Dict)) {
        items = *a.args[0].dictItems();
      } else {
        std::optional<std::vector<Value>> pairs = in.toList(a.args[0], a.rangeOf(0, ""));
        if (!pairs)
          return Value();
        for (const Value &p : *pairs) {
          if (!p.isSequence() || p.getElts().size() != 2) {
            in.error(DiagID::meta_error, a.range, "dict() needs (key, value) pairs, got " + p.describe());
            return Value();
          }
          items.emplace_back(p.getElts()[0], p.getElts()[1]);
        }
      }
    }
    for (auto &[k, v] : a.kwargs)
      items.emplace_back(Value::ofStr(k), v);
    return Value::ofDict(std::move(items));
  });
}

/// print hex bin format map filter getattr hasattr chr ord id, exception types.
void registerOtherBuiltins(llvm::StringMap<Value> &t) {
  t["print"] = makeBuiltin("print", [](Interpreter &in, CallArgs &a) -> Value {
    std::string sep = " ";
    if (const Value *s = a.kw("sep"); s && s->is(K::Str))
      sep = s->getStr().str();
    std::string text;
    for (size_t k = 0; k < a.args.size(); ++k)
      text += (k ? sep : "") + a.args[k].toDisplay();
    in.getDiags().emit(DiagID::meta_print, a.range, text);
    return Value::none();
  });
  t["hex"] = makeBuiltin("hex", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "hex", 1, 1) || !a.args[0].isInteger())
      return Value();
    std::string e;
    return Value::ofStr(formatWithSpec(a.args[0], "#x", e));
  });
  t["bin"] = makeBuiltin("bin", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "bin", 1, 1) || !a.args[0].isInteger())
      return Value();
    std::string e;
    return Value::ofStr(formatWithSpec(a.args[0], "#b", e));
  });
  t["format"] = makeBuiltin("format", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "format", 1, 2))
      return Value();
    std::string err;
    std::string r = formatWithSpec(a.args[0], a.args.size() == 2 ? a.args[1].getStr() : "", err);
    if (!err.empty()) {
      in.error(DiagID::meta_error, a.range, err);
      return Value();
    }
    return Value::ofStr(r);
  });
  t["map"] = makeBuiltin("map", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "map", 2, SIZE_MAX))
      return Value();
    std::vector<std::vector<Value>> lists;
    size_t n = SIZE_MAX;
    for (size_t k = 1; k < a.args.size(); ++k) {
      std::optional<std::vector<Value>> l = in.toList(a.args[k], a.rangeOf(k, ""));
      if (!l)
        return Value();
      n = std::min(n, l->size());
      lists.push_back(std::move(*l));
    }
    std::vector<Value> out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<Value> row;
      for (auto &l : lists)
        row.push_back(l[i]);
      Value v = callOne(in, a.args[0], std::move(row), a.range);
      if (!v.isValid())
        return Value();
      out.push_back(v);
    }
    return Value::ofList(std::move(out));
  });
  t["filter"] = makeBuiltin("filter", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "filter", 2, 2))
      return Value();
    std::optional<std::vector<Value>> items = in.toList(a.args[1], a.rangeOf(1, ""));
    if (!items)
      return Value();
    std::vector<Value> out;
    for (const Value &v : *items) {
      Value keep = a.args[0].is(K::None) ? v : callOne(in, a.args[0], {v}, a.range);
      if (!keep.isValid() || !in.requireConcrete(keep, a.range))
        return Value();
      if (keep.truthy())
        out.push_back(v);
    }
    return Value::ofList(std::move(out));
  });
  t["getattr"] = makeBuiltin("getattr", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "getattr", 2, 3) || !a.args[1].is(K::Str))
      return Value();
    if (a.args.size() == 3 && a.args[0].is(K::Object)) {
      auto *o = a.args[0].as<NamedObj>();
      auto it = o->fields.find(a.args[1].getStr());
      return it == o->fields.end() ? a.args[2] : it->second;
    }
    return getAttribute(in, a.args[0], a.args[1].getStr(), a.range, a.range);
  });
  t["hasattr"] = makeBuiltin("hasattr", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "hasattr", 2, 2) || !a.args[1].is(K::Str))
      return Value();
    if (auto *m = a.args[0].as<ModuleObj>(); a.args[0].is(K::Module) && m)
      return Value::ofBool(m->attrs.count(a.args[1].getStr()) || (m->env && m->env->lookup(a.args[1].getStr())));
    if (auto *o = a.args[0].as<NamedObj>(); a.args[0].is(K::Object) && o)
      return Value::ofBool(o->fields.count(a.args[1].getStr()));
    return Value::ofBool(methodOf(in, a.args[0], a.args[1].getStr()).isValid());
  });
  t["chr"] = makeBuiltin("chr", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "chr", 1, 1) || !a.args[0].isIntLike() || a.args[0].getInt() < 0 || a.args[0].getInt() > 127)
      return Value();
    return Value::ofStr(std::string(1, char(a.args[0].getInt())));
  });
  t["ord"] = makeBuiltin("ord", [](Interpreter &in, CallArgs &a) -> Value {
    if (!arity(in, a, "ord", 1, 1) || !a.args[0].is(K::Str) || a.args[0].getStr().size() != 1)
      return Value();
    return Value::ofInt((unsigned char)a.args[0].getStr()[0]);
  });
  t["id"] = makeBuiltin("id", [](Interpreter &in, CallArgs &a) -> Value {
    in.error(DiagID::meta_unsupported, a.range, "id()", " (it is not deterministic)");
    return Value();
  });
  for (const char *e : {"Exception", "ValueError", "TypeError", "RuntimeError", "NotImplementedError", "KeyError",
                        "IndexError", "AssertionError", "ImportError", "ModuleNotFoundError", "ZeroDivisionError"})
    t[e] = exceptionType(e);
}

} // namespace

void detail::registerPyBuiltins(Interpreter &in, llvm::StringMap<Value> &t) {
  (void)in;
  registerScalarBuiltins(t);
  registerSequenceBuiltins(t);
  registerOtherBuiltins(t);
}
