// RUN: max-opt %s --pass-pipeline="builtin.module(gpu.module(maxgraph-gpu-emulate-shuffles))" --split-input-file --verify-diagnostics | FileCheck %s

// Two shuffles in a block of 64: a word per thread; each stores its value
// (an f32 as its bits) at its thread's slot, a barrier, reads the slot of
// thread ^ offset, a barrier; `valid` is true.
// CHECK-LABEL: gpu.func @two
// CHECK-SAME:    workgroup(%[[BUF:.*]] : memref<64xi32, #gpu.address_space<workgroup>>)
// CHECK:         %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK:         memref.store %[[BITS]], %[[BUF]][%[[TID]]]
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK-NEXT:    %[[PARTNER:.*]] = arith.xori %[[TID]], %[[OFFSET]] : index
// CHECK-NEXT:    %[[READ:.*]] = memref.load %[[BUF]][%[[PARTNER]]]
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    %[[THEIRS:.*]] = arith.bitcast %[[READ]] : i32 to f32
// CHECK:         arith.addf %{{.*}}, %[[THEIRS]] : f32
// CHECK:         memref.store %{{.*}}, %[[BUF]]
// CHECK-COUNT-2: gpu.barrier
// CHECK-NOT:     gpu.shuffle
gpu.module @kernels {
  gpu.func @two(%x: f32, %i: i32, %out: memref<2xf32>, %flags: memref<1xi1>, %ints: memref<1xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %o16 = arith.constant 16 : i32
    %o1 = arith.constant 1 : i32
    %w32 = arith.constant 32 : i32
    %s, %valid = gpu.shuffle xor %x, %o16, %w32 : f32
    %sum = arith.addf %x, %s : f32
    memref.store %sum, %out[%c0] : memref<2xf32>
    memref.store %valid, %flags[%c0] : memref<1xi1>
    %t, %v2 = gpu.shuffle xor %i, %o1, %w32 : i32
    memref.store %t, %ints[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @down(%x: f32, %out: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %o1 = arith.constant 1 : i32
    %w32 = arith.constant 32 : i32
    // expected-error @+1 {{'gpu.shuffle' op is emulated only in xor mode, for i32 and f32 values, with constant power-of-two offsets below the width}}
    %s, %valid = gpu.shuffle down %x, %o1, %w32 : f32
    memref.store %s, %out[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @wide(%x: f64, %out: memref<1xf64>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %o1 = arith.constant 1 : i32
    %w32 = arith.constant 32 : i32
    // expected-error @+1 {{'gpu.shuffle' op is emulated only in xor mode, for i32 and f32 values, with constant power-of-two offsets below the width}}
    %s, %valid = gpu.shuffle xor %x, %o1, %w32 : f64
    memref.store %s, %out[%c0] : memref<1xf64>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @offset_past_width(%x: f32, %out: memref<1xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %o8 = arith.constant 8 : i32
    %w8 = arith.constant 8 : i32
    // expected-error @+1 {{'gpu.shuffle' op is emulated only in xor mode}}
    %s, %valid = gpu.shuffle xor %x, %o8, %w8 : f32
    memref.store %s, %out[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op has gpu.shuffle and no known one-dimensional block}}
  gpu.func @unknown_block(%x: f32, %out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %o1 = arith.constant 1 : i32
    %w32 = arith.constant 32 : i32
    %s, %valid = gpu.shuffle xor %x, %o1, %w32 : f32
    memref.store %s, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
