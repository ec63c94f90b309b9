// The explicit warp-specialization ops round-trip; their verifiers.
// RUN: tilec-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: tile.kernel @ops
tile.kernel @ops() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [256, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // CHECK: %[[B:.*]] = tile.alloc_barrier [128, 256] : memref<2xi64, #tile.scope<shared>>
    %bars = tile.alloc_barrier [128, 256] : memref<2xi64, #tile.scope<shared>>
    // CHECK: tile.warp_group [0, 1] size 128 {
    tile.warp_group [0, 1] size 128 {
      // CHECK-NEXT: tile.barrier_arrive %[[B]][%{{.*}}] : memref<2xi64, #tile.scope<shared>>
      tile.barrier_arrive %bars[%c0] : memref<2xi64, #tile.scope<shared>>
      // CHECK-NEXT: tile.barrier_wait %[[B]][%{{.*}}], %{{.*}} : memref<2xi64, #tile.scope<shared>>
      tile.barrier_wait %bars[%c0], %c0 : memref<2xi64, #tile.scope<shared>>
    }
  }
  tile.return
}

// -----

tile.kernel @bad_barrier_type() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.alloc_barrier' op expects a result of type memref<2xi64, #tile.scope<shared>>}}
    %bars = tile.alloc_barrier [128, 128] : memref<3xi64, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @bad_count() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.alloc_barrier' op expects positive arrive counts, got 0}}
    %bars = tile.alloc_barrier [0] : memref<1xi64, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @empty_groups() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.warp_group' op expects at least one warp group}}
    tile.warp_group [] size 128 {
    }
  }
  tile.return
}
