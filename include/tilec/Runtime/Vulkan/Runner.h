//===- Runner.h - Launch a tilec Vulkan kernel on any Vulkan 1.1 device -*- C++ -*-===//
//
// A small compute runner: one instance (with the Khronos validation layer when
// asked and present), one device (lavapipe or the first match of a name
// filter), a storage buffer per tensor binding, push constants for dynamic
// dimensions and scalars, a dispatch of the grid the reflection computes, and
// a read-back of every written tensor. Nothing in it knows a kernel: all it
// uses is the SPIR-V words and the Reflection.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_RUNTIME_VULKAN_RUNNER_H
#define TILEC_RUNTIME_VULKAN_RUNNER_H

#include "tilec/Runtime/Vulkan/Reflection.h"

#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace tilec::vk {

struct RunnerOptions {
  bool validation = true;         ///< enable VK_LAYER_KHRONOS_validation when installed
  bool requireValidation = false; ///< fail when the layer is missing instead of going on without it
  std::string deviceFilter;       ///< a substring of the device name; empty: prefer a CPU device, else the first
  /// T.print: records the print buffer holds per run (more are counted and
  /// reported as dropped), and where the lines go after each run (nullptr:
  /// only into RunInfo::prints).
  uint32_t printCapacity = 65536;
  std::FILE *printStream = stdout;
};

/// One launcher argument, in the kernel's parameter order.
struct Arg {
  void *data = nullptr;   ///< tensors: host memory, read before and (when written) written after the run
  size_t bytes = 0;       ///< tensors: the size of `data`, checked against the shape
  int64_t intValue = 0;   ///< dynamic dimensions and integer scalars
  double floatValue = 0;  ///< floating-point scalars
};

/// What one run did.
struct RunInfo {
  std::array<uint32_t, 3> grid{0, 0, 0};
  double milliseconds = 0;         ///< wall time of the submit and wait
  std::vector<std::string> prints; ///< the T.print lines of the run (formatPrints), in record order
};

class Runner {
public:
  /// Creates the instance and device; nullptr and `error` on failure.
  static std::unique_ptr<Runner> create(const RunnerOptions &options, std::string &error);
  ~Runner();
  Runner(const Runner &) = delete;
  Runner &operator=(const Runner &) = delete;

  /// The device's name as the driver reports it.
  const std::string &deviceName() const;
  /// Whether the validation layer is active.
  bool validationEnabled() const;
  /// Validation-layer errors and warnings reported so far.
  const std::vector<std::string> &validationMessages() const;

  /// Runs the kernel once with `args` (one per parameter). Fails on a bad
  /// argument, a Vulkan error, or any validation-layer error during the run.
  bool run(const uint32_t *spirv, size_t spirvWords, const Reflection &reflection, const std::vector<Arg> &args,
           std::string &error, RunInfo *info = nullptr);

  /// The dispatch grid for `args` (without running anything).
  static bool computeGrid(const Reflection &reflection, const std::vector<Arg> &args, std::array<uint32_t, 3> &grid,
                          std::string &error);

  struct Impl;

private:
  explicit Runner(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// Finds `<name>[] = { ... }` in C source text (a tilec header) and parses its
/// integers; false when the array is absent or malformed.
bool extractWordArray(const std::string &text, const std::string &name, std::vector<uint32_t> &words,
                      std::string &error);

/// The kernel names a tilec Vulkan header describes (from its
/// `<kernel>_vk_reflection` arrays), in order.
std::vector<std::string> listHeaderKernels(const std::string &text);

} // namespace tilec::vk

#endif // TILEC_RUNTIME_VULKAN_RUNNER_H
