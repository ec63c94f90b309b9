//===- Format.cpp - format specs and printf-style formatting --------------===//
//
// Python's format-spec mini-language (f-strings, str.format, format()) and
// `%` formatting of strings, over meta values.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Meta/BigInt.h"
#include "tilec/Frontend/Meta/Value.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>

using namespace tilec;
using namespace tilec::meta;
using K = Value::Kind;

static std::string digitsOf(int64_t v, char type) {
  bool neg = v < 0;
  uint64_t u = neg ? 0 - uint64_t(v) : uint64_t(v);
  unsigned base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
  const char *digits = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string r;
  do {
    r.insert(r.begin(), digits[u % base]);
    u /= base;
  } while (u);
  return r;
}

static std::string floatDigits(double v, char type, int prec) {
  if (prec < 0)
    prec = 6;
  if (prec > 60)
    prec = 60;
  char buf[512];
  char t = type == 'F' ? 'f' : type;
  if (t == '%') {
    v *= 100;
    t = 'f';
  }
  char fmt[8] = {'%', '.', '*', t, 0};
  snprintf(buf, sizeof(buf), fmt, prec, v < 0 ? -v : v);
  std::string r = buf;
  if (type == '%')
    r += '%';
  return r;
}

std::string tilec::meta::formatWithSpec(const Value &v, llvm::StringRef spec, std::string &error) {
  char fill = ' ', align = 0, sign = '-';
  bool alt = false, zero = false;
  size_t width = 0;
  int prec = -1;
  char group = 0, type = 0;
  size_t p = 0;
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (spec.size() >= 2 && isAlign(spec[1])) {
    fill = spec[0];
    align = spec[1];
    p = 2;
  } else if (!spec.empty() && isAlign(spec[0])) {
    align = spec[0];
    p = 1;
  }
  if (p < spec.size() && (spec[p] == '+' || spec[p] == '-' || spec[p] == ' '))
    sign = spec[p++];
  if (p < spec.size() && spec[p] == '#') {
    alt = true;
    ++p;
  }
  if (p < spec.size() && spec[p] == '0') {
    zero = true;
    ++p;
  }
  while (p < spec.size() && llvm::isDigit(spec[p]) && width < 10000)
    width = width * 10 + (spec[p++] - '0');
  if (p < spec.size() && (spec[p] == ',' || spec[p] == '_'))
    group = spec[p++];
  if (p < spec.size() && spec[p] == '.') {
    ++p;
    prec = 0;
    while (p < spec.size() && llvm::isDigit(spec[p]) && prec < 1000)
      prec = prec * 10 + (spec[p++] - '0');
  }
  if (p < spec.size())
    type = spec[p++];
  if (p != spec.size() || width > 4096) {
    error = "invalid format specifier '" + spec.str() + "'";
    return "";
  }
  std::string body;
  bool negative = false, numeric = false;
  if (v.is(K::Str) || (!v.isNumber() && !v.isBigInt() && !type)) {
    if (type && type != 's') {
      error = "unknown format code '" + std::string(1, type) + "' for " + v.describe();
      return "";
    }
    body = v.toDisplay();
    if (prec >= 0 && size_t(prec) < body.size())
      body.resize(prec);
  } else if (v.isNumber() || v.isBigInt()) {
    numeric = true;
    bool isInt = v.isInteger();
    if (!type)
      type = isInt ? 'd' : 'g';
    if (llvm::StringRef("bdoxXc").contains(type)) {
      if (!isInt) {
        error = "unknown format code '" + std::string(1, type) + "' for a float";
        return "";
      }
      if (v.isBigInt() && type == 'c') {
        error = "%c arg not in range(0x110000)";
        return "";
      }
      negative = isNegativeInt(v);
      unsigned radix = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
      body = type == 'c'    ? std::string(1, char(v.getInt()))
             : v.isBigInt() ? intDigits(v, radix, type == 'X')
                            : digitsOf(v.getInt(), type);
      if (alt && type != 'd' && type != 'c')
        body = std::string("0") + (type == 'X' ? 'X' : type) + body;
    } else if (llvm::StringRef("eEfFgG%").contains(type)) {
      double d = v.getFloat();
      if (v.isBigInt() && std::isinf(d)) {
        error = intToFloat(v).error;
        return "";
      }
      negative = d < 0 || (d == 0 && std::signbit(d));
      body = floatDigits(d, type, prec);
    } else {
      error = "unknown format code '" + std::string(1, type) + "' for " + v.describe();
      return "";
    }
    if (group) {
      size_t dot = body.find_first_not_of("0123456789");
      size_t end = dot == std::string::npos ? body.size() : dot;
      for (int64_t k = int64_t(end) - 3; k > 0; k -= 3)
        body.insert(size_t(k), 1, group);
    }
    if (negative)
      body = "-" + body;
    else if (sign == '+' || sign == ' ')
      body = std::string(1, sign) + body;
  } else {
    body = v.toDisplay();
  }
  if (!align)
    align = numeric ? (zero ? '=' : '>') : '<';
  if (zero && fill == ' ')
    fill = '0';
  if (body.size() >= width)
    return body;
  size_t pad = width - body.size();
  switch (align) {
  case '<': return body + std::string(pad, fill);
  case '>': return std::string(pad, fill) + body;
  case '^': return std::string(pad / 2, fill) + body + std::string(pad - pad / 2, fill);
  default: {
    size_t signLen = (!body.empty() && (body[0] == '-' || body[0] == '+' || body[0] == ' ')) ? 1 : 0;
    return body.substr(0, signLen) + std::string(pad, fill) + body.substr(signLen);
  }
  }
}

std::string tilec::meta::formatPercent(llvm::StringRef fmt, const Value &args, std::string &error) {
  std::vector<Value> items;
  if (args.is(K::Tuple))
    items.assign(args.getElts().begin(), args.getElts().end());
  else
    items.push_back(args);
  size_t next = 0;
  std::string out;
  for (size_t p = 0; p < fmt.size(); ++p) {
    if (fmt[p] != '%') {
      out += fmt[p];
      continue;
    }
    size_t q = p + 1;
    std::string spec;
    while (q < fmt.size() && llvm::StringRef("-+ #0123456789.").contains(fmt[q]))
      spec += fmt[q++];
    if (q >= fmt.size()) {
      error = "incomplete format";
      return "";
    }
    char conv = fmt[q];
    p = q;
    if (conv == '%') {
      out += '%';
      continue;
    }
    if (next >= items.size()) {
      error = "not enough arguments for format string";
      return "";
    }
    const Value &v = items[next++];
    // Translate printf flags into a format spec.
    std::string s;
    bool left = false;
    size_t k = 0;
    for (; k < spec.size() && llvm::StringRef("-+ #0").contains(spec[k]); ++k) {
      if (spec[k] == '-') left = true;
      else s += spec[k];
    }
    std::string rest = spec.substr(k);
    std::string full = (left ? "<" : "") + s + rest;
    char type = conv == 'i' || conv == 'u' ? 'd' : conv;
    if (conv == 's' || conv == 'r') {
      Value sv = Value::ofStr(conv == 'r' ? v.str() : v.toDisplay());
      out += formatWithSpec(sv, full, error);
    } else if (llvm::StringRef("dxXoeEfFgGc").contains(type)) {
      if (!v.isNumber() && !v.isBigInt()) {
        error = std::string("%") + conv + " format: a number is required, not " + v.describe();
        return "";
      }
      bool toInt = (type == 'd' || type == 'x' || type == 'X' || type == 'o') && !v.isInteger();
      if (toInt && !std::isfinite(v.getFloat())) {
        error = "cannot convert float " + v.str() + " to an integer";
        return "";
      }
      Value n = toInt ? floatToInt(v.getFloat()) : v;
      out += formatWithSpec(n, full + type, error);
    } else {
      error = std::string("unsupported format character '") + conv + "'";
      return "";
    }
    if (!error.empty())
      return "";
  }
  if (next < items.size() && args.is(K::Tuple)) {
    error = "not all arguments converted during string formatting";
    return "";
  }
  return out;
}
