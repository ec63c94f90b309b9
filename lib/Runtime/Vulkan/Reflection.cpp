//===- Reflection.cpp - Encode, decode and evaluate kernel reflection -----===//
//
// The word stream: magic, version, total word count, then the fields of
// Reflection in declaration order. Strings are a byte count followed by the
// bytes packed four to a word (little-endian); int64 values are two words.
//
//===----------------------------------------------------------------------===//
#include "tilec/Runtime/Vulkan/Reflection.h"

#include <limits>

using namespace tilec::vk;

uint32_t tilec::vk::fieldSize(FieldType type) {
  switch (type) {
  case FieldType::Int64:
  case FieldType::Float64:
    return 8;
  case FieldType::Float16:
    return 2;
  default:
    return 4;
  }
}

namespace {
class Writer {
public:
  void word(uint32_t w) { words.push_back(w); }
  void i64(int64_t v) {
    word(static_cast<uint32_t>(static_cast<uint64_t>(v)));
    word(static_cast<uint32_t>(static_cast<uint64_t>(v) >> 32));
  }
  void str(const std::string &s) {
    word(static_cast<uint32_t>(s.size()));
    for (size_t i = 0; i < s.size(); i += 4) {
      uint32_t w = 0;
      for (size_t j = 0; j < 4 && i + j < s.size(); ++j)
        w |= static_cast<uint32_t>(static_cast<unsigned char>(s[i + j])) << (8 * j);
      word(w);
    }
  }
  std::vector<uint32_t> words;
};

class Reader {
public:
  Reader(const uint32_t *words, size_t count) : words(words), count(count) {}
  bool word(uint32_t &w) {
    if (pos >= count)
      return fail("reflection ends early");
    w = words[pos++];
    return true;
  }
  bool i64(int64_t &v) {
    uint32_t lo, hi;
    if (!word(lo) || !word(hi))
      return false;
    v = static_cast<int64_t>((static_cast<uint64_t>(hi) << 32) | lo);
    return true;
  }
  bool str(std::string &s) {
    uint32_t size;
    if (!word(size))
      return false;
    if (size > 4 * (count - pos))
      return fail("reflection string runs past the end");
    s.clear();
    for (uint32_t i = 0; i < size; i += 4) {
      uint32_t w = words[pos++];
      for (uint32_t j = 0; j < 4 && i + j < size; ++j)
        s.push_back(static_cast<char>((w >> (8 * j)) & 0xFF));
    }
    return true;
  }
  bool fail(const std::string &message) {
    if (error.empty())
      error = message;
    return false;
  }
  const uint32_t *words;
  size_t count;
  size_t pos = 0;
  std::string error;
};
} // namespace

std::vector<uint32_t> tilec::vk::encodeReflection(const Reflection &r) {
  Writer w;
  w.word(kReflectionMagic);
  // Version 1 when there is nothing of version 2 (no T.print): headers of
  // kernels without prints stay readable by version-1 runners.
  bool prints = r.printBinding != kNoParam;
  w.word(prints ? kReflectionVersion : 1);
  w.word(0); // total size, patched below
  w.str(r.kernelName);
  w.str(r.entryPoint);
  for (uint32_t s : r.workgroupSize)
    w.word(s);
  w.word(static_cast<uint32_t>(r.params.size()));
  for (const Param &p : r.params) {
    w.word(static_cast<uint32_t>(p.kind));
    w.str(p.name);
    w.str(p.dtype);
    w.word(p.elementBits);
    w.word(static_cast<uint32_t>(p.shape.size()));
    for (const Dim &d : p.shape) {
      w.word(d.param);
      w.i64(d.value);
    }
    w.word(p.slot);
  }
  w.word(static_cast<uint32_t>(r.bindings.size()));
  for (const Binding &b : r.bindings) {
    w.word(b.set);
    w.word(b.binding);
    w.word(b.param);
    w.word(b.readOnly ? 1 : 0);
  }
  w.word(r.pushConstantSize);
  w.word(static_cast<uint32_t>(r.pushFields.size()));
  for (const PushField &f : r.pushFields) {
    w.word(f.param);
    w.word(f.offset);
    w.word(static_cast<uint32_t>(f.type));
  }
  for (const auto &program : r.grid) {
    w.word(static_cast<uint32_t>(program.size()));
    for (const GridInst &inst : program) {
      w.word(static_cast<uint32_t>(inst.op));
      if (inst.op == GridOp::Const)
        w.i64(inst.value);
      else if (inst.op == GridOp::Param)
        w.word(static_cast<uint32_t>(inst.value));
    }
  }
  if (prints) {
    w.word(r.printBinding);
    w.word(r.printRecordWords);
    w.word(static_cast<uint32_t>(r.prints.size()));
    for (const PrintFormat &f : r.prints) {
      w.str(f.format);
      w.word(static_cast<uint32_t>(f.args.size()));
      for (PrintArg a : f.args)
        w.word(static_cast<uint32_t>(a));
    }
  }
  w.words[2] = static_cast<uint32_t>(w.words.size());
  return std::move(w.words);
}

bool tilec::vk::decodeReflection(const uint32_t *words, size_t count, Reflection &r, std::string &error) {
  Reader in(words, count);
  auto done = [&](bool ok) {
    if (!ok)
      error = in.error.empty() ? "malformed reflection" : in.error;
    return ok;
  };
  uint32_t magic, version, total, n;
  if (!in.word(magic) || magic != kReflectionMagic)
    return done(in.fail("not a tilec Vulkan reflection (bad magic)"));
  if (!in.word(version) || version < 1 || version > kReflectionVersion)
    return done(in.fail("unsupported reflection version " + std::to_string(version)));
  if (!in.word(total) || total != count)
    return done(in.fail("reflection size mismatch"));
  r = Reflection();
  if (!in.str(r.kernelName) || !in.str(r.entryPoint))
    return done(false);
  for (uint32_t &s : r.workgroupSize)
    if (!in.word(s))
      return done(false);
  if (!in.word(n))
    return done(false);
  for (uint32_t i = 0; i < n; ++i) {
    Param p;
    uint32_t kind, rank;
    if (!in.word(kind) || kind > 2 || !in.str(p.name) || !in.str(p.dtype) || !in.word(p.elementBits) ||
        !in.word(rank))
      return done(in.fail("malformed parameter"));
    p.kind = static_cast<ParamKind>(kind);
    for (uint32_t d = 0; d < rank; ++d) {
      Dim dim;
      if (!in.word(dim.param) || !in.i64(dim.value))
        return done(false);
      p.shape.push_back(dim);
    }
    if (!in.word(p.slot))
      return done(false);
    r.params.push_back(std::move(p));
  }
  if (!in.word(n))
    return done(false);
  for (uint32_t i = 0; i < n; ++i) {
    Binding b;
    uint32_t ro;
    if (!in.word(b.set) || !in.word(b.binding) || !in.word(b.param) || !in.word(ro))
      return done(false);
    if (b.param >= r.params.size() || r.params[b.param].kind != ParamKind::Tensor)
      return done(in.fail("binding names a parameter that is not a tensor"));
    b.readOnly = ro != 0;
    r.bindings.push_back(b);
  }
  if (!in.word(r.pushConstantSize) || !in.word(n))
    return done(false);
  for (uint32_t i = 0; i < n; ++i) {
    PushField f;
    uint32_t type;
    if (!in.word(f.param) || !in.word(f.offset) || !in.word(type) || type > 5)
      return done(in.fail("malformed push-constant field"));
    f.type = static_cast<FieldType>(type);
    if (f.param >= r.params.size() || r.params[f.param].kind == ParamKind::Tensor)
      return done(in.fail("push-constant field names a tensor or an unknown parameter"));
    if (f.offset + fieldSize(f.type) > r.pushConstantSize)
      return done(in.fail("push-constant field past the end of the block"));
    r.pushFields.push_back(f);
  }
  for (auto &program : r.grid) {
    if (!in.word(n))
      return done(false);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t op;
      GridInst inst;
      if (!in.word(op) || op > static_cast<uint32_t>(GridOp::Max))
        return done(in.fail("bad grid opcode"));
      inst.op = static_cast<GridOp>(op);
      if (inst.op == GridOp::Const && !in.i64(inst.value))
        return done(false);
      if (inst.op == GridOp::Param) {
        uint32_t param;
        if (!in.word(param) || param >= r.params.size())
          return done(in.fail("grid program names an unknown parameter"));
        inst.value = param;
      }
      program.push_back(inst);
    }
  }
  if (version >= 2) {
    if (!in.word(r.printBinding) || !in.word(r.printRecordWords) || !in.word(n))
      return done(false);
    for (uint32_t i = 0; i < n; ++i) {
      PrintFormat f;
      uint32_t args;
      if (!in.str(f.format) || !in.word(args))
        return done(false);
      for (uint32_t a = 0; a < args; ++a) {
        uint32_t kind;
        if (!in.word(kind) || kind > static_cast<uint32_t>(PrintArg::Float64))
          return done(in.fail("malformed print format"));
        f.args.push_back(static_cast<PrintArg>(kind));
      }
      if (1 + 2 * f.args.size() > r.printRecordWords)
        return done(in.fail("a print format has more values than a record holds"));
      r.prints.push_back(std::move(f));
    }
  }
  for (const Param &p : r.params) {
    if (p.kind == ParamKind::Tensor && p.slot >= r.bindings.size())
      return done(in.fail("tensor parameter '" + p.name + "' has no binding"));
    if (p.kind != ParamKind::Tensor && p.slot != kNoParam && p.slot >= r.pushFields.size())
      return done(in.fail("parameter '" + p.name + "' names a missing push-constant field"));
    for (const Dim &d : p.shape)
      if (d.param != kNoParam && (d.param >= r.params.size() || r.params[d.param].kind != ParamKind::DynamicDim))
        return done(in.fail("tensor '" + p.name + "' has a dimension that is not a dynamic dimension"));
  }
  if (in.pos != count)
    return done(in.fail("trailing words after the reflection"));
  return true;
}

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool tilec::vk::evaluateGrid(const std::vector<GridInst> &program, const std::vector<int64_t> &values,
                             int64_t &result, std::string &error) {
  std::vector<int64_t> stack;
  for (const GridInst &inst : program) {
    if (inst.op == GridOp::Const) {
      stack.push_back(inst.value);
      continue;
    }
    if (inst.op == GridOp::Param) {
      if (inst.value < 0 || static_cast<size_t>(inst.value) >= values.size()) {
        error = "grid program names an unknown parameter";
        return false;
      }
      stack.push_back(values[inst.value]);
      continue;
    }
    if (stack.size() < 2) {
      error = "grid program underflows its stack";
      return false;
    }
    int64_t b = stack.back();
    stack.pop_back();
    int64_t a = stack.back();
    bool divides = inst.op == GridOp::FloorDiv || inst.op == GridOp::CeilDiv || inst.op == GridOp::FloorMod ||
                   inst.op == GridOp::TruncDiv || inst.op == GridOp::TruncRem;
    if (divides && b == 0) {
      error = "grid program divides by zero";
      return false;
    }
    int64_t v = 0;
    switch (inst.op) {
    case GridOp::Add: v = a + b; break;
    case GridOp::Sub: v = a - b; break;
    case GridOp::Mul: v = a * b; break;
    case GridOp::FloorDiv: v = floorDiv(a, b); break;
    case GridOp::CeilDiv: v = -floorDiv(-a, b); break;
    case GridOp::FloorMod: v = a - floorDiv(a, b) * b; break;
    case GridOp::TruncDiv: v = a / b; break;
    case GridOp::TruncRem: v = a % b; break;
    case GridOp::Min: v = a < b ? a : b; break;
    case GridOp::Max: v = a > b ? a : b; break;
    default:
      error = "bad grid opcode";
      return false;
    }
    stack.back() = v;
  }
  if (stack.size() != 1) {
    error = "grid program leaves " + std::to_string(stack.size()) + " values";
    return false;
  }
  result = stack.back();
  return true;
}

int64_t tilec::vk::elementCount(const Param &p, const std::vector<int64_t> &values) {
  int64_t n = 1;
  for (const Dim &d : p.shape)
    n *= d.param == kNoParam ? d.value : (d.param < values.size() ? values[d.param] : 0);
  return n;
}
