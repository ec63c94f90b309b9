// The spec's section 1 GEMM (M dynamic, N = K = 4096, 128x128x64 tiles,
// 3-stage pipeline) written in tile IR: it verifies, prints back, and keeps
// every tile op through canonicalize + CSE (their memory effects hold them).
// RUN: %tilec_opt %s | FileCheck %s
// RUN: %tilec_opt %s -canonicalize -cse | FileCheck %s --check-prefix=CANON

#global = #tile.scope<global>
#shared = #tile.scope<shared>
#fragment = #tile.scope<fragment>

// CHECK-LABEL: tile.kernel @gemm
// CHECK-SAME: (%[[A:.*]]: memref<?x4096xf16, #tile.scope<global>> {tile.dtype = "float16", tile.name = "A"},
// CHECK-SAME: %[[B:.*]]: memref<4096x4096xf16, #tile.scope<global>> {tile.dtype = "float16", tile.name = "B"},
// CHECK-SAME: %[[C:.*]]: memref<?x4096xf16, #tile.scope<global>> {tile.dtype = "float16", tile.name = "C"},
// CHECK-SAME: %[[M:.*]]: index {tile.dynamic, tile.name = "M"})
// CHECK: %[[GY:.*]] = arith.ceildivsi %[[M]], %{{.*}} : index
// CHECK: tile.launch grid(%[[GX:.*]], %[[GY]]) threads [128, 1, 1] as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK: %[[AS:.*]] = tile.alloc : memref<128x64xf16, #tile.scope<shared>>
// CHECK: %[[BS:.*]] = tile.alloc : memref<64x128xf16, #tile.scope<shared>>
// CHECK: %[[CF:.*]] = tile.alloc : memref<128x128xf32, #tile.scope<fragment>>
// CHECK: tile.fill %[[CF]], %{{.*}} : memref<128x128xf32, #tile.scope<fragment>>, f32
// CHECK: %[[ROW:.*]] = arith.muli %[[BY]]
// CHECK: %[[COL:.*]] = arith.muli %[[BX]]
// CHECK: tile.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} pipelined attributes {num_stages = 3 : i64} {
// CHECK-NEXT: %[[KK:.*]] = arith.muli %[[K]]
// CHECK-NEXT: tile.copy %[[A]][%[[ROW]], %[[KK]]] sizes [128, 64] to %[[AS]][%{{.*}}, %{{.*}}] sizes [128, 64]
// CHECK-NEXT: tile.copy %[[B]][%[[KK]], %[[COL]]] sizes [64, 128] to %[[BS]][%{{.*}}, %{{.*}}] sizes [64, 128]
// CHECK-NEXT: tile.gemm %[[AS]], %[[BS]], %[[CF]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy %[[CF]][%{{.*}}, %{{.*}}] sizes [128, 128] to %[[C]][%[[ROW]], %[[COL]]] sizes [128, 128]
// CHECK-NEXT: }
// CHECK-NEXT: tile.return

// CANON-LABEL: tile.kernel @gemm
// CANON: tile.launch
// CANON-COUNT-3: tile.alloc
// CANON: tile.fill
// CANON: tile.for {{.*}} pipelined
// CANON-COUNT-2: tile.copy
// CANON: tile.gemm
// CANON: tile.copy
// CANON: tile.return
tile.kernel @gemm(%A: memref<?x4096xf16, #global> {tile.name = "A", tile.dtype = "float16"},
                  %B: memref<4096x4096xf16, #global> {tile.name = "B", tile.dtype = "float16"},
                  %C: memref<?x4096xf16, #global> {tile.name = "C", tile.dtype = "float16"},
                  %M: index {tile.name = "M", tile.dynamic}) {
  // grid = (ceildiv(N, block_N), ceildiv(M, block_M))
  %c128 = arith.constant 128 : index
  %gx = arith.constant 32 : index
  %gy = arith.ceildivsi %M, %c128 : index
  tile.launch grid(%gx, %gy) threads [128, 1, 1] as (%bx, %by) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %A_s = tile.alloc : memref<128x64xf16, #shared>
    %B_s = tile.alloc : memref<64x128xf16, #shared>
    %C_f = tile.alloc : memref<128x128xf32, #fragment>
    // T.clear(C_f)
    %zero = arith.constant 0.0 : f32
    tile.fill %C_f, %zero : memref<128x128xf32, #fragment>, f32
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    // for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3)
    tile.for %k = %c0 to %c64 step %c1 pipelined attributes {num_stages = 3} {
      %kk = arith.muli %k, %c64 : index
      tile.copy %A[%row, %kk] sizes [128, 64] to %A_s[%c0, %c0] sizes [128, 64]
          : memref<?x4096xf16, #global>, memref<128x64xf16, #shared>
      tile.copy %B[%kk, %col] sizes [64, 128] to %B_s[%c0, %c0] sizes [64, 128]
          : memref<4096x4096xf16, #global>, memref<64x128xf16, #shared>
      tile.gemm %A_s, %B_s, %C_f
          : memref<128x64xf16, #shared>, memref<64x128xf16, #shared>, memref<128x128xf32, #fragment>
    }
    tile.copy %C_f[%c0, %c0] sizes [128, 128] to %C[%row, %col] sizes [128, 128]
        : memref<128x128xf32, #fragment>, memref<?x4096xf16, #global>
  }
  tile.return
}
