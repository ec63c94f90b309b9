//===- Methods.cpp - Methods of str, list, dict, set, tuple and int -------===//
//
// Bound methods of the builtin value kinds (`"{}".format`, `xs.append`,
// `d.items`, ...), created on attribute lookup.
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
using Method = std::function<Value(Interpreter &, const Value &self, CallArgs &)>;

Value bindMethod(const Value &self, std::string name, Method m) {
  return makeBuiltin(name, [self, name, m](Interpreter &in, CallArgs &a) -> Value {
    for (size_t k = 0; k < a.args.size(); ++k)
      if (!in.requireConcrete(a.args[k], a.rangeOf(k, "")))
        return Value();
    return m(in, self, a);
  });
}

bool want(Interpreter &in, CallArgs &a, llvm::StringRef name, size_t lo, size_t hi) {
  if (a.args.size() >= lo && a.args.size() <= hi)
    return true;
  in.error(DiagID::meta_call_error, a.range, name,
           "takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
               " arguments but " + std::to_string(a.args.size()) + " were given");
  return false;
}

bool wantStr(Interpreter &in, CallArgs &a, size_t k, llvm::StringRef name) {
  if (a.args[k].is(K::Str))
    return true;
  in.error(DiagID::meta_error, a.rangeOf(k, ""), (name + "() needs a string, got " + a.args[k].describe()).str());
  return false;
}

/// `"...{}...{name}...{0:>4}".format(...)`.
Value strFormat(Interpreter &in, const Value &self, CallArgs &a) {
  llvm::StringRef f = self.getStr();
  std::string out;
  size_t autoIdx = 0;
  for (size_t p = 0; p < f.size(); ++p) {
    char c = f[p];
    if (c == '}' ) {
      if (p + 1 < f.size() && f[p + 1] == '}')
        ++p;
      out += '}';
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (p + 1 < f.size() && f[p + 1] == '{') {
      out += '{';
      ++p;
      continue;
    }
    size_t close = f.find('}', p);
    if (close == llvm::StringRef::npos) {
      in.error(DiagID::meta_error, a.range, "single '{' encountered in format string");
      return Value();
    }
    llvm::StringRef field = f.slice(p + 1, close);
    p = close;
    auto [nameConv, spec] = field.split(':');
    auto [name, conv] = nameConv.split('!');
    const Value *v = nullptr;
    if (name.empty()) {
      if (autoIdx >= a.args.size()) {
        in.error(DiagID::meta_error, a.range, "format string needs more positional arguments");
        return Value();
      }
      v = &a.args[autoIdx++];
    } else if (llvm::all_of(name, llvm::isDigit)) {
      size_t i = std::stoul(name.str());
      if (i >= a.args.size()) {
        in.error(DiagID::meta_error, a.range, "format index " + name.str() + " is out of range");
        return Value();
      }
      v = &a.args[i];
    } else {
      v = a.kw(name);
      if (!v) {
        in.error(DiagID::meta_key_error, a.range, "'" + name.str() + "'");
        return Value();
      }
    }
    Value x = *v;
    if (conv == "r")
      x = Value::ofStr(v->str());
    std::string err;
    out += formatWithSpec(x, spec, err);
    if (!err.empty()) {
      in.error(DiagID::meta_error, a.range, err);
      return Value();
    }
  }
  return Value::ofStr(out);
}

Value strMethod(Interpreter &in, const Value &self, llvm::StringRef name) {
  std::string n = name.str();
  auto s = [](const Value &v) { return v.getStr(); };
  if (name == "format")
    return bindMethod(self, "str.format", strFormat);
  if (name == "join")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "join", 1, 1))
        return Value();
      std::optional<std::vector<Value>> items = in.toList(a.args[0], a.rangeOf(0, ""));
      if (!items)
        return Value();
      std::string out;
      for (size_t k = 0; k < items->size(); ++k) {
        if (!(*items)[k].is(K::Str)) {
          in.error(DiagID::meta_error, a.range, "join() needs strings, got " + (*items)[k].describe());
          return Value();
        }
        out += (k ? self.getStr().str() : "") + (*items)[k].getStr().str();
      }
      return Value::ofStr(out);
    });
  if (name == "split" || name == "rsplit")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "split", 0, 2))
        return Value();
      llvm::SmallVector<llvm::StringRef, 8> parts;
      if (a.args.empty() || a.args[0].is(K::None))
        llvm::SplitString(self.getStr(), parts);
      else if (wantStr(in, a, 0, "split") && !a.args[0].getStr().empty())
        self.getStr().split(parts, a.args[0].getStr());
      else
        return Value();
      std::vector<Value> out;
      for (llvm::StringRef p : parts)
        out.push_back(Value::ofStr(p.str()));
      return Value::ofList(std::move(out));
    });
  if (name == "strip" || name == "lstrip" || name == "rstrip")
    return bindMethod(self, n, [n](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, n, 0, 1))
        return Value();
      llvm::StringRef chars = a.args.empty() || !a.args[0].is(K::Str) ? " \t\n\r\f\v" : a.args[0].getStr();
      llvm::StringRef r = self.getStr();
      r = n == "strip" ? r.trim(chars) : n == "lstrip" ? r.ltrim(chars) : r.rtrim(chars);
      return Value::ofStr(r.str());
    });
  if (name == "lower" || name == "upper")
    return bindMethod(self, n, [n](Interpreter &, const Value &self, CallArgs &) {
      return Value::ofStr(n == "lower" ? self.getStr().lower() : self.getStr().upper());
    });
  if (name == "replace")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "replace", 2, 2) || !wantStr(in, a, 0, "replace") || !wantStr(in, a, 1, "replace"))
        return Value();
      if (a.args[0].getStr().empty())
        return self;
      std::string r = self.getStr().str(), from = a.args[0].getStr().str(), to = a.args[1].getStr().str();
      for (size_t pos = 0; (pos = r.find(from, pos)) != std::string::npos; pos += to.size())
        r.replace(pos, from.size(), to);
      return Value::ofStr(r);
    });
  if (name == "startswith" || name == "endswith")
    return bindMethod(self, n, [n](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, n, 1, 1))
        return Value();
      std::vector<Value> opts = a.args[0].is(K::Tuple) ? std::vector<Value>(a.args[0].getElts().begin(),
                                                                            a.args[0].getElts().end())
                                                       : std::vector<Value>{a.args[0]};
      for (const Value &o : opts)
        if (o.is(K::Str) && (n == "startswith" ? self.getStr().starts_with(o.getStr())
                                               : self.getStr().ends_with(o.getStr())))
          return Value::ofBool(true);
      return Value::ofBool(false);
    });
  if (name == "find" || name == "count" || name == "index")
    return bindMethod(self, n, [n](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, n, 1, 1) || !wantStr(in, a, 0, n))
        return Value();
      if (n == "count")
        return Value::ofInt(a.args[0].getStr().empty() ? int64_t(self.getStr().size() + 1)
                                                       : int64_t(self.getStr().count(a.args[0].getStr())));
      size_t pos = self.getStr().find(a.args[0].getStr());
      if (pos == llvm::StringRef::npos && n == "index") {
        in.error(DiagID::meta_error, a.range, "substring not found");
        return Value();
      }
      return Value::ofInt(pos == llvm::StringRef::npos ? -1 : int64_t(pos));
    });
  if (name == "isdigit" || name == "isalpha" || name == "isupper" || name == "islower")
    return bindMethod(self, n, [n](Interpreter &, const Value &self, CallArgs &) {
      llvm::StringRef str = self.getStr();
      bool r = !str.empty();
      for (char c : str)
        r &= n == "isdigit" ? llvm::isDigit(c) : n == "isalpha" ? llvm::isAlpha(c)
           : n == "isupper" ? !llvm::isAlpha(c) || llvm::isUpper(c) : !llvm::isAlpha(c) || llvm::isLower(c);
      return Value::ofBool(r);
    });
  if (name == "zfill")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "zfill", 1, 1) || !a.args[0].isIntLike())
        return Value();
      std::string r = self.getStr().str();
      while (int64_t(r.size()) < a.args[0].getInt() && r.size() < 4096)
        r.insert(r.begin(), '0');
      return Value::ofStr(r);
    });
  (void)in;
  (void)s;
  return Value();
}

Value listMethod(Interpreter &in, const Value &self, llvm::StringRef name) {
  std::string n = name.str();
  if (name == "append")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "append", 1, 1))
        return Value();
      self.listItems()->push_back(a.args[0]);
      return Value::none();
    });
  if (name == "extend")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "extend", 1, 1))
        return Value();
      std::optional<std::vector<Value>> items = in.toList(a.args[0], a.rangeOf(0, ""));
      if (!items)
        return Value();
      self.listItems()->insert(self.listItems()->end(), items->begin(), items->end());
      return Value::none();
    });
  if (name == "insert")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "insert", 2, 2))
        return Value();
      std::optional<int64_t> i = expectInt(in, a.args[0], a.rangeOf(0, ""), "an index");
      if (!i)
        return Value();
      auto &items = *self.listItems();
      int64_t sz = int64_t(items.size());
      int64_t k = std::clamp<int64_t>(*i < 0 ? *i + sz : *i, 0, sz);
      items.insert(items.begin() + k, a.args[1]);
      return Value::none();
    });
  if (name == "pop")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "pop", 0, 1))
        return Value();
      auto &items = *self.listItems();
      int64_t sz = int64_t(items.size());
      int64_t i = a.args.empty() ? -1 : a.args[0].isIntLike() ? a.args[0].getInt() : 0;
      int64_t k = i < 0 ? i + sz : i;
      if (k < 0 || k >= sz) {
        in.error(DiagID::meta_index_error, a.range, "pop", i, sz);
        return Value();
      }
      Value v = items[k];
      items.erase(items.begin() + k);
      return v;
    });
  if (name == "remove")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "remove", 1, 1))
        return Value();
      auto &items = *self.listItems();
      auto it = std::find_if(items.begin(), items.end(), [&](const Value &v) { return equals(v, a.args[0]); });
      if (it == items.end()) {
        in.error(DiagID::meta_error, a.range, "list.remove(x): x not in list");
        return Value();
      }
      items.erase(it);
      return Value::none();
    });
  if (name == "clear")
    return bindMethod(self, n, [](Interpreter &, const Value &self, CallArgs &) {
      self.listItems()->clear();
      return Value::none();
    });
  if (name == "copy")
    return bindMethod(self, n, [](Interpreter &, const Value &self, CallArgs &) { return Value::ofList(*self.listItems()); });
  if (name == "reverse")
    return bindMethod(self, n, [](Interpreter &, const Value &self, CallArgs &) {
      std::reverse(self.listItems()->begin(), self.listItems()->end());
      return Value::none();
    });
  if (name == "sort")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      CallArgs c = a;
      c.args.insert(c.args.begin(), Value::ofList(*self.listItems()));
      c.argRanges.insert(c.argRanges.begin(), a.range);
      Value sorted = in.call(in.lookupBuiltin("sorted"), c);
      if (!sorted.isValid())
        return Value();
      *self.listItems() = *sorted.listItems();
      return Value::none();
    });
  return Value();
}

Value seqMethod(Interpreter &, const Value &self, llvm::StringRef name) {
  std::string n = name.str();
  if (name == "index" || name == "count")
    return bindMethod(self, n, [n](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, n, 1, 1))
        return Value();
      auto elts = self.getElts();
      int64_t count = 0;
      for (size_t k = 0; k < elts.size(); ++k)
        if (equals(elts[k], a.args[0])) {
          if (n == "index")
            return Value::ofInt(int64_t(k));
          ++count;
        }
      if (n == "index") {
        in.error(DiagID::meta_error, a.range, a.args[0].str() + " is not in the sequence");
        return Value();
      }
      return Value::ofInt(count);
    });
  return Value();
}

Value dictMethod(Interpreter &, const Value &self, llvm::StringRef name) {
  std::string n = name.str();
  if (name == "get")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, "get", 1, 2))
        return Value();
      if (Value *v = self.as<DictObj>()->find(a.args[0]))
        return *v;
      return a.args.size() == 2 ? a.args[1] : Value::none();
    });
  if (name == "items" || name == "keys" || name == "values")
    return bindMethod(self, n, [n](Interpreter &, const Value &self, CallArgs &) {
      std::vector<Value> out;
      for (auto &[k, v] : *self.dictItems())
        out.push_back(n == "items" ? Value::ofTuple({k, v}) : n == "keys" ? k : v);
      return Value::ofList(std::move(out));
    });
  if (name == "update")
    return bindMethod(self, n, [](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      std::vector<std::pair<Value, Value>> add;
      if (a.args.size() == 1 && a.args[0].is(K::Dict))
        add = *a.args[0].dictItems();
      else if (!a.args.empty()) {
        in.error(DiagID::meta_error, a.range, "dict.update() needs a dict");
        return Value();
      }
      for (auto &[k, v] : a.kwargs)
        add.emplace_back(Value::ofStr(k), v);
      for (auto &[k, v] : add) {
        if (Value *slot = self.as<DictObj>()->find(k))
          *slot = v;
        else
          self.dictItems()->emplace_back(k, v);
      }
      return Value::none();
    });
  if (name == "pop" || name == "setdefault")
    return bindMethod(self, n, [n](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, n, 1, 2))
        return Value();
      auto &items = *self.dictItems();
      auto it = std::find_if(items.begin(), items.end(), [&](auto &kv) { return equals(kv.first, a.args[0]); });
      if (n == "setdefault") {
        if (it != items.end())
          return it->second;
        Value d = a.args.size() == 2 ? a.args[1] : Value::none();
        items.emplace_back(a.args[0], d);
        return d;
      }
      if (it == items.end()) {
        if (a.args.size() == 2)
          return a.args[1];
        in.error(DiagID::meta_key_error, a.range, a.args[0].str());
        return Value();
      }
      Value v = it->second;
      items.erase(it);
      return v;
    });
  if (name == "copy")
    return bindMethod(self, n, [](Interpreter &, const Value &self, CallArgs &) { return Value::ofDict(*self.dictItems()); });
  return Value();
}

Value setMethod(Interpreter &, const Value &self, llvm::StringRef name) {
  std::string n = name.str();
  if (name == "add" || name == "discard" || name == "remove")
    return bindMethod(self, n, [n](Interpreter &in, const Value &self, CallArgs &a) -> Value {
      if (!want(in, a, n, 1, 1))
        return Value();
      auto &items = *self.listItems();
      auto it = std::find_if(items.begin(), items.end(), [&](const Value &v) { return equals(v, a.args[0]); });
      if (n == "add") {
        if (it == items.end())
          items.push_back(a.args[0]);
      } else if (it != items.end()) {
        items.erase(it);
      } else if (n == "remove") {
        in.error(DiagID::meta_key_error, a.range, a.args[0].str());
        return Value();
      }
      return Value::none();
    });
  return Value();
}
} // namespace

Value detail::methodOf(Interpreter &in, const Value &self, llvm::StringRef name) {
  switch (self.getKind()) {
  case K::Str: return strMethod(in, self, name);
  case K::DType: return strMethod(in, Value::ofStr(dtypeName(self.getDType()).str()), name);
  case K::List: {
    Value m = listMethod(in, self, name);
    return m.isValid() ? m : seqMethod(in, self, name);
  }
  case K::Tuple: return seqMethod(in, self, name);
  case K::Dict: return dictMethod(in, self, name);
  case K::Set: return setMethod(in, self, name);
  case K::Int:
  case K::Bool:
  case K::BigInt:
    if (name == "bit_length")
      return bindMethod(self, "bit_length", [](Interpreter &, const Value &self, CallArgs &) {
        return Value::ofInt(int64_t(bitLength(self)));
      });
    return Value();
  case K::Float:
    if (name == "is_integer")
      return bindMethod(self, "is_integer", [](Interpreter &, const Value &self, CallArgs &) {
        double f = self.getFloat();
        return Value::ofBool(std::isfinite(f) && f == std::floor(f));
      });
    return Value();
  default:
    return Value();
  }
}
