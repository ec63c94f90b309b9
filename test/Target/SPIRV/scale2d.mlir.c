/* Uses the generated Vulkan header from C and C++ (included with -include). */
int main(void) {
  uint32_t grid[3];
  scale2d_vk_grid(5, 1.0f, grid);
  return (int)(grid[1] != 3) + (int)(sizeof(scale2d_vk_spirv) == 0) + (int)(scale2d_vk_bindings[1][3] != 0) +
         (int)(sizeof(scale2d_vk_push_constants) != SCALE2D_VK_PUSH_CONSTANT_SIZE) + (int)(scale2d_vk_reflection[0] == 0);
}
