// RUN: %tilec_opt %s --convert-tile-to-loops --split-input-file | FileCheck %s
// tile.copy: a loop nest over the non-unit extents; global reads outside the
// tensor give 0, global writes outside are dropped; elements convert.

#global = #tile.scope<global>
#shared = #tile.scope<shared>
// CHECK-LABEL: func.func private @__tilec_load_body(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x64xi8>
// CHECK: %[[S:.*]] = memref.alloca() : memref<16x64xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[R:.*]] = arith.addi %{{.*}}, %[[I]]
// CHECK: %[[DIM:.*]] = memref.dim %[[A]]
// CHECK: arith.cmpi ult, %[[R]], %[[DIM]]
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (i8) {
// CHECK: memref.load %[[A]]
// CHECK: } else {
// CHECK: arith.constant 0 : i8
// The source is uint8: zero extension.
// CHECK: %[[F:.*]] = arith.uitofp %[[V]] : i8 to f32
// CHECK: memref.store %[[F]], %[[S]]
tile.kernel @load(%A: memref<?x64xi8, #global> {tile.name = "A", tile.dtype = "uint8", tile.shape = ["M", "64"]},
                  %M: index {tile.name = "M", tile.dynamic}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<16x64xf32, #shared>
    tile.copy %A[%bx, %c0] sizes [16, 64] to %s[%c0, %c0] sizes [16, 64]
        : memref<?x64xi8, #global>, memref<16x64xf32, #shared>
  }
  tile.return
}

// -----

#global = #tile.scope<global>
#fragment = #tile.scope<fragment>
// A [1, 32] row of a fragment into a [32] global vector: unit dims dropped,
// the store guarded.
// CHECK-LABEL: func.func private @__tilec_store_body(
// CHECK-SAME: %[[Y:[^:]*]]: memref<100xf16>
// CHECK: %[[F:.*]] = memref.alloca() : memref<4x32xf32>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: scf.for
// CHECK: %[[V:.*]] = memref.load %[[F]][%{{.*}}, %{{.*}}] : memref<4x32xf32>
// CHECK: %[[H:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK: memref.store %[[H]], %[[Y]][%{{.*}}] : memref<100xf16>
tile.kernel @store(%Y: memref<100xf16, #global> {tile.name = "Y", tile.dtype = "float16", tile.shape = ["100"]}) {
  %c4 = arith.constant 4 : index
  tile.launch grid(%c4) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %f = tile.alloc : memref<4x32xf32, #fragment>
    %off = arith.muli %bx, %c32 : index
    tile.copy %f[%c2, %c0] sizes [1, 32] to %Y[%off] sizes [32]
        : memref<4x32xf32, #fragment>, memref<100xf16, #global>
  }
  tile.return
}
