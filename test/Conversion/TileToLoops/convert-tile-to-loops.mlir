// RUN: %tilec_opt %s --convert-tile-to-loops | FileCheck %s
// A kernel becomes a grid function (the ops before the launch, extents
// padded with 1) and a body function (block indices as the last three
// arguments); scopes and tile.* argument attributes are gone.

#global = #tile.scope<global>
tile.kernel @scale(%X: memref<?x64xf32, #global> {tile.name = "X", tile.dtype = "float32", tile.shape = ["M", "64"]},
                   %M: index {tile.name = "M", tile.dynamic},
                   %alpha: f32 {tile.name = "alpha", tile.dtype = "float32"}) {
  %c16 = arith.constant 16 : index
  %gx = arith.ceildivsi %M, %c16 : index
  tile.launch grid(%gx) threads [128, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %row = arith.muli %bx, %c16 : index
    %v = memref.load %X[%row, %c0] : memref<?x64xf32, #global>
    %w = arith.mulf %v, %alpha : f32
    memref.store %w, %X[%row, %c0] : memref<?x64xf32, #global>
  }
  tile.return
}

// CHECK-LABEL: func.func private @__tilec_scale_grid(
// CHECK-SAME: %{{.*}}: memref<?x64xf32>, %[[M:.*]]: index, %{{.*}}: f32) -> (index, index, index)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK: %[[GX:.*]] = arith.ceildivsi %[[M]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: return %[[GX]], %[[ONE]], %[[ONE]]

// CHECK-LABEL: func.func private @__tilec_scale_body(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x64xf32>, %{{.*}}: index, %[[ALPHA:[^:]*]]: f32,
// CHECK-SAME: %[[BX:[^:]*]]: index, %{{.*}}: index, %{{.*}}: index)
// CHECK-NOT: tile.
// CHECK: %[[ROW:.*]] = arith.muli %[[BX]]
// Element accesses of a global tensor are bounds-checked like copies.
// CHECK: %[[DIM:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x64xf32>
// CHECK: arith.cmpi ult, %[[ROW]], %[[DIM]]
// CHECK: scf.if
// CHECK: memref.load %[[X]][%[[ROW]], %{{.*}}] : memref<?x64xf32>
// CHECK: arith.mulf %{{.*}}, %[[ALPHA]]
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[X]][%[[ROW]], %{{.*}}] : memref<?x64xf32>
// CHECK: return
// CHECK-NOT: tile.
