// tile-plan-shared-memory diagnostics: a window past the target's shared
// memory (with the figure and the limit), a fragment without a layout (the
// pass runs after tile-infer-layouts).
// RUN: tilec-opt %s --split-input-file --verify-diagnostics --tile-plan-shared-memory=target=sm_80

tile.kernel @too_big() {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{the kernel needs 262144 bytes of shared memory; sm_80 allows at most 166912}}
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %a = tile.alloc : memref<256x256xf32, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @no_layout() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.alloc' op has no fragment layout (tile-infer-layouts writes one)}}
    %x = tile.alloc : memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

