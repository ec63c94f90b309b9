// Hand-written thread-level IR (the convert-tile-to-gpu form) through the
// Vulkan target: SPIR-V that passes spirv-val, a header that compiles as C
// and C++, and a run on lavapipe with the validation layer (ragged M).
// RUN: tilec-opt %S/Inputs/scale2d.mlir --tilec-test-vulkan-compile='spv=%t.spv asm=%t.spvasm header=%t.h' -o /dev/null
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: FileCheck %s --check-prefix=ASM < %t.spvasm
// RUN: FileCheck %s --check-prefix=HDR < %t.h
// RUN: clang-22 -fsyntax-only -x c -std=c99 -Wall -Wextra -pedantic -Werror -include %t.h %s.c
// RUN: clang-22 -fsyntax-only -x c++ -std=c++17 -Wall -Wextra -pedantic -Werror -include %t.h %s.c
// RUN: %if vulkan-runner %{ tilec-vk-run %t.h --require-validation --set M=3 --set alpha=2 --input X=iota --print Y 2>&1 | FileCheck %s --check-prefix=LAVAPIPE %}

// ASM: OpCapability Shader
// ASM: OpEntryPoint GLCompute %scale2d "scale2d"
// ASM: OpExecutionMode %scale2d LocalSize 64 1 1
// ASM: OpDecorate %scale2d_arg_0 Binding 0
// ASM: OpDecorate %scale2d_arg_0 DescriptorSet 0
// ASM: OpDecorate %scale2d_arg_1 Binding 1
// ASM-NOT: OpDecorate %scale2d_arg_2 Binding
// ASM: %scale2d_arg_2 = OpVariable {{.*}} PushConstant

// HDR: (0, 0) X: float32 tensor of shape (M, 32), row-major, read
// HDR: (0, 1) Y: float32 tensor of shape (M, 32), row-major, written
// HDR: offset 0: M (dynamic dimension, > 0)
// HDR: offset 4: alpha (float32 scalar)
// HDR: #define SCALE2D_VK_ENTRY_POINT "scale2d"
// HDR: #define SCALE2D_VK_WORKGROUP_SIZE_X 64
// HDR: typedef struct scale2d_vk_push_constants {
// HDR-NEXT: int32_t M;
// HDR-NEXT: float alpha;
// HDR: static inline void scale2d_vk_grid(int64_t M, float alpha, uint32_t grid[3]) {
// HDR: grid[1] = (uint32_t)(tilec_vk_ceildiv((int64_t)M, INT64_C(2)));
// HDR: static const uint32_t scale2d_vk_spirv[] = {
// HDR-NEXT: 0x07230203u,
// HDR: static const uint32_t scale2d_vk_reflection[] = {

// M = 3 rows, 2 rows per workgroup: 2 workgroups, the second half idle.
// LAVAPIPE-NOT: validation error
// LAVAPIPE: grid 1x2x1
// LAVAPIPE: Y:
// LAVAPIPE-NEXT: 1 3 5 {{.*}} 61 63{{$}}
// LAVAPIPE-NEXT: 65 67 {{.*}} 127{{$}}
// LAVAPIPE-NEXT: 129 131 {{.*}} 191{{$}}
