// memref.atomic_rmw (what T.atomic_add lowers to) on the Vulkan target:
// addi on int32 -> OpAtomicIAdd, addf on float32 -> OpAtomicFAddEXT
// (SPV_EXT_shader_atomic_float_add), relaxed, at device scope on storage
// buffers (including multi-dimensional ones, flattened) and workgroup scope
// on workgroup memory; every other type is a diagnostic naming the feature.
// RUN: tilec-opt %s --split-input-file --tilec-test-vulkan-compile='preset=lavapipe spv=%t.spv asm=%t.spvasm' -o /dev/null
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: FileCheck %s < %t.spvasm
// RUN: tilec-opt %s --split-input-file --verify-diagnostics --tilec-test-vulkan-compile='preset=lavapipe float32-atomics=0' -o /dev/null

// CHECK-DAG: OpCapability AtomicFloat32AddEXT
// CHECK-DAG: OpExtension "SPV_EXT_shader_atomic_float_add"
// CHECK-DAG: %[[UINT:[a-z0-9_]+]] = OpTypeInt 32 0
// CHECK-DAG: %[[FLOAT:[a-z0-9_]+]] = OpTypeFloat 32
// CHECK-DAG: %[[DEVICE:[a-z0-9_]+]] = OpConstant %[[UINT]] 1{{$}}
// CHECK-DAG: %[[WORKGROUP:[a-z0-9_]+]] = OpConstant %[[UINT]] 2{{$}}
// CHECK-DAG: %[[RELAXED:[a-z0-9_]+]] = OpConstant %[[UINT]] 0{{$}}
// CHECK-LABEL: %atomics = OpFunction
// CHECK: %[[X:[0-9]+]] = OpAccessChain %{{.*}} %atomics_arg_0
// CHECK: OpAtomicFAddEXT %[[FLOAT]] %[[X]] %[[DEVICE]] %[[RELAXED]]
// CHECK: %[[X2:[0-9]+]] = OpAccessChain %{{.*}} %atomics_arg_1
// CHECK: OpAtomicFAddEXT %[[FLOAT]] %[[X2]] %[[DEVICE]] %[[RELAXED]]
// CHECK: %[[C:[0-9]+]] = OpAccessChain %{{.*}} %atomics_arg_2
// CHECK: OpAtomicIAdd %[[UINT]] %[[C]] %[[DEVICE]] %[[RELAXED]]
// CHECK: OpAtomicFAddEXT %[[FLOAT]] %{{[0-9]+}} %[[WORKGROUP]] %[[RELAXED]]
// CHECK: OpAtomicIAdd %[[UINT]] %{{[0-9]+}} %[[WORKGROUP]] %[[RELAXED]]

module attributes {gpu.container_module} {
  gpu.module @tilec_kernels {
    gpu.func @atomics(%X: memref<64xf32, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "float32", tile.shape = ["64"]},
                      %X2: memref<4x16xf32, #gpu.address_space<global>> {tile.name = "X2", tile.dtype = "float32", tile.shape = ["4", "16"]},
                      %C: memref<2xi32, #gpu.address_space<global>> {tile.name = "C", tile.dtype = "int32", tile.shape = ["2"]}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      %si = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %one = arith.constant 1.0 : f32
      %onei = arith.constant 1 : i32
      // expected-error @+1 {{kernel 'atomics' uses an atomic add on float32, which vulkan1.1 (lavapipe) cannot do without shaderBufferFloat32AtomicAdd (VK_EXT_shader_atomic_float)}}
      %a = memref.atomic_rmw addf %one, %X[%t] : (f32, memref<64xf32, #gpu.address_space<global>>) -> f32
      %b = memref.atomic_rmw addf %one, %X2[%c3, %c0] : (f32, memref<4x16xf32, #gpu.address_space<global>>) -> f32
      %c = memref.atomic_rmw addi %onei, %C[%c0] : (i32, memref<2xi32, #gpu.address_space<global>>) -> i32
      %d = memref.atomic_rmw addf %one, %s[%t] : (f32, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
      %e = memref.atomic_rmw addi %onei, %si[%t] : (i32, memref<64xi32, #gpu.address_space<workgroup>>) -> i32
      gpu.return
    }
  }
}
