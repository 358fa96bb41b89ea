// maxgraph-graph-to-linalg: the graph level that maxgraph-lower-to-cpu
// runs (graph-to-linalg-gpu.mlir: maxgraph-lower-to-gpu's). Composites are
// decomposed, graphs become linalg on tensors, and elementwise producers of
// one use fuse into their consumer.
// RUN: max-opt %s --maxgraph-graph-to-linalg | FileCheck %s

// Softmax as its max and sum reductions; the subtraction and exp between
// them are one generic, and the product with the sum's reciprocal (1 / sum,
// loop invariant in a row: the CPU code computes it once per row) another. The subgraph stays a function that @main calls, so
// the exp after the call is a generic of its own.
// CHECK-LABEL: func.func @block(
// CHECK-NOT: maxgraph.
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.subf
// CHECK-NEXT: math.exp
// CHECK-NEXT: linalg.yield
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf %cst, %{{.*}} : f32
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: linalg.yield
// CHECK-LABEL: func.func @main(
// CHECK: call @block(
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK-NEXT: linalg.yield
maxgraph.graph @block(%x: !maxgraph.tensor<[4, 8], f32>) -> !maxgraph.tensor<[4, 8], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4, 8], f32>
  %1 = maxgraph.softmax %0 axis = 1 : !maxgraph.tensor<[4, 8], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4, 8], f32>
}
maxgraph.graph @main(%x: !maxgraph.tensor<[4, 8], f32>) -> !maxgraph.tensor<[4, 8], f32> {
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[4, 8], f32>) -> !maxgraph.tensor<[4, 8], f32>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[4, 8], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4, 8], f32>
}
