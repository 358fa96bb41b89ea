// RUN: max-opt %s --pass-pipeline="builtin.module(gpu.module(maxgraph-gpu-emulate-mma-sync))" --split-input-file --verify-diagnostics | FileCheck %s

// One mma.sync in a block of two warps: a 2 x 384-float exchange buffer;
// each lane stores its 8 elements of A and 4 of B, a barrier, 16 products
// for each of its 4 elements of C, a barrier; the elements of C go
// straight to their uses.
// CHECK-LABEL: gpu.func @one
// CHECK-SAME:    workgroup(%[[BUF:.*]] : memref<768xf32, #gpu.address_space<workgroup>>)
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-COUNT-12: memref.store %{{.*}}, %[[BUF]]
// CHECK:         gpu.barrier
// CHECK-COUNT-128: memref.load %[[BUF]]
// CHECK:         gpu.barrier
// CHECK-COUNT-4: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x2xf32>
// CHECK-NOT:     nvgpu.mma.sync
gpu.module @kernels {
  gpu.func @one(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %out: memref<2x2xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
    %e01 = vector.extract %d[0, 1] : f32 from vector<2x2xf32>
    %e10 = vector.extract %d[1, 0] : f32 from vector<2x2xf32>
    %e11 = vector.extract %d[1, 1] : f32 from vector<2x2xf32>
    memref.store %e00, %out[%c0, %c0] : memref<2x2xf32>
    memref.store %e01, %out[%c0, %c1] : memref<2x2xf32>
    memref.store %e10, %out[%c1, %c0] : memref<2x2xf32>
    memref.store %e11, %out[%c1, %c1] : memref<2x2xf32>
    gpu.return
  }
}

// -----

// An accumulator carried through K's loop, as in the tensor-core kernels,
// is flattened to a 1-D vector (SPIR-V has no 2-D vectors).
// CHECK-LABEL: gpu.func @carried
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>)
// CHECK:           vector.from_elements {{.*}} : vector<4xf32>
// CHECK-NOT:     vector<2x2xf32>
// CHECK-NOT:     nvgpu.mma.sync
gpu.module @kernels {
  gpu.func @carried(%x: f16, %n: index, %out: memref<4xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<4x2xf16>
    %b = vector.from_elements %x, %x, %x, %x : vector<2x2xf16>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<2x2xf32> {
      %d = nvgpu.mma.sync (%a, %b, %acc) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %d : vector<2x2xf32>
    }
    %e = vector.extract %r[1, 1] : f32 from vector<2x2xf32>
    memref.store %e, %out[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// A block that is not whole warps in one dimension has no lanes to map.
gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op has nvgpu.mma.sync and no known one-dimensional block of whole warps}}
  gpu.func @ragged(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) kernel
      attributes {known_block_size = array<i32: 48, 1, 1>} {
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.return
  }
}

// -----

// Other shapes and types are not emulated.
gpu.module @kernels {
  gpu.func @f16acc(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf16>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @+1 {{'nvgpu.mma.sync' op is emulated only for m16n8k16 with f16 or bf16 operands, or m16n8k8 with TF32 ones, and an f32 accumulator}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    gpu.return
  }
}

// -----

// A TF32 mma.sync (m16n8k8, f32 operands): each lane stores its 4 elements
// of A and 2 of B with their 13 low mantissa bits cleared (what the tensor
// cores read of an f32), a barrier, 8 products for each of its 4 elements
// of C, a barrier.
// CHECK-LABEL: gpu.func @tf32
// CHECK-SAME:    workgroup(%[[BUF:.*]] : memref<384xf32, #gpu.address_space<workgroup>>)
// CHECK-DAG:     %[[MASK:.*]] = arith.constant -8192 : i32
// CHECK-COUNT-6: arith.andi %{{.*}}, %[[MASK]] : i32
// CHECK:         gpu.barrier
// CHECK-COUNT-64: memref.load %[[BUF]]
// CHECK:         gpu.barrier
// CHECK-NOT:     nvgpu.mma.sync
gpu.module @kernels {
  gpu.func @tf32(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>, %out: memref<4xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %e00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
    %e01 = vector.extract %d[0, 1] : f32 from vector<2x2xf32>
    %e10 = vector.extract %d[1, 0] : f32 from vector<2x2xf32>
    %e11 = vector.extract %d[1, 1] : f32 from vector<2x2xf32>
    memref.store %e00, %out[%c0] : memref<4xf32>
    memref.store %e01, %out[%c1] : memref<4xf32>
    memref.store %e10, %out[%c2] : memref<4xf32>
    memref.store %e11, %out[%c3] : memref<4xf32>
    gpu.return
  }
}
