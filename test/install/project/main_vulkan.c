/* Uses the Vulkan kernel's header (SPIR-V words, bindings, grid): prints the entry point and
 * the SPIR-V size. Dispatching it needs a Vulkan runner (the repository's tilec-vk-run). */
#include "saxpy.h"

#include <stdio.h>

int main(void) {
  printf("%s: %u SPIR-V words\n", SAXPY_VK_ENTRY_POINT, (unsigned)(sizeof saxpy_vk_spirv / sizeof saxpy_vk_spirv[0]));
  return sizeof saxpy_vk_spirv > 0 && saxpy_vk_spirv[0] == 0x07230203u ? 0 : 1;
}
