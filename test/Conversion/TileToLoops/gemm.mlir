// RUN: %tilec_opt %s --convert-tile-to-loops --split-input-file | FileCheck %s
// tile.gemm: C += op(A) @ op(B) in C's type. Operands already row-major in
// C's type are used in place; others are first converted (and transposed)
// into a block buffer. Then for i, k, j: C[i, j] += A[i, k] * B[k, j].

#shared = #tile.scope<shared>
#fragment = #tile.scope<fragment>
// CHECK-LABEL: func.func private @__tilec_plain_body(
// CHECK: %[[A:.*]] = memref.alloca() : memref<16x8xf32>
// CHECK: %[[B:.*]] = memref.alloca() : memref<8x32xf32>
// CHECK: %[[C:.*]] = memref.alloca() : memref<16x32xf32>
// CHECK-NOT: memref.alloca
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[AV:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[BV:.*]] = memref.load %[[B]][%[[K]], %[[J]]]
// CHECK: %[[CV:.*]] = memref.load %[[C]][%[[I]], %[[J]]]
// CHECK: %[[P:.*]] = arith.mulf %[[AV]], %[[BV]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[CV]], %[[P]] : f32
// CHECK: memref.store %[[S]], %[[C]][%[[I]], %[[J]]]
tile.kernel @plain() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %a = tile.alloc : memref<16x8xf32, #shared>
    %b = tile.alloc : memref<8x32xf32, #shared>
    %c = tile.alloc : memref<16x32xf32, #fragment>
    tile.gemm %a, %b, %c : memref<16x8xf32, #shared>, memref<8x32xf32, #shared>, memref<16x32xf32, #fragment>
  }
  tile.return
}

// -----

#shared = #tile.scope<shared>
#fragment = #tile.scope<fragment>
// fp16 A transposed and int8 B transposed into f32 scratch buffers; C is
// cleared first (clear_accum).
// CHECK-LABEL: func.func private @__tilec_transposed_body(
// CHECK-DAG: %[[BT:.*]] = memref.alloca() : memref<8x32xf32>
// CHECK-DAG: %[[AT:.*]] = memref.alloca() : memref<16x8xf32>
// CHECK-DAG: %[[A:.*]] = memref.alloca() : memref<8x16xf16>
// CHECK-DAG: %[[B:.*]] = memref.alloca() : memref<32x8xi8>
// CHECK-DAG: %[[C:.*]] = memref.alloca() : memref<16x32xf32>
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[Q:.*]] = %{{.*}} to %{{.*}} step
// CHECK: memref.load %[[A]][%[[Q]], %[[R]]] : memref<8x16xf16>
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: memref.store %{{.*}}, %[[AT]][%[[R]], %[[Q]]]
// CHECK: memref.load %[[B]][%{{.*}}, %{{.*}}] : memref<32x8xi8>
// CHECK: arith.sitofp %{{.*}} : i8 to f32
// CHECK: memref.store %{{.*}}, %[[BT]]
// CHECK: arith.mulf
tile.kernel @transposed() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %a = tile.alloc : memref<8x16xf16, #shared>
    %b = tile.alloc : memref<32x8xi8, #shared>
    %c = tile.alloc : memref<16x32xf32, #fragment>
    tile.gemm %a, %b, %c {transpose_a, transpose_b, clear_accum}
        : memref<8x16xf16, #shared>, memref<32x8xi8, #shared>, memref<16x32xf32, #fragment>
  }
  tile.return
}

// -----

#shared = #tile.scope<shared>
#fragment = #tile.scope<fragment>
// Integer accumulation: muli/addi.
// CHECK-LABEL: func.func private @__tilec_integer_body(
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.muli %{{.*}} : i32
// CHECK: arith.addi %{{.*}} : i32
tile.kernel @integer() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %a = tile.alloc : memref<16x8xi8, #shared>
    %b = tile.alloc : memref<8x32xi32, #shared>
    %c = tile.alloc : memref<16x32xi32, #fragment>
    tile.gemm %a, %b, %c : memref<16x8xi8, #shared>, memref<8x32xi32, #shared>, memref<16x32xi32, #fragment>
  }
  tile.return
}
