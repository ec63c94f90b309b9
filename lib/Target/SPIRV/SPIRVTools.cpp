//===- SPIRVTools.cpp - spirv-val and spirv-dis in process ----------------===//
//
// Validation and disassembly through the SPIRV-Tools library, so every
// module tilec writes has passed the same checks as `spirv-val`.
//
//===----------------------------------------------------------------------===//
#include "tilec/Target/SPIRV/VulkanTarget.h"

#include <spirv-tools/libspirv.hpp>

using namespace tilec;

static spv_target_env toolsEnv(llvm::StringRef env) {
  return env == "vulkan1.3" ? SPV_ENV_VULKAN_1_3 : SPV_ENV_VULKAN_1_1;
}

bool tilec::validateSPIRV(llvm::ArrayRef<uint32_t> words, llvm::StringRef env, std::string &messages) {
  spvtools::SpirvTools tools(toolsEnv(env));
  tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &position, const char *text) {
    messages += "  word " + std::to_string(position.index) + ": " + text + "\n";
  });
  return tools.Validate(words.data(), words.size());
}

bool tilec::spirvToolsKnowCooperativeMatrix() {
  static const bool known = [] {
    spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
    tools.SetMessageConsumer([](spv_message_level_t, const char *, const spv_position_t &, const char *) {});
    std::vector<uint32_t> binary;
    return tools.Assemble("OpCapability CooperativeMatrixKHR\n", &binary);
  }();
  return known;
}

bool tilec::disassembleSPIRV(llvm::ArrayRef<uint32_t> words, std::string &text, std::string &error) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char *, const spv_position_t &, const char *message) { error += message; });
  return tools.Disassemble(words.data(), words.size(), &text,
                           SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT);
}
