//===- SpirvWords.cpp - Helpers of the Vulkan runner over raw words -------===//
//
// Half floats for push constants and the compute entry point of a SPIR-V
// module, read straight from its words.
//
//===----------------------------------------------------------------------===//
#include "SpirvWords.h"

#include <cstring>

namespace tilec::vk::detail {

bool isFloat(const std::string &dtype) { return dtype.rfind("float", 0) == 0 || dtype == "bfloat16"; }

uint16_t toHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xFF, man = x & 0x7FFFFF;
  if (exp == 0xFF)
    return static_cast<uint16_t>(sign | 0x7C00 | (man ? 0x200 : 0));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31)
    return static_cast<uint16_t>(sign | 0x7C00);
  if (e <= 0) {
    if (e < -10)
      return static_cast<uint16_t>(sign);
    man |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (man >> 13), rest = man & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}
bool findEntryPoint(const uint32_t *words, size_t count, const std::string &name, std::array<uint32_t, 3> &localSize,
                    std::string &error) {
  constexpr uint32_t kMagic = 0x07230203, kOpEntryPoint = 15, kOpExecutionMode = 16, kGLCompute = 5, kLocalSize = 17;
  if (count < 5 || words[0] != kMagic) {
    error = "not a SPIR-V module";
    return false;
  }
  uint32_t id = 0;
  bool found = false;
  for (size_t i = 5; i < count;) {
    uint32_t length = words[i] >> 16, opcode = words[i] & 0xFFFF;
    if (length == 0 || i + length > count) {
      error = "malformed SPIR-V module";
      return false;
    }
    if (opcode == kOpEntryPoint && length >= 4 && words[i + 1] == kGLCompute) {
      std::string entry;
      for (size_t w = i + 3; w < i + length; ++w)
        for (int b = 0; b < 4; ++b) {
          char c = static_cast<char>((words[w] >> (8 * b)) & 0xFF);
          if (!c)
            goto done;
          entry.push_back(c);
        }
    done:
      if (entry == name) {
        found = true;
        id = words[i + 2];
      }
    }
    if (found && opcode == kOpExecutionMode && length == 6 && words[i + 1] == id && words[i + 2] == kLocalSize)
      localSize = {words[i + 3], words[i + 4], words[i + 5]};
    i += length;
  }
  if (!found)
    error = "the SPIR-V module has no compute entry point '" + name + "'";
  return found;
}

} // namespace tilec::vk::detail
