// tilec-vulkan-materialize-workgroup-memory: the byte buffer of dynamic
// shared memory and its views become one typed workgroup buffer per element
// type; accesses are re-indexed.
// RUN: tilec-opt %s --pass-pipeline='builtin.module(gpu.module(tilec-vulkan-materialize-workgroup-memory))' --split-input-file --verify-diagnostics | FileCheck %s

gpu.module @kernels {
  // Two f16 tiles at bytes 0 and 256, an f32 scratch at byte 512: one f16
  // buffer of 256 elements, one f32 buffer of 32.
  // CHECK-LABEL: gpu.func @tiles
  // CHECK-SAME: tile.shared_bytes = 0 : i64
  // CHECK-DAG: %[[H:.*]] = memref.alloc() : memref<256xf16, #gpu.address_space<workgroup>>
  // CHECK-DAG: %[[F:.*]] = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
  // CHECK-NOT: gpu.dynamic_shared_memory
  // CHECK-NOT: memref.view
  // CHECK: memref.store %{{.*}}, %[[H]][%[[I:.*]]] : memref<256xf16
  // CHECK: %[[SHIFTED:.*]] = arith.addi %[[I]], %[[C128:.*]] : index
  // CHECK: memref.load %[[H]][%[[SHIFTED]]] : memref<256xf16
  // CHECK: vector.load %[[H]][%{{.*}}] : memref<256xf16, #gpu.address_space<workgroup>>, vector<2xf16>
  // CHECK: memref.store %{{.*}}, %[[F]][%[[I]]] : memref<32xf32
  gpu.func @tiles(%i: index, %x: f16, %y: f32) kernel attributes {tile.shared_bytes = 640 : i64} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf16, #gpu.address_space<workgroup>>
    %b = memref.view %base[%c256][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf16, #gpu.address_space<workgroup>>
    %s = memref.view %base[%c512][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %a[%i] : memref<128xf16, #gpu.address_space<workgroup>>
    %v = memref.load %b[%i] : memref<128xf16, #gpu.address_space<workgroup>>
    %w = vector.load %b[%i] : memref<128xf16, #gpu.address_space<workgroup>>, vector<2xf16>
    memref.store %y, %s[%i] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }

  // A view at a byte offset that is not a constant: its group spans the
  // whole dynamic shared memory and the element offset is computed.
  // CHECK-LABEL: gpu.func @dynamic
  // CHECK: %[[BUF:.*]] = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  // CHECK: %[[ELEM:.*]] = arith.divui %{{.*}}, %{{.*}} : index
  // CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %[[ELEM]] : index
  // CHECK: memref.load %[[BUF]][%[[AT]]]
  gpu.func @dynamic(%off: index, %i: index) kernel attributes {tile.shared_bytes = 256 : i64} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %base[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %v = memref.load %a[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @misaligned(%i: index) kernel {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{starts at byte 2, not a multiple of the 4-byte element}}
    %b = memref.view %base[%c2][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
