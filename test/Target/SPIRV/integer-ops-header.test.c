/* Uses the generated Vulkan header from C and C++ (included with -include). */
int main(void) {
  return (int)(sizeof(integer_ops_vk_push_constants) != INTEGER_OPS_VK_PUSH_CONSTANT_SIZE) +
         (int)(sizeof(integer_ops_vk_spirv) == 0);
}
