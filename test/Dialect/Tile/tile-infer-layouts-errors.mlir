// tile-infer-layouts diagnostics: annotations that conflict with each other,
// with the block or with the layout a gemm needs.
// RUN: tilec-opt %s --split-input-file --verify-diagnostics --tile-infer-layouts=target=sm_80

tile.kernel @two_annotations() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %x = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    tile.annotate_layout %x : memref<32xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [32], threads = 32, regs = 1, dims = [[thread(1, 32, 1)]]>
    // expected-error@+1 {{'tile.annotate_layout' op pins a fragment layout that conflicts with an earlier one of the same buffer}}
    tile.annotate_layout %x : memref<32xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [32], threads = 32, regs = 32, dims = [[reg(1, 32, 1)]]>
  }
  tile.return
}

// -----

tile.kernel @wrong_threads() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [64, 1, 1] as (%bx) {
    %x = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.annotate_layout' op pins a fragment layout over 32 threads in a block of 64}}
    tile.annotate_layout %x : memref<32xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [32], threads = 32, regs = 1, dims = [[thread(1, 32, 1)]]>
  }
  tile.return
}

// -----

tile.kernel @gemm_conflict(%A: memref<?x32xf16, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %a = tile.alloc : memref<16x16xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<16x8xf16, #tile.scope<shared>>
    %acc = tile.alloc : memref<16x8xf32, #tile.scope<fragment>>
    tile.annotate_layout %acc : memref<16x8xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [16, 8], threads = 32, regs = 4, dims = [[thread(2, 16, 1)], [thread(1, 2, 4), reg(1, 4, 1)]]>
    // expected-error@+1 {{the accumulator of this gemm already has another layout (an earlier gemm splits it differently, or an annotation pins another)}}
    tile.gemm %a, %b, %acc : memref<16x16xf16, #tile.scope<shared>>, memref<16x8xf16, #tile.scope<shared>>, memref<16x8xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @layout_on_shared() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    // expected-error@+1 {{a fragment layout applies to fragment buffers, got 'memref<32xf32, #tile.scope<shared>>'}}
    %x = tile.alloc {tile.layout = #tile.fragment_layout<shape = [32], threads = 32, regs = 1, dims = [[thread(1, 32, 1)]]>} : memref<32xf32, #tile.scope<shared>>
  }
  tile.return
}
