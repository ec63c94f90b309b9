//===- compare.cpp - Lavapipe vs host: inputs, runs, comparison -----------===//
//
// usage: CASE --header K.h --spv K.spv [--set NAME=VALUE]... [--range NAME=LO:HI]...
//             [--tol NAME=T]...
//   --set    a dynamic dimension or scalar (every one the kernel has)
//   --range  the uniform range of a tensor's random data (default: floats
//            [-1, 1], signed integers [-8, 8], unsigned [0, 15])
//   --tol    the tolerance of one output (default by dtype)
//   --skip   flat element indices of one output left unchecked (comma list):
//            values that legitimately differ between targets
// WebGPU: CASE --header K.h --wgsl K.wgsl --webgpu-cmd "COMMAND" [...as above]
//   reads the WebGPU header's reflection (<k>_wgpu_reflection), writes the
//   buffers, the uniform block and a job file (K.wgsl.run/job.json) and runs
//   `COMMAND job.json` (test/run/webgpu/wgsl-run.mjs under node or deno)
//   instead of lavapipe through the Vulkan runner.
//
//===----------------------------------------------------------------------===//
#include "compare.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

using namespace tilec::vk;

namespace {

int fail(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 2;
}

bool readFile(const std::string &path, std::string &data) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  data = ss.str();
  return true;
}

bool isFloat(const std::string &dtype) { return dtype.rfind("float", 0) == 0; }
bool isUnsigned(const std::string &dtype) { return dtype.rfind("uint", 0) == 0; }

/// fp16 bits <-> float (round to nearest even).
uint16_t toHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t absx = x & 0x7FFFFFFF;
  if (absx >= 0x7F800000)
    return static_cast<uint16_t>(sign | 0x7C00 | (absx > 0x7F800000 ? 0x200 : 0));
  if (absx >= 0x477FF000) // rounds to >= 65520: inf
    return static_cast<uint16_t>(sign | 0x7C00);
  if (absx < 0x38800000) { // subnormal or zero
    float f;
    std::memcpy(&f, &absx, 4);
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(f * 16777216.0f)));
  }
  uint32_t mant = absx & 0x7FFFFF, exp = (absx >> 23) - 112;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return static_cast<uint16_t>(sign | h);
}

float fromHalf(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  float v;
  if (exp == 0)
    v = std::ldexp(float(mant), -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(float(mant | 0x400), int(exp) - 25);
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  bits |= sign;
  std::memcpy(&v, &bits, 4);
  return v;
}

/// Element `i` of a tensor as a double.
double element(const std::vector<uint8_t> &data, const Param &p, size_t i) {
  const void *at = data.data() + i * (p.elementBits / 8);
  auto get = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, at, sizeof v);
    return static_cast<double>(v);
  };
  if (p.dtype == "float32")
    return get(float());
  if (p.dtype == "float64")
    return get(double());
  if (p.dtype == "float16") {
    uint16_t h;
    std::memcpy(&h, at, 2);
    return fromHalf(h);
  }
  bool u = isUnsigned(p.dtype);
  switch (p.elementBits) {
  case 8: return u ? get(uint8_t()) : get(int8_t());
  case 16: return u ? get(uint16_t()) : get(int16_t());
  case 32: return u ? get(uint32_t()) : get(int32_t());
  default: return u ? get(uint64_t()) : get(int64_t());
  }
}

/// Fills a tensor with uniform random values in [lo, hi] (integers rounded).
void fill(std::vector<uint8_t> &data, const Param &p, double lo, double hi, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> dist(lo, hi);
  size_t n = data.size() / (p.elementBits / 8);
  for (size_t i = 0; i < n; ++i) {
    double v = dist(rng);
    void *at = data.data() + i * (p.elementBits / 8);
    auto put = [&](auto x) { std::memcpy(at, &x, sizeof x); };
    if (p.dtype == "float32")
      put(static_cast<float>(v));
    else if (p.dtype == "float64")
      put(v);
    else if (p.dtype == "float16")
      put(toHalf(static_cast<float>(v)));
    else {
      int64_t k = static_cast<int64_t>(std::llround(v));
      switch (p.elementBits) {
      case 8: put(static_cast<int8_t>(k)); break;
      case 16: put(static_cast<int16_t>(k)); break;
      case 32: put(static_cast<int32_t>(k)); break;
      default: put(k); break;
      }
    }
  }
}

bool splitAssign(const std::string &text, std::string &name, std::string &value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos)
    return false;
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

/// Compares every written tensor element by element; 0 when all agree.
int compareOutputs(const Reflection &r, const std::vector<std::vector<uint8_t>> &vkData,
                   const std::vector<std::vector<uint8_t>> &hostData, const std::map<std::string, std::string> &tols,
                   const std::map<std::string, std::string> &skips, const char *target) {
  int failures = 0;
  for (const Binding &b : r.bindings) {
    if (b.readOnly)
      continue;
    const Param &p = r.params[b.param];
    double tol = p.dtype == "float16" ? 1e-2 : isFloat(p.dtype) ? 1e-4 : 0;
    if (auto it = tols.find(p.name); it != tols.end())
      tol = std::stod(it->second);
    std::vector<bool> skip(vkData[b.param].size() / (p.elementBits / 8), false);
    if (auto it = skips.find(p.name); it != skips.end()) {
      std::stringstream list(it->second);
      for (std::string item; std::getline(list, item, ',');)
        if (size_t k = std::stoull(item); k < skip.size())
          skip[k] = true;
    }
    size_t n = skip.size(), bad = 0, worst = 0;
    double worstErr = 0;
    for (size_t i = 0; i < n; ++i) {
      if (skip[i])
        continue;
      double got = element(vkData[b.param], p, i), want = element(hostData[b.param], p, i);
      double err = std::fabs(got - want);
      bool ok = err <= tol * (1 + std::fabs(want)) || (std::isnan(got) && std::isnan(want));
      if (!ok && bad++ == 0)
        worst = i;
      if (!ok && err > worstErr)
        worstErr = err, worst = i;
    }
    if (bad) {
      ++failures;
      std::printf("FAIL %s: %zu of %zu elements differ beyond %g; worst [%zu] %s %.9g host %.9g\n", p.name.c_str(),
                  bad, n, tol, worst, target, element(vkData[b.param], p, worst), element(hostData[b.param], p, worst));
    } else {
      std::printf("ok %s: %zu elements within %g\n", p.name.c_str(), n, tol);
    }
  }
  return failures ? 1 : 0;
}

/// Writes `data` to `path`.
bool writeFile(const std::string &path, const void *data, size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
  return static_cast<bool>(out);
}

/// Runs the kernel through WebGPU: the tensors, the uniform block (the
/// push-constant layout, zero-padded to 16 bytes) and a job file go to
/// `<wgsl>.run/`, `command job.json` runs it and overwrites the written
/// tensors' files, which are read back into `args`.
bool runWebGPU(const std::string &wgsl, const std::string &command, const Reflection &r, std::vector<Arg> &args,
               std::array<uint32_t, 3> &grid, std::string &error) {
  std::string dir = wgsl + ".run";
  if (std::system(("mkdir -p '" + dir + "'").c_str()) != 0) {
    error = "cannot create " + dir;
    return false;
  }
  if (!Runner::computeGrid(r, args, grid, error))
    return false;
  std::ostringstream job;
  job << "{\"wgsl\": \"" << wgsl << "\", \"grid\": [" << grid[0] << ", " << grid[1] << ", " << grid[2] << "]";
  if (r.pushConstantSize) {
    std::vector<unsigned char> block((r.pushConstantSize + 15) / 16 * 16, 0);
    for (const PushField &f : r.pushFields) {
      const Param &p = r.params[f.param];
      const Arg &a = args[f.param];
      bool fromFloat = p.kind == ParamKind::Scalar && isFloat(p.dtype);
      unsigned char *at = block.data() + f.offset;
      if (f.type == FieldType::Float32) {
        float v = fromFloat ? static_cast<float>(a.floatValue) : static_cast<float>(a.intValue);
        std::memcpy(at, &v, 4);
      } else if (f.type == FieldType::Int32 || f.type == FieldType::UInt32) {
        uint32_t v = static_cast<uint32_t>(fromFloat ? static_cast<int64_t>(a.floatValue) : a.intValue);
        std::memcpy(at, &v, 4);
      } else {
        error = "parameter '" + p.name + "' has a uniform field type the webgpu target does not use";
        return false;
      }
    }
    if (!writeFile(dir + "/uniform.bin", block.data(), block.size())) {
      error = "cannot write " + dir + "/uniform.bin";
      return false;
    }
    job << ", \"uniform\": {\"binding\": " << r.bindings.size() << ", \"path\": \"" << dir << "/uniform.bin\"}";
  } else {
    job << ", \"uniform\": null";
  }
  job << ", \"buffers\": [";
  for (const Binding &b : r.bindings) {
    std::string path = dir + "/" + r.params[b.param].name + ".bin";
    if (!writeFile(path, args[b.param].data, args[b.param].bytes)) {
      error = "cannot write " + path;
      return false;
    }
    job << (&b == r.bindings.data() ? "" : ", ") << "{\"binding\": " << b.binding << ", \"path\": \"" << path
        << "\", \"readOnly\": " << (b.readOnly ? "true" : "false") << "}";
  }
  job << "]}\n";
  std::string jobPath = dir + "/job.json";
  std::string text = job.str();
  if (!writeFile(jobPath, text.data(), text.size())) {
    error = "cannot write " + jobPath;
    return false;
  }
  std::fflush(stdout);
  int status = std::system((command + " '" + jobPath + "'").c_str());
  if (status != 0) {
    error = "'" + command + "' failed (status " + std::to_string(status) + ")";
    return false;
  }
  for (const Binding &b : r.bindings) {
    if (b.readOnly)
      continue;
    std::string data, path = dir + "/" + r.params[b.param].name + ".bin";
    if (!readFile(path, data) || data.size() != args[b.param].bytes) {
      error = "cannot read back " + path;
      return false;
    }
    std::memcpy(const_cast<void *>(args[b.param].data), data.data(), data.size());
  }
  return true;
}

} // namespace

int vkcompare::runCompare(int argc, char **argv, const HostCall &host) {
  std::string headerPath, spvPath, wgslPath, webgpuCommand;
  std::map<std::string, std::string> sets, ranges, tols, skips;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    std::string name, value;
    if (a == "--header")
      headerPath = next();
    else if (a == "--spv")
      spvPath = next();
    else if (a == "--wgsl")
      wgslPath = next();
    else if (a == "--webgpu-cmd")
      webgpuCommand = next();
    else if ((a == "--set" || a == "--range" || a == "--tol" || a == "--skip") && splitAssign(next(), name, value))
      (a == "--set" ? sets : a == "--range" ? ranges : a == "--tol" ? tols : skips)[name] = value;
    else
      return fail("bad argument '" + a + "'");
  }
  std::string header, spvBytes;
  bool webgpu = !wgslPath.empty();
  if (!readFile(headerPath, header))
    return fail("cannot read header '" + headerPath + "'");
  if (webgpu && webgpuCommand.empty())
    return fail("--wgsl needs --webgpu-cmd");
  if (!webgpu && (!readFile(spvPath, spvBytes) || spvBytes.size() % 4 != 0))
    return fail("cannot read SPIR-V '" + spvPath + "'");
  // A WebGPU header carries the same reflection words as <kernel>_wgpu_reflection.
  if (webgpu)
    for (size_t at = 0; (at = header.find("_wgpu_reflection[]", at)) != std::string::npos;)
      header.replace(at, 18, "_vk_reflection[]");
  std::vector<std::string> kernels = listHeaderKernels(header);
  if (kernels.size() != 1)
    return fail("the header must describe exactly one kernel");
  std::vector<uint32_t> words;
  std::string error;
  if (!extractWordArray(header, kernels[0] + "_vk_reflection", words, error))
    return fail(error);
  Reflection r;
  if (!decodeReflection(words.data(), words.size(), r, error))
    return fail(error);
  std::vector<uint32_t> spirv(spvBytes.size() / 4);
  std::memcpy(spirv.data(), spvBytes.data(), spvBytes.size());

  // Parameter values, then tensors with the same random data for both runs.
  std::vector<int64_t> values(r.params.size(), 0);
  std::vector<Arg> vkArgs(r.params.size()), hostArgs(r.params.size());
  for (size_t i = 0; i < r.params.size(); ++i) {
    const Param &p = r.params[i];
    if (p.kind == ParamKind::Tensor)
      continue;
    auto it = sets.find(p.name);
    if (it == sets.end())
      return fail("give --set " + p.name + "=VALUE");
    Arg a;
    if (isFloat(p.dtype))
      a.floatValue = std::stod(it->second);
    else
      a.intValue = a.floatValue = std::stoll(it->second);
    values[i] = a.intValue;
    vkArgs[i] = hostArgs[i] = a;
  }
  std::mt19937_64 rng(20261130);
  std::vector<std::vector<uint8_t>> vkData(r.params.size()), hostData(r.params.size());
  for (size_t i = 0; i < r.params.size(); ++i) {
    const Param &p = r.params[i];
    if (p.kind != ParamKind::Tensor)
      continue;
    if (p.elementBits % 8 != 0)
      return fail("tensor '" + p.name + "' has " + std::to_string(p.elementBits) + "-bit elements");
    int64_t n = elementCount(p, values);
    double lo = isFloat(p.dtype) ? -1 : isUnsigned(p.dtype) ? 0 : -8, hi = isFloat(p.dtype) ? 1 : isUnsigned(p.dtype) ? 15 : 8;
    if (auto it = ranges.find(p.name); it != ranges.end()) {
      size_t colon = it->second.find(':');
      lo = std::stod(it->second.substr(0, colon));
      hi = std::stod(it->second.substr(colon + 1));
    }
    vkData[i].resize(static_cast<size_t>(n) * (p.elementBits / 8));
    fill(vkData[i], p, lo, hi, rng);
    hostData[i] = vkData[i];
    vkArgs[i].data = vkData[i].data();
    hostArgs[i].data = hostData[i].data();
    vkArgs[i].bytes = hostArgs[i].bytes = vkData[i].size();
  }

  if (webgpu) {
    std::array<uint32_t, 3> grid{};
    if (!runWebGPU(wgslPath, webgpuCommand, r, vkArgs, grid, error))
      return fail("WebGPU run: " + error);
    int status = host(hostArgs);
    if (status != 0)
      return fail("host launcher returned " + std::to_string(status));
    return compareOutputs(r, vkData, hostData, tols, skips, "webgpu");
  }

  // Lavapipe with the validation layer required, then the host.
  RunnerOptions options;
  options.requireValidation = true;
  std::unique_ptr<Runner> runner = Runner::create(options, error);
  if (!runner)
    return fail(error);
  RunInfo info;
  if (!runner->run(spirv.data(), spirv.size(), r, vkArgs, error, &info))
    return fail("Vulkan run: " + error);
  for (const std::string &m : runner->validationMessages())
    std::fprintf(stderr, "validation: %s\n", m.c_str());
  if (!runner->validationMessages().empty())
    return fail("the validation layer reported problems");
  int status = host(hostArgs);
  if (status != 0)
    return fail("host launcher returned " + std::to_string(status));
  std::printf("%s on %s: grid %ux%ux%u, %.1f ms\n", r.kernelName.c_str(), runner->deviceName().c_str(), info.grid[0],
              info.grid[1], info.grid[2], info.milliseconds);

  return compareOutputs(r, vkData, hostData, tols, skips, "vulkan");
}
