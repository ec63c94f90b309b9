// Atomic adds the Vulkan target has no SPIR-V for: a diagnostic naming the
// missing device feature (the float16 case is T.atomic_add into a float16
// tensor, as in test/run/kernels/atomic_add.tile).
// RUN: tilec-opt %s --split-input-file --verify-diagnostics --tilec-test-vulkan-compile='preset=lavapipe' -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    gpu.func @f16(%X: memref<64xf16, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "float16", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %t = gpu.thread_id x
      %v = arith.constant 1.0 : f16
      // expected-error @+1 {{kernel 'f16' uses an atomic add on float16, which the Vulkan target does not support (it needs shaderBufferFloat16AtomicAdd of VK_EXT_shader_atomic_float2; use float32)}}
      %a = memref.atomic_rmw addf %v, %X[%t] : (f16, memref<64xf16, #gpu.address_space<global>>) -> f16
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    gpu.func @f64(%X: memref<64xf64, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "float64", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %t = gpu.thread_id x
      %v = arith.constant 1.0 : f64
      // expected-error @+1 {{kernel 'f64' uses an atomic add on float64, which the Vulkan target does not support (it needs shaderBufferFloat64AtomicAdd of VK_EXT_shader_atomic_float; use float32)}}
      %a = memref.atomic_rmw addf %v, %X[%t] : (f64, memref<64xf64, #gpu.address_space<global>>) -> f64
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    gpu.func @shared_f64() kernel attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %s = memref.alloc() : memref<64xf64, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %v = arith.constant 1.0 : f64
      // expected-error @+1 {{kernel 'shared_f64' uses an atomic add on float64, which the Vulkan target does not support (it needs shaderSharedFloat64AtomicAdd of VK_EXT_shader_atomic_float; use float32)}}
      %a = memref.atomic_rmw addf %v, %s[%t] : (f64, memref<64xf64, #gpu.address_space<workgroup>>) -> f64
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    gpu.func @bool(%X: memref<64xi1, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "bool", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %t = gpu.thread_id x
      %v = arith.constant true
      // expected-error @+1 {{kernel 'bool' uses an atomic add on bool, which the Vulkan target does not support (SPIR-V integer atomics take 32-bit integers; use int32)}}
      %a = memref.atomic_rmw addi %v, %X[%t] : (i1, memref<64xi1, #gpu.address_space<global>>) -> i1
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    gpu.func @int8(%X: memref<64xi8, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "int8", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %t = gpu.thread_id x
      %v = arith.constant 1 : i8
      // expected-error @+1 {{kernel 'int8' uses an atomic add on int8, which the Vulkan target does not support (SPIR-V integer atomics take 32-bit integers; use int32)}}
      %a = memref.atomic_rmw addi %v, %X[%t] : (i8, memref<64xi8, #gpu.address_space<global>>) -> i8
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    gpu.func @int64(%X: memref<64xi64, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "int64", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %t = gpu.thread_id x
      %v = arith.constant 1 : i64
      // expected-error @+1 {{kernel 'int64' uses an atomic add on int64, which the Vulkan target does not support (it needs shaderBufferInt64Atomics; use int32)}}
      %a = memref.atomic_rmw addi %v, %X[%t] : (i64, memref<64xi64, #gpu.address_space<global>>) -> i64
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    gpu.func @maxf(%X: memref<64xf32, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "float32", tile.shape = ["64"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %t = gpu.thread_id x
      %v = arith.constant 1.0 : f32
      // expected-error @+1 {{kernel 'maxf' uses atomic 'maximumf', which the Vulkan target does not lower}}
      %a = memref.atomic_rmw maximumf %v, %X[%t] : (f32, memref<64xf32, #gpu.address_space<global>>) -> f32
      gpu.return
    }
  }
}
