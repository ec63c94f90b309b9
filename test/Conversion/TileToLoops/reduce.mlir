// RUN: %tilec_opt %s --convert-tile-to-loops --split-input-file | FileCheck %s
// tile.reduce: per destination element an scf.for over the reduced
// dimension carrying the accumulator; clear starts from the identity,
// clear = false from the destination's old value.

#fragment = #tile.scope<fragment>
// CHECK-LABEL: func.func private @__tilec_rmax_body(
// CHECK-DAG: %[[S:.*]] = memref.alloca() : memref<4x8xf32>
// CHECK-DAG: %[[D:.*]] = memref.alloca() : memref<4xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[R:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEGINF]]) -> (f32)
// CHECK: %[[X:.*]] = memref.load %[[S]][%[[I]], %[[J]]]
// CHECK: %[[M:.*]] = arith.maxnumf %[[ACC]], %[[X]] : f32
// CHECK: scf.yield %[[M]]
// CHECK: memref.store %[[R]], %[[D]][%[[I]]]
tile.kernel @rmax() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %s = tile.alloc : memref<4x8xf32, #fragment>
    %d = tile.alloc : memref<4xf32, #fragment>
    tile.reduce max %s -> %d dim = 1 : memref<4x8xf32, #fragment>, memref<4xf32, #fragment>
  }
  tile.return
}

// -----

#fragment = #tile.scope<fragment>
// abssum along dim 0 with clear = false: starts from dst[j], adds |x|.
// CHECK-LABEL: func.func private @__tilec_rabssum_body(
// CHECK-DAG: %[[S:.*]] = memref.alloca() : memref<4x8xf32>
// CHECK-DAG: %[[D:.*]] = memref.alloca() : memref<8xf32>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[OLD:.*]] = memref.load %[[D]][%[[J]]]
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[OLD]]) -> (f32)
// CHECK: %[[X:.*]] = memref.load %[[S]][%[[I]], %[[J]]]
// CHECK: %[[A:.*]] = math.absf %[[X]]
// CHECK: arith.addf %[[ACC]], %[[A]]
tile.kernel @rabssum() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %s = tile.alloc : memref<4x8xf32, #fragment>
    %d = tile.alloc : memref<8xf32, #fragment>
    tile.reduce abssum %s -> %d dim = 0 {clear = false} : memref<4x8xf32, #fragment>, memref<8xf32, #fragment>
  }
  tile.return
}

// -----

#fragment = #tile.scope<fragment>
// A 1-D source reduces into a rank-0 buffer; int32 min starts at INT32_MAX.
// CHECK-LABEL: func.func private @__tilec_rmin_body(
// CHECK: %[[D:.*]] = memref.alloca() : memref<i32>
// CHECK: %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[MAX]]) -> (i32)
// CHECK: arith.minsi %[[ACC]]
// CHECK: memref.store %{{.*}}, %[[D]][]
tile.kernel @rmin() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %s = tile.alloc : memref<16xi32, #fragment>
    %d = tile.alloc : memref<i32, #fragment>
    tile.reduce min %s -> %d dim = 0 : memref<16xi32, #fragment>, memref<i32, #fragment>
  }
  tile.return
}
