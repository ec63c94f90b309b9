# Ascend cases beyond the Vulkan list: the examples at their full sizes
# (whole 32-byte rows: the DataCopy path) and at ragged ones on one core.
tilec_ascend_case(example_elementwise_full examples/elementwise/scale_bias_gelu.tile scale_bias_gelu
  ARGS --set M=70 --set scale=1.25)
tilec_ascend_case(example_softmax_full examples/softmax/softmax.tile softmax ARGS --set M=9 --block-dim 2)
tilec_ascend_case(example_layernorm_full examples/layernorm/layernorm.tile layernorm ARGS --set M=5)
tilec_ascend_case(example_reduction_full examples/reduction/row_sum.tile row_sum ARGS --set M=20 --block-dim 1)
tilec_ascend_case(example_softmax_fp32 examples/softmax/softmax.tile softmax FLAGS -D N=72 -D dtype=T.float32
  ARGS --set M=7 --block-dim 1)
