// tilec-vulkan-legalize-subgroup-ops: xor shuffles within the subgroup get
// the subgroup size as width; shuffles that would cross it are errors.
// RUN: tilec-opt %s --pass-pipeline='builtin.module(gpu.module(tilec-vulkan-legalize-subgroup-ops{subgroup-size=8}))' --split-input-file --verify-diagnostics | FileCheck %s

gpu.module @kernels {
  // The reduction butterfly TileToGPU writes (width 32) on an 8-wide subgroup.
  // CHECK-LABEL: gpu.func @butterfly
  // CHECK-DAG: %[[W8:.*]] = arith.constant 8 : i32
  // CHECK-DAG: %[[O1:.*]] = arith.constant 1 : i32
  // CHECK-DAG: %[[O4:.*]] = arith.constant 4 : i32
  // CHECK: gpu.shuffle xor %{{.*}}, %[[O1]], %[[W8]] : f32
  // CHECK: gpu.shuffle xor %{{.*}}, %[[O4]], %[[W8]] : f32
  gpu.func @butterfly(%v: f32) kernel {
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %c32 = arith.constant 32 : i32
    %a, %va = gpu.shuffle xor %v, %c1, %c32 : f32
    %s = arith.addf %v, %a : f32
    %b, %vb = gpu.shuffle xor %s, %c4, %c32 : f32
    gpu.return
  }

  // Already at the subgroup size: unchanged.
  // CHECK-LABEL: gpu.func @native
  // CHECK: %[[W:.*]] = arith.constant 8 : i32
  // CHECK: gpu.shuffle xor %{{.*}}, %{{.*}}, %[[W]] : i32
  gpu.func @native(%v: i32) kernel {
    %c2 = arith.constant 2 : i32
    %c8 = arith.constant 8 : i32
    %a, %va = gpu.shuffle xor %v, %c2, %c8 : i32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @across(%v: f32) kernel {
    %c16 = arith.constant 16 : i32
    %c32 = arith.constant 32 : i32
    // expected-error @+1 {{shuffles across 32 lanes; the Vulkan target's subgroup has 8}}
    %a, %va = gpu.shuffle xor %v, %c16, %c32 : f32
    gpu.return
  }
}
