//===- compare.h - Run one kernel on lavapipe and on the host target, compare -*- C++ -*-===//
//
// The numeric harness of the Vulkan target. A case program is case_main.cpp
// compiled against one kernel's host header and object; it hands the host
// launcher (wrapped by callHost) to runCompare, which reads everything about
// the kernel from the Vulkan header's reflection and the .spv, fills every
// tensor with the same deterministic random data for both targets, runs the
// kernel on lavapipe with the validation layer required and on the host, and
// compares every written tensor (fp32/fp64 1e-4, fp16 1e-2, integers exact).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TEST_RUN_VULKAN_COMPARE_H
#define TILEC_TEST_RUN_VULKAN_COMPARE_H

#include "tilec/Runtime/Vulkan/Runner.h"

#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

namespace vkcompare {

/// Calls the host launcher with arguments in the kernel's parameter order.
using HostCall = std::function<int(const std::vector<tilec::vk::Arg> &)>;

/// Parses the command line (see compare.cpp), runs both, compares. 0 when equal.
int runCompare(int argc, char **argv, const HostCall &host);

template <class T> T argAs(const tilec::vk::Arg &a) {
  if constexpr (std::is_pointer_v<T>)
    return static_cast<T>(const_cast<void *>(a.data));
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(a.floatValue);
  else
    return static_cast<T>(a.intValue);
}

template <class R, class... A, size_t... I>
int callImpl(R (*fn)(A...), const std::vector<tilec::vk::Arg> &args, std::index_sequence<I...>) {
  return static_cast<int>(fn(argAs<A>(args[I])...));
}

/// Wraps a host launcher of any C signature (pointers, int64 dimensions,
/// scalars) as a HostCall; the argument count is checked at run time.
template <class R, class... A> HostCall callHost(R (*fn)(A...)) {
  return [fn](const std::vector<tilec::vk::Arg> &args) {
    if (args.size() != sizeof...(A))
      return -1000;
    return callImpl(fn, args, std::index_sequence_for<A...>{});
  };
}

} // namespace vkcompare

#endif // TILEC_TEST_RUN_VULKAN_COMPARE_H
