// A float16 kernel on a target without shaderFloat16.
// RUN: tilec-opt %s --verify-diagnostics --tilec-test-vulkan-compile='preset=lavapipe float16=false' -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    // expected-error @+1 {{kernel 'half' uses 16-bit floats; vulkan1.1 (lavapipe) has no shaderFloat16}}
    gpu.func @half(%X: memref<64xf16, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "float16", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      gpu.return
    }
  }
}
