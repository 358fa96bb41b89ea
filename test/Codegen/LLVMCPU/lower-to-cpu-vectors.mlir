// maxgraph-lower-to-cpu ends in LLVM: a matmul's register tile becomes
// broadcast-and-FMA outer products on 32-lane vectors, elementwise rows
// 64-lane vector arithmetic, and large ops OpenMP parallel loops, on an
// AVX-512 CPU (pinned, so that the test does not depend on the host).
// RUN: max-opt %s --split-input-file --maxgraph-lower-to-cpu="vector-bits=512 vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 cores=2" | FileCheck %s

// CHECK-LABEL: llvm.func @matmul
// CHECK-NOT: omp.parallel
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
maxgraph.graph @matmul(%x: !maxgraph.tensor<[16, 64], f32>, %w: !maxgraph.tensor<[64, 32], f32>) -> !maxgraph.tensor<[16, 32], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[16, 64], f32>, !maxgraph.tensor<[64, 32], f32>) -> !maxgraph.tensor<[16, 32], f32>
  maxgraph.output %0 : !maxgraph.tensor<[16, 32], f32>
}

// -----

// CHECK-LABEL: llvm.func @large
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: llvm.fmul {{.*}} : vector<64xf32>
maxgraph.graph @large(%x: !maxgraph.tensor<[512, 512], f32>) -> !maxgraph.tensor<[512, 512], f32> {
  %0 = maxgraph.mul %x, %x : !maxgraph.tensor<[512, 512], f32>
  maxgraph.output %0 : !maxgraph.tensor<[512, 512], f32>
}
