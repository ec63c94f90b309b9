// tile-plan-shared-memory on hand-written tile IR (after tile-infer-layouts
// and tile-plan-pipelines): offsets, stages and swizzles of the shared
// buffers, the scratch of cross-warp reductions, and the 1 KB aligned window
// of tensor-copy pipelines.
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=sm_80 --tile-plan-pipelines=target=sm_80 --tile-plan-shared-memory=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=sm_90a --tile-plan-pipelines=target=sm_90a --tile-plan-shared-memory=target=sm_90a | FileCheck %s --check-prefix=SM90
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=vulkan --tile-plan-pipelines=target=vulkan --tile-plan-shared-memory=target=vulkan | FileCheck %s --check-prefix=VK

// A GEMM main loop staged 2 deep: A (64 x 32 f16, 64-byte rows: 64-byte
// swizzle) at 0, B (32 x 128 f16, 256-byte rows: 128-byte swizzle) after A's
// two stages; the epilogue tile C is read by a T.Parallel loop (not
// swizzled). On sm_90a the tiles come by tensor copy: the window is 1 KB
// aligned and B's 256-byte rows are stored as 128-byte column boxes.
// SM80-LABEL: tile.kernel @gemm
// SM80: tile.launch {{.*}} attributes {tile.shared_memory = #tile.shared_memory<size = 40960, scratch_offset = 40960, reduce_scratch = 0, aligned_window = false>}
// SM80: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 0, stages = 2, swizzle = 64, box_cols = 0>} : memref<64x32xf16
// SM80: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 8192, stages = 2, swizzle = 128, box_cols = 0>} : memref<32x128xf16
// SM80: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 24576, stages = 1, swizzle = 0, box_cols = 0>} : memref<64x128xf16
// SM90-LABEL: tile.kernel @gemm
// SM90: tile.launch {{.*}} attributes {tile.shared_memory = #tile.shared_memory<size = 40960, scratch_offset = 40960, reduce_scratch = 0, aligned_window = true>}
// SM90: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 0, stages = 2, swizzle = 64, box_cols = 0>} : memref<64x32xf16
// SM90: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 8192, stages = 2, swizzle = 128, box_cols = 64>} : memref<32x128xf16
// SM90: tile.for {{.*}} tile.pipeline = #tile.pipeline<stages = 2, engine = tensor, handoff = true>
// No matrix instruction on Vulkan: nothing is swizzled.
// VK-LABEL: tile.kernel @gemm
// VK: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 0, stages = 2, swizzle = 0, box_cols = 0>} : memref<64x32xf16
// VK: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 8192, stages = 2, swizzle = 0, box_cols = 0>} : memref<32x128xf16
tile.kernel @gemm(%A: memref<?x256xf16, #tile.scope<global>>, %B: memref<?x128xf16, #tile.scope<global>>, %C: memref<?x128xf16, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x128xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x128xf16, #tile.scope<shared>>
    %acc = tile.alloc : memref<64x128xf32, #tile.scope<fragment>>
    tile.for %k = %c0 to %c8 step %c1 pipelined attributes {num_stages = 2} {
      %kk = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %kk] sizes [64, 32] to %a[%c0, %c0] sizes [64, 32] : memref<?x256xf16, #tile.scope<global>>, memref<64x32xf16, #tile.scope<shared>>
      tile.copy %B[%kk, %c0] sizes [32, 128] to %b[%c0, %c0] sizes [32, 128] : memref<?x128xf16, #tile.scope<global>>, memref<32x128xf16, #tile.scope<shared>>
      tile.gemm %a, %b, %acc : memref<64x32xf16, #tile.scope<shared>>, memref<32x128xf16, #tile.scope<shared>>, memref<64x128xf32, #tile.scope<fragment>>
    }
    tile.copy %acc[%c0, %c0] sizes [64, 128] to %c[%c0, %c0] sizes [64, 128] : memref<64x128xf32, #tile.scope<fragment>>, memref<64x128xf16, #tile.scope<shared>>
    tile.parallel (%i, %j) in [64, 128] {
      %v = memref.load %c[%i, %j] : memref<64x128xf16, #tile.scope<shared>>
      memref.store %v, %C[%i, %j] : memref<?x128xf16, #tile.scope<global>>
    }
  }
  tile.return
}

// -----

// A row sum of a 64 x 64 fragment whose rows spread over more than one
// warp's lanes crosses warps: two scratch halves of threads x destination
// registers x 4 bytes after the (16-byte aligned) end of the buffers.
// SM80-LABEL: tile.kernel @reduce
// SM80: tile.launch {{.*}} attributes {tile.shared_memory = #tile.shared_memory<size = [[SIZE:[0-9]+]], scratch_offset = 112, reduce_scratch = [[HALF:[0-9]+]], aligned_window = false>}
// SM80: tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 0, stages = 1, swizzle = 0, box_cols = 0>} : memref<100xi8
// A subgroup of one lane (no shuffles) on Vulkan: every reduction crosses.
// VK-LABEL: tile.kernel @reduce
// VK: tile.shared_memory = #tile.shared_memory<size = {{[0-9]+}}, scratch_offset = 112, reduce_scratch = {{[1-9][0-9]*}}, aligned_window = false>
tile.kernel @reduce() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [256, 1, 1] as (%bx) {
    %s = tile.alloc : memref<100xi8, #tile.scope<shared>>
    %x = tile.alloc : memref<64x64xf32, #tile.scope<fragment>>
    %y = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    tile.annotate_layout %x : memref<64x64xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [64, 64], threads = 256, regs = 16, dims = [[thread(64, 4, 16), reg(1, 16, 1)], [thread(1, 64, 1)]]>
    tile.reduce sum %x -> %y dim = 1 : memref<64x64xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}
