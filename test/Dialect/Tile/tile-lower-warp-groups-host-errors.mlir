// tile-lower-warp-groups diagnostics every target gives: a warp group the
// block does not have, per-thread results used outside their T.ws region.
// RUN: tilec-opt %s --split-input-file --verify-diagnostics --tile-lower-warp-groups=target=host

tile.kernel @missing_group() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    // expected-error@+1 {{T.ws(1) names warp group 1, but the block's 128 threads make 1 warp group of 128}}
    tile.warp_group [1] size 128 {
    }
  }
  tile.return
}

// -----

tile.kernel @escaping(%Out: memref<128xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [256, 1, 1] as (%bx) {
    %v = tile.alloc : memref<f32, #tile.scope<local>>
    %f = tile.alloc : memref<128xf32, #tile.scope<fragment>>
    tile.warp_group [0] size 128 {
      %c0 = arith.constant 0 : index
      %true = arith.constant true
      // expected-error@+1 {{a value computed by per-thread code inside T.ws is used outside the statements that compute it}}
      %r = scf.if %true -> (f32) {
        %x = arith.constant 1.0 : f32
        memref.store %x, %v[] : memref<f32, #tile.scope<local>>
        scf.yield %x : f32
      } else {
        %y = arith.constant 2.0 : f32
        scf.yield %y : f32
      }
      tile.fill %f, %r : memref<128xf32, #tile.scope<fragment>>, f32
    }
  }
  tile.return
}
