// tile-outline-launches: a kernel with several launches or global buffers
// becomes private kernels of one launch each, called in order, and a
// workspace layout function; other kernels do not change.
// RUN: %tilec_opt %s -tile-outline-launches -split-input-file | FileCheck %s
// RUN: %tilec_opt %s -tile-outline-launches -tile-outline-launches -split-input-file | FileCheck %s

// Split-K: partial sums in a global buffer sized by the runtime dimension M,
// then a reduction over them. Each part takes the grid extent it uses.
// CHECK-LABEL: tile.kernel private @splitk__k0(
// CHECK-SAME: %A: memref<?x64xf32, #tile.scope<global>> {tile.dtype = "float32", tile.name = "A", tile.shape = ["M", "64"]}
// CHECK-SAME: %C: memref<?xf32, #tile.scope<global>> {tile.dtype = "float32", tile.name = "C", tile.shape = ["M"]}
// CHECK-SAME: %partial: memref<4x?xf32, #tile.scope<global>> {tile.dtype = "float32", tile.name = "partial", tile.shape = ["4", "M"]}
// CHECK-SAME: %M: index {tile.dynamic, tile.name = "M"}
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[G:.*]] = arith.ceildivsi %M, %[[C32]] : index
// CHECK-NEXT: tile.launch grid(%[[G]]) threads [32, 1, 1] as (%bx) {
// CHECK: memref.store %{{.*}}, %partial[
// CHECK: tile.return
// CHECK-LABEL: tile.kernel private @splitk__k1(
// CHECK-SAME: %partial: memref<4x?xf32, #tile.scope<global>>
// CHECK-NOT: arith.constant 32
// CHECK: tile.launch grid(%M) threads [64, 1, 1]
// CHECK: memref.load %partial[
// CHECK: memref.store %{{.*}}, %C[
// CHECK-LABEL: func.func @__tilec_splitk_workspace(%arg0: index) -> (index, index) {
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[N:.*]] = arith.muli %[[C4]], %arg0 : index
// CHECK: %[[ESIZE:.*]] = arith.constant 4 : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[N]], %[[ESIZE]] : index
// CHECK: %[[END:.*]] = arith.addi %[[C0]], %[[BYTES]] : index
// CHECK: %[[C255:.*]] = arith.constant 255 : index
// CHECK: %[[UP:.*]] = arith.addi %[[END]], %[[C255]] : index
// CHECK: %[[CM256:.*]] = arith.constant -256 : index
// CHECK: %[[TOTAL:.*]] = arith.andi %[[UP]], %[[CM256]] : index
// CHECK: return %[[TOTAL]], %[[C0]] : index, index
// CHECK-LABEL: tile.kernel @splitk(
// CHECK-NEXT: %[[P:.*]] = tile.alloc_global(%M) {name = "partial"} : memref<4x?xf32, #tile.scope<global>>
// CHECK-NEXT: tile.call @splitk__k0(%A, %C, %[[P]], %M) : memref<?x64xf32, #tile.scope<global>>, memref<?xf32, #tile.scope<global>>, memref<4x?xf32, #tile.scope<global>>, index
// CHECK-NEXT: tile.call @splitk__k1(%A, %C, %[[P]], %M)
// CHECK-NEXT: tile.return
tile.kernel @splitk(%A: memref<?x64xf32, #tile.scope<global>> {tile.name = "A", tile.dtype = "float32", tile.shape = ["M", "64"]},
                    %C: memref<?xf32, #tile.scope<global>> {tile.name = "C", tile.dtype = "float32", tile.shape = ["M"]},
                    %M: index {tile.name = "M", tile.dynamic}) {
  %partial = tile.alloc_global(%M) {name = "partial"} : memref<4x?xf32, #tile.scope<global>>
  %c32 = arith.constant 32 : index
  %g = arith.ceildivsi %M, %c32 : index
  tile.launch grid(%g) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %x = memref.load %A[%bx, %c0] : memref<?x64xf32, #tile.scope<global>>
    memref.store %x, %partial[%c0, %bx] : memref<4x?xf32, #tile.scope<global>>
  }
  tile.launch grid(%M) threads [64, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %p = memref.load %partial[%c0, %bx] : memref<4x?xf32, #tile.scope<global>>
    memref.store %p, %C[%bx] : memref<?xf32, #tile.scope<global>>
  }
  tile.return
}

// -----

// Two launches and no global buffer: no workspace function. Unsigned and
// packed buffers keep their dtypes.
// CHECK-LABEL: tile.kernel private @two__k0(
// CHECK-SAME: %flags: memref<16xi8, #tile.scope<global>> {tile.dtype = "uint8", tile.name = "flags", tile.shape = ["16"]}
// CHECK-LABEL: tile.kernel private @two__k1(
// CHECK-LABEL: func.func @__tilec_two_workspace() -> (index, index, index)
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : index, index, index
// CHECK-LABEL: tile.kernel @two(
// CHECK: tile.alloc_global {name = "flags", tile.dtype = "uint8"}
// CHECK: tile.alloc_global {name = "nibbles"}
// CHECK: tile.call @two__k0
// CHECK: tile.call @two__k1
tile.kernel @two(%X: memref<16xf16, #tile.scope<global>> {tile.name = "X", tile.dtype = "float16", tile.shape = ["16"]},
                 %alpha: f32 {tile.name = "alpha", tile.dtype = "float32"}) {
  %flags = tile.alloc_global {name = "flags", tile.dtype = "uint8"} : memref<16xi8, #tile.scope<global>>
  %nibbles = tile.alloc_global {name = "nibbles"} : memref<33xi4, #tile.scope<global>>
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
  }
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
  }
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel private @no_buffers__k0(
// CHECK-LABEL: tile.kernel private @no_buffers__k1(
// CHECK-NOT: func.func
// CHECK-LABEL: tile.kernel @no_buffers(
// CHECK-NEXT: tile.call @no_buffers__k0(%n) : index
// CHECK-NEXT: tile.call @no_buffers__k1(%n) : index
tile.kernel @no_buffers(%n: index {tile.name = "n", tile.dynamic}) {
  tile.launch grid(%n) threads [32, 1, 1] as (%bx) {
  }
  tile.launch grid(%n) threads [32, 1, 1] as (%bx) {
  }
  tile.return
}

// -----

// One launch, no global buffer: unchanged.
// CHECK-LABEL: tile.kernel @single(
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: tile.launch grid(%[[C1]])
// CHECK-NOT: tile.call
tile.kernel @single() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
  }
  tile.return
}
