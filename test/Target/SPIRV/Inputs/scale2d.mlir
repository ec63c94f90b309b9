// Thread-level IR in the form convert-tile-to-gpu writes (gpu.module
// @tilec_kernels, a grid function per kernel), written by hand:
// Y[i, j] = alpha * X[i, j] + 1 for X, Y of shape (M, 32), M dynamic;
// 64 threads per block, block (bx, by) covers rows by*2 .. by*2+1.
module attributes {gpu.container_module} {
  func.func @__tilec_scale2d_grid(%M: index, %alpha: f32) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %rows = arith.ceildivsi %M, %c2 : index
    return %c1, %rows, %c1 : index, index, index
  }
  gpu.module @tilec_kernels {
    gpu.func @scale2d(%X: memref<?x32xf32, #gpu.address_space<global>> {tile.name = "X", tile.dtype = "float32", tile.shape = ["M", "32"]},
                      %Y: memref<?x32xf32, #gpu.address_space<global>> {tile.name = "Y", tile.dtype = "float32", tile.shape = ["M", "32"]},
                      %M: index {tile.name = "M", tile.dynamic},
                      %alpha: f32 {tile.name = "alpha", tile.dtype = "float32"}) kernel
        attributes {tile.threads = array<i64: 64, 1, 1>, tile.shared_bytes = 0 : i64} {
      %c32 = arith.constant 32 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f32
      %by = gpu.block_id y
      %tid = gpu.thread_id x
      %r = arith.divui %tid, %c32 : index
      %j = arith.remui %tid, %c32 : index
      %row0 = arith.muli %by, %c2 : index
      %i = arith.addi %row0, %r : index
      %in = arith.cmpi slt, %i, %M : index
      scf.if %in {
        %x = memref.load %X[%i, %j] : memref<?x32xf32, #gpu.address_space<global>>
        %ax = arith.mulf %alpha, %x : f32
        %y = arith.addf %ax, %one : f32
        memref.store %y, %Y[%i, %j] : memref<?x32xf32, #gpu.address_space<global>>
      }
      gpu.return
    }
  }
}
