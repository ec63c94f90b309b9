// Verifiers of the tile dialect's plan attributes and of the attributes the
// lowerings record on the functions they make.
// RUN: tilec-opt %s --split-input-file --verify-diagnostics

tile.kernel @pipeline_on_serial_loop() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{'tile.pipeline' is a #tile.pipeline of a pipelined tile.for}}
    tile.for %k = %c0 to %c1 step %c1 attributes {tile.pipeline = #tile.pipeline<stages = 2, engine = async, handoff = false>} {
    }
  }
  tile.return
}

// -----

// expected-error@+1 {{a pipeline plan needs at least 2 stages, got 1}}
#p = #tile.pipeline<stages = 1, engine = async, handoff = false>

// -----

tile.kernel @staged_not_a_copy() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.staged' marks a tile.copy of a pipelined loop's body}}
    %a = tile.alloc {tile.staged} : memref<32xf32, #tile.scope<shared>>
  }
  tile.return
}

// -----

tile.kernel @shared_buffer_on_fragment() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads [32, 1, 1] as (%bx) {
    // expected-error@+1 {{'tile.shared_buffer' is a #tile.shared_buffer of a shared tile.alloc}}
    %a = tile.alloc {tile.shared_buffer = #tile.shared_buffer<offset = 0, stages = 1, swizzle = 0, box_cols = 0>} : memref<32xf32, #tile.scope<fragment>>
  }
  tile.return
}

// -----

// expected-error@+1 {{shared buffer swizzle of 48 bytes (0, 32, 64 or 128)}}
#s = #tile.shared_buffer<offset = 0, stages = 1, swizzle = 48, box_cols = 0>

// -----

// expected-error@+1 {{column boxes need the 128-byte swizzle}}
#s = #tile.shared_buffer<offset = 0, stages = 1, swizzle = 64, box_cols = 64>

// -----

// expected-error@+1 {{shared memory plan of 64 bytes cannot hold its scratch at 32 (2 x 32 bytes)}}
#m = #tile.shared_memory<size = 64, scratch_offset = 32, reduce_scratch = 32, aligned_window = false>

// -----

// expected-error@+1 {{'tile.shared_memory' is a #tile.shared_memory of a tile.launch}}
func.func @window_on_func() attributes {tile.shared_memory = #tile.shared_memory<size = 0, scratch_offset = 0, reduce_scratch = 0, aligned_window = false>} {
  return
}

// -----

// expected-error@+1 {{'tile.threads' must be 1 to 3 positive thread counts}}
func.func @bad_threads() attributes {tile.threads = array<i64: 0, 1, 1>} {
  return
}

// -----

func.func @shared_bytes_on_op() {
  // expected-error@+1 {{'tile.shared_bytes' applies to functions}}
  %c = arith.constant {tile.shared_bytes = 16 : i64} 0 : index
  return
}

// -----

// expected-error@+1 {{'tile.tensor_maps' must be an array of #tile.tensor_map}}
func.func @bad_maps() attributes {tile.tensor_maps = [1]} {
  return
}

// -----

// expected-error@+1 {{tensor map swizzle of 16 bytes (0, 32, 64 or 128)}}
#t = #tile.tensor_map<arg = 0, box_inner = 64, box_outer = 64, dtype = "float16", swizzle = 16>

// -----

// expected-error@+1 {{'tile.dtype' must be a known dtype spelling}}
func.func @bad_dtype() attributes {tile.dtype = "float7"} {
  return
}

// -----

// expected-error@+1 {{unknown tile attribute 'tile.bogus'}}
func.func @unknown() attributes {tile.bogus} {
  return
}

// -----

// A lowered kernel's attributes, well formed.
func.func @lowered(%p: !llvm.ptr) attributes {tile.threads = array<i64: 128, 1, 1>, tile.shared_bytes = 1024 : i64, tile.tensor_maps = [#tile.tensor_map<arg = 0, box_inner = 64, box_outer = 128, dtype = "float16", swizzle = 128>], tile.grid_constant_params = array<i64: 9>, tile.stack_limit = 4096 : i64} {
  return
}
