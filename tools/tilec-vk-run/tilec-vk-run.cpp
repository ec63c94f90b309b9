//===- tilec-vk-run.cpp - Run a tilec Vulkan kernel from its header -------===//
//
// Loads a kernel's reflection (and SPIR-V, unless --spv names a file) from
// the header tilec wrote, fills the tensors, dispatches on a Vulkan device
// (lavapipe by default) with the validation layer on, and prints or saves
// the results. Everything it knows about the kernel comes from the header.
//
//===----------------------------------------------------------------------===//
#include "tilec/Runtime/Vulkan/Runner.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

using namespace tilec::vk;

static const char *kUsage =
    "usage: tilec-vk-run HEADER [options]\n"
    "  --kernel NAME         the kernel to run (default: the header's only kernel)\n"
    "  --spv FILE            SPIR-V binary to run instead of the header's words\n"
    "  --set NAME=VALUE      a dynamic dimension or scalar parameter\n"
    "  --input NAME=SOURCE   tensor contents: FILE (raw bytes), iota, fill:V, random[:SEED] (default zeros)\n"
    "  --output NAME=FILE    write a tensor's raw bytes after the run\n"
    "  --print NAME          print a tensor after the run (one row per line)\n"
    "  --describe            print the reflection and exit\n"
    "  --device SUBSTRING    pick the first device whose name contains SUBSTRING\n"
    "  --no-validation       do not enable the Khronos validation layer\n"
    "  --require-validation  fail when the validation layer is not installed\n"
    "  --print-capacity N    T.print records the print buffer holds (default 65536; more are counted as dropped)\n"
    "T.print lines go to stdout after the run, in the CUDA target's printf format.\n";

static int fail(const std::string &message) {
  std::fprintf(stderr, "tilec-vk-run: error: %s\n", message.c_str());
  return 1;
}

static bool readFile(const std::string &path, std::string &data) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  data = ss.str();
  return true;
}

static bool isFloat(const std::string &dtype) { return dtype.rfind("float", 0) == 0 || dtype == "bfloat16"; }

static uint16_t toHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int e = static_cast<int>((x >> 23) & 0xFF) - 127 + 15;
  uint32_t man = x & 0x7FFFFF;
  if (((x >> 23) & 0xFF) == 0xFF)
    return static_cast<uint16_t>(sign | 0x7C00 | (man ? 0x200 : 0));
  if (e >= 31)
    return static_cast<uint16_t>(sign | 0x7C00);
  if (e <= 0)
    return static_cast<uint16_t>(sign); // tiny values flush to zero: inputs here are small integers
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (man >> 13), rest = man & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

static double fromHalf(uint16_t h) {
  int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}

/// Stores `v` as element `i` of a tensor of `dtype`.
static bool storeElement(const std::string &dtype, unsigned char *base, int64_t i, double v) {
#define STORE(T) { T t = static_cast<T>(v); std::memcpy(base + i * sizeof(T), &t, sizeof(T)); return true; }
  if (dtype == "float32") STORE(float)
  if (dtype == "float64") STORE(double)
  if (dtype == "int8") STORE(int8_t)
  if (dtype == "uint8" || dtype == "bool") STORE(uint8_t)
  if (dtype == "int16") STORE(int16_t)
  if (dtype == "int32") STORE(int32_t)
  if (dtype == "uint32") STORE(uint32_t)
  if (dtype == "int64") STORE(int64_t)
#undef STORE
  if (dtype == "float16") {
    uint16_t h = toHalf(static_cast<float>(v));
    std::memcpy(base + i * 2, &h, 2);
    return true;
  }
  return false;
}

static bool loadElement(const std::string &dtype, const unsigned char *base, int64_t i, double &v) {
#define LOAD(T) { T t; std::memcpy(&t, base + i * sizeof(T), sizeof(T)); v = static_cast<double>(t); return true; }
  if (dtype == "float32") LOAD(float)
  if (dtype == "float64") LOAD(double)
  if (dtype == "int8") LOAD(int8_t)
  if (dtype == "uint8" || dtype == "bool") LOAD(uint8_t)
  if (dtype == "int16") LOAD(int16_t)
  if (dtype == "int32") LOAD(int32_t)
  if (dtype == "uint32") LOAD(uint32_t)
  if (dtype == "int64") LOAD(int64_t)
#undef LOAD
  if (dtype == "float16") {
    uint16_t h;
    std::memcpy(&h, base + i * 2, 2);
    v = fromHalf(h);
    return true;
  }
  return false;
}

static std::string describeShape(const Reflection &r, const Param &p) {
  std::string s = "(";
  for (size_t d = 0; d < p.shape.size(); ++d)
    s += (d ? ", " : "") +
         (p.shape[d].param == kNoParam ? std::to_string(p.shape[d].value) : r.params[p.shape[d].param].name);
  return s + (p.shape.size() == 1 ? ",)" : ")");
}

static void describe(const Reflection &r) {
  std::printf("kernel %s entry %s workgroup %ux%ux%u\n", r.kernelName.c_str(), r.entryPoint.c_str(),
              r.workgroupSize[0], r.workgroupSize[1], r.workgroupSize[2]);
  for (size_t i = 0; i < r.params.size(); ++i) {
    const Param &p = r.params[i];
    if (p.kind == ParamKind::Tensor) {
      const Binding &b = r.bindings[p.slot];
      std::printf("param %zu %s: %s tensor %s set %u binding %u %s\n", i, p.name.c_str(), p.dtype.c_str(),
                  describeShape(r, p).c_str(), b.set, b.binding, b.readOnly ? "read-only" : "read-write");
    } else {
      std::printf("param %zu %s: %s %s", i, p.name.c_str(), p.dtype.c_str(),
                  p.kind == ParamKind::DynamicDim ? "dynamic dimension" : "scalar");
      if (p.slot != kNoParam)
        std::printf(" push offset %u", r.pushFields[p.slot].offset);
      std::printf("\n");
    }
  }
  std::printf("push constants %u bytes\n", r.pushConstantSize);
  if (r.printBinding != kNoParam)
    std::printf("print buffer set 0 binding %u, %u words per record, %zu formats\n", r.printBinding, r.printRecordWords,
                r.prints.size());
}

int main(int argc, char **argv) {
  std::string headerPath, kernel, spvPath, device;
  std::map<std::string, std::string> sets, inputs, outputs;
  std::vector<std::string> prints;
  bool describeOnly = false;
  RunnerOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    auto pair = [&](std::map<std::string, std::string> &out) {
      std::string v;
      if (!value(v) || v.find('=') == std::string::npos)
        return false;
      out[v.substr(0, v.find('='))] = v.substr(v.find('=') + 1);
      return true;
    };
    std::string v;
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--kernel") {
      if (!value(kernel))
        return fail("--kernel needs a name");
    } else if (a == "--spv") {
      if (!value(spvPath))
        return fail("--spv needs a file");
    } else if (a == "--set") {
      if (!pair(sets))
        return fail("--set needs NAME=VALUE");
    } else if (a == "--input") {
      if (!pair(inputs))
        return fail("--input needs NAME=SOURCE");
    } else if (a == "--output") {
      if (!pair(outputs))
        return fail("--output needs NAME=FILE");
    } else if (a == "--print") {
      if (!value(v))
        return fail("--print needs a tensor name");
      prints.push_back(v);
    } else if (a == "--describe") {
      describeOnly = true;
    } else if (a == "--device") {
      if (!value(options.deviceFilter))
        return fail("--device needs a name");
    } else if (a == "--print-capacity") {
      if (!value(v) || v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 9)
        return fail("--print-capacity needs a number of records");
      options.printCapacity = static_cast<uint32_t>(std::stoul(v));
    } else if (a == "--no-validation") {
      options.validation = false;
    } else if (a == "--require-validation") {
      options.requireValidation = true;
    } else if (!a.empty() && a[0] == '-') {
      return fail("unknown option '" + a + "'\n" + kUsage);
    } else if (headerPath.empty()) {
      headerPath = a;
    } else {
      return fail("more than one header given");
    }
  }
  if (headerPath.empty())
    return fail(std::string("no header given\n") + kUsage);

  // Reflection and SPIR-V from the header (or --spv).
  std::string text, error;
  if (!readFile(headerPath, text))
    return fail("cannot read '" + headerPath + "'");
  std::vector<std::string> kernels = listHeaderKernels(text);
  if (kernels.empty())
    return fail("'" + headerPath + "' holds no tilec Vulkan kernel");
  if (kernel.empty()) {
    if (kernels.size() > 1)
      return fail("the header holds several kernels; pick one with --kernel");
    kernel = kernels.front();
  }
  std::vector<uint32_t> words, spirv;
  Reflection r;
  if (!extractWordArray(text, kernel + "_vk_reflection", words, error) ||
      !decodeReflection(words.data(), words.size(), r, error))
    return fail(error);
  if (describeOnly) {
    describe(r);
    return 0;
  }
  if (!spvPath.empty()) {
    std::string bytes;
    if (!readFile(spvPath, bytes) || bytes.size() % 4 != 0)
      return fail("cannot read SPIR-V from '" + spvPath + "'");
    spirv.resize(bytes.size() / 4);
    std::memcpy(spirv.data(), bytes.data(), bytes.size());
  } else if (!extractWordArray(text, kernel + "_vk_spirv", spirv, error)) {
    return fail(error);
  }

  // Arguments: dims and scalars first (tensor sizes depend on them), then tensors.
  std::vector<Arg> args(r.params.size());
  std::vector<int64_t> values(r.params.size(), 0);
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < r.params.size(); ++i) {
    const Param &p = r.params[i];
    index[p.name] = i;
    if (p.kind == ParamKind::Tensor)
      continue;
    auto it = sets.find(p.name);
    if (it == sets.end())
      return fail("missing --set " + p.name + "=VALUE");
    char *end = nullptr;
    if (p.kind == ParamKind::Scalar && isFloat(p.dtype))
      args[i].floatValue = std::strtod(it->second.c_str(), &end);
    else
      args[i].intValue = values[i] = std::strtoll(it->second.c_str(), &end, 0);
    if (!end || *end)
      return fail("bad value '" + it->second + "' for " + p.name);
  }
  for (const auto &names : {sets, inputs, outputs})
    for (const auto &kv : names)
      if (!index.count(kv.first))
        return fail("kernel '" + kernel + "' has no parameter '" + kv.first + "'");
  std::vector<std::vector<unsigned char>> storage(r.params.size());
  for (size_t i = 0; i < r.params.size(); ++i) {
    const Param &p = r.params[i];
    if (p.kind != ParamKind::Tensor)
      continue;
    int64_t n = elementCount(p, values);
    std::vector<unsigned char> &bytes = storage[i];
    bytes.assign((static_cast<uint64_t>(n) * p.elementBits + 7) / 8, 0);
    auto it = inputs.find(p.name);
    if (it != inputs.end()) {
      const std::string &src = it->second;
      uint32_t seed = 1;
      bool random = src == "random" || src.rfind("random:", 0) == 0;
      if (random && src.size() > 7)
        seed = static_cast<uint32_t>(std::strtoul(src.c_str() + 7, nullptr, 0));
      if (src == "iota" || random || src.rfind("fill:", 0) == 0) {
        double fill = src.rfind("fill:", 0) == 0 ? std::strtod(src.c_str() + 5, nullptr) : 0;
        for (int64_t e = 0; e < n; ++e) {
          double v = fill;
          if (src == "iota")
            v = static_cast<double>(e);
          if (random) {
            seed = seed * 1664525u + 1013904223u;
            v = isFloat(p.dtype) ? static_cast<double>((seed >> 8) % 2001) / 1000.0 - 1.0
                                 : static_cast<double>((seed >> 8) % 17) - 8;
          }
          if (!storeElement(p.dtype, bytes.data(), e, v))
            return fail("cannot generate values of dtype " + p.dtype + "; give a file");
        }
      } else {
        std::string data;
        if (!readFile(src, data))
          return fail("cannot read '" + src + "'");
        if (data.size() != bytes.size())
          return fail("'" + src + "' has " + std::to_string(data.size()) + " bytes; tensor '" + p.name + "' needs " +
                      std::to_string(bytes.size()));
        std::memcpy(bytes.data(), data.data(), data.size());
      }
    }
    args[i].data = bytes.data();
    args[i].bytes = bytes.size();
  }

  std::unique_ptr<Runner> runner = Runner::create(options, error);
  if (!runner)
    return fail(error);
  RunInfo info;
  bool ok = runner->run(spirv.data(), spirv.size(), r, args, error, &info);
  for (const std::string &m : runner->validationMessages())
    std::fprintf(stderr, "tilec-vk-run: validation %s\n", m.c_str());
  if (!ok)
    return fail(error);
  std::fprintf(stderr, "tilec-vk-run: %s on %s%s, grid %ux%ux%u, %.3f ms\n", kernel.c_str(),
               runner->deviceName().c_str(), runner->validationEnabled() ? " (validation on)" : "", info.grid[0],
               info.grid[1], info.grid[2], info.milliseconds);

  for (const auto &kv : outputs) {
    size_t i = index[kv.first];
    std::ofstream out(kv.second, std::ios::binary);
    out.write(reinterpret_cast<const char *>(storage[i].data()), static_cast<std::streamsize>(storage[i].size()));
    if (!out)
      return fail("cannot write '" + kv.second + "'");
  }
  for (const std::string &name : prints) {
    auto it = index.find(name);
    if (it == index.end() || r.params[it->second].kind != ParamKind::Tensor)
      return fail("no tensor '" + name + "' to print");
    const Param &p = r.params[it->second];
    int64_t n = elementCount(p, values);
    int64_t row = p.shape.empty() ? 1
                                  : (p.shape.back().param == kNoParam ? p.shape.back().value
                                                                      : values[p.shape.back().param]);
    std::printf("%s:", name.c_str());
    for (int64_t e = 0; e < n; ++e) {
      double v;
      if (!loadElement(p.dtype, storage[it->second].data(), e, v))
        return fail("cannot print values of dtype " + p.dtype);
      std::printf("%s%g", (row > 0 && e % row == 0) ? "\n  " : " ", v);
    }
    std::printf("\n");
  }
  return 0;
}
