# The Vulkan cases: every example and every host-suite kernel the Vulkan
# target supports, at small ragged shapes (lavapipe is slow; <= 128 per dim).
# Kernels it does not support are listed in docs/vulkan.md with their
# diagnostics (checked by test/Target/SPIRV/unsupported-kernels.test).

# --- examples ---------------------------------------------------------------
tilec_vk_case(example_elementwise examples/elementwise/scale_bias_gelu.tile scale_bias_gelu
  FLAGS -D N=96 ARGS --set M=37 --set scale=0.75)
tilec_vk_case(example_elementwise_fp32 examples/elementwise/scale_bias_gelu.tile scale_bias_gelu
  FLAGS -D N=100 -D dtype=T.float32 ARGS --set M=19 --set scale=-1.5)
tilec_vk_case(example_reduction examples/reduction/row_sum.tile row_sum
  FLAGS -D N=300 ARGS --set M=37)
tilec_vk_case(example_softmax examples/softmax/softmax.tile softmax
  FLAGS -D N=100 ARGS --set M=21)
tilec_vk_case(example_layernorm examples/layernorm/layernorm.tile layernorm
  FLAGS -D N=128 ARGS --set M=13)
tilec_vk_case(example_gemm_fp16 examples/gemm/gemm.tile gemm
  FLAGS -D N=96 -D K=80 -D block_M=64 -D block_N=64 -D block_K=32 -D num_stages=2
  ARGS --set M=100)
tilec_vk_case(example_gemm_fp32 examples/gemm/gemm.tile gemm
  FLAGS -D dtype=T.float32 -D N=72 -D K=40 -D block_M=32 -D block_N=32 -D block_K=16 -D num_stages=2
  ARGS --set M=50)
