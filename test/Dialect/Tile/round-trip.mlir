// Every tile op, attribute and enum value survives print -> parse -> print,
// in the custom and in the generic form.
// RUN: %tilec_opt %s | %tilec_opt | FileCheck %s
// RUN: %tilec_opt %s --mlir-print-op-generic | %tilec_opt | FileCheck %s

// CHECK-LABEL: tile.kernel @signature
// CHECK-SAME: (%[[A:.*]]: memref<?x4096xf16, #tile.scope<global>> {tile.dtype = "float16", tile.name = "A"},
// CHECK-SAME: %[[Q:.*]]: memref<16xi8, #tile.scope<global>> {tile.dtype = "uint8", tile.name = "Q"},
// CHECK-SAME: %[[P:.*]]: memref<32xi4, #tile.scope<global>> {tile.dtype = "int4", tile.name = "P"},
// CHECK-SAME: %[[F8:.*]]: memref<8xf8E4M3FN, #tile.scope<global>> {tile.dtype = "float8_e4m3", tile.name = "F8"},
// CHECK-SAME: %[[M:.*]]: index {tile.dynamic, tile.name = "M"},
// CHECK-SAME: %[[ALPHA:.*]]: f32 {tile.dtype = "float32", tile.name = "alpha"},
// CHECK-SAME: %[[FLAG:.*]]: i1 {tile.dtype = "bool", tile.name = "flag"})
// CHECK-NEXT: tile.return
tile.kernel @signature(
    %A: memref<?x4096xf16, #tile.scope<global>> {tile.name = "A", tile.dtype = "float16"},
    %Q: memref<16xi8, #tile.scope<global>> {tile.name = "Q", tile.dtype = "uint8"},
    %P: memref<32xi4, #tile.scope<global>> {tile.name = "P", tile.dtype = "int4"},
    %F8: memref<8xf8E4M3FN, #tile.scope<global>> {tile.name = "F8", tile.dtype = "float8_e4m3"},
    %M: index {tile.name = "M", tile.dynamic},
    %alpha: f32 {tile.name = "alpha", tile.dtype = "float32"},
    %flag: i1 {tile.name = "flag", tile.dtype = "bool"}) {
  tile.return
}

// CHECK-LABEL: tile.kernel @launch_1d
// CHECK: %[[G:.*]] = arith.constant 4 : index
// CHECK: tile.launch grid(%[[G]]) threads [256, 1, 1] as (%[[BX:.*]]) {
// CHECK-NEXT: }
// CHECK-NEXT: tile.return
tile.kernel @launch_1d() {
  %g = arith.constant 4 : index
  tile.launch grid(%g) threads [256, 1, 1] as (%bx) {
    tile.yield
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @launch_3d_cluster
// CHECK-SAME: (%[[M:.*]]: index
// CHECK: tile.launch grid(%[[M]], %[[M]], %[[M]]) threads [32, 4, 2] cluster [2, 1, 1] as (%[[BX:.*]], %[[BY:.*]], %[[BZ:.*]]) attributes {note = "kept"} {
// CHECK: tile.use_swizzle panel_size = 8, order = "row"
// CHECK: tile.use_swizzle panel_size = 4, order = "col"
// CHECK: %[[TX:.*]] = tile.thread_id dim = 0
// CHECK: %[[TY:.*]] = tile.thread_id dim = 1
// CHECK: %[[TZ:.*]] = tile.thread_id dim = 2
// CHECK: arith.addi %[[BX]], %[[TX]] : index
tile.kernel @launch_3d_cluster(%M: index {tile.dynamic}) {
  tile.launch grid(%M, %M, %M) threads [32, 4, 2] cluster [2, 1, 1] as (%bx, %by, %bz) attributes {note = "kept"} {
    tile.use_swizzle panel_size = 8, order = "row"
    tile.use_swizzle panel_size = 4, order = "col"
    %tx = tile.thread_id dim = 0
    %ty = tile.thread_id dim = 1
    %tz = tile.thread_id dim = 2
    %s = arith.addi %bx, %tx : index
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @allocs
// CHECK: tile.alloc : memref<128x64xf16, #tile.scope<shared>>
// CHECK: tile.alloc : memref<128x128xf32, #tile.scope<fragment>>
// CHECK: tile.alloc : memref<4xbf16, #tile.scope<local>>
// CHECK: tile.alloc : memref<i32, #tile.scope<local>>
// CHECK: tile.alloc : memref<64xf8E5M2, #tile.scope<shared>>
// CHECK: tile.alloc : memref<2x2xf64, #tile.scope<fragment>>
// CHECK: tile.alloc : memref<8xi1, #tile.scope<local>>
// CHECK: tile.alloc : memref<8xi16, #tile.scope<local>>
// CHECK: tile.alloc : memref<8xi64, #tile.scope<local>>
tile.kernel @allocs() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %s = tile.alloc : memref<128x64xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<128x128xf32, #tile.scope<fragment>>
    %l = tile.alloc : memref<4xbf16, #tile.scope<local>>
    %v = tile.alloc : memref<i32, #tile.scope<local>>
    %e = tile.alloc : memref<64xf8E5M2, #tile.scope<shared>>
    %d = tile.alloc : memref<2x2xf64, #tile.scope<fragment>>
    %b = tile.alloc : memref<8xi1, #tile.scope<local>>
    %h = tile.alloc : memref<8xi16, #tile.scope<local>>
    %w = tile.alloc : memref<8xi64, #tile.scope<local>>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @copies
// CHECK-SAME: (%[[A:.*]]: memref<?x256xf16, #tile.scope<global>>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[S:.*]] = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
// CHECK: %[[F:.*]] = tile.alloc : memref<32xf32, #tile.scope<fragment>>
// CHECK: tile.copy %[[A]][%[[BX:.*]], %[[C0]]] sizes [64, 32] to %[[S]][%[[C0]], %[[C0]]] sizes [64, 32] : memref<?x256xf16, #tile.scope<global>>, memref<64x32xf16, #tile.scope<shared>>
// CHECK: tile.copy %[[S]][%[[C0]], %[[C0]]] sizes [1, 32] to %[[F]][%[[C0]]] sizes [32] : memref<64x32xf16, #tile.scope<shared>>, memref<32xf32, #tile.scope<fragment>>
// CHECK: tile.copy %[[F]][%[[C0]]] sizes [32] to %[[A]][%[[BX]], %[[C0]]] sizes [1, 32] : memref<32xf32, #tile.scope<fragment>>, memref<?x256xf16, #tile.scope<global>>
tile.kernel @copies(%A: memref<?x256xf16, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<32xf32, #tile.scope<fragment>>
    tile.copy %A[%bx, %c0] sizes [64, 32] to %s[%c0, %c0] sizes [64, 32]
        : memref<?x256xf16, #tile.scope<global>>, memref<64x32xf16, #tile.scope<shared>>
    tile.copy %s[%c0, %c0] sizes [1, 32] to %f[%c0] sizes [32]
        : memref<64x32xf16, #tile.scope<shared>>, memref<32xf32, #tile.scope<fragment>>
    tile.copy %f[%c0] sizes [32] to %A[%bx, %c0] sizes [1, 32]
        : memref<32xf32, #tile.scope<fragment>>, memref<?x256xf16, #tile.scope<global>>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @scalar_copies
// CHECK-SAME: (%[[X:.*]]: memref<4xf32, #tile.scope<global>>
// CHECK: %[[V:.*]] = tile.alloc : memref<f32, #tile.scope<local>>
// CHECK: %[[W:.*]] = tile.alloc : memref<f32, #tile.scope<local>>
// CHECK: tile.copy %[[V]][] sizes [] to %[[W]][] sizes [] : memref<f32, #tile.scope<local>>, memref<f32, #tile.scope<local>>
// CHECK: tile.copy %[[W]][] sizes [] to %[[X]][%[[BX:.*]]] sizes [1] : memref<f32, #tile.scope<local>>, memref<4xf32, #tile.scope<global>>
tile.kernel @scalar_copies(%X: memref<4xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %v = tile.alloc : memref<f32, #tile.scope<local>>
    %w = tile.alloc : memref<f32, #tile.scope<local>>
    tile.copy %v[] sizes [] to %w[] sizes [] : memref<f32, #tile.scope<local>>, memref<f32, #tile.scope<local>>
    tile.copy %w[] sizes [] to %X[%bx] sizes [1] : memref<f32, #tile.scope<local>>, memref<4xf32, #tile.scope<global>>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @gemms
// CHECK: %[[A:.*]] = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
// CHECK: %[[B:.*]] = tile.alloc : memref<32x128xf16, #tile.scope<shared>>
// CHECK: %[[BT:.*]] = tile.alloc : memref<128x32xf16, #tile.scope<fragment>>
// CHECK: %[[AT:.*]] = tile.alloc : memref<32x64xf16, #tile.scope<shared>>
// CHECK: %[[C:.*]] = tile.alloc : memref<64x128xf32, #tile.scope<fragment>>
// CHECK: tile.gemm %[[A]], %[[B]], %[[C]] : memref<64x32xf16
// CHECK: tile.gemm %[[A]], %[[BT]], %[[C]] {policy = #tile.gemm_policy<full_row>, transpose_b}
// CHECK: tile.gemm %[[AT]], %[[B]], %[[C]] {clear_accum, k_pack = 2 : i64, policy = #tile.gemm_policy<full_col>, transpose_a}
// CHECK: tile.gemm %[[AT]], %[[BT]], %[[C]] {transpose_a, transpose_b}
tile.kernel @gemms() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %a = tile.alloc : memref<64x32xf16, #tile.scope<shared>>
    %b = tile.alloc : memref<32x128xf16, #tile.scope<shared>>
    %bt = tile.alloc : memref<128x32xf16, #tile.scope<fragment>>
    %at = tile.alloc : memref<32x64xf16, #tile.scope<shared>>
    %c = tile.alloc : memref<64x128xf32, #tile.scope<fragment>>
    tile.gemm %a, %b, %c {policy = #tile.gemm_policy<square>}
        : memref<64x32xf16, #tile.scope<shared>>, memref<32x128xf16, #tile.scope<shared>>, memref<64x128xf32, #tile.scope<fragment>>
    tile.gemm %a, %bt, %c {transpose_b, policy = #tile.gemm_policy<full_row>}
        : memref<64x32xf16, #tile.scope<shared>>, memref<128x32xf16, #tile.scope<fragment>>, memref<64x128xf32, #tile.scope<fragment>>
    tile.gemm %at, %b, %c {transpose_a, clear_accum, k_pack = 2, policy = #tile.gemm_policy<full_col>}
        : memref<32x64xf16, #tile.scope<shared>>, memref<32x128xf16, #tile.scope<shared>>, memref<64x128xf32, #tile.scope<fragment>>
    tile.gemm %at, %bt, %c {transpose_a, transpose_b, k_pack = 1}
        : memref<32x64xf16, #tile.scope<shared>>, memref<128x32xf16, #tile.scope<fragment>>, memref<64x128xf32, #tile.scope<fragment>>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @fill_reduce_cumsum
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[S:.*]] = tile.alloc : memref<64x32xf32, #tile.scope<fragment>>
// CHECK: %[[R:.*]] = tile.alloc : memref<64xf32, #tile.scope<fragment>>
// CHECK: %[[R0:.*]] = tile.alloc : memref<f32, #tile.scope<local>>
// CHECK: tile.fill %[[S]], %[[ZERO]] : memref<64x32xf32, #tile.scope<fragment>>, f32
// CHECK: tile.reduce max %[[S]] -> %[[R]] dim = 1 :
// CHECK: tile.reduce min %[[S]] -> %[[R]] dim = 1 {clear = false} :
// CHECK: tile.reduce sum %[[S]] -> %[[R]] dim = 1 :
// CHECK: tile.reduce abssum %[[S]] -> %[[R]] dim = 1 :
// CHECK: tile.reduce absmax %[[S]] -> %[[R]] dim = 1 :
// CHECK: tile.reduce sum %[[R]] -> %[[R0]] dim = 0 :
// CHECK: tile.cumsum %[[S]] -> %[[S]] dim = 0 :
// CHECK: tile.cumsum %[[R]] -> %[[R]] dim = 0 {reverse} :
tile.kernel @fill_reduce_cumsum() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %zero = arith.constant 0.0 : f32
    %s = tile.alloc : memref<64x32xf32, #tile.scope<fragment>>
    %r = tile.alloc : memref<64xf32, #tile.scope<fragment>>
    %r0 = tile.alloc : memref<f32, #tile.scope<local>>
    tile.fill %s, %zero : memref<64x32xf32, #tile.scope<fragment>>, f32
    tile.reduce max %s -> %r dim = 1 : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
    tile.reduce min %s -> %r dim = 1 {clear = false} : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
    tile.reduce sum %s -> %r dim = 1 {clear = true} : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
    tile.reduce abssum %s -> %r dim = 1 : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
    tile.reduce absmax %s -> %r dim = 1 : memref<64x32xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
    tile.reduce sum %r -> %r0 dim = 0 : memref<64xf32, #tile.scope<fragment>>, memref<f32, #tile.scope<local>>
    tile.cumsum %s -> %s dim = 0 : memref<64x32xf32, #tile.scope<fragment>>, memref<64x32xf32, #tile.scope<fragment>>
    tile.cumsum %r -> %r dim = 0 {reverse} : memref<64xf32, #tile.scope<fragment>>, memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @atomics_and_prints
// CHECK-SAME: (%[[OUT:.*]]: memref<?x64xf32, #tile.scope<global>>
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[SH:.*]] = tile.alloc : memref<64xf32, #tile.scope<shared>>
// CHECK: %[[FR:.*]] = tile.alloc : memref<16x64xf32, #tile.scope<fragment>>
// CHECK: tile.atomic_add %[[OUT]][%[[BX:.*]], %[[C0:.*]]], %[[ONE]] : memref<?x64xf32, #tile.scope<global>>, f32
// CHECK: tile.atomic_add %[[SH]][%[[C0]]], %[[ONE]] : memref<64xf32, #tile.scope<shared>>, f32
// CHECK: tile.atomic_add %[[OUT]][%[[BX]], %[[C0]]], %[[FR]] : memref<?x64xf32, #tile.scope<global>>, memref<16x64xf32, #tile.scope<fragment>>
// CHECK: tile.print %[[ONE]] : f32
// CHECK: tile.print %[[BX]] {msg = "block"} : index
// CHECK: tile.print %[[FR]] {msg = "acc"} : memref<16x64xf32, #tile.scope<fragment>>
tile.kernel @atomics_and_prints(%Out: memref<?x64xf32, #tile.scope<global>>) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %sh = tile.alloc : memref<64xf32, #tile.scope<shared>>
    %fr = tile.alloc : memref<16x64xf32, #tile.scope<fragment>>
    tile.atomic_add %Out[%bx, %c0], %one : memref<?x64xf32, #tile.scope<global>>, f32
    tile.atomic_add %sh[%c0], %one : memref<64xf32, #tile.scope<shared>>, f32
    tile.atomic_add %Out[%bx, %c0], %fr : memref<?x64xf32, #tile.scope<global>>, memref<16x64xf32, #tile.scope<fragment>>
    tile.print %one : f32
    tile.print %bx {msg = "block"} : index
    tile.print %fr {msg = "acc"} : memref<16x64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @loops
// CHECK-SAME: (%[[N:.*]]: index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[F:.*]] = tile.alloc : memref<16x32xf32, #tile.scope<fragment>>
// CHECK: tile.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] serial {
// CHECK-NEXT: tile.parallel (%[[P:.*]], %[[Q:.*]]) in [16, 32] {
// CHECK-NEXT: %[[X:.*]] = memref.load %[[F]][%[[P]], %[[Q]]]
// CHECK-NEXT: %[[Y:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT: %[[CMP:.*]] = arith.cmpi eq, %[[P]], %[[I]] : index
// CHECK-NEXT: scf.if %[[CMP]] {
// CHECK-NEXT: memref.store %[[Y]], %[[F]][%[[P]], %[[Q]]]
// CHECK: tile.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] unroll {
// CHECK: tile.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] pipelined attributes {num_stages = 3 : i64} {
// CHECK: tile.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] pipelined attributes {group = array<i64: 0, 0, 1>, num_stages = 2 : i64, order = array<i64: 0, 1, 2>, stage = array<i64: 0, 0, 1>} {
// CHECK: tile.parallel (%{{.*}}) in [8] attributes {note} {
tile.kernel @loops(%N: index {tile.dynamic}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %f = tile.alloc : memref<16x32xf32, #tile.scope<fragment>>
    tile.for %i = %c0 to %N step %c1 {
      tile.parallel (%p, %q) in [16, 32] {
        %x = memref.load %f[%p, %q] : memref<16x32xf32, #tile.scope<fragment>>
        %y = math.exp %x : f32
        %cmp = arith.cmpi eq, %p, %i : index
        scf.if %cmp {
          memref.store %y, %f[%p, %q] : memref<16x32xf32, #tile.scope<fragment>>
        }
        tile.yield
      }
    }
    tile.for %i = %c0 to %N step %c1 unroll {
    }
    tile.for %k = %c0 to %N step %c1 pipelined attributes {num_stages = 3} {
    }
    tile.for %k = %c0 to %N step %c1 pipelined attributes {num_stages = 2, order = array<i64: 0, 1, 2>, stage = array<i64: 0, 0, 1>, group = array<i64: 0, 0, 1>} {
    }
    tile.parallel (%p) in [8] attributes {note} {
    }
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @layouts
// CHECK: %[[S:.*]] = tile.alloc : memref<64x64xf16, #tile.scope<shared>>
// CHECK: %[[F:.*]] = tile.alloc : memref<64x64xf32, #tile.scope<fragment>>
// CHECK: tile.annotate_layout %[[S]] : memref<64x64xf16, #tile.scope<shared>> with #tile.swizzled<bytes = 32>
// CHECK: tile.annotate_layout %[[S]] : memref<64x64xf16, #tile.scope<shared>> with #tile.swizzled<bytes = 64>
// CHECK: tile.annotate_layout %[[S]] : memref<64x64xf16, #tile.scope<shared>> with #tile.swizzled<bytes = 128>
// CHECK: tile.annotate_layout %[[F]] : memref<64x64xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [64, 64], threads = 128, regs = 32, dims = {{\[\[}}thread(16, 8, 1), reg(4, 8, 8)], [reg(1, 4, 1), thread(1, 16, 4)]]>
tile.kernel @layouts() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %s = tile.alloc : memref<64x64xf16, #tile.scope<shared>>
    %f = tile.alloc : memref<64x64xf32, #tile.scope<fragment>>
    tile.annotate_layout %s : memref<64x64xf16, #tile.scope<shared>> with #tile.swizzled<bytes = 32>
    tile.annotate_layout %s : memref<64x64xf16, #tile.scope<shared>> with #tile.swizzled<bytes = 64>
    tile.annotate_layout %s : memref<64x64xf16, #tile.scope<shared>> with #tile.swizzled<bytes = 128>
    tile.annotate_layout %f : memref<64x64xf32, #tile.scope<fragment>> with #tile.fragment_layout<shape = [64, 64], threads = 128, regs = 32, dims = [[thread(16, 8, 1), reg(4, 8, 8)], [reg(1, 4, 1), thread(1, 16, 4)]]>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel private @part
// CHECK-LABEL: tile.kernel @sequence
// CHECK: %[[W:.*]] = tile.alloc_global(%M) {name = "partial"} : memref<4x?xf32, #tile.scope<global>>
// CHECK: %[[V:.*]] = tile.alloc_global : memref<8xi32, #tile.scope<global>>
// CHECK: tile.call @part(%A, %[[W]], %M) : memref<?xf32, #tile.scope<global>>, memref<4x?xf32, #tile.scope<global>>, index
// CHECK: tile.call @part(%A, %[[W]], %M) : memref<?xf32, #tile.scope<global>>, memref<4x?xf32, #tile.scope<global>>, index
tile.kernel private @part(%A: memref<?xf32, #tile.scope<global>>, %W: memref<4x?xf32, #tile.scope<global>>, %M: index) {
  tile.return
}
tile.kernel @sequence(%A: memref<?xf32, #tile.scope<global>> {tile.name = "A", tile.dtype = "float32"},
                      %M: index {tile.name = "M", tile.dynamic}) {
  %w = tile.alloc_global(%M) {name = "partial"} : memref<4x?xf32, #tile.scope<global>>
  %v = tile.alloc_global : memref<8xi32, #tile.scope<global>>
  tile.call @part(%A, %w, %M) : memref<?xf32, #tile.scope<global>>, memref<4x?xf32, #tile.scope<global>>, index
  tile.call @part(%A, %w, %M) : memref<?xf32, #tile.scope<global>>, memref<4x?xf32, #tile.scope<global>>, index
  tile.return
}

// CHECK-LABEL: tile.kernel @reducers
// CHECK: %[[R:.*]] = tile.alloc {reducer = #tile.reduce_kind<max>} : memref<64xf32, #tile.scope<fragment>>
// CHECK: tile.finalize_reducer %[[R]] : memref<64xf32, #tile.scope<fragment>>
tile.kernel @reducers() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %r = tile.alloc {reducer = #tile.reduce_kind<max>} : memref<64xf32, #tile.scope<fragment>>
    tile.finalize_reducer %r : memref<64xf32, #tile.scope<fragment>>
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @two_launches
// CHECK: tile.launch grid
// CHECK: tile.launch grid
tile.kernel @two_launches(%g: index {tile.name = "g", tile.dynamic}) {
  tile.launch grid(%g) threads [128, 1, 1] as (%bx) {
  }
  tile.launch grid(%g) threads [64, 1, 1] as (%bx) {
  }
  tile.return
}

// CHECK-LABEL: tile.kernel @extern_calls
// CHECK: tile.call_extern "scale"(%{{.*}}, %{{.*}}, %{{.*}}) {arg_ctypes = ["float*", "float"], result_ctype = "void", source_locs = [#{{.*}}], sources = ["template <typename T> __device__ void scale(T *p, T s) { *p *= s; }"]} : (memref<4xf32, #tile.scope<local>>, index, f32) -> ()
// CHECK: tile.call_extern "twice"(%{{.*}}) {arg_ctypes = ["int"], result_ctype = "int"} : (i32) -> i32
tile.kernel @extern_calls() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %two = arith.constant 2.0 : f32
    %i = arith.constant 3 : i32
    %v = tile.alloc : memref<4xf32, #tile.scope<local>>
    tile.call_extern "scale"(%v, %c0, %two) {arg_ctypes = ["float*", "float"], result_ctype = "void", sources = ["template <typename T> __device__ void scale(T *p, T s) { *p *= s; }"], source_locs = [loc("src.tile":3:5)]} : (memref<4xf32, #tile.scope<local>>, index, f32) -> ()
    %r = tile.call_extern "twice"(%i) {arg_ctypes = ["int"], result_ctype = "int"} : (i32) -> i32
  }
  tile.return
}
