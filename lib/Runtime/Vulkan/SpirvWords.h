//===- SpirvWords.h - Helpers of the Vulkan runner over raw words ---------===//
//
// Push-constant packing and SPIR-V module scanning for Runner.cpp: half floats
// from floats, and a compute entry point's LocalSize.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_RUNTIME_VULKAN_SPIRVWORDS_H
#define TILEC_LIB_RUNTIME_VULKAN_SPIRVWORDS_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace tilec::vk::detail {

/// Whether a tilec dtype name is a floating-point type.
bool isFloat(const std::string &dtype);

/// IEEE half from float, round to nearest even.
uint16_t toHalf(float value);

/// Finds the GLCompute entry point `name` in a SPIR-V module and its LocalSize
/// (zeros when given some other way).
bool findEntryPoint(const uint32_t *words, size_t count, const std::string &name, std::array<uint32_t, 3> &localSize,
                    std::string &error);

} // namespace tilec::vk::detail

#endif // TILEC_LIB_RUNTIME_VULKAN_SPIRVWORDS_H
