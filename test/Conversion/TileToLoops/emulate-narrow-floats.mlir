// RUN: %tilec_opt %s --emulate-narrow-floats --split-input-file | FileCheck %s
// Narrow float arithmetic computes in f32 (f64 for int -> float casts); the
// conversions become integer bit manipulation; narrow values end as the
// integer of their width.

// CHECK-LABEL: func.func @add_f16(
// CHECK-SAME: %[[A:[^:]*]]: i16, %[[B:[^:]*]]: i16) -> i16
// CHECK-NOT: f16
// CHECK: arith.extui %[[A]] : i16 to i32
// CHECK: arith.uitofp
// CHECK: arith.select
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.bitcast %[[SUM]] : f32 to i32
// CHECK: %[[R:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK-NOT: f16
// CHECK: return %[[R]] : i16
func.func @add_f16(%a: f16, %b: f16) -> f16 {
  %c = arith.addf %a, %b : f16
  return %c : f16
}

// -----

// bf16 decodes by a shift; the compare happens in f32.
// CHECK-LABEL: func.func @cmp_bf16(
// CHECK-SAME: %[[A:[^:]*]]: i16
// CHECK: %[[W:.*]] = arith.extui %[[A]] : i16 to i32
// CHECK: %[[S:.*]] = arith.shli %[[W]], %{{.*}} : i32
// CHECK: %[[F:.*]] = arith.bitcast %[[S]] : i32 to f32
// CHECK: arith.cmpf olt, %[[F]], %{{.*}} : f32
func.func @cmp_bf16(%a: bf16, %b: bf16) -> i1 {
  %c = arith.cmpf olt, %a, %b : bf16
  return %c : i1
}

// -----

// f64 -> fp8 encodes straight from the f64 bits (one rounding); fp8
// constants and loads/stores keep their bits.
// CHECK-LABEL: func.func @store_fp8(
// CHECK-SAME: %[[M:[^:]*]]: memref<4xi8>, %[[X:[^:]*]]: f64
// CHECK: arith.bitcast %[[X]] : f64 to i64
// CHECK: %[[E:.*]] = arith.trunci %{{.*}} : i64 to i8
// CHECK: memref.store %[[E]], %[[M]]
// CHECK: %[[C:.*]] = arith.constant 60 : i8
// CHECK: memref.store %[[C]], %[[M]]
func.func @store_fp8(%m: memref<4xf8E4M3FN>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = arith.truncf %x : f64 to f8E4M3FN
  memref.store %e, %m[%c0] : memref<4xf8E4M3FN>
  %k = arith.constant 1.5 : f8E4M3FN
  memref.store %k, %m[%c1] : memref<4xf8E4M3FN>
  return
}

// -----

// math ops promote too; selects pick bits; sitofp goes through f64.
// CHECK-LABEL: func.func @misc(
// CHECK: math.exp %{{.*}} : f32
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i16
// CHECK: arith.sitofp %{{.*}} : i32 to f64
func.func @misc(%a: f16, %c: i1, %i: i32) -> (f16, f16, f16) {
  %e = math.exp %a : f16
  %s = arith.select %c, %a, %e : f16
  %f = arith.sitofp %i : i32 to f16
  return %e, %s, %f : f16, f16, f16
}
