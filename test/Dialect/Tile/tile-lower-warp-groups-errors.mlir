// tile-lower-warp-groups diagnostics on a target without explicit warp
// specialization and warpgroup MMA.
// RUN: tilec-opt %s --split-input-file --verify-diagnostics --tile-lower-warp-groups=target=sm_80

tile.kernel @no_ws() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [256, 1, 1] as (%bx) {
    // expected-error@+1 {{T.alloc_barrier (mbarriers for warp-specialized kernels) is not available on target 'sm_80'}}
    %bars = tile.alloc_barrier [128] : memref<1xi64, #tile.scope<shared>>
    // expected-error@+1 {{T.ws (explicit warp specialization) is not available on target 'sm_80' (tile-lang writes such kernels for Hopper, sm_90a)}}
    tile.warp_group [1] size 128 {
    }
  }
  tile.return
}

// -----

tile.kernel @no_wgmma(%A: memref<64x32xf16, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x64xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x64xf32, #tile.scope<fragment>>
    // expected-error@+1 {{T.wgmma_gemm needs warpgroup MMA (wgmma), which target 'sm_80' does not have; use T.gemm}}
    tile.gemm %a, %b, %c {wgmma} : memref<64x32xf16, #tile.scope<shared>>, memref<32x64xf16, #tile.scope<shared>>, memref<64x64xf32, #tile.scope<fragment>>
  }
  tile.return
}
