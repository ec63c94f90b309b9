// tile-infer-layouts on hand-written tile IR: gemm plans and fragment layouts
// as attributes, for a CUDA target and for Vulkan (no warp-level matrix
// instructions), and the diagnostics of conflicting layouts.
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=vulkan | FileCheck %s --check-prefix=VK
// RUN: tilec-opt %s --split-input-file --tile-infer-layouts=target=sm_80 --tile-infer-layouts=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: not tilec-opt %s --tile-infer-layouts=target=tpu 2>&1 | FileCheck %s --check-prefix=BADTARGET

// A 64x64 f32 accumulator of f16 tiles over 4 warps: mma.sync m16n8k16 split
// 2 x 2 (32 x 32 per warp: 2 m tiles, 4 n tiles, 32 registers); the row
// maximum takes the projection on the rows (the column threads replicate).
// SM80-LABEL: tile.kernel @gemm
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [64, 64], threads = 128, regs = 32, dims = {{\[\[}}thread(4, 8, 1), reg(2, 2, 8), reg(16, 2, 16), thread(64, 2, 32)], [reg(1, 2, 1), thread(1, 4, 2), reg(4, 4, 8), thread(32, 2, 32)]]>} : memref<64x64xf32, #tile.scope<fragment>>
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [64], threads = 128, regs = 4, dims = {{\[\[}}thread(4, 8, 1), reg(1, 2, 8), reg(2, 2, 16), thread(64, 2, 32)]]>} : memref<64xf32, #tile.scope<fragment>>
// SM80: tile.gemm {{.*}} {tile.gemm_plan = #tile.gemm_plan<warps_m = 2, warps_n = 2, a_in_registers = false>}
// The loop over the accumulator takes its layout: no iteration layout of its own.
// SM80: tile.parallel
// SM80-NOT: tile.layout
// SM80: tile.reduce

// VK-LABEL: tile.kernel @gemm
// No matrix instruction: the blocked layout, 4 consecutive elements of a row
// per thread, 16 threads per row; the row maximum projects it.
// VK: tile.alloc {tile.layout = #tile.fragment_layout<shape = [64, 64], threads = 128, regs = 32, dims = {{\[\[}}thread(16, 8, 1), reg(4, 8, 8)], [reg(1, 4, 1), thread(1, 16, 4)]]>} : memref<64x64xf32, #tile.scope<fragment>>
// VK: tile.alloc {tile.layout = #tile.fragment_layout<shape = [64], threads = 128, regs = 8, dims = {{\[\[}}thread(16, 8, 1), reg(1, 8, 8)]]>} : memref<64xf32, #tile.scope<fragment>>
// VK-NOT: tile.gemm_plan
// VK: tile.reduce
// VK-LABEL: tile.kernel @pinned
tile.kernel @gemm(%A: memref<?x32xf16, #tile.scope<global>>, %B: memref<32x?xf16, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x64xf16, #tile.scope<shared>>
    %acc = tile.alloc : memref<64x64xf32, #tile.scope<fragment>>
    %rowmax = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    tile.copy %A[%c0, %c0] sizes [64, 32] to %a[%c0, %c0] sizes [64, 32] : memref<?x32xf16, #tile.scope<global>>, memref<64x32xf16, #tile.scope<shared>>
    tile.copy %B[%c0, %c0] sizes [32, 64] to %b[%c0, %c0] sizes [32, 64] : memref<32x?xf16, #tile.scope<global>>, memref<32x64xf16, #tile.scope<shared>>
    tile.gemm %a, %b, %acc : memref<64x32xf16, #tile.scope<shared>>, memref<32x64xf16, #tile.scope<shared>>, memref<64x64xf32, #tile.scope<fragment>>
    tile.parallel (%i, %j) in [64, 64] {
      %v = memref.load %acc[%i, %j] : memref<64x64xf32, #tile.scope<fragment>>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %acc[%i, %j] : memref<64x64xf32, #tile.scope<fragment>>
    }
    tile.reduce max %acc -> %rowmax dim = 1 : memref<64x64xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

// An annotation pins a fragment's layout (here: one row per thread, all 32
// columns in registers); a copy gives it to the other fragment. A loop that
// writes thread-private state runs whole on every thread: its iteration
// layout replicates 8 registers on all 128 threads.
// SM80-LABEL: tile.kernel @pinned
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [128, 32], threads = 128, regs = 32, dims = {{\[\[}}thread(1, 128, 1)], [reg(1, 32, 1)]]>} : memref<128x32xf32, #tile.scope<fragment>>
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [128, 32], threads = 128, regs = 32, dims = {{\[\[}}thread(1, 128, 1)], [reg(1, 32, 1)]]>} : memref<128x32xf16, #tile.scope<fragment>>
// SM80: tile.parallel (%{{.*}}) in [8] attributes {tile.layout = #tile.fragment_layout<shape = [8], threads = 128, regs = 8, dims = {{\[\[}}reg(1, 8, 1)]]>}
tile.kernel @pinned() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %x = tile.alloc : memref<128x32xf32, #tile.scope<fragment>>
    %y = tile.alloc : memref<128x32xf16, #tile.scope<fragment>>
    %l = tile.alloc : memref<8xf32, #tile.scope<local>>
    tile.annotate_layout %x : memref<128x32xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [128, 32], threads = 128, regs = 32, dims = [[thread(1, 128, 1)], [reg(1, 32, 1)]]>
    tile.copy %x[%c0, %c0] sizes [128, 32] to %y[%c0, %c0] sizes [128, 32] : memref<128x32xf32, #tile.scope<fragment>>, memref<128x32xf16, #tile.scope<fragment>>
    tile.parallel (%i) in [8] {
      %z = arith.constant 0.0 : f32
      memref.store %z, %l[%i] : memref<8xf32, #tile.scope<local>>
    }
  }
  tile.return
}

// BADTARGET: error: unknown target 'tpu' for the tile planning passes

// -----

// A fragment indexed outside T.Parallel (the mask an `if` reads in a serial
// loop) is replicated: every one of the 128 threads holds all 8 elements in
// registers. The loop that writes it runs whole on every thread (its
// iteration layout replicates too), so each copy is complete; the loop over
// the other fragment reads the mask through that fragment's layout.
// SM80-LABEL: tile.kernel @replicated
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [8], threads = 128, regs = 8, dims = {{\[\[}}reg(1, 8, 1)]]>} : memref<8xf32, #tile.scope<fragment>>
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [128], threads = 128, regs = 4, dims = {{\[\[}}reg(1, 4, 1), thread(1, 32, 4)]]>} : memref<128xf32, #tile.scope<fragment>>
// SM80: tile.parallel (%{{.*}}) in [8] attributes {tile.layout = #tile.fragment_layout<shape = [8], threads = 128, regs = 8, dims = {{\[\[}}reg(1, 8, 1)]]>}
// SM80: tile.parallel (%{{.*}}) in [128] {
// SM80: scf.for
// SM80: memref.load {{.*}} : memref<8xf32, #tile.scope<fragment>>
// VK-LABEL: tile.kernel @replicated
// VK: tile.alloc {tile.layout = #tile.fragment_layout<shape = [8], threads = 128, regs = 8, dims = {{\[\[}}reg(1, 8, 1)]]>} : memref<8xf32, #tile.scope<fragment>>
tile.kernel @replicated(%M: memref<8xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %mask = tile.alloc : memref<8xf32, #tile.scope<fragment>>
    %acc = tile.alloc : memref<128xf32, #tile.scope<fragment>>
    tile.parallel (%i) in [8] {
      %v = memref.load %M[%i] : memref<8xf32, #tile.scope<global>>
      memref.store %v, %mask[%i] : memref<8xf32, #tile.scope<fragment>>
    }
    tile.parallel (%i) in [128] {
      %m = memref.load %mask[%c0] : memref<8xf32, #tile.scope<fragment>>
      memref.store %m, %acc[%i] : memref<128xf32, #tile.scope<fragment>>
    }
    scf.for %k = %c0 to %c8 step %c1 {
      %m = memref.load %mask[%k] : memref<8xf32, #tile.scope<fragment>>
      %on = arith.cmpf one, %m, %zero : f32
      scf.if %on {
        tile.fill %acc, %zero : memref<128xf32, #tile.scope<fragment>>, f32
      }
    }
  }
  tile.return
}

// -----

// A transposed access `y[j, i] = x[i, j]`: the placed fragment's layout with
// its dimensions swapped (each thread then holds the elements it reads).
// SM80-LABEL: tile.kernel @transposed
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [32, 64], threads = 128, regs = 16, dims = {{\[\[}}thread(16, 8, 1), reg(4, 4, 8)], [reg(1, 4, 1), thread(1, 16, 4)]]>} : memref<32x64xf32, #tile.scope<fragment>>
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [64, 32], threads = 128, regs = 16, dims = {{\[\[}}reg(1, 4, 1), thread(1, 16, 4)], [thread(16, 8, 1), reg(4, 4, 8)]]>} : memref<64x32xf32, #tile.scope<fragment>>
tile.kernel @transposed() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %x = tile.alloc : memref<32x64xf32, #tile.scope<fragment>>
    %y = tile.alloc : memref<64x32xf32, #tile.scope<fragment>>
    tile.parallel (%i, %j) in [32, 64] {
      %v = memref.load %x[%i, %j] : memref<32x64xf32, #tile.scope<fragment>>
      memref.store %v, %y[%j, %i] : memref<64x32xf32, #tile.scope<fragment>>
    }
  }
  tile.return
}

// -----

// Distributed fragment operands that no plan takes from registers: A (32 x
// 32 over 4 warps splits 2 x 2, so not the register form) and B get shared
// copies right before the gemm, one buffer per fragment (the second gemm
// copies `a` into the same buffer again); the gemm then runs on the copies
// (mma.sync on SM80, the element loop on Vulkan). A fully replicated
// fragment (indexed outside T.Parallel) stays where it is.
// SM80-LABEL: tile.kernel @staged
// SM80: %[[A:.*]] = tile.alloc {tile.layout = {{.*}}} : memref<32x32xf16, #tile.scope<fragment>>
// SM80-NEXT: %[[AS:.*]] = tile.alloc : memref<32x32xf16, #tile.scope<shared>>
// SM80: %[[B:.*]] = tile.alloc {tile.layout = {{.*}}} : memref<32x32xf16, #tile.scope<fragment>>
// SM80-NEXT: %[[BS:.*]] = tile.alloc : memref<32x32xf16, #tile.scope<shared>>
// SM80: %[[R:.*]] = tile.alloc {tile.layout = #tile.fragment_layout<shape = [32, 32], threads = 128, regs = 1024, {{.*}}} : memref<32x32xf16, #tile.scope<fragment>>
// SM80-NOT: tile.alloc : memref<32x32xf16, #tile.scope<shared>>
// SM80: tile.copy %[[A]][%[[Z:.*]], %[[Z]]] sizes [32, 32] to %[[AS]][%[[Z]], %[[Z]]] sizes [32, 32]
// SM80: tile.copy %[[B]][%[[Z2:.*]], %[[Z2]]] sizes [32, 32] to %[[BS]][%[[Z2]], %[[Z2]]] sizes [32, 32]
// SM80-NEXT: tile.gemm %[[AS]], %[[BS]], %{{.*}} {tile.gemm_plan = #tile.gemm_plan<warps_m = 2, warps_n = 2, a_in_registers = false>}
// SM80: tile.copy %[[A]]{{.*}} to %[[AS]]
// SM80-NEXT: tile.gemm %[[AS]], %[[R]], %{{.*}} :
// VK-LABEL: tile.kernel @staged
// VK: tile.copy %{{.*}} to %[[VAS:shared[_0-9]*]][
// VK: tile.copy %{{.*}} to %[[VBS:shared[_0-9]*]][
// VK-NEXT: tile.gemm %[[VAS]], %[[VBS]], %{{.*}} :
tile.kernel @staged(%X: memref<32x32xf16, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : memref<32x32xf16, #tile.scope<fragment>>
    %b = tile.alloc : memref<32x32xf16, #tile.scope<fragment>>
    %r = tile.alloc : memref<32x32xf16, #tile.scope<fragment>>
    %acc = tile.alloc : memref<32x32xf32, #tile.scope<fragment>>
    tile.parallel (%i, %j) in [32, 32] {
      %v = memref.load %X[%i, %j] : memref<32x32xf16, #tile.scope<global>>
      memref.store %v, %a[%i, %j] : memref<32x32xf16, #tile.scope<fragment>>
      memref.store %v, %b[%j, %i] : memref<32x32xf16, #tile.scope<fragment>>
    }
    tile.copy %X[%c0, %c0] sizes [32, 32] to %r[%c0, %c0] sizes [32, 32] : memref<32x32xf16, #tile.scope<global>>, memref<32x32xf16, #tile.scope<fragment>>
    %e = memref.load %r[%c0, %c0] : memref<32x32xf16, #tile.scope<fragment>>
    tile.gemm %a, %b, %acc : memref<32x32xf16, #tile.scope<fragment>>, memref<32x32xf16, #tile.scope<fragment>>, memref<32x32xf32, #tile.scope<fragment>>
    tile.gemm %a, %r, %acc : memref<32x32xf16, #tile.scope<fragment>>, memref<32x32xf16, #tile.scope<fragment>>, memref<32x32xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

// A fragment read at `j // 2` (packed bytes): the loop's layout (from %c:
// 4 consecutive columns per thread, 16 threads along a row) with the column
// dimension halved: 2 consecutive bytes per thread, the threads' column
// scale 4 -> 2, the loop's register digit of j % 2 dropped.
// SM80-LABEL: tile.kernel @packed
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [32, 32], threads = 128, regs = 8, dims = {{\[\[}}thread(16, 8, 1), reg(2, 4, 8)], [reg(1, 2, 1), thread(1, 16, 2)]]>} : memref<32x32xi32, #tile.scope<fragment>>
// SM80: tile.alloc {tile.layout = #tile.fragment_layout<shape = [32, 64], threads = 128, regs = 16, dims = {{\[\[}}thread(16, 8, 1), reg(4, 4, 8)], [reg(1, 4, 1), thread(1, 16, 4)]]>} : memref<32x64xf32, #tile.scope<fragment>>
tile.kernel @packed(%B: memref<32x32xi32, #tile.scope<global>>, %C: memref<32x64xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %b = tile.alloc : memref<32x32xi32, #tile.scope<fragment>>
    %c = tile.alloc : memref<32x64xf32, #tile.scope<fragment>>
    tile.copy %B[%c0, %c0] sizes [32, 32] to %b[%c0, %c0] sizes [32, 32] : memref<32x32xi32, #tile.scope<global>>, memref<32x32xi32, #tile.scope<fragment>>
    tile.parallel (%i, %j) in [32, 64] {
      %c2 = arith.constant 2 : index
      %h = arith.floordivsi %j, %c2 : index
      %v = memref.load %b[%i, %h] : memref<32x32xi32, #tile.scope<fragment>>
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %c[%i, %j] : memref<32x64xf32, #tile.scope<fragment>>
    }
    tile.copy %c[%c0, %c0] sizes [32, 64] to %C[%c0, %c0] sizes [32, 64] : memref<32x64xf32, #tile.scope<fragment>>, memref<32x64xf32, #tile.scope<global>>
  }
  tile.return
}
