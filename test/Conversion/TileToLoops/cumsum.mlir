// RUN: %tilec_opt %s --convert-tile-to-loops | FileCheck %s
// tile.cumsum: an inclusive running sum along `dim`, from the end with
// `reverse`; each position is read before it is written, so dst may be src.

#shared = #tile.scope<shared>
// CHECK-LABEL: func.func private @__tilec_cs_body(
// CHECK: %[[X:.*]] = memref.alloca() : memref<4x16xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.for %[[T:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32)
// CHECK: %[[LAST:.*]] = arith.constant 15 : index
// CHECK: %[[P:.*]] = arith.subi %[[LAST]], %[[T]]
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[I]], %[[P]]]
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[V]]
// CHECK: memref.store %[[S]], %[[X]][%[[I]], %[[P]]]
// CHECK: scf.yield %[[S]]
tile.kernel @cs() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %x = tile.alloc : memref<4x16xf32, #shared>
    tile.cumsum %x -> %x dim = 1 {reverse} : memref<4x16xf32, #shared>, memref<4x16xf32, #shared>
  }
  tile.return
}
