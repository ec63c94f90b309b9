// tile-lower-warp-groups: T.ws regions run in program order, their
// per-thread writers only on the named warp groups' threads; barriers go.
// RUN: tilec-opt %s --tile-lower-warp-groups=target=host | FileCheck %s
// RUN: tilec-opt %s --tile-lower-warp-groups=target=sm_90a | FileCheck %s

// CHECK-LABEL: tile.kernel @producer_consumer
tile.kernel @producer_consumer(%A: memref<128x64xf16, #tile.scope<global>>, %Out: memref<128xi32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [256, 1, 1] as (%bx) {
    %s = tile.alloc : memref<128x64xf16, #tile.scope<shared>>
    // CHECK-NOT: tile.alloc_barrier
    %bars = tile.alloc_barrier [128, 128] : memref<2xi64, #tile.scope<shared>>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    // CHECK-NOT: tile.warp_group
    // CHECK-NOT: tile.barrier_
    tile.warp_group [1] size 128 {
      tile.barrier_wait %bars[%c0], %c0 : memref<2xi64, #tile.scope<shared>>
      tile.copy %A[%c0, %c0] sizes [128, 64] to %s[%c0, %c0] sizes [128, 64] : memref<128x64xf16, #tile.scope<global>>, memref<128x64xf16, #tile.scope<shared>>
      tile.barrier_arrive %bars[%c0] : memref<2xi64, #tile.scope<shared>>
      // The store runs on warp group 1's threads only: 128 <= tid < 256.
      // CHECK: %[[TID:.*]] = tile.thread_id dim = 0
      // CHECK: %[[LO:.*]] = arith.cmpi uge, %[[TID]], %{{.*}} : index
      // CHECK: %[[HI:.*]] = arith.cmpi ult, %[[TID]], %{{.*}} : index
      // CHECK: %[[IN:.*]] = arith.andi %[[LO]], %[[HI]] : i1
      // CHECK: tile.copy
      // CHECK: %[[T:.*]] = tile.thread_id dim = 0
      // CHECK: %[[I:.*]] = arith.subi %[[T]]
      // CHECK: %[[V:.*]] = arith.index_cast %[[T]]
      // CHECK: scf.if %[[IN]] {
      // CHECK-NEXT: memref.store %[[V]], %{{.*}}[%[[I]]]
      // CHECK-NEXT: }
      %t = tile.thread_id dim = 0
      %i = arith.subi %t, %c128 : index
      %v = arith.index_cast %t : index to i32
      memref.store %v, %Out[%i] : memref<128xi32, #tile.scope<global>>
    }
  }
  tile.return
}
