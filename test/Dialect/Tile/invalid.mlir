// One case per verifier (and custom parser) error of the tile dialect.
// RUN: %tilec_opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{'tile.kernel' op expects no results, got 1}}
tile.kernel @k() -> i32 {
  tile.return
}

// -----

// expected-error@+1 {{tensor argument #0 must be in #tile.scope<global>}}
tile.kernel @k(%A: memref<4xf16, #tile.scope<shared>>) {
  tile.return
}

// -----

// expected-error@+1 {{argument #0 must be a global memref, an index or a scalar, got 'vector<4xf32>'}}
tile.kernel @k(%v: vector<4xf32>) {
  tile.return
}

// -----

// expected-error@+1 {{expects arguments ordered tensors, dynamic dimensions, scalars; argument #1 (a tensor) follows a scalar}}
tile.kernel @k(%s: f32, %A: memref<4xf16, #tile.scope<global>>) {
  tile.return
}

// -----

// expected-error@+1 {{argument #2 (a dynamic dimension) follows a scalar}}
tile.kernel @k(%A: memref<4xf16, #tile.scope<global>>, %s: i32, %M: index) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op expects a body}}
tile.kernel private @k()

// -----

// expected-error@+1 {{'tile.kernel' op expects a single block, got 2}}
tile.kernel @k() {
  tile.return
^bb1:
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op expects the body to end with tile.return}}
tile.kernel @k() {
  %c1 = arith.constant 1 : index
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'memref.alloc' op defines a global buffer; global tensors must be kernel arguments}}
    %g = memref.alloc() : memref<4xf32, #tile.scope<global>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.parallel' op has a global buffer block argument; global tensors must be kernel arguments}}
    "tile.parallel"() <{extents = array<i64: 4>}> ({
    ^bb0(%x: memref<4xf32, #tile.scope<global>>):
      "tile.yield"() : () -> ()
    }) : () -> ()
  }
  tile.return
}

// -----

// expected-error@+1 {{'tile.name' on argument #0 must be a string}}
tile.kernel @k(%M: index {tile.name = 3 : i64}) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.dynamic' on argument #0 must be a unit attribute}}
tile.kernel @k(%M: index {tile.dynamic = 1 : i64}) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.dynamic' marks an index argument, but argument #0 is 'i32'}}
tile.kernel @k(%M: i32 {tile.dynamic}) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.dtype' on argument #0 must be a string}}
tile.kernel @k(%x: f32 {tile.dtype = 1.0 : f32}) {
  tile.return
}

// -----

// expected-error@+1 {{unknown dtype "float17" on argument #0}}
tile.kernel @k(%x: f32 {tile.dtype = "float17"}) {
  tile.return
}

// -----

// expected-error@+1 {{dtype "float16" of argument #0 needs element type 'f16', got 'memref<4xf32, #tile.scope<global>>'}}
tile.kernel @k(%A: memref<4xf32, #tile.scope<global>> {tile.dtype = "float16"}) {
  tile.return
}

// -----

// expected-error@+1 {{unknown tile argument attribute 'tile.layout' on argument #0}}
tile.kernel @k(%x: f32 {tile.layout = "x"}) {
  tile.return
}

// -----

func.func @f(%g: index) {
  // expected-error@+1 {{'tile.launch' op expects parent op 'tile.kernel'}}
  tile.launch grid(%g) threads [128, 1, 1] as (%bx) {
  }
  return
}

// -----

tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.launch' op expects 1 to 3 grid extents, got 4}}
  tile.launch grid(%g, %g, %g, %g) threads [128, 1, 1] as (%a, %b, %c, %d) {
  }
  tile.return
}

// -----

tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.launch' op expects 3 thread counts, got 2}}
  tile.launch grid(%g) threads [128, 1] as (%bx) {
  }
  tile.return
}

// -----

tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.launch' op expects positive thread counts}}
  tile.launch grid(%g) threads [128, 0, 1] as (%bx) {
  }
  tile.return
}

// -----

tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.launch' op expects 3 cluster extents, got 1}}
  tile.launch grid(%g) threads [128, 1, 1] cluster [2] as (%bx) {
  }
  tile.return
}

// -----

tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.launch' op expects positive cluster extents}}
  tile.launch grid(%g) threads [128, 1, 1] cluster [2, -1, 1] as (%bx) {
  }
  tile.return
}

// -----

tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.launch' op expects 1 block index block arguments, got 2}}
  tile.launch grid(%g) threads [128, 1, 1] as (%bx, %by) {
  }
  tile.return
}

// -----

tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.launch' op expects index block arguments, got 'i32'}}
  "tile.launch"(%g) <{threads = array<i64: 128, 1, 1>}> ({
  ^bb0(%x: i32):
    "tile.yield"() : () -> ()
  }) : (index) -> ()
  tile.return
}

// -----

tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.alloc_global' op expects 1 dynamic sizes (one per '?' of 'memref<4x?xf32, #tile.scope<global>>'), got 0}}
  %w = tile.alloc_global : memref<4x?xf32, #tile.scope<global>>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error@+1 {{'tile.alloc_global' op allocates in shared; tile.alloc_global makes global buffers}}
  %w = tile.alloc_global : memref<4xf32, #tile.scope<shared>>
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.alloc_global' op expects parent op 'tile.kernel'}}
    %w = tile.alloc_global : memref<4xf32, #tile.scope<global>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error@+1 {{'tile.call' op calls 'nothing', which is not a tile.kernel}}
  tile.call @nothing()
  tile.return
}

// -----

tile.kernel private @sub(%a: memref<4xf32, #tile.scope<global>>) {
  tile.return
}
tile.kernel @k(%g: index) {
  // expected-error@+1 {{'tile.call' op passes 1 operands whose types do not match the 1 arguments of @sub}}
  tile.call @sub(%g) : index
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.alloc' op marks a shared buffer as a reducer; reducers are fragments}}
    %r = tile.alloc {reducer = #tile.reduce_kind<sum>} : memref<4xf32, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.alloc' op expects a sum, max or min reducer, got absmax}}
    %r = tile.alloc {reducer = #tile.reduce_kind<absmax>} : memref<4xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %f = tile.alloc : memref<4xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.finalize_reducer' op expects a buffer allocated as a reducer (tile.alloc {reducer = ...})}}
    tile.finalize_reducer %f : memref<4xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.alloc' op expects a static shape, got 'memref<?xf32, #tile.scope<shared>>'}}
    %a = tile.alloc : memref<?xf32, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.alloc' op cannot allocate a global buffer}}
    %a = tile.alloc : memref<4xf32, #tile.scope<global>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.alloc' op expects an identity layout}}
    %a = tile.alloc : memref<4x4xf32, strided<[8, 1]>, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error@+1 {{'tile.alloc' op must be inside a tile.launch}}
  %a = tile.alloc : memref<4xf32, #tile.scope<shared>>
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.alloc' op result #0 must be memref of tile elements in a #tile.scope memory space}}
    %a = tile.alloc : memref<4xf32>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.alloc' op result #0 must be memref of tile elements in a #tile.scope memory space}}
    %a = tile.alloc : memref<4xindex, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.copy' op expects 2 source offsets (one per dimension of 'memref<64x32xf16, #tile.scope<shared>>'), got 1}}
    tile.copy %s[%c0] sizes [1, 32] to %f[%c0] sizes [32] : memref<64x32xf16, #tile.scope<shared>>, memref<32xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.copy' op expects 1 destination sizes (one per dimension of 'memref<32xf32, #tile.scope<fragment>>'), got 2}}
    tile.copy %s[%c0, %c0] sizes [1, 32] to %f[%c0] sizes [1, 32] : memref<64x32xf16, #tile.scope<shared>>, memref<32xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.copy' op expects positive source sizes, got [0, 32]}}
    tile.copy %s[%c0, %c0] sizes [0, 32] to %f[%c0] sizes [32] : memref<64x32xf16, #tile.scope<shared>>, memref<32xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.copy' op source extent [2, 32] and destination extent [32] differ (after dropping unit dimensions)}}
    tile.copy %s[%c0, %c0] sizes [2, 32] to %f[%c0] sizes [32] : memref<64x32xf16, #tile.scope<shared>>, memref<32xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.copy' op destination region [64] does not fit in buffer of shape 32}}
    tile.copy %s[%c0, %c0] sizes [64, 1] to %f[%c0] sizes [64] : memref<64x32xf16, #tile.scope<shared>>, memref<32xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    %c40 = arith.constant 40 : index
    // expected-error@+1 {{'tile.copy' op source region [32, 32] at offset 40 in dimension 0 is out of bounds of buffer of shape 64x32}}
    tile.copy %s[%c40, %c0] sizes [32, 32] to %s[%c0, %c0] sizes [32, 32] : memref<64x32xf16, #tile.scope<shared>>, memref<64x32xf16, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<local>>
    %b = tile.alloc : memref<32x128xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x128xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.gemm' op expects A in shared or fragment scope, got local}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #tile.scope<local>>, memref<32x128xf16, #tile.scope<shared>>, memref<64x128xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x128xf16, #tile.scope<local>>
    %c = tile.alloc : memref<64x128xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.gemm' op expects B in shared or fragment scope, got local}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #tile.scope<shared>>, memref<32x128xf16, #tile.scope<local>>, memref<64x128xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x128xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x128xf32, #tile.scope<shared>>
    // expected-error@+1 {{'tile.gemm' op expects C in fragment scope, got shared}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #tile.scope<shared>>, memref<32x128xf16, #tile.scope<shared>>, memref<64x128xf32, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x128x1xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x128xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.gemm' op expects rank-2 operands, got A 64x32, B 32x128x1, C 64x128}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #tile.scope<shared>>, memref<32x128x1xf16, #tile.scope<shared>>, memref<64x128xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x128xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x128xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.gemm' op expects k_pack >= 1, got 0}}
    tile.gemm %a, %b, %c {k_pack = 0} : memref<64x32xf16, #tile.scope<shared>>, memref<32x128xf16, #tile.scope<shared>>, memref<64x128xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x128xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x128xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.gemm' op shapes do not agree: A is 64x32, B is 32x128 (transposed), C is 64x128; expected op(A) MxK, op(B) KxN, C MxN}}
    tile.gemm %a, %b, %c {transpose_b} : memref<64x32xf16, #tile.scope<shared>>, memref<32x128xf16, #tile.scope<shared>>, memref<64x128xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x128xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x128xi32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.gemm' op accumulator element type 'i32' does not suit operand element type 'f16'}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #tile.scope<shared>>, memref<32x128xf16, #tile.scope<shared>>, memref<64x128xi32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %f = tile.alloc : memref<32xf16, #tile.scope<fragment>>
    %z = arith.constant 0.0 : f32
    // expected-error@+1 {{'tile.fill' op fill value has type 'f32' but the buffer's element type is 'f16'}}
    tile.fill %f, %z : memref<32xf16, #tile.scope<fragment>>, f32
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<f32, #tile.scope<local>>
    %d = tile.alloc : memref<f32, #tile.scope<local>>
    // expected-error@+1 {{'tile.reduce' op expects a source of rank >= 1}}
    tile.reduce sum %s -> %d dim = 0 : memref<f32, #tile.scope<local>>, memref<f32, #tile.scope<local>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf32, #tile.scope<fragment>>
    %d = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.reduce' op reduction dim 2 is out of range for a source of rank 2}}
    tile.reduce max %s -> %d dim = 2 : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf32, #tile.scope<fragment>>
    %d = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.reduce' op destination shape 64 does not match source shape 64x32 without dimension 0 (32)}}
    tile.reduce max %s -> %d dim = 0 : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf32, #tile.scope<fragment>>
    %d = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    // expected-error@+1 {{expected a reduce kind (max, min, sum, abssum, absmax), got 'prod'}}
    tile.reduce prod %s -> %d dim = 1 : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.cumsum' op cumsum dim 1 is out of range for a source of rank 1}}
    tile.cumsum %s -> %s dim = 1 : memref<64xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf32, #tile.scope<fragment>>
    %d = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.cumsum' op destination shape 64 differs from source shape 64x32}}
    tile.cumsum %s -> %d dim = 0 : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %f = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    %one = arith.constant 1.0 : f32
    // expected-error@+1 {{'tile.atomic_add' op expects a global or shared destination, got fragment}}
    tile.atomic_add %f[%c0], %one : memref<32xf32, #tile.scope<fragment>>, f32
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<4x32xf32, #tile.scope<shared>>
    %one = arith.constant 1.0 : f32
    // expected-error@+1 {{'tile.atomic_add' op expects 2 indices (one per dimension of 'memref<4x32xf32, #tile.scope<shared>>'), got 1}}
    tile.atomic_add %s[%c0], %one : memref<4x32xf32, #tile.scope<shared>>, f32
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<32xf32, #tile.scope<shared>>
    %v = memref.alloca() : memref<32xf32>
    // expected-error@+1 {{'tile.atomic_add' op expects the added buffer in a #tile.scope memory space, got 'memref<32xf32>'}}
    tile.atomic_add %s[%c0], %v : memref<32xf32, #tile.scope<shared>>, memref<32xf32>
  }
  tile.return
}

// -----

tile.kernel @k(%A: memref<?xf32, #tile.scope<global>>, %n: index) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %s = tile.alloc : memref<32xf32, #tile.scope<shared>>
    // expected-error@+1 {{'tile.atomic_add' op expects the added buffer to have a static shape, got 'memref<?xf32, #tile.scope<global>>'}}
    tile.atomic_add %s[%bx], %A : memref<32xf32, #tile.scope<shared>>, memref<?xf32, #tile.scope<global>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<32xf32, #tile.scope<shared>>
    %f = tile.alloc : memref<2x32xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.atomic_add' op added buffer of rank 2 exceeds the destination's rank 1}}
    tile.atomic_add %s[%c0], %f : memref<32xf32, #tile.scope<shared>>, memref<2x32xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<32xf32, #tile.scope<shared>>
    %one = arith.constant 1.0 : f16
    // expected-error@+1 {{'tile.atomic_add' op added value has type 'f16' but the destination's element type is 'f32'}}
    tile.atomic_add %s[%c0], %one : memref<32xf32, #tile.scope<shared>>, f16
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %v = memref.alloca() : memref<32xf32>
    // expected-error@+1 {{'tile.print' op expects a buffer in a #tile.scope memory space, got 'memref<32xf32>'}}
    tile.print %v : memref<32xf32>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1.0> : vector<4xf32>
    // expected-error@+1 {{'tile.print' op expects a scalar or a buffer, got 'vector<4xf32>'}}
    tile.print %v : vector<4xf32>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    tile.parallel (%i) in [4] {
      // expected-error@+1 {{'tile.use_swizzle' op must be directly inside a tile.launch}}
      tile.use_swizzle panel_size = 8, order = "row"
    }
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.use_swizzle' op expects panel_size > 0, got 0}}
    tile.use_swizzle panel_size = 0, order = "row"
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.use_swizzle' op expects order "row" or "col", got "diag"}}
    tile.use_swizzle panel_size = 8, order = "diag"
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %l = tile.alloc : memref<4x4xf32, #tile.scope<local>>
    // expected-error@+1 {{'tile.annotate_layout' op expects a shared or fragment buffer, got local}}
    tile.annotate_layout %l : memref<4x4xf32, #tile.scope<local>> with #tile.swizzled<bytes = 64>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %f = tile.alloc : memref<4x4xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.annotate_layout' op a swizzled layout applies to shared buffers, got 'memref<4x4xf32, #tile.scope<fragment>>'}}
    tile.annotate_layout %f : memref<4x4xf32, #tile.scope<fragment>> with #tile.swizzled<bytes = 64>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64xf16, #tile.scope<shared>>
    // expected-error@+1 {{'tile.annotate_layout' op a swizzled layout needs a buffer of rank >= 2, got 'memref<64xf16, #tile.scope<shared>>'}}
    tile.annotate_layout %s : memref<64xf16, #tile.scope<shared>> with #tile.swizzled<bytes = 128>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<4x4xf32, #tile.scope<shared>>
    // expected-error@+1 {{'tile.annotate_layout' op a fragment layout applies to fragment buffers, got 'memref<4x4xf32, #tile.scope<shared>>'}}
    tile.annotate_layout %s : memref<4x4xf32, #tile.scope<shared>> with #tile.fragment_layout<shape = [4, 4], threads = 128, regs = 4, dims = [[thread(1, 2, 2), reg(2, 2, 1)], [thread(2, 2, 2), reg(1, 2, 1)]]>
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %f = tile.alloc : memref<4x4xf32, #tile.scope<fragment>>
    // expected-error@+1 {{'tile.annotate_layout' op fragment layout of shape [16] does not match buffer 'memref<4x4xf32, #tile.scope<fragment>>'}}
    tile.annotate_layout %f : memref<4x4xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [16], threads = 128, regs = 1, dims = [[thread(1, 16, 1)]]>
  }
  tile.return
}

// -----

// expected-error@+1 {{swizzle width must be 32, 64 or 128 bytes, got 48}}
#bad = #tile.swizzled<bytes = 48>

// -----

// expected-error@+1 {{fragment layout has 2 extents but 1 dims}}
#bad = #tile.fragment_layout<shape = [2, 2], threads = 4, regs = 1, dims = [[thread(1, 2, 1)]]>

// -----

// expected-error@+1 {{fragment layout extents must be positive}}
#bad = #tile.fragment_layout<shape = [0], threads = 1, regs = 1, dims = [[]]>

// -----

// expected-error@+1 {{fragment layout field thread(4, 8, 1) reads past threads = 16}}
#bad = #tile.fragment_layout<shape = [8], threads = 16, regs = 1, dims = [[thread(4, 8, 1)]]>

// -----

// expected-error@+1 {{fragment layout reaches index 15 of dimension 0 of extent 8}}
#bad = #tile.fragment_layout<shape = [8], threads = 16, regs = 1, dims = [[thread(1, 16, 1)]]>


// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.thread_id' op expects dim 0, 1 or 2, got 3}}
    %t = tile.thread_id dim = 3
  }
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error@+1 {{'tile.thread_id' op must be inside a tile.launch}}
  %t = tile.thread_id dim = 0
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.parallel' op expects at least one extent}}
    tile.parallel () in [] {
    }
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.parallel' op expects positive extents}}
    tile.parallel (%i, %j) in [4, 0] {
    }
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.parallel' op expects 2 induction variable block arguments, got 1}}
    tile.parallel (%i) in [4, 4] {
    }
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.for' op num_stages is only valid on a pipelined loop}}
    tile.for %k = %c0 to %c1 step %c1 serial attributes {num_stages = 2} {
    }
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.for' op expects num_stages >= 1, got 0}}
    tile.for %k = %c0 to %c1 step %c1 pipelined attributes {num_stages = 0} {
    }
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.for' op expects a non-zero step}}
    tile.for %k = %c0 to %c1 step %c0 {
    }
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{expected a loop kind (serial, unroll, pipelined), got 'vectorized'}}
    tile.for %k = %c0 to %c1 step %c1 vectorized {
    }
  }
  tile.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'tile.yield' op expects parent op to be one of 'tile.launch, tile.parallel, tile.for, tile.warp_group'}}
  tile.yield
}

// -----

tile.kernel @k(%g: index) {
  tile.launch grid(%g) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.return' op expects parent op 'tile.kernel'}}
    tile.return
  }
  tile.return
}

// -----

// expected-error @+1 {{'tile.shape' on argument #0 has 1 dimensions, but the tensor has rank 2}}
tile.kernel @bad_shape_rank(%A: memref<4x4xf32, #tile.scope<global>> {tile.dtype = "float32", tile.shape = ["4"]}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.shape' on argument #0 must be an array of strings}}
tile.kernel @bad_shape_kind(%A: memref<4xf32, #tile.scope<global>> {tile.dtype = "float32", tile.shape = [4]}) {
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %v = tile.alloc : memref<4x4xf32, #tile.scope<local>>
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.call_extern' op expects 2 indices after pointer argument 0}}
    "tile.call_extern"(%v, %c0) {callee = "f", arg_ctypes = ["float*"], result_ctype = "void"} : (memref<4x4xf32, #tile.scope<local>>, index) -> ()
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %i = arith.constant 3 : i32
    // expected-error@+1 {{'tile.call_extern' op has 1 arguments but 2 C++ argument types}}
    tile.call_extern "f"(%i) {arg_ctypes = ["int", "int"], result_ctype = "void"} : (i32) -> ()
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %i = arith.constant 3 : i32
    // expected-error@+1 {{'tile.call_extern' op result type 'int' does not match its results}}
    tile.call_extern "f"(%i) {arg_ctypes = ["int"], result_ctype = "int"} : (i32) -> ()
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %v = arith.constant dense<1.0> : vector<4xf32>
    // expected-error@+1 {{'tile.call_extern' op expects scalar or buffer arguments, got 'vector<4xf32>'}}
    tile.call_extern "f"(%v) {arg_ctypes = ["float4"], result_ctype = "void"} : (vector<4xf32>) -> ()
  }
  tile.return
}

// -----

tile.kernel @k() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %i = arith.constant 3 : i32
    // expected-error@+1 {{'tile.call_extern' op has 1 sources but 0 source locations}}
    tile.call_extern "f"(%i) {arg_ctypes = ["int"], result_ctype = "void", sources = ["int x;"]} : (i32) -> ()
  }
  tile.return
}
