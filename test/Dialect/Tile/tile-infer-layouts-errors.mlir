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

// -----

// The accumulator of an mma gemm is spread over the threads; reading one of
// its elements outside T.Parallel would need every thread to hold all of it.
tile.kernel @gemm_replicated(%O: memref<1xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<16x16xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<16x8xf16, #tile.scope<shared>>
    %acc = tile.alloc : memref<16x8xf32, #tile.scope<fragment>>
    // expected-error@+1 {{T.gemm needs its accumulator distributed over the threads (the mma layout), but the fragment is also indexed outside T.Parallel, which replicates it (every thread holds all of it); read it there from a copy (T.copy it into a T.alloc_local or shared buffer) instead}}
    tile.gemm %a, %b, %acc : memref<16x16xf16, #tile.scope<shared>>, memref<16x8xf16, #tile.scope<shared>>, memref<16x8xf32, #tile.scope<fragment>>
    // expected-note@+1 {{indexed outside T.Parallel here}}
    %v = memref.load %acc[%c0, %c0] : memref<16x8xf32, #tile.scope<fragment>>
    memref.store %v, %O[%c0] : memref<1xf32, #tile.scope<global>>
  }
  tile.return
}

// -----

// A row reduction of a fragment spread over rows and columns leaves the rows
// spread: its destination cannot be the replicated one a read outside
// T.Parallel needs.
tile.kernel @reduce_replicated(%O: memref<1xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %x = tile.alloc : memref<128x32xf32, #tile.scope<fragment>>
    %row = tile.alloc : memref<128xf32, #tile.scope<fragment>>
    // expected-error@+1 {{this reduction gives its destination the layout of its source without the reduced dimension, which is distributed over the threads, but the fragment is also indexed outside T.Parallel}}
    tile.reduce sum %x -> %row dim = 1 : memref<128x32xf32, #tile.scope<fragment>>, memref<128xf32, #tile.scope<fragment>>
    // expected-note@+1 {{indexed outside T.Parallel here}}
    %v = memref.load %row[%c0] : memref<128xf32, #tile.scope<fragment>>
    memref.store %v, %O[%c0] : memref<1xf32, #tile.scope<global>>
  }
  tile.return
}

// -----

// A loop that writes a replicated fragment runs whole on every thread, so it
// cannot also index a fragment spread over the threads.
tile.kernel @loop_replicated(%O: memref<1xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %x = tile.alloc : memref<128xf32, #tile.scope<fragment>>
    %y = tile.alloc : memref<128xf32, #tile.scope<fragment>>
    tile.annotate_layout %x : memref<128xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [128], threads = 128, regs = 1, dims = [[thread(1, 128, 1)]]>
    // expected-error@+1 {{this T.Parallel writes a replicated fragment, so every thread runs all its iterations, but it also indexes a fragment distributed over the threads}}
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : memref<128xf32, #tile.scope<fragment>>
      memref.store %v, %y[%i] : memref<128xf32, #tile.scope<fragment>>
    }
    // expected-note@+1 {{indexed outside T.Parallel here}}
    %v = memref.load %y[%c0] : memref<128xf32, #tile.scope<fragment>>
    memref.store %v, %O[%c0] : memref<1xf32, #tile.scope<global>>
  }
  tile.return
}
