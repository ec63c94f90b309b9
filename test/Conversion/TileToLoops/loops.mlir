// RUN: %tilec_opt %s --convert-tile-to-loops | FileCheck %s
// tile.parallel becomes a serial scf.for nest (any order is allowed);
// tile.for of every kind is a plain scf.for; hints vanish; thread_id is 0.

#fragment = #tile.scope<fragment>
#shared = #tile.scope<shared>
// CHECK-LABEL: func.func private @__tilec_loops_body(
// CHECK-NOT: tile.
// CHECK: %[[F:.*]] = memref.alloca() : memref<4x8xf32>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[V:.*]] = memref.load %[[F]][%[[I]], %[[J]]]
// CHECK: %[[TID:.*]] = arith.constant 0 : index
// CHECK: arith.addi %[[K]], %[[TID]]
// CHECK: memref.store %{{.*}}, %[[F]][%[[I]], %[[J]]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: return
// CHECK-NOT: tile.
tile.kernel @loops(%n: index {tile.name = "n", tile.dynamic}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %f = tile.alloc : memref<4x8xf32, #fragment>
    %s = tile.alloc : memref<4x8xf32, #shared>
    tile.use_swizzle panel_size = 4, order = "col"
    tile.annotate_layout %s : memref<4x8xf32, #shared> with #tile.swizzled<bytes = 32>
    tile.for %k = %c0 to %n step %c1 pipelined attributes {num_stages = 2 : i64} {
      tile.parallel (%i, %j) in [4, 8] {
        %v = memref.load %f[%i, %j] : memref<4x8xf32, #fragment>
        %t = tile.thread_id dim = 0
        %kt = arith.addi %k, %t : index
        %ki = arith.index_cast %kt : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %w = arith.addf %v, %kf : f32
        memref.store %w, %f[%i, %j] : memref<4x8xf32, #fragment>
      }
    }
    tile.for %u = %c0 to %c2 step %c1 unroll {
      tile.for %w = %c0 to %c2 step %c1 serial {
      }
    }
  }
  tile.return
}
