// tile-plan-shared-memory past the target's limit (sm_80: 166912 bytes).
// %p and %q (80 KB each) are never live together (the top-level ops that
// use them do not overlap), so they share bytes; %r (80 KB), live with
// both, gets its own. With them 163840 + 2 x 4096 bytes of reduction scratch (256
// threads x 4 rows of the column sums) would still not fit: each scratch
// half holds one 32-bit value per thread instead (1024 bytes), and the
// lowering reduces one register at a time.
// RUN: tilec-opt %s --tile-infer-layouts=target=sm_80 --tile-plan-pipelines=target=sm_80 --tile-plan-shared-memory=target=sm_80 | FileCheck %s
// CHECK: tile.launch {{.*}} attributes {tile.shared_memory = #tile.shared_memory<size = 165888, scratch_offset = 163840, reduce_scratch = 1024, aligned_window = false>}
// CHECK: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 0, stages = 1, {{.*}}} : memref<160x128xf32
// CHECK: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 0, stages = 1, {{.*}}} : memref<160x128xf32
// CHECK: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 81920, stages = 1, {{.*}}} : memref<160x128xf32
tile.kernel @phases(%X: memref<160x128xf32, #tile.scope<global>>, %Y: memref<160x128xf32, #tile.scope<global>>, %S: memref<64xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [256, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %p = tile.alloc : memref<160x128xf32, #tile.scope<shared>>
    %q = tile.alloc : memref<160x128xf32, #tile.scope<shared>>
    %r = tile.alloc : memref<160x128xf32, #tile.scope<shared>>
    %f = tile.alloc : memref<64x64xf32, #tile.scope<fragment>>
    %s = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    tile.copy %X[%c0, %c0] sizes [160, 128] to %p[%c0, %c0] sizes [160, 128] : memref<160x128xf32, #tile.scope<global>>, memref<160x128xf32, #tile.scope<shared>>
    tile.copy %p[%c0, %c0] sizes [160, 128] to %r[%c0, %c0] sizes [160, 128] : memref<160x128xf32, #tile.scope<shared>>, memref<160x128xf32, #tile.scope<shared>>
    tile.copy %X[%c0, %c0] sizes [160, 128] to %q[%c0, %c0] sizes [160, 128] : memref<160x128xf32, #tile.scope<global>>, memref<160x128xf32, #tile.scope<shared>>
    tile.copy %q[%c0, %c0] sizes [160, 128] to %Y[%c0, %c0] sizes [160, 128] : memref<160x128xf32, #tile.scope<shared>>, memref<160x128xf32, #tile.scope<global>>
    tile.copy %r[%c0, %c0] sizes [64, 64] to %f[%c0, %c0] sizes [64, 64] : memref<160x128xf32, #tile.scope<shared>>, memref<64x64xf32, #tile.scope<fragment>>
    tile.reduce sum %f -> %s dim = 0 : memref<64x64xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
    tile.copy %s[%c0] sizes [64] to %S[%c0] sizes [64] : memref<64xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<global>>
  }
  tile.return
}
