// RUN: %tilec_opt %s --convert-tile-to-loops --split-input-file | FileCheck %s
// tile.atomic_add: memref.atomic_rmw for f32/f64/integers; a compare-and-swap
// loop on the bits for narrow floats; adds outside a global tensor dropped.

#global = #tile.scope<global>
// CHECK-LABEL: func.func private @__tilec_element_body(
// CHECK-SAME: %[[C:[^:]*]]: memref<64xf32>, %[[N:[^:]*]]: memref<64xi32>
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK: memref.atomic_rmw addf %{{.*}}, %[[C]][%{{.*}}] : (f32, memref<64xf32>) -> f32
// CHECK: scf.if
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[N]][%{{.*}}] : (i32, memref<64xi32>) -> i32
tile.kernel @element(%C: memref<64xf32, #global> {tile.name = "C", tile.dtype = "float32", tile.shape = ["64"]},
                     %N: memref<64xi32, #global> {tile.name = "N", tile.dtype = "int32", tile.shape = ["64"]}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %v = arith.constant 1.5 : f32
    %one = arith.constant 1 : i32
    tile.atomic_add %C[%bx], %v : memref<64xf32, #global>, f32
    tile.atomic_add %N[%bx], %one : memref<64xi32, #global>, i32
  }
  tile.return
}

// -----

#global = #tile.scope<global>
#fragment = #tile.scope<fragment>
// Region form into fp16: per element, convert and CAS-loop on the i16 bits.
// CHECK-LABEL: func.func private @__tilec_region_body(
// CHECK-SAME: %[[H:[^:]*]]: memref<8x8xf16>
// CHECK: %[[F:.*]] = memref.alloca() : memref<2x4xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[V:.*]] = memref.load %[[F]][%[[I]], %[[J]]]
// CHECK: %[[VH:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK: scf.if
// CHECK: memref.extract_strided_metadata %[[H]]
// CHECK: memref.extract_aligned_pointer_as_index %[[H]]
// CHECK: %[[P:.*]] = llvm.inttoptr
// CHECK: %[[INIT:.*]] = llvm.load %[[P]] : !llvm.ptr -> i16
// CHECK: scf.while (%[[OLD:.*]] = %[[INIT]]) : (i16) -> i16 {
// CHECK: %[[OF:.*]] = arith.bitcast %[[OLD]] : i16 to f16
// CHECK: %[[SUM:.*]] = arith.addf %[[OF]], %[[VH]] : f16
// CHECK: %[[NEW:.*]] = arith.bitcast %[[SUM]] : f16 to i16
// CHECK: llvm.cmpxchg %[[P]], %[[OLD]], %[[NEW]] acq_rel monotonic : !llvm.ptr, i16
// CHECK: scf.condition
tile.kernel @region(%H: memref<8x8xf16, #global> {tile.name = "H", tile.dtype = "float16", tile.shape = ["8", "8"]}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %f = tile.alloc : memref<2x4xf32, #fragment>
    tile.atomic_add %H[%bx, %c0], %f : memref<8x8xf16, #global>, memref<2x4xf32, #fragment>
  }
  tile.return
}
