// The converted output lowers through upstream passes to the LLVM dialect:
// this pass list is the seed of the CPU pipeline.
// RUN: max-opt %s -maxgraph-decompose -convert-maxgraph-to-linalg \
// RUN:   -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -finalize-memref-to-llvm -convert-math-to-llvm -convert-arith-to-llvm \
// RUN:   -convert-cf-to-llvm -convert-func-to-llvm -reconcile-unrealized-casts \
// RUN:   | FileCheck %s

// CHECK-NOT: maxgraph.
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-LABEL: llvm.func @mlp(
// CHECK: llvm.intr.exp
// CHECK: llvm.intr.maximum
// CHECK-LABEL: llvm.func @_mlir_ciface_mlp(
maxgraph.graph @mlp(%x: !maxgraph.tensor<[2, 8], f32>, %w: !maxgraph.tensor<[8, 4], f32>, %b: !maxgraph.tensor<[4], f32>) -> (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2, 4], f32>) {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[8, 4], f32>) -> !maxgraph.tensor<[2, 4], f32>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[2, 4], f32>
  %2 = maxgraph.exp %1 : !maxgraph.tensor<[2, 4], f32>
  %3 = maxgraph.reduce_max %2 axes = [1] : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[2], f32>
  %c = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
  %4 = maxgraph.div %3, %c : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[2], f32>
  %5 = maxgraph.softmax %1 axis = -1 : !maxgraph.tensor<[2, 4], f32>
  maxgraph.output %4, %5 : !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2, 4], f32>
}
