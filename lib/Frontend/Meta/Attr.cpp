//===- Attr.cpp - Attributes, subscripts and methods of meta values -------===//
//
// `value.attr` (modules, dtypes, tensor types, ranges, harness values),
// `value[index]` (sequences with slices, dicts, T.Tensor[...]), and the
// methods of str, list, dict, set, tuple and int.
//
//===----------------------------------------------------------------------===//
#include "InterpImpl.h"

#include "tilec/Frontend/Builtins.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilec;
using namespace tilec::meta;
using namespace tilec::meta::detail;
using K = Value::Kind;

Value detail::getAttribute(Interpreter &in, const Value &base, llvm::StringRef attr, llvm::SMRange attrRange,
                           llvm::SMRange range) {
  switch (base.getKind()) {
  case K::Harness:
    if (deferredHarness(base))
      return base;
    return makeHarness(base.str() + "." + attr.str(), base.as<HarnessObj>()->origin);
  case K::Module: {
    auto *m = base.as<ModuleObj>();
    auto it = m->attrs.find(attr);
    if (it != m->attrs.end())
      return it->second;
    if (m->env) {
      auto b = m->env->getTable().find(attr);
      if (b != m->env->getTable().end())
        return b->second.value;
    }
    if (m->lazy) {
      Value v = m->lazy(attr);
      if (v.is(K::Harness) && !v.as<HarnessObj>()->origin.Start.isValid())
        return makeHarness(v.str(), range); // harness names point at their use
      if (v.isValid()) {
        m->attrs[attr] = v;
        return v;
      }
    }
    llvm::SmallVector<llvm::StringRef, 32> names;
    for (const auto &e : m->attrs)
      names.push_back(e.getKey());
    if (m->env)
      m->env->collectNames(names);
    if (m->name == "T.GemmWarpPolicy")
      in.error(DiagID::sema_bad_policy, attrRange, attr, didYouMean(attr, names));
    else if ((m->name == "T" || m->name == "tilelang.language") && !unsupportedTPrimitive(attr).empty())
      in.error(DiagID::sema_unsupported_primitive, attrRange, attr, unsupportedTPrimitive(attr));
    else if ((m->name == "T" || m->name == "tilelang.language") && in.deferUnknownPrimitives) {
      Value h = makeHarness("T." + attr.str(), attrRange);
      h.as<HarnessObj>()->unknownPrimitive = attr.str();
      h.as<HarnessObj>()->unknownHint = didYouMean(attr, names);
      return h;
    } else if (m->name == "T" || m->name == "tilelang.language")
      in.error(DiagID::sema_unknown_primitive, attrRange, attr, didYouMean(attr, names));
    else
      in.error(DiagID::meta_import_name, attrRange, m->name, attr, didYouMean(attr, names));
    return Value();
  }
  case K::DType: {
    DType t = base.getDType();
    if (attr == "bits")
      return Value::ofInt(dtypeBits(t));
    if (attr == "bytes" || attr == "itemsize")
      return Value::ofInt(std::max(1u, dtypeBits(t) / 8));
    if (attr == "lanes")
      return Value::ofInt(1);
    if (attr == "name" || attr == "dtype")
      return Value::ofStr(dtypeName(t).str());
    break;
  }
  case K::Object: {
    auto *o = base.as<NamedObj>();
    auto it = o->fields.find(attr);
    if (it != o->fields.end())
      return it->second;
    break;
  }
  case K::Slice: {
    llvm::ArrayRef<Value> p = base.getElts();
    if (attr == "start" || attr == "stop" || attr == "step")
      return p[attr == "start" ? 0 : attr == "stop" ? 1 : 2];
    break;
  }
  case K::Function: case K::Macro: {
    auto *f = base.as<FunctionObj>();
    if (attr == "__name__")
      return Value::ofStr(f->name);
    break;
  }
  case K::Kernel: {
    auto *k = base.as<KernelObj>();
    if (attr == "__name__")
      return Value::ofStr(k->name);
    if (attr == "autotune_configs")
      return k->autotune;
    // tile-lang's compiled-kernel API is harness code (profilers, sources).
    return makeHarness(k->name + "." + attr.str(), range);
  }
  default:
    break;
  }
  Value m = methodOf(in, base, attr);
  if (m.isValid())
    return m;
  in.error(DiagID::sema_unknown_attribute, attrRange, base.str().substr(0, 60), attr, "");
  return Value();
}

/// Python slice indices for a sequence of length n.
static bool sliceIndices(Interpreter &in, const Value &sl, int64_t n, llvm::SMRange range, int64_t &start,
                         int64_t &stop, int64_t &step) {
  llvm::ArrayRef<Value> p = sl.getElts();
  step = 1;
  if (!p[2].is(K::None)) {
    std::optional<int64_t> s = expectInt(in, p[2], range, "a slice step");
    if (!s)
      return false;
    if (*s == 0) {
      in.error(DiagID::meta_error, range, "slice step cannot be zero");
      return false;
    }
    step = *s;
  }
  auto bound = [&](const Value &v, int64_t def, int64_t &out) {
    if (v.is(K::None)) {
      out = def;
      return true;
    }
    std::optional<int64_t> x = expectInt(in, v, range, "a slice index");
    if (!x)
      return false;
    int64_t k = *x < 0 ? std::max<int64_t>(*x + n, step < 0 ? -1 : 0) : *x;
    out = std::min(k, step < 0 ? n - 1 : n);
    return true;
  };
  return bound(p[0], step < 0 ? n - 1 : 0, start) && bound(p[1], step < 0 ? -1 : n, stop);
}

Value detail::subscript(Interpreter &in, const Value &base, const Value &index, llvm::SMRange range) {
  if (base.is(K::Harness))
    return makeHarness(base.str() + "[...]", base.as<HarnessObj>()->origin);
  if (index.is(K::Harness)) {
    in.reportHarnessUse(index, range);
    return Value();
  }
  switch (base.getKind()) {
  case K::Tuple: case K::List: case K::Str: {
    int64_t n = base.is(K::Str) ? int64_t(base.getStr().size()) : int64_t(base.getElts().size());
    if (index.is(K::Slice)) {
      int64_t start, stop, step;
      if (!sliceIndices(in, index, n, range, start, stop, step))
        return Value();
      std::vector<Value> out;
      std::string s;
      for (int64_t k = start; step > 0 ? k < stop : k > stop; k += step) {
        if (base.is(K::Str))
          s += base.getStr()[k];
        else
          out.push_back(base.getElts()[k]);
      }
      if (base.is(K::Str))
        return Value::ofStr(s);
      return base.is(K::List) ? Value::ofList(std::move(out)) : Value::ofTuple(std::move(out));
    }
    std::optional<int64_t> i = expectInt(in, index, range, base.is(K::Str) ? "a string index" : "an index");
    if (!i)
      return Value();
    int64_t k = *i < 0 ? *i + n : *i;
    if (k < 0 || k >= n) {
      in.error(DiagID::meta_index_error, range, base.is(K::Str) ? "string" : base.is(K::List) ? "list" : "tuple", *i,
               n);
      return Value();
    }
    if (base.is(K::Str))
      return Value::ofStr(std::string(1, base.getStr()[k]));
    return base.getElts()[k];
  }
  case K::Dict: {
    if (Value *v = base.as<DictObj>()->find(index))
      return *v;
    in.error(DiagID::meta_key_error, range, index.str());
    return Value();
  }
  case K::Object:
    if (NamedObj *r = asObject(base, "range")) {
      std::optional<int64_t> i = expectInt(in, index, range, "a range index");
      if (!i)
        return Value();
      int64_t n = r->fields.lookup("len").getInt();
      int64_t k = *i < 0 ? *i + n : *i;
      if (k < 0 || k >= n) {
        in.error(DiagID::meta_index_error, range, "range", *i, n);
        return Value();
      }
      return Value::ofInt(r->fields.lookup("start").getInt() + k * r->fields.lookup("step").getInt());
    }
    if (asObject(base, "typehint"))
      return base;
    break;
  case K::Builtin: {
    // `T.Tensor[shape, dtype]`, `T.Buffer[...]`: the subscript form of the call.
    auto *b = base.as<BuiltinObj>();
    if (b->fn && (b->name == "T.Tensor" || b->name == "T.Buffer" || b->name == "T.StridedTensor")) {
      CallArgs args;
      args.range = range;
      args.calleeRange = range;
      if (index.is(K::Tuple) && index.getElts().size() >= 2 &&
          (index.getElts().back().is(K::DType) || index.getElts().back().is(K::Str))) {
        for (const Value &v : index.getElts()) {
          args.args.push_back(v);
          args.argRanges.push_back(range);
        }
      } else {
        args.args.push_back(index);
        args.argRanges.push_back(range);
      }
      return in.call(base, args);
    }
    break;
  }
  default:
    break;
  }
  in.error(DiagID::meta_error, range, base.describe() + " cannot be indexed");
  return Value();
}

Value Interpreter::getAttr(const Value &base, llvm::StringRef attr, llvm::SMRange attrRange, llvm::SMRange range) {
  return getAttribute(*this, base, attr, attrRange, range);
}

Value Interpreter::getItem(const Value &base, const Value &index, llvm::SMRange range) {
  return subscript(*this, base, index, range);
}
