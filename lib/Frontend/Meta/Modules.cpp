//===- Modules.cpp - T, tilelang, math, itertools, functools, operator ----===//
//
// The namespaces a .tile/.py module imports: `T` (tilelang.language) with
// its meta-level functions (dtypes, T.dynamic, T.Tensor, T.const, T.empty,
// decorators) and kernel-level primitives as values; tilelang's helpers;
// and the deterministic standard modules.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/Meta/BigInt.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <numeric>

using namespace tilec;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

namespace {
Value module(std::string name) {
  auto m = std::make_shared<ModuleObj>();
  m->name = std::move(name);
  return Value::ofObject(K::Module, m);
}
ModuleObj &mod(const Value &v) { return *v.as<ModuleObj>(); }

bool nargs(Interpreter &in, CallArgs &a, llvm::StringRef name, size_t lo, size_t hi) {
  for (size_t k = 0; k < a.args.size(); ++k)
    if (!in.requireConcrete(a.args[k], a.rangeOf(k, "")))
      return false;
  if (a.args.size() >= lo && a.args.size() <= hi)
    return true;
  in.error(DiagID::meta_call_error, a.range, name,
           "takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
               " positional arguments but " + std::to_string(a.args.size()) + " were given");
  return false;
}

/// `a` as a dtype (a DType, or a string naming one), reporting otherwise.
std::optional<DType> dtypeOf(Interpreter &in, const Value &v, llvm::SMRange range, llvm::StringRef what) {
  if (std::optional<DType> t = v.asDType())
    return t;
  if (v.is(K::Str))
    in.error(DiagID::sema_unknown_dtype, range, v.getStr(), didYouMean(v.getStr(), allDTypeNames()));
  else
    in.error(DiagID::meta_error, range, (what + " must be a dtype, got " + v.describe()).str());
  return std::nullopt;
}

Value ceilDivValue(Interpreter &in, CallArgs &a, llvm::StringRef name) {
  if (!nargs(in, a, name, 2, 2))
    return Value();
  const Value &x = a.args[0], &y = a.args[1];
  if (x.is(K::Dynamic) || y.is(K::Dynamic)) {
    if (!(x.isIntLike() || x.is(K::Dynamic)) || !(y.isIntLike() || y.is(K::Dynamic))) {
      in.error(DiagID::meta_error, a.range, name.str() + " needs integers");
      return Value();
    }
    if (y.isIntLike() && y.getInt() == 0) {
      in.error(DiagID::sema_division_by_zero, a.rangeOf(1, "b"));
      return Value();
    }
    // ceildiv(x, y) = (x + y - 1) // y
    Value num = sizeOp(SizeExpr::Op::Sub, sizeOp(SizeExpr::Op::Add, x, y), Value::ofInt(1));
    return sizeOp(SizeExpr::Op::FloorDiv, num, y);
  }
  if (!x.isIntLike() || !y.isIntLike()) {
    if (x.isNumber() && y.isNumber() && y.getFloat() != 0)
      return Value::ofFloat(std::ceil(x.getFloat() / y.getFloat()));
    in.error(DiagID::meta_error, a.range, name.str() + " needs integers, got " + x.describe() + " and " + y.describe());
    return Value();
  }
  if (y.getInt() == 0) {
    in.error(DiagID::sema_division_by_zero, a.rangeOf(1, "b"));
    return Value();
  }
  if (x.getInt() == INT64_MIN && y.getInt() == -1) {
    in.error(DiagID::sema_const_error, a.range, "integer overflow in " + name.str());
    return Value();
  }
  return Value::ofInt(ceilDiv(x.getInt(), y.getInt()));
}

/// T.Tensor(shape, dtype="float32") / T.Buffer / T.StridedTensor(shape, strides, dtype).
Value tensorType(Interpreter &in, CallArgs &a, bool strided, bool output) {
  size_t dtypeIdx = strided ? 2 : 1;
  const Value *shape = a.get(0, "shape");
  if (!shape) {
    in.error(DiagID::meta_call_error, a.range, strided ? "T.StridedTensor" : "T.Tensor",
             "is missing required argument 'shape'");
    return Value();
  }
  if (!in.requireConcrete(*shape, a.rangeOf(0, "shape")))
    return Value();
  std::vector<Value> dims;
  if (shape->isSequence())
    dims.assign(shape->getElts().begin(), shape->getElts().end());
  else
    dims.push_back(*shape);
  for (size_t k = 0; k < dims.size(); ++k)
    if (!in.requireConcrete(dims[k], a.rangeOf(0, "shape")))
      return Value();
  const Value *dt = a.get(dtypeIdx, "dtype");
  Value dtype = Value::ofDType(DType::Float32);
  if (dt && !dt->is(K::None)) {
    if (!in.requireConcrete(*dt, a.rangeOf(dtypeIdx, "dtype")))
      return Value();
    std::optional<DType> t = dtypeOf(in, *dt, a.rangeOf(dtypeIdx, "dtype"), "dtype");
    if (!t)
      return Value();
    dtype = Value::ofDType(*t);
  }
  std::vector<std::pair<std::string, Value>> fields = {
      {"shape", Value::ofTuple(dims)}, {"dtype", dtype}, {"output", Value::ofBool(output)}};
  if (strided)
    if (const Value *s = a.get(1, "strides"))
      fields.emplace_back("strides", *s);
  if (a.args.size() > dtypeIdx + 1 || a.kw("data"))
    fields.emplace_back("view", Value::ofBool(true));
  std::string text = std::string(output ? "T.empty(" : "T.Tensor(") + Value::ofTuple(dims).str() + ", " +
                     dtype.str() + ")";
  return makeObject("TensorType", std::move(fields), text);
}

/// `M, N = T.const("M, N")`: sizes given by -D (or `-D M=dynamic`).
Value constSizes(Interpreter &in, CallArgs &a) {
  if (!nargs(in, a, "T.const", 1, 2) || !a.args[0].is(K::Str)) {
    if (a.args.size() >= 1 && !a.args[0].is(K::Str))
      in.error(DiagID::meta_error, a.rangeOf(0, ""), "T.const takes a string of names, e.g. \"M, N\"");
    return Value();
  }
  llvm::SmallVector<llvm::StringRef, 4> names;
  llvm::SplitString(a.args[0].getStr(), names, ", \t");
  std::vector<Value> out;
  bool ok = true;
  for (llvm::StringRef n : names) {
    in.getOptions().addKnown(n);
    if (MetaOptions::Define *d = in.getOptions().findDefine(n))
      d->used = true;
  }
  for (llvm::StringRef n : names) {
    MetaOptions::Define *d = in.getOptions().findDefine(n);
    if (!d) {
      in.error(DiagID::meta_const_missing, a.rangeOf(0, ""), n);
      ok = false;
      continue;
    }
    if (!d->value || !ok) {
      ok = false;
      continue;
    }
    if (auto *name = llvm::dyn_cast<ast::NameExpr>(d->value); name && name->getName() == "dynamic") {
      out.push_back(Value::ofDynamic(n.str()));
      continue;
    }
    Value v = in.eval(d->value, in.mainEnv);
    if (!v.isValid()) {
      ok = false;
      continue;
    }
    out.push_back(v);
  }
  if (!ok)
    return Value();
  return out.size() == 1 ? out[0] : Value::ofTuple(std::move(out));
}

Value policyModule() {
  Value m = module("T.GemmWarpPolicy");
  for (const char *p : {"Square", "FullRow", "FullCol"})
    mod(m).attrs[p] = Value::ofPolicy(p);
  return m;
}

/// Meta-level functions of T; a kernel-level primitive of the same name is
/// attached so that kernel code generation can apply the value.
Value tAttribute(Interpreter &in, llvm::StringRef attr) {
  const BuiltinInfo *prim = lookupTBuiltin(attr);
  auto withPrim = [prim](Value v) {
    if (prim)
      v.as<BuiltinObj>()->prim = prim;
    return v;
  };
  if (std::optional<DType> t = parseDType(attr))
    return Value::ofDType(*t);
  if (attr == "dynamic" || attr == "symbolic")
    return makeBuiltin("T." + attr.str(), [attr = attr.str()](Interpreter &in, CallArgs &a) -> Value {
      if (!nargs(in, a, "T." + attr, 1, 2))
        return Value();
      // One name, or several: `b, s = T.dynamic("b, s")`.
      llvm::SmallVector<llvm::StringRef, 4> names;
      if (a.args[0].is(K::Str))
        llvm::SplitString(a.args[0].getStr(), names, ", \t");
      bool ok = !names.empty();
      for (llvm::StringRef n : names)
        ok &= !llvm::isDigit(n[0]) && llvm::all_of(n, [](char c) { return llvm::isAlnum(c) || c == '_'; });
      if (!ok) {
        in.error(DiagID::sema_wrong_arg_kind, a.rangeOf(0, "name"), "name", "T." + attr,
                 "a string of identifiers", a.args[0].str());
        return Value();
      }
      if (names.size() == 1)
        return Value::ofDynamic(names[0].str());
      std::vector<Value> dims;
      for (llvm::StringRef n : names)
        dims.push_back(Value::ofDynamic(n.str()));
      return Value::ofTuple(std::move(dims));
    });
  if (attr == "dtype")
    return makeBuiltin("T.dtype", [](Interpreter &in, CallArgs &a) -> Value {
      if (!nargs(in, a, "T.dtype", 1, 1))
        return Value();
      std::optional<DType> t = dtypeOf(in, a.args[0], a.rangeOf(0, ""), "T.dtype's argument");
      return t ? Value::ofDType(*t) : Value();
    });
  if (attr == "ceildiv")
    return withPrim(makeBuiltin("T.ceildiv", [](Interpreter &in, CallArgs &a) { return ceilDivValue(in, a, "T.ceildiv"); }));
  if (attr == "min" || attr == "max")
    return withPrim(makeBuiltin("T." + attr.str(), [attr = attr.str()](Interpreter &in, CallArgs &a) -> Value {
      return in.call(in.lookupBuiltin(attr), a);
    }));
  if (attr == "Tensor" || attr == "Buffer" || attr == "StridedTensor")
    return withPrim(makeBuiltin("T." + attr.str(), [strided = attr == "StridedTensor"](Interpreter &in, CallArgs &a) {
      return tensorType(in, a, strided, false);
    }));
  if (attr == "empty")
    return makeBuiltin("T.empty", [](Interpreter &in, CallArgs &a) { return tensorType(in, a, false, true); });
  if (attr == "const")
    return makeBuiltin("T.const", constSizes);
  if (attr == "prim_func")
    return makePrimFuncDecorator();
  if (attr == "macro")
    return makeMacroDecorator();
  if (attr == "Layout" || attr == "Fragment")
    return withPrim(makeBuiltin("T." + attr.str(), [fragment = attr == "Fragment"](Interpreter &in, CallArgs &a) {
      return makeLayoutValue(in, a, fragment);
    }));
  if (attr == "GemmWarpPolicy")
    return policyModule();
  if (prim)
    return makePrimitive(prim);
  (void)in;
  return Value();
}

double num(const Value &v) { return v.getFloat(); }
static bool isNum(const Value &v) { return v.isNumber() || v.isBigInt(); }

Value mathModule() {
  Value m = module("math");
  auto &a = mod(m).attrs;
  a["pi"] = Value::ofFloat(M_PI);
  a["e"] = Value::ofFloat(M_E);
  a["inf"] = Value::ofFloat(INFINITY);
  a["nan"] = Value::ofFloat(NAN);
  a["tau"] = Value::ofFloat(2 * M_PI);
  auto f1 = [&](const char *name, double (*fn)(double)) {
    a[name] = makeBuiltin(std::string("math.") + name, [name, fn](Interpreter &in, CallArgs &c) -> Value {
      if (!nargs(in, c, name, 1, 1))
        return Value();
      if (!isNum(c.args[0])) {
        in.error(DiagID::meta_error, c.rangeOf(0, ""), std::string("math.") + name + "() needs a number");
        return Value();
      }
      if (c.args[0].isBigInt() && (name == llvm::StringRef("log2") || name == llvm::StringRef("log10")))
        return Value::ofFloat(logOf(c.args[0], name[3] == '2' ? 2 : 10));
      return Value::ofFloat(fn(num(c.args[0])));
    });
  };
  f1("sqrt", [](double x) { return std::sqrt(x); });
  f1("exp", [](double x) { return std::exp(x); });
  f1("exp2", [](double x) { return std::exp2(x); });
  f1("log2", [](double x) { return std::log2(x); });
  f1("log10", [](double x) { return std::log10(x); });
  f1("fabs", [](double x) { return std::fabs(x); });
  f1("sin", [](double x) { return std::sin(x); });
  f1("cos", [](double x) { return std::cos(x); });
  f1("tanh", [](double x) { return std::tanh(x); });
  a["log"] = makeBuiltin("math.log", [](Interpreter &in, CallArgs &c) -> Value {
    if (!nargs(in, c, "log", 1, 2) || !isNum(c.args[0]))
      return Value();
    double r = logOf(c.args[0], 0);
    if (c.args.size() == 2 && isNum(c.args[1]))
      r /= logOf(c.args[1], 0);
    return Value::ofFloat(r);
  });
  for (const char *name : {"ceil", "floor", "trunc"})
    a[name] = makeBuiltin(std::string("math.") + name, [name = std::string(name)](Interpreter &in, CallArgs &c) -> Value {
      if (!nargs(in, c, name, 1, 1))
        return Value();
      if (c.args[0].isInteger())
        return c.args[0].isBigInt() ? c.args[0] : Value::ofInt(c.args[0].getInt());
      if (c.args[0].is(K::Dynamic))
        return c.args[0];
      if (!c.args[0].is(K::Float)) {
        in.error(DiagID::meta_error, c.rangeOf(0, ""), "math." + name + "() needs a number");
        return Value();
      }
      double x = num(c.args[0]);
      double r = name == "ceil" ? std::ceil(x) : name == "floor" ? std::floor(x) : std::trunc(x);
      if (!std::isfinite(r)) {
        in.error(DiagID::sema_const_error, c.range,
                 "cannot convert float " + Value::ofFloat(r).str() + " to an integer");
        return Value();
      }
      return floatToInt(r);
    });
  for (const char *name : {"gcd", "lcm"})
    a[name] =
        makeBuiltin(std::string("math.") + name, [name = std::string(name)](Interpreter &in, CallArgs &c) -> Value {
          Value acc = Value::ofInt(name == "gcd" ? 0 : 1);
          for (size_t k = 0; k < c.args.size(); ++k) {
            const Value &x = c.args[k];
            if (!x.isBigInt() && !expectInt(in, x, c.rangeOf(k, ""), "math." + name + "'s argument"))
              return Value();
            // Python's rules on arbitrary-precision magnitudes: only the limit bounds lcm.
            ConstResult r = name == "gcd" ? gcdInts(acc, x) : lcmInts(acc, x);
            if (!r.error.empty()) {
              in.error(DiagID::sema_const_error, c.range, r.error);
              return Value();
            }
            acc = r.value;
          }
          return acc;
        });
  a["isqrt"] = makeBuiltin("math.isqrt", [](Interpreter &in, CallArgs &c) -> Value {
    if (!nargs(in, c, "isqrt", 1, 1))
      return Value();
    if (c.args[0].isBigInt() && !isNegativeInt(c.args[0]))
      return isqrtInt(c.args[0]).value;
    std::optional<int64_t> x =
        c.args[0].isBigInt() ? -1 : expectInt(in, c.args[0], c.rangeOf(0, ""), "math.isqrt's argument");
    if (!x)
      return Value();
    if (*x < 0) {
      in.error(DiagID::meta_error, c.range, "math.isqrt() needs a non-negative integer");
      return Value();
    }
    int64_t r = int64_t(std::sqrt(double(*x)));
    while (r > 0 && (__int128)r * r > *x)
      --r;
    while ((__int128)(r + 1) * (r + 1) <= *x)
      ++r;
    return Value::ofInt(r);
  });
  a["prod"] = makeBuiltin("math.prod", [](Interpreter &in, CallArgs &c) -> Value {
    if (!nargs(in, c, "prod", 1, 1))
      return Value();
    std::optional<std::vector<Value>> items = in.toList(c.args[0], c.rangeOf(0, ""));
    if (!items)
      return Value();
    Value acc = c.kw("start") ? *c.kw("start") : Value::ofInt(1);
    for (const Value &v : *items) {
      ConstResult r = applyBinary(ast::BinaryOp::Mul, acc, v);
      if (!r.error.empty()) {
        in.error(DiagID::meta_error, c.range, r.error);
        return Value();
      }
      acc = r.value;
    }
    return acc;
  });
  a["pow"] = makeBuiltin("math.pow", [](Interpreter &in, CallArgs &c) -> Value {
    if (!nargs(in, c, "pow", 2, 2) || !isNum(c.args[0]) || !isNum(c.args[1]))
      return Value();
    return Value::ofFloat(std::pow(num(c.args[0]), num(c.args[1])));
  });
  a["isclose"] = makeBuiltin("math.isclose", [](Interpreter &in, CallArgs &c) -> Value {
    if (!nargs(in, c, "isclose", 2, 2) || !isNum(c.args[0]) || !isNum(c.args[1]))
      return Value();
    double x = num(c.args[0]), y = num(c.args[1]);
    double rel = c.kw("rel_tol") ? num(*c.kw("rel_tol")) : 1e-9, abs = c.kw("abs_tol") ? num(*c.kw("abs_tol")) : 0;
    return Value::ofBool(std::fabs(x - y) <= std::max(rel * std::max(std::fabs(x), std::fabs(y)), abs));
  });
  return m;
}

Value itertoolsModule() {
  Value m = module("itertools");
  mod(m).attrs["product"] = makeBuiltin("itertools.product", [](Interpreter &in, CallArgs &c) -> Value {
    std::vector<std::vector<Value>> pools;
    for (size_t k = 0; k < c.args.size(); ++k) {
      std::optional<std::vector<Value>> l = in.toList(c.args[k], c.rangeOf(k, ""));
      if (!l)
        return Value();
      pools.push_back(std::move(*l));
    }
    int64_t repeat = 1;
    if (const Value *r = c.kw("repeat"); r && r->isIntLike())
      repeat = std::clamp<int64_t>(r->getInt(), 0, 16);
    std::vector<std::vector<Value>> all;
    for (int64_t k = 0; k < repeat; ++k)
      all.insert(all.end(), pools.begin(), pools.end());
    std::vector<Value> out;
    std::vector<Value> cur;
    std::function<bool(size_t)> rec = [&](size_t d) {
      if (!in.step(c.range))
        return false;
      if (d == all.size()) {
        out.push_back(Value::ofTuple(cur));
        return true;
      }
      for (const Value &v : all[d]) {
        cur.push_back(v);
        if (!rec(d + 1))
          return false;
        cur.pop_back();
      }
      return true;
    };
    if (!rec(0))
      return Value();
    return Value::ofList(std::move(out));
  });
  mod(m).attrs["chain"] = makeBuiltin("itertools.chain", [](Interpreter &in, CallArgs &c) -> Value {
    std::vector<Value> out;
    for (size_t k = 0; k < c.args.size(); ++k) {
      std::optional<std::vector<Value>> l = in.toList(c.args[k], c.rangeOf(k, ""));
      if (!l)
        return Value();
      out.insert(out.end(), l->begin(), l->end());
    }
    return Value::ofList(std::move(out));
  });
  return m;
}

Value functoolsModule() {
  Value m = module("functools");
  mod(m).attrs["partial"] = makeBuiltin("functools.partial", [](Interpreter &in, CallArgs &c) -> Value {
    if (c.args.empty()) {
      in.error(DiagID::meta_call_error, c.range, "partial", "needs a function");
      return Value();
    }
    Value fn = c.args[0];
    std::vector<Value> bound(c.args.begin() + 1, c.args.end());
    auto kws = c.kwargs;
    return makeBuiltin("functools.partial(" + fn.str() + ")", [fn, bound, kws](Interpreter &in, CallArgs &a) {
      CallArgs full = a;
      full.args.insert(full.args.begin(), bound.begin(), bound.end());
      full.argRanges.insert(full.argRanges.begin(), bound.size(), a.range);
      for (auto &kw : kws)
        if (!a.kw(kw.first)) {
          full.kwargs.push_back(kw);
          full.kwRanges.push_back(a.range);
        }
      return in.call(fn, full);
    });
  });
  mod(m).attrs["reduce"] = makeBuiltin("functools.reduce", [](Interpreter &in, CallArgs &c) -> Value {
    if (!nargs(in, c, "reduce", 2, 3))
      return Value();
    std::optional<std::vector<Value>> items = in.toList(c.args[1], c.rangeOf(1, ""));
    if (!items)
      return Value();
    size_t k = 0;
    Value acc;
    if (c.args.size() == 3) {
      acc = c.args[2];
    } else if (items->empty()) {
      in.error(DiagID::meta_error, c.range, "reduce() of an empty sequence with no initial value");
      return Value();
    } else {
      acc = (*items)[k++];
    }
    for (; k < items->size(); ++k) {
      CallArgs a;
      a.args = {acc, (*items)[k]};
      a.argRanges = {c.range, c.range};
      a.range = a.calleeRange = c.range;
      acc = in.call(c.args[0], a);
      if (!acc.isValid())
        return Value();
    }
    return acc;
  });
  // Caching and wrapping decorators change nothing at compile time.
  Value identity = makeBuiltin("functools.lru_cache", [](Interpreter &, CallArgs &c) -> Value {
    if (c.args.size() == 1 && (c.args[0].is(K::Function) || c.args[0].is(K::Builtin)) && c.kwargs.empty())
      return c.args[0];
    return makeBuiltin("decorator", [](Interpreter &, CallArgs &d) { return d.args.empty() ? Value::none() : d.args[0]; });
  });
  for (const char *n : {"lru_cache", "cache", "cached_property"})
    mod(m).attrs[n] = identity;
  // `@functools.wraps(fn)` always makes a decorator (it never applies to fn).
  mod(m).attrs["wraps"] = makeBuiltin("functools.wraps", [](Interpreter &, CallArgs &) -> Value {
    return makeBuiltin("decorator", [](Interpreter &, CallArgs &d) { return d.args.empty() ? Value::none() : d.args[0]; });
  });
  return m;
}

Value operatorModule() {
  Value m = module("operator");
  struct Op {
    const char *name;
    ast::BinaryOp op;
  };
  static const Op ops[] = {{"add", ast::BinaryOp::Add},       {"sub", ast::BinaryOp::Sub},
                           {"mul", ast::BinaryOp::Mul},       {"truediv", ast::BinaryOp::Div},
                           {"floordiv", ast::BinaryOp::FloorDiv}, {"mod", ast::BinaryOp::Mod},
                           {"pow", ast::BinaryOp::Pow},       {"and_", ast::BinaryOp::BitAnd},
                           {"or_", ast::BinaryOp::BitOr},     {"xor", ast::BinaryOp::BitXor},
                           {"lshift", ast::BinaryOp::Shl},    {"rshift", ast::BinaryOp::Shr}};
  for (const Op &o : ops)
    mod(m).attrs[o.name] = makeBuiltin(std::string("operator.") + o.name, [o](Interpreter &in, CallArgs &c) -> Value {
      if (!nargs(in, c, o.name, 2, 2))
        return Value();
      ConstResult r = applyBinary(o.op, c.args[0], c.args[1]);
      if (!checkBinaryResult(r, in.getDiags(), c.range, c.range))
        return Value();
      return r.value;
    });
  struct Cmp {
    const char *name;
    ast::CompareOp op;
  };
  static const Cmp cmps[] = {{"eq", ast::CompareOp::Eq}, {"ne", ast::CompareOp::Ne}, {"lt", ast::CompareOp::Lt},
                             {"le", ast::CompareOp::Le}, {"gt", ast::CompareOp::Gt}, {"ge", ast::CompareOp::Ge}};
  for (const Cmp &o : cmps)
    mod(m).attrs[o.name] = makeBuiltin(std::string("operator.") + o.name, [o](Interpreter &in, CallArgs &c) -> Value {
      if (!nargs(in, c, o.name, 2, 2))
        return Value();
      ConstResult r = applyCompare(o.op, c.args[0], c.args[1]);
      if (!r.error.empty()) {
        in.error(DiagID::meta_error, c.range, r.error);
        return Value();
      }
      return r.value;
    });
  mod(m).attrs["neg"] = makeBuiltin("operator.neg", [](Interpreter &in, CallArgs &c) -> Value {
    if (!nargs(in, c, "neg", 1, 1))
      return Value();
    ConstResult r = applyUnary(ast::UnaryOp::Neg, c.args[0]);
    if (!r.error.empty()) {
      in.error(DiagID::meta_error, c.range, r.error);
      return Value();
    }
    return r.value;
  });
  return m;
}

Value typingModule(const std::string &name) {
  Value m = module(name);
  mod(m).lazy = [](llvm::StringRef attr) { return makeObject("typehint", {}, attr.str()); };
  return m;
}

/// `tilelang.PassConfigKey.TL_DISABLE_TMA_LOWER` = "tl.disable_tma_lower".
Value passConfigKeys() {
  Value m = module("tilelang.PassConfigKey");
  mod(m).lazy = [](llvm::StringRef attr) -> Value {
    llvm::StringRef s = attr;
    std::string prefix = s.consume_front("TL_") ? "tl." : s.consume_front("TIR_") ? "tir." : "tl.";
    return Value::ofStr(prefix + s.lower());
  };
  return m;
}

Value nextPow2() {
  return makeBuiltin("next_power_of_2", [](Interpreter &in, CallArgs &c) -> Value {
    if (!nargs(in, c, "next_power_of_2", 1, 1))
      return Value();
    std::optional<int64_t> x = expectInt(in, c.args[0], c.rangeOf(0, ""), "next_power_of_2's argument");
    if (!x)
      return Value();
    if (*x > (int64_t(1) << 62)) {
      in.error(DiagID::sema_const_error, c.range, "integer overflow in next_power_of_2");
      return Value();
    }
    int64_t p = 1;
    while (p < *x)
      p <<= 1;
    return Value::ofInt(p);
  });
}
} // namespace

Value Interpreter::getTModule() {
  if (tModule.isValid())
    return tModule;
  tModule = module("T");
  mod(tModule).lazy = [this](llvm::StringRef attr) { return tAttribute(*this, attr); };
  return tModule;
}

Value detail::makeTModule(Interpreter &in) { return in.getTModule(); }

Value detail::makeTilelangModule(Interpreter &in, llvm::StringRef dotted) {
  if (dotted == "tilelang.language")
    return in.getTModule();
  Value m = module(dotted.str());
  auto &a = mod(m).attrs;
  Value cdiv = makeBuiltin("tilelang.cdiv", [](Interpreter &in, CallArgs &c) { return ceilDivValue(in, c, "cdiv"); });
  if (dotted == "tilelang") {
    a["language"] = in.getTModule();
    a["jit"] = makeJitDecorator();
    a["autotune"] = makeAutotuneDecorator();
    a["cdiv"] = cdiv;
    a["PassConfigKey"] = passConfigKeys();
    a["math"] = makeTilelangModule(in, "tilelang.math");
    a["autotuner"] = makeTilelangModule(in, "tilelang.autotuner");
    a["layout"] = makeTilelangModule(in, "tilelang.layout");
    a["DataType"] = in.getTModule().as<ModuleObj>()->lazy("dtype");
    a["tvm"] = in.importModule("tvm", llvm::SMRange(), false);
    a["next_power_of_2"] = nextPow2();
  } else if (dotted == "tilelang.math") {
    a["next_power_of_2"] = nextPow2();
    a["cdiv"] = cdiv;
  } else if (dotted == "tilelang.autotuner") {
    a["autotune"] = makeAutotuneDecorator();
  } else if (dotted == "tilelang.layout") {
    if (const BuiltinInfo *p = lookupTBuiltin("make_swizzled_layout"))
      a["make_swizzled_layout"] = makePrimitive(p);
    for (const char *n : {"Layout", "Fragment"})
      a[n] = in.getTModule().as<ModuleObj>()->lazy(n);
  } else if (dotted.starts_with("tilelang.cuda.intrinsics") || dotted.starts_with("tilelang.intrinsics")) {
    return fillIntrinsicsModule(mod(m), dotted), m;
  } else if (dotted == "tilelang.jit") {
    a["jit"] = makeJitDecorator();
  } else if (dotted == "tilelang.carver.arch") {
    a["driver"] = makeTilelangModule(in, "tilelang.carver.arch.driver");
  } else if (dotted == "tilelang.carver.arch.driver") {
    // Persistent kernels size their grid by the SM count: ahead of time that
    // is the count of an H100/H200 SXM (docs/differences.md).
    a["get_num_sms"] = makeBuiltin("get_num_sms", [](Interpreter &in, CallArgs &c) -> Value {
      if (!nargs(in, c, "get_num_sms", 0, 1))
        return Value();
      return Value::ofInt(132);
    });
  }
  // Anything else tilelang has (compile, testing, profiler, cache control,
  // carver...) is harness code: usable until a kernel needs its value.
  std::string name = dotted.str();
  mod(m).lazy = [name](llvm::StringRef attr) { return makeHarness(name + "." + attr.str(), llvm::SMRange()); };
  return m;
}

/// tvm.tir / tvm.tirx: the TIR expression builders tile-lang's helper
/// functions call (`tir.const(1, "uint16")`, `tir.Select`, `tir.reinterpret`)
/// are the T primitives of the same meaning; the rest is harness code.
static Value tirModule(llvm::StringRef name) {
  Value m = module(name.str());
  auto &a = mod(m).attrs;
  static const std::pair<const char *, const char *> aliases[] = {{"const", "cast"},
                                                                  {"Cast", "Cast"},
                                                                  {"Select", "if_then_else"},
                                                                  {"if_then_else", "if_then_else"},
                                                                  {"reinterpret", "reinterpret"},
                                                                  {"max_value", "max_value"},
                                                                  {"min_value", "min_value"}};
  for (auto [tirName, tName] : aliases)
    if (const BuiltinInfo *p = lookupTBuiltin(tName))
      a[tirName] = makePrimitive(p);
  std::string prefix = name.str();
  mod(m).lazy = [prefix](llvm::StringRef attr) { return makeHarness(prefix + "." + attr.str(), llvm::SMRange()); };
  return m;
}

Value detail::makeStdModule(Interpreter &in, llvm::StringRef name) {
  if (name == "tvm") {
    // tile-lang re-exports TVM; of it, kernel files use DataType at the meta
    // level and TIR's expression builders in helper functions.
    Value m = module("tvm");
    mod(m).attrs["DataType"] = in.getTModule().as<ModuleObj>()->lazy("dtype");
    mod(m).attrs["tir"] = tirModule("tvm.tir");
    mod(m).attrs["tirx"] = tirModule("tvm.tirx");
    mod(m).lazy = [](llvm::StringRef attr) { return makeHarness("tvm." + attr.str(), llvm::SMRange()); };
    return m;
  }
  if (name == "tvm.tir" || name == "tvm.tirx")
    return tirModule(name);
  if (name == "torch" || name.starts_with("torch."))
    return makeTorchModule(in, name);
  if (name == "math")
    return mathModule();
  if (name == "itertools")
    return itertoolsModule();
  if (name == "functools")
    return functoolsModule();
  if (name == "operator")
    return operatorModule();
  if (name == "typing" || name == "typing_extensions" || name == "collections.abc")
    return typingModule(name.str());
  return Value();
}
