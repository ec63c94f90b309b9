//===- compare.h - Run one kernel on the Ascend C CPU model and on the host -*- C++ -*-===//
//
// usage: CASE [--set NAME=VALUE]... [--range NAME=LO:HI]... [--tol NAME=T]...
//             [--skip NAME=i,j,...]... [--block-dim N]
//   --set        a dynamic dimension or scalar (every one the kernel has)
//   --range      the uniform range of a tensor's random data (default: floats
//                [-1, 1], signed integers [-8, 8], unsigned [0, 15])
//   --tol        the tolerance of one tensor (default by dtype: fp16 1e-2,
//                fp32/fp64 1e-4, relative to 1 + |host value|; integers exact)
//   --skip       flat element indices of one tensor left unchecked
//   --block-dim  how many AI cores the model runs (default 3; every block
//                count must be right, since cores stride over the grid)
// Everything about the kernel comes from the Ascend header's parameter table
// (<k>_ascend_params). Every tensor gets the same deterministic random data
// for both runs, with 64 guard bytes on each side that must stay untouched;
// then every tensor (inputs too) is compared element by element.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TEST_RUN_ASCEND_COMPARE_H
#define TILEC_TEST_RUN_ASCEND_COMPARE_H

#include "ascendc_cpu.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ascendcmp {

constexpr size_t kGuard = 64;

struct Arg {
  void *data = nullptr;  ///< tensors: the first element (after the guard)
  double floatValue = 0; ///< float scalars
  int64_t intValue = 0;  ///< dims and integer scalars
};

template <class T> T argAs(const Arg &a) {
  if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<T>(a.data);
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(a.floatValue);
  else
    return static_cast<T>(a.intValue);
}

template <class R, class... A, size_t... I>
R callImpl(R (*fn)(A...), const std::vector<Arg> &args, std::index_sequence<I...>) {
  return fn(argAs<A>(args[I])...);
}

inline int fail(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 2;
}

inline bool isFloat(const std::string &d) { return d.rfind("float", 0) == 0; }
inline bool isUnsigned(const std::string &d) { return d.rfind("uint", 0) == 0 || d == "bool"; }
inline size_t dtypeBytes(const std::string &d) {
  if (d == "float16" || d == "bfloat16" || d == "int16" || d == "uint16")
    return 2;
  if (d == "float32" || d == "int32" || d == "uint32")
    return 4;
  if (d == "float64" || d == "int64" || d == "uint64")
    return 8;
  return 1;
}

inline double element(const uint8_t *at, const std::string &d) {
  auto get = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, at, sizeof v);
    return static_cast<double>(v);
  };
  if (d == "float16")
    return get(_Float16());
  if (d == "float32")
    return get(float());
  if (d == "float64")
    return get(double());
  if (d == "int8")
    return get(int8_t());
  if (d == "uint8" || d == "bool")
    return get(uint8_t());
  if (d == "int16")
    return get(int16_t());
  if (d == "uint16")
    return get(uint16_t());
  if (d == "int32")
    return get(int32_t());
  if (d == "uint32")
    return get(uint32_t());
  if (d == "uint64")
    return get(uint64_t());
  return get(int64_t());
}

inline void store(uint8_t *at, const std::string &d, double v) {
  auto put = [&](auto x) { std::memcpy(at, &x, sizeof x); };
  if (d == "float16")
    put(static_cast<_Float16>(v));
  else if (d == "float32")
    put(static_cast<float>(v));
  else if (d == "float64")
    put(v);
  else {
    int64_t k = std::llround(v);
    switch (dtypeBytes(d)) {
    case 1: put(static_cast<int8_t>(k)); break;
    case 2: put(static_cast<int16_t>(k)); break;
    case 4: put(static_cast<int32_t>(k)); break;
    default: put(k); break;
    }
  }
}

template <class... KA, size_t... I>
void launchImpl(uint32_t blockDim, void (*kernel)(KA...), const std::vector<Arg> &args, std::index_sequence<I...>) {
  ascendc_cpu::launch(blockDim, kernel, argAs<KA>(args[I])...);
}

/// Runs `host` (the host target's launcher) and `kernel` (the Ascend C
/// kernel on the CPU model) on the same data and compares. 0 when equal.
template <class HR, class... HA, class... KA>
int run(int argc, char **argv, HR (*host)(HA...), void (*kernel)(KA...), const tilec_ascend_param *params,
        int count) {
  static_assert(sizeof...(HA) == sizeof...(KA), "host launcher and Ascend kernel take the same arguments");
  std::map<std::string, std::string> sets, ranges, tols, skips;
  uint32_t blockDim = 3;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i], v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--block-dim") {
      blockDim = static_cast<uint32_t>(std::stoul(v));
      ++i;
      continue;
    }
    size_t eq = v.find('=');
    if ((a != "--set" && a != "--range" && a != "--tol" && a != "--skip") || eq == std::string::npos)
      return fail("bad argument '" + a + "'");
    (a == "--set" ? sets : a == "--range" ? ranges : a == "--tol" ? tols : skips)[v.substr(0, eq)] = v.substr(eq + 1);
    ++i;
  }
  if (count != static_cast<int>(sizeof...(HA)))
    return fail("the parameter table and the launcher disagree on the argument count");

  std::vector<Arg> args(count);
  for (int i = 0; i < count; ++i) {
    const tilec_ascend_param &p = params[i];
    if (p.kind == 0)
      continue;
    auto it = sets.find(p.name);
    if (it == sets.end())
      return fail(std::string("give --set ") + p.name + "=VALUE");
    if (isFloat(p.dtype))
      args[i].floatValue = std::stod(it->second);
    else
      args[i].intValue = std::stoll(it->second), args[i].floatValue = static_cast<double>(args[i].intValue);
  }
  std::mt19937_64 rng(20261130);
  std::vector<std::vector<uint8_t>> hostData(count), modelData(count);
  std::vector<size_t> elements(count, 0);
  for (int i = 0; i < count; ++i) {
    const tilec_ascend_param &p = params[i];
    if (p.kind != 0)
      continue;
    int64_t n = 1;
    for (int d = 0; d < p.rank; ++d)
      n *= p.dims[d] >= 0 ? p.dims[d] : args[-1 - p.dims[d]].intValue;
    elements[i] = static_cast<size_t>(n);
    size_t bytes = elements[i] * dtypeBytes(p.dtype);
    hostData[i].assign(bytes + 2 * kGuard, 0xA5);
    double lo = isFloat(p.dtype) ? -1 : isUnsigned(p.dtype) ? 0 : -8, hi = isFloat(p.dtype) ? 1 : isUnsigned(p.dtype) ? 15 : 8;
    if (auto it = ranges.find(p.name); it != ranges.end()) {
      size_t colon = it->second.find(':');
      lo = std::stod(it->second.substr(0, colon));
      hi = std::stod(it->second.substr(colon + 1));
    }
    std::uniform_real_distribution<double> dist(lo, hi);
    for (size_t e = 0; e < elements[i]; ++e)
      store(hostData[i].data() + kGuard + e * dtypeBytes(p.dtype), p.dtype, dist(rng));
    modelData[i] = hostData[i];
  }
  std::vector<Arg> hostArgs = args, modelArgs = args;
  for (int i = 0; i < count; ++i)
    if (params[i].kind == 0) {
      hostArgs[i].data = hostData[i].data() + kGuard;
      modelArgs[i].data = modelData[i].data() + kGuard;
    }
  if constexpr (!std::is_void_v<HR>) {
    auto status = callImpl(host, hostArgs, std::index_sequence_for<HA...>{});
    if (status != 0)
      return fail("host launcher returned " + std::to_string(static_cast<int>(status)));
  }
  launchImpl(blockDim, kernel, modelArgs, std::index_sequence_for<KA...>{});
  std::printf("%s: %u AI cores\n", argv[0], blockDim);

  int failures = 0;
  for (int i = 0; i < count; ++i) {
    const tilec_ascend_param &p = params[i];
    if (p.kind != 0)
      continue;
    size_t eb = dtypeBytes(p.dtype), bytes = elements[i] * eb;
    for (size_t g = 0; g < kGuard; ++g)
      if (modelData[i][g] != 0xA5 || modelData[i][kGuard + bytes + g] != 0xA5) {
        std::printf("FAIL %s: the kernel wrote outside the tensor (guard byte %s)\n", p.name,
                    modelData[i][g] != 0xA5 ? "before" : "after");
        ++failures;
        break;
      }
    double tol = p.dtype == std::string("float16") ? 1e-2 : isFloat(p.dtype) ? 1e-4 : 0;
    if (auto it = tols.find(p.name); it != tols.end())
      tol = std::stod(it->second);
    std::vector<bool> skip(elements[i], false);
    if (auto it = skips.find(p.name); it != skips.end()) {
      std::stringstream list(it->second);
      for (std::string item; std::getline(list, item, ',');)
        if (size_t k = std::stoull(item); k < skip.size())
          skip[k] = true;
    }
    size_t bad = 0, worst = 0;
    double worstErr = -1;
    for (size_t e = 0; e < elements[i]; ++e) {
      if (skip[e])
        continue;
      double got = element(modelData[i].data() + kGuard + e * eb, p.dtype);
      double want = element(hostData[i].data() + kGuard + e * eb, p.dtype);
      double err = std::fabs(got - want);
      bool ok = err <= tol * (1 + std::fabs(want)) || (std::isnan(got) && std::isnan(want));
      if (!ok) {
        ++bad;
        if (!(err <= worstErr))
          worstErr = err, worst = e;
      }
    }
    if (bad) {
      ++failures;
      std::printf("FAIL %s: %zu of %zu elements differ beyond %g; worst [%zu] ascend %.9g host %.9g\n", p.name, bad,
                  elements[i], tol, worst, element(modelData[i].data() + kGuard + worst * eb, p.dtype),
                  element(hostData[i].data() + kGuard + worst * eb, p.dtype));
    } else {
      std::printf("ok %s: %zu elements within %g\n", p.name, elements[i], tol);
    }
  }
  return failures ? 1 : 0;
}

} // namespace ascendcmp

#endif // TILEC_TEST_RUN_ASCEND_COMPARE_H
