// tilec-vulkan-lower-async-copies: cp.async copies become scalar loads and
// stores (zero past srcElements, source index clamped), group ops vanish.
// RUN: tilec-opt %s --pass-pipeline='builtin.module(gpu.module(tilec-vulkan-lower-async-copies))' | FileCheck %s

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @partial
  // CHECK-SAME: (%[[SRC:.*]]: memref<?x8xf16, #gpu.address_space<global>>, %[[ROW:.*]]: index, %[[COL:.*]]: index, %[[N:.*]]: index)
  gpu.func @partial(%src: memref<?x8xf16, #gpu.address_space<global>>, %row: index, %col: index, %n: index) kernel {
    %c4 = arith.constant 4 : index
    // CHECK: %[[DST:.*]] = memref.alloc() : memref<64xf16, #gpu.address_space<workgroup>>
    %dst = memref.alloc() : memref<64xf16, #gpu.address_space<workgroup>>
    // Element 0: index kept when 0 < n, zero otherwise.
    // CHECK: %[[LIVE0:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : index
    // CHECK: %[[IDX0:.*]] = arith.select %[[LIVE0]], %{{.*}}, %[[COL]] : index
    // CHECK: %[[V0:.*]] = memref.load %[[SRC]][%[[ROW]], %[[IDX0]]]
    // CHECK: %[[Z0:.*]] = arith.select %[[LIVE0]], %[[V0]], %{{.*}} : f16
    // CHECK: memref.store %[[Z0]], %[[DST]][%{{.*}}]
    // Element 1 at column + 1.
    // CHECK: %[[NEXT:.*]] = arith.addi %[[COL]], %{{.*}} : index
    // CHECK: %[[LIVE1:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : index
    // CHECK: arith.select %[[LIVE1]], %[[NEXT]], %[[COL]] : index
    // CHECK: memref.load %[[SRC]]
    // CHECK: memref.store
    // CHECK-NOT: memref.store
    // CHECK: gpu.return
    %t = nvgpu.device_async_copy %src[%row, %col], %dst[%c4], 2, %n : memref<?x8xf16, #gpu.address_space<global>> to memref<64xf16, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g
    gpu.return
  }

  // Full copies need no predicate; commit/wait groups of NVVM disappear.
  // CHECK-LABEL: gpu.func @full
  // CHECK-NOT: arith.select
  // CHECK-COUNT-4: memref.store
  // CHECK-NOT: nvvm.
  // CHECK: gpu.return
  gpu.func @full(%src: memref<128xf32, #gpu.address_space<global>>, %i: index) kernel {
    %dst = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
    %t = nvgpu.device_async_copy %src[%i], %dst[%i], 4 : memref<128xf32, #gpu.address_space<global>> to memref<128xf32, #gpu.address_space<workgroup>>
    nvvm.cp.async.commit.group
    nvvm.cp.async.wait.group 0
    gpu.return
  }
}
// CHECK-NOT: nvgpu.
