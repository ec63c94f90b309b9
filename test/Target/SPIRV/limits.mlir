// Kernels over the target's limits get a diagnostic naming the limit.
// RUN: tilec-opt %s --split-input-file --verify-diagnostics --tilec-test-vulkan-compile='preset=lavapipe' -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    // expected-error @+1 {{kernel 'big_shared' uses 65536 bytes of shared memory; vulkan1.1 (lavapipe) allows at most 32768 (maxComputeSharedMemorySize)}}
    gpu.func @big_shared(%X: memref<64xf32, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "float32", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 65536 : i64} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    // expected-error @+1 {{kernel 'many_threads' has 2048 threads per block; vulkan1.1 (lavapipe) allows at most 1024 (maxComputeWorkGroupInvocations)}}
    gpu.func @many_threads(%X: memref<64xf32, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "float32", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 256, 8, 1>, tile.shared_bytes = 0 : i64} {
      gpu.return
    }
  }
}
