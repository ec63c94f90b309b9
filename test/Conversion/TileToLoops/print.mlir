// RUN: %tilec_opt %s --convert-tile-to-loops | FileCheck %s
// tile.print: printf of the message, the block indices (the body's last
// three arguments), thread (0, 0, 0) and the value; one line per element
// for buffers.

#fragment = #tile.scope<fragment>
// CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("x= block (%lld, %lld, %lld) thread (0, 0, 0): %.9g\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("100%% block (%lld, %lld, %lld) thread (0, 0, 0) [%lld, %lld] = %lld\0A\00")
// CHECK-LABEL: func.func private @__tilec_show_body(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[BX:[^:]*]]: index, %[[BY:[^:]*]]: index, %[[BZ:[^:]*]]: index)
// CHECK: %[[BX64:.*]] = arith.index_cast %[[BX]] : index to i64
// CHECK: %[[XD:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: llvm.call @printf(%{{.*}}, %[[BX64]], %{{.*}}, %{{.*}}, %[[XD]]) vararg(!llvm.func<i32 (ptr, ...)>)
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: llvm.call @printf
tile.kernel @show(%x: f32 {tile.name = "x", tile.dtype = "float32"}) {
  %c2 = arith.constant 2 : index
  tile.launch grid(%c2) threads [32, 1, 1] as (%bx) {
    %f = tile.alloc : memref<2x3xi32, #fragment>
    tile.print %x {msg = "x="} : f32
    tile.print %f {msg = "100%"} : memref<2x3xi32, #fragment>
  }
  tile.return
}
