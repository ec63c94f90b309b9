// RUN: %tilec_opt %s --convert-tile-to-loops="stack-limit=1024" | FileCheck %s
// tile.alloc: block buffers at the function entry (also when allocated in a
// loop), on the stack up to stack-limit bytes, then on the heap with a
// dealloc before the return. A local buffer has one copy per thread.

#shared = #tile.scope<shared>
#local = #tile.scope<local>
// CHECK-LABEL: func.func private @__tilec_buffers_body(
// CHECK-DAG: %[[BIG:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK-DAG: %[[SMALL:.*]] = memref.alloca() : memref<16xf32>
// CHECK-DAG: %[[VAR:.*]] = memref.alloca() : memref<32xi32>
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK: memref.dealloc %[[BIG]]
// CHECK-NEXT: return
tile.kernel @buffers(%n: index {tile.name = "n", tile.dynamic}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    %small = tile.alloc : memref<16xf32, #shared>
    %big = tile.alloc : memref<64x64xf32, #shared>
    tile.for %k = %c0 to %n step %c1 {
      %v = tile.alloc : memref<i32, #local>
      %z = arith.constant 0 : i32
      tile.fill %v, %z : memref<i32, #local>, i32
    }
  }
  tile.return
}
