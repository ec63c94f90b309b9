// tilec-vulkan-scalarize-vectors: 1-D vectors become one scalar per element.
// RUN: tilec-opt %s --pass-pipeline='builtin.module(gpu.module(tilec-vulkan-scalarize-vectors))' --split-input-file --verify-diagnostics | FileCheck %s

gpu.module @kernels {
  // A fragment copy as TileToGPU writes it: a guarded vector<8xf16> load,
  // a widening conversion, extracts into registers.
  // CHECK-LABEL: gpu.func @fragment_copy
  // CHECK-SAME: (%[[X:.*]]: memref<?x64xf16, #gpu.address_space<global>>, %[[R:.*]]: index, %[[C:.*]]: index, %[[INB:.*]]: i1)
  // CHECK-NOT: vector.
  // CHECK: %[[E0:.*]] = memref.load %[[X]][%[[R]], %[[C]]]
  // CHECK: %[[C1:.*]] = arith.addi %[[C]], %{{.*}} : index
  // CHECK: memref.load %[[X]][%[[R]], %[[C1]]]
  // CHECK-COUNT-6: memref.load %[[X]]
  // CHECK: %[[S0:.*]] = arith.select %[[INB]], %[[E0]], %{{.*}} : f16
  // CHECK-COUNT-7: arith.select %[[INB]]
  // CHECK: %[[W0:.*]] = arith.extf %[[S0]] : f16 to f32
  // CHECK-COUNT-7: arith.extf
  // CHECK: memref.store %[[W0]], %[[REGS:.*]][%{{.*}}] : memref<8xf32>
  // CHECK-COUNT-7: memref.store
  // CHECK-NOT: vector.
  // CHECK: gpu.return
  gpu.func @fragment_copy(%x: memref<?x64xf16, #gpu.address_space<global>>, %r: index, %c: index, %inb: i1) kernel {
    %regs = memref.alloca() : memref<8xf32>
    %zero = arith.constant dense<0.0> : vector<8xf16>
    %v = vector.load %x[%r, %c] : memref<?x64xf16, #gpu.address_space<global>>, vector<8xf16>
    %s = arith.select %inb, %v, %zero : vector<8xf16>
    %w = arith.extf %s : vector<8xf16> to vector<8xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %e0 = vector.extract %w[0] : f32 from vector<8xf32>
    memref.store %e0, %regs[%c0] : memref<8xf32>
    %e1 = vector.extract %w[1] : f32 from vector<8xf32>
    memref.store %e1, %regs[%c1] : memref<8xf32>
    %e2 = vector.extract %w[2] : f32 from vector<8xf32>
    memref.store %e2, %regs[%c2] : memref<8xf32>
    %e3 = vector.extract %w[3] : f32 from vector<8xf32>
    memref.store %e3, %regs[%c3] : memref<8xf32>
    %e4 = vector.extract %w[4] : f32 from vector<8xf32>
    memref.store %e4, %regs[%c4] : memref<8xf32>
    %e5 = vector.extract %w[5] : f32 from vector<8xf32>
    memref.store %e5, %regs[%c5] : memref<8xf32>
    %e6 = vector.extract %w[6] : f32 from vector<8xf32>
    memref.store %e6, %regs[%c6] : memref<8xf32>
    %e7 = vector.extract %w[7] : f32 from vector<8xf32>
    memref.store %e7, %regs[%c7] : memref<8xf32>
    gpu.return
  }

  // The store side: registers gathered with from_elements, narrowed, stored
  // as consecutive scalars; broadcast and insert resolve to their operands.
  // CHECK-LABEL: gpu.func @fragment_store
  // CHECK-SAME: (%[[Y:.*]]: memref<128xf16, #gpu.address_space<workgroup>>, %[[I:.*]]: index, %[[A:.*]]: f32, %[[B:.*]]: f32)
  // CHECK-NOT: vector.
  // CHECK: %[[TA:.*]] = arith.truncf %[[A]] : f32 to f16
  // CHECK: %[[TB:.*]] = arith.truncf %[[B]] : f32 to f16
  // CHECK: memref.store %[[TA]], %[[Y]][%[[I]]]
  // CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
  // CHECK: memref.store %[[TB]], %[[Y]][%[[I1]]]
  // CHECK: %[[SPLAT:.*]] = arith.truncf %[[A]] : f32 to f16
  // CHECK: memref.store %[[SPLAT]], %[[Y]]
  // CHECK: memref.store %[[TB]], %[[Y]]
  gpu.func @fragment_store(%y: memref<128xf16, #gpu.address_space<workgroup>>, %i: index, %a: f32, %b: f32) kernel {
    %v = vector.from_elements %a, %b : vector<2xf32>
    %n = arith.truncf %v : vector<2xf32> to vector<2xf16>
    vector.store %n, %y[%i] : memref<128xf16, #gpu.address_space<workgroup>>, vector<2xf16>
    %s = vector.broadcast %a : f32 to vector<2xf32>
    %sn = arith.truncf %s : vector<2xf32> to vector<2xf16>
    %t = vector.extract %n[1] : f16 from vector<2xf16>
    %u = vector.insert %t, %sn[1] : f16 into vector<2xf16>
    vector.store %u, %y[%i] : memref<128xf16, #gpu.address_space<workgroup>>, vector<2xf16>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @two_d(%y: memref<4x4xf32>, %i: index) kernel {
    // expected-error @+1 {{uses 'vector<2x2xf32>'; the Vulkan target scalarizes only fixed 1-D vectors}}
    %v = vector.load %y[%i, %i] : memref<4x4xf32>, vector<2x2xf32>
    gpu.return
  }
}
