//===- Prints.cpp - The lines of a Vulkan kernel's T.print buffer ---------===//
//
// The kernel appends one record per printed value (Reflection.h: the format
// index, then two words per value); this turns the records back into the
// lines the CUDA target's printf writes for the same T.print. Plain C++, no
// Vulkan: a user's own host code can call it on the buffer it bound.
//
//===----------------------------------------------------------------------===//
#include "tilec/Runtime/Vulkan/Reflection.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace tilec::vk;

namespace {
/// One value of a record as the kinds a printf conversion wants.
struct Value {
  PrintArg kind;
  uint64_t bits;
  long long asInt() const {
    switch (kind) {
    case PrintArg::Int32:
      return static_cast<int32_t>(bits);
    case PrintArg::UInt32:
      return static_cast<uint32_t>(bits);
    case PrintArg::Int64:
      return static_cast<long long>(bits);
    case PrintArg::Float32:
      return static_cast<long long>(asDouble());
    case PrintArg::Float64:
      return static_cast<long long>(asDouble());
    }
    return 0;
  }
  double asDouble() const {
    if (kind == PrintArg::Float32) {
      float f;
      uint32_t w = static_cast<uint32_t>(bits);
      std::memcpy(&f, &w, 4);
      return f;
    }
    if (kind == PrintArg::Float64) {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    return static_cast<double>(asInt());
  }
};
} // namespace

/// `format` with `values` substituted, printf's way (flags, width and
/// precision kept; integer conversions take long long).
static std::string substitute(const std::string &format, const std::vector<Value> &values) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    size_t j = i + 1;
    std::string spec = "%";
    while (j < format.size() && std::strchr("-+ #0123456789.", format[j]))
      spec += format[j++];
    while (j < format.size() && std::strchr("hlLqjzt", format[j]))
      ++j;
    if (j >= format.size()) {
      out += format.substr(i);
      break;
    }
    char conv = format[j];
    char buf[128];
    if (next >= values.size()) {
      out += format.substr(i, j + 1 - i);
    } else if (std::strchr("diuxXoc", conv)) {
      std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), values[next++].asInt());
      out += buf;
    } else if (std::strchr("fFeEgGaA", conv)) {
      std::snprintf(buf, sizeof buf, (spec + conv).c_str(), values[next++].asDouble());
      out += buf;
    } else {
      out += format.substr(i, j + 1 - i);
    }
    i = j;
  }
  return out;
}

bool tilec::vk::formatPrints(const Reflection &r, const uint32_t *words, size_t count, std::vector<std::string> &lines,
                             std::string &error) {
  if (r.printBinding == kNoParam)
    return true;
  if (count < kPrintHeaderWords || r.printRecordWords == 0) {
    error = "the print buffer is smaller than its header";
    return false;
  }
  uint64_t written = words[0], capacity = words[1];
  uint64_t fits = (count - kPrintHeaderWords) / r.printRecordWords;
  uint64_t n = std::min<uint64_t>(std::min(written, capacity), fits);
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t *rec = words + kPrintHeaderWords + i * r.printRecordWords;
    if (rec[0] >= r.prints.size()) {
      error = "print record " + std::to_string(i) + " names format " + std::to_string(rec[0]) + " of " +
              std::to_string(r.prints.size());
      return false;
    }
    const PrintFormat &f = r.prints[rec[0]];
    std::vector<Value> values;
    for (size_t a = 0; a < f.args.size(); ++a)
      values.push_back({f.args[a], rec[1 + 2 * a] | (static_cast<uint64_t>(rec[2 + 2 * a]) << 32)});
    std::string line = substitute(f.format, values);
    if (!line.empty() && line.back() == '\n')
      line.pop_back();
    lines.push_back(std::move(line));
  }
  if (written > n)
    lines.push_back("tilec: " + r.kernelName + ": " + std::to_string(written - n) + " of " + std::to_string(written) +
                    " T.print lines dropped: the print buffer holds " + std::to_string(n) + " records");
  return true;
}
