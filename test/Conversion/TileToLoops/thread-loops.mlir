// RUN: %tilec_opt %s --convert-tile-to-loops | FileCheck %s
// Spec §6 on the host: per-thread statements run once for every thread index
// in loops over the block's threads (marked `tile.thread_loop` while the
// lowering runs; its tile.* attributes are gone at the end), tile operations
// and T.Parallel loops once per block. A run of statements is cut where one
// reads shared memory another thread may have written in the same run; a
// serial loop whose body needs such a cut stays at block level. A local
// buffer has one copy per thread; a scalar a run computes and a later run
// reads passes through a per-thread slot.

#global = #tile.scope<global>
#shared = #tile.scope<shared>
#local = #tile.scope<local>
// CHECK-NOT: tile.
// CHECK-LABEL: func.func private @__tilec_simt_body(
// CHECK-DAG: %[[S:.*]] = memref.alloca() : memref<64xf32>
// CHECK-DAG: %[[ACC:.*]] = memref.alloca() : memref<64x1xf32>
// Run 1: every thread stores its element of S and clears its accumulator;
// (tx, ty) = (t % 32, t / 32).
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %c64{{.*}} step
// CHECK: arith.remui %[[T]]
// CHECK: arith.divui %[[T]]
// CHECK: memref.store %{{.*}}, %[[S]][%{{.*}}] : memref<64xf32>
// CHECK: memref.store %{{.*}}, %[[ACC]][%[[T]], %{{.*}}] : memref<64x1xf32>
// Run 2 reads S, which other threads wrote in run 1: a second loop; the
// index 32 - tx computed in run 1 comes through its slot.
// CHECK: scf.for %[[T2:.*]] = %{{.*}} to %c64{{.*}} step
// CHECK: %[[K:.*]] = memref.load %{{.*}}[%[[T2]]] : memref<64xindex>
// CHECK: memref.load %[[S]][%[[K]]]
// CHECK: memref.store %{{.*}}, %[[ACC]][%[[T2]], %{{.*}}]
// The tile copy, once per block:
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} step
// A serial loop that writes and reads S stays at block level, with a thread
// loop for each side:
// CHECK: scf.for %{{.*}} = %c0 to %c4 step
// CHECK: scf.for {{.*}} to %c64{{.*}} {
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK: scf.for {{.*}} to %c64{{.*}} {
// CHECK: memref.load %[[S]]
// Every thread stores its own accumulator:
// CHECK: scf.for %[[T3:.*]] = %{{.*}} to %c64{{.*}} step
// CHECK: memref.load %[[ACC]][%[[T3]], %{{.*}}] : memref<64x1xf32>
// CHECK: return
tile.kernel @simt(%X: memref<?xf32, #global> {tile.name = "X"}, %Y: memref<?xf32, #global> {tile.name = "Y"},
                  %n: index {tile.name = "n", tile.dynamic}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 2, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %tx = tile.thread_id dim = 0
    %ty = tile.thread_id dim = 1
    %s = tile.alloc : memref<64xf32, #shared>
    %acc = tile.alloc : memref<1xf32, #local>
    %i = arith.muli %ty, %c32 : index
    %j = arith.addi %i, %tx : index
    %x = memref.load %X[%j] : memref<?xf32, #global>
    memref.store %x, %s[%j] : memref<64xf32, #shared>
    %z = arith.constant 0.0 : f32
    tile.fill %acc, %z : memref<1xf32, #local>, f32
    %k = arith.subi %c32, %tx : index
    %v = memref.load %s[%k] : memref<64xf32, #shared>
    memref.store %v, %acc[%c0] : memref<1xf32, #local>
    tile.copy %s[%c0] sizes [64] to %Y[%c0] sizes [64] : memref<64xf32, #shared>, memref<?xf32, #global>
    tile.for %r = %c0 to %c4 step %c1 {
      %w = memref.load %X[%r] : memref<?xf32, #global>
      memref.store %w, %s[%tx] : memref<64xf32, #shared>
      %u = memref.load %s[%c0] : memref<64xf32, #shared>
      memref.store %u, %acc[%c0] : memref<1xf32, #local>
    }
    %a = memref.load %acc[%c0] : memref<1xf32, #local>
    memref.store %a, %Y[%j] : memref<?xf32, #global>
  }
  tile.return
}
