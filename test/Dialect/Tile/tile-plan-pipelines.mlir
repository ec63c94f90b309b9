// tile-plan-pipelines on hand-written tile IR: which copies of a T.Pipelined
// loop are staged, how deep, on which engine, and whether the loop hands off
// to its gemm; for a target with per-thread async copies (sm_80), one with
// tensor copies (sm_90a) and one without asynchronous copies (vulkan).
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=sm_80 --tile-plan-pipelines=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=sm_90a --tile-plan-pipelines=target=sm_90a | FileCheck %s --check-prefix=SM90
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=vulkan --tile-plan-pipelines=target=vulkan | FileCheck %s --check-prefix=VK
// RUN: not tilec-opt %s --tile-plan-pipelines=target=tpu 2>&1 | FileCheck %s --check-prefix=BADTARGET

// A GEMM main loop: both tiles staged 3 deep, the mma gemm after them is the
// consumer. sm_90a takes tensor copies (whole 2-D tiles of kernel
// arguments, swizzled); Vulkan has no async copies and no matrix
// instruction (no hand-off).
// SM80-LABEL: tile.kernel @gemm
// SM80: tile.for {{.*}} pipelined attributes {num_stages = 3 : i64, tile.pipeline = #tile.pipeline<stages = 3, engine = async, handoff = true>}
// SM80-NEXT: arith.muli
// SM80-NEXT: tile.copy {{.*}} {tile.staged}
// SM80-NEXT: tile.copy {{.*}} {tile.staged}
// SM80-NEXT: tile.gemm {{.*}} {tile.gemm_plan
// SM90-LABEL: tile.kernel @gemm
// SM90: tile.for {{.*}} pipelined attributes {num_stages = 3 : i64, tile.pipeline = #tile.pipeline<stages = 3, engine = tensor, handoff = true>}
// VK-LABEL: tile.kernel @gemm
// VK: tile.for {{.*}} pipelined attributes {num_stages = 3 : i64, tile.pipeline = #tile.pipeline<stages = 3, engine = sync, handoff = false>}
// VK-NEXT: arith.muli
// VK-NEXT: tile.copy {{.*}} {tile.staged}
// VK-NEXT: tile.copy {{.*}} {tile.staged}
tile.kernel @gemm(%A: memref<?x256xf16, #tile.scope<global>>, %B: memref<?x64xf16, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x64xf16, #tile.scope<shared>>
    %acc = tile.alloc : memref<64x64xf32, #tile.scope<fragment>>
    tile.for %k = %c0 to %c8 step %c1 pipelined attributes {num_stages = 3} {
      %kk = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %kk] sizes [64, 32] to %a[%c0, %c0] sizes [64, 32] : memref<?x256xf16, #tile.scope<global>>, memref<64x32xf16, #tile.scope<shared>>
      tile.copy %B[%kk, %c0] sizes [32, 64] to %b[%c0, %c0] sizes [32, 64] : memref<?x64xf16, #tile.scope<global>>, memref<32x64xf16, #tile.scope<shared>>
      tile.gemm %a, %b, %acc : memref<64x32xf16, #tile.scope<shared>>, memref<32x64xf16, #tile.scope<shared>>, memref<64x64xf32, #tile.scope<fragment>>
    }
  }
  tile.return
}

// -----

// Copies that cannot be issued ahead leave the loop unplanned: an offset
// read from memory (not pure), a destination an earlier op of the body
// touches, a loop of one stage.
// SM80-LABEL: tile.kernel @unplanned
// SM80-NOT: tile.staged
// SM80-NOT: tile.pipeline =
// SM80: tile.return
// SM90-LABEL: tile.kernel @unplanned
// SM90-NOT: tile.pipeline =
// SM90: tile.return
tile.kernel @unplanned(%A: memref<?x256xf16, #tile.scope<global>>, %I: memref<8xindex, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<64x32xf16, #tile.scope<fragment>>
    tile.for %k = %c0 to %c8 step %c1 pipelined attributes {num_stages = 2} {
      %row = memref.load %I[%k] : memref<8xindex, #tile.scope<global>>
      tile.copy %A[%row, %c0] sizes [64, 32] to %a[%c0, %c0] sizes [64, 32] : memref<?x256xf16, #tile.scope<global>>, memref<64x32xf16, #tile.scope<shared>>
      tile.copy %a[%c0, %c0] sizes [64, 32] to %f[%c0, %c0] sizes [64, 32] : memref<64x32xf16, #tile.scope<shared>>, memref<64x32xf16, #tile.scope<fragment>>
    }
    tile.for %k = %c0 to %c8 step %c1 pipelined attributes {num_stages = 2} {
      tile.copy %a[%c0, %c0] sizes [64, 32] to %f[%c0, %c0] sizes [64, 32] : memref<64x32xf16, #tile.scope<shared>>, memref<64x32xf16, #tile.scope<fragment>>
      tile.copy %A[%k, %c0] sizes [64, 32] to %a[%c0, %c0] sizes [64, 32] : memref<?x256xf16, #tile.scope<global>>, memref<64x32xf16, #tile.scope<shared>>
    }
    tile.for %k = %c0 to %c8 step %c1 pipelined attributes {num_stages = 1} {
      tile.copy %A[%k, %c0] sizes [64, 32] to %a[%c0, %c0] sizes [64, 32] : memref<?x256xf16, #tile.scope<global>>, memref<64x32xf16, #tile.scope<shared>>
    }
  }
  tile.return
}

// BADTARGET: unknown target 'tpu' for the tile planning passes
