// tilec-vulkan-narrow-index-casts: index values widened to i64 only to become
// floats or to be compared stay 32-bit (index is 32 bits on the SPIR-V
// targets); 64-bit arithmetic the kernel asked for is left alone.
// RUN: tilec-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(gpu.module(tilec-vulkan-narrow-index-casts))' | FileCheck %s

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @to_float
  // CHECK-SAME: (%[[X:.*]]: index, %[[Y:.*]]: i16, %[[F:.*]]: f32)
  gpu.func @to_float(%x: index, %y: i16, %f: f32) kernel {
    // CHECK: %[[S:.*]] = arith.index_cast %[[X]] : index to i32
    // CHECK: arith.sitofp %[[S]] : i32 to f16
    %0 = arith.index_cast %x : index to i64
    %1 = arith.sitofp %0 : i64 to f16
    // CHECK: %[[U:.*]] = arith.index_castui %[[X]] : index to i32
    // CHECK: arith.uitofp %[[U]] : i32 to f64
    %2 = arith.index_castui %x : index to i64
    %3 = arith.uitofp %2 : i64 to f64
    // CHECK: arith.sitofp %[[Y]] : i16 to f32
    %4 = arith.extsi %y : i16 to i64
    %5 = arith.sitofp %4 : i64 to f32
    // CHECK: %[[I:.*]] = arith.fptosi %[[F]] : f32 to i32
    // CHECK: arith.index_cast %[[I]] : i32 to index
    %6 = arith.fptosi %f : f32 to i64
    %7 = arith.index_cast %6 : i64 to index
    "test.use"(%1, %3, %5, %7) : (f16, f64, f32, index) -> ()
    gpu.return
  }

  // CHECK-LABEL: gpu.func @compares
  // CHECK-SAME: (%[[X:.*]]: index, %[[Y:.*]]: index, %[[L:.*]]: i64)
  gpu.func @compares(%x: index, %y: index, %l: i64) kernel {
    %x64 = arith.index_cast %x : index to i64
    %y64 = arith.index_cast %y : index to i64
    %c2 = arith.constant 2 : i64
    %cneg = arith.constant -2147483648 : i64
    %cbig = arith.constant 2147483648 : i64
    // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-DAG: %[[CN:.*]] = arith.constant -2147483648 : index
    // CHECK: arith.cmpi slt, %[[X]], %[[C2]] : index
    %0 = arith.cmpi slt, %x64, %c2 : i64
    // (the greedy driver puts the constant on the right)
    // CHECK: arith.cmpi ugt, %[[X]], %[[CN]] : index
    %1 = arith.cmpi ult, %cneg, %x64 : i64
    // CHECK: arith.cmpi sge, %[[X]], %[[Y]] : index
    %2 = arith.cmpi sge, %x64, %y64 : i64
    // A constant beyond 32 bits, and an i64 the kernel computes: kept.
    // CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i64
    %3 = arith.cmpi slt, %x64, %cbig : i64
    // CHECK: %[[SUM:.*]] = arith.addi
    // CHECK: arith.cmpi eq, %[[SUM]], %{{.*}} : i64
    %s = arith.addi %x64, %l : i64
    %4 = arith.cmpi eq, %s, %c2 : i64
    // CHECK: arith.sitofp %[[SUM]] : i64 to f32
    %5 = arith.sitofp %s : i64 to f32
    "test.use"(%0, %1, %2, %3, %4, %5) : (i1, i1, i1, i1, i1, f32) -> ()
    gpu.return
  }
}
