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
// CHECK: llvm.call @omp_get_thread_num()
// CHECK: llvm.fmul {{.*}} : vector<64xf32>
maxgraph.graph @large(%x: !maxgraph.tensor<[512, 512], f32>) -> !maxgraph.tensor<[512, 512], f32> {
  %0 = maxgraph.mul %x, %x : !maxgraph.tensor<[512, 512], f32>
  maxgraph.output %0 : !maxgraph.tensor<[512, 512], f32>
}

// -----

// Packing B from a weight (x @ transpose(w)) copies 16 x 16 squares: 16 row
// loads, AVX-512's unpack-and-permute shuffles of 16 lanes, 16 row stores;
// no element is moved alone.
// CHECK-LABEL: llvm.func @linear
// CHECK-NOT: llvm.insertelement {{.*}} : vector<16xf32>
// CHECK: llvm.shufflevector {{.*}} : vector<16xf32>
// CHECK-NOT: llvm.insertelement {{.*}} : vector<16xf32>
// CHECK: llvm.intr.fmuladd({{.*}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
maxgraph.graph @linear<m>(%x: !maxgraph.tensor<[m, 64], f32>, %w: !maxgraph.tensor<[64, 64], f32>) -> !maxgraph.tensor<[m, 64], f32> {
  %t = maxgraph.transpose %w perm = [1, 0] : !maxgraph.tensor<[64, 64], f32> -> !maxgraph.tensor<[64, 64], f32>
  %0 = maxgraph.matmul %x, %t : (!maxgraph.tensor<[m, 64], f32>, !maxgraph.tensor<[64, 64], f32>) -> !maxgraph.tensor<[m, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m, 64], f32>
}

// -----

// Two projections of one input: their zero-filled accumulators are alike
// (CSE makes them one value) but each matmul gets its own, written in
// place: no copy of a result.
// CHECK-LABEL: llvm.func @projections
// CHECK-NOT: memrefCopy
// CHECK: llvm.return
maxgraph.graph @projections<m>(%x: !maxgraph.tensor<[m, 64], f32>, %w: !maxgraph.tensor<[64, 64], f32>, %v: !maxgraph.tensor<[64, 64], f32>) -> (!maxgraph.tensor<[m, 64], f32>, !maxgraph.tensor<[m, 64], f32>) {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[m, 64], f32>, !maxgraph.tensor<[64, 64], f32>) -> !maxgraph.tensor<[m, 64], f32>
  %1 = maxgraph.matmul %x, %v : (!maxgraph.tensor<[m, 64], f32>, !maxgraph.tensor<[64, 64], f32>) -> !maxgraph.tensor<[m, 64], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[m, 64], f32>, !maxgraph.tensor<[m, 64], f32>
}
