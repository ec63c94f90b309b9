// RUN: %tilec_opt %s --convert-tile-to-loops | FileCheck %s
// i4 buffers: a global tensor is packed two per byte (element i of the
// row-major tensor in byte i / 2, low nibble first); block buffers hold one
// element per byte.

#global = #tile.scope<global>
#fragment = #tile.scope<fragment>
// CHECK-LABEL: func.func private @__tilec_nibbles_body(
// CHECK-SAME: %[[X:[^:]*]]: memref<3x5xi8>
// CHECK: %[[F:.*]] = memref.alloca() : memref<3x5xi8>
// Load: linear index, byte = index / 2, shift = (index % 2) * 4.
// CHECK: %[[BYTE:.*]] = arith.shrui %{{.*}}, %{{.*}} : index
// CHECK: %[[ODD:.*]] = arith.andi
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<3x5xi8> to memref<?xi8>
// CHECK: %[[W:.*]] = memref.load %[[FLAT]][%[[BYTE]]] : memref<?xi8>
// CHECK: %[[SH:.*]] = arith.shrui %[[W]], %{{.*}} : i8
// CHECK: %[[N:.*]] = arith.trunci %[[SH]] : i8 to i4
// CHECK: scf.yield %[[N]] : i4
// CHECK: %[[E:.*]] = arith.extui %{{.*}} : i4 to i8
// CHECK: memref.store %[[E]], %[[F]]
// Store: read-modify-write of the byte, atomically.
// CHECK: %[[L:.*]] = memref.load %[[F]]
// CHECK: arith.trunci %[[L]] : i8 to i4
// CHECK: memref.generic_atomic_rmw %{{.*}}[%{{.*}}] : memref<?xi8> {
// CHECK: ^bb0(%[[OLD:.*]]: i8):
// CHECK: arith.andi %[[OLD]]
// CHECK: arith.ori
// CHECK: memref.atomic_yield
tile.kernel @nibbles(%X: memref<3x5xi4, #global> {tile.name = "X", tile.dtype = "uint4", tile.shape = ["3", "5"]}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %f = tile.alloc : memref<3x5xi4, #fragment>
    tile.copy %X[%c0, %c0] sizes [3, 5] to %f[%c0, %c0] sizes [3, 5]
        : memref<3x5xi4, #global>, memref<3x5xi4, #fragment>
    tile.copy %f[%c0, %c0] sizes [3, 5] to %X[%c0, %c0] sizes [3, 5]
        : memref<3x5xi4, #fragment>, memref<3x5xi4, #global>
  }
  tile.return
}
