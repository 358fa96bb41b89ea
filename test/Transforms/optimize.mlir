// RUN: max-opt %s -maxgraph-optimize | FileCheck %s
// RUN: max-opt %s -maxgraph-optimize --verify-each > /dev/null

// Identical bodies merge, composites become primitives, x*1 folds away, and
// CSE removes the duplicate exp.
// CHECK-LABEL: maxgraph.graph @a(
// CHECK-NOT: maxgraph.softmax
// CHECK: maxgraph.reduce_max
// CHECK: maxgraph.exp
// CHECK: maxgraph.reduce_sum
// CHECK: maxgraph.div
// CHECK-NOT: maxgraph.graph @b(
// CHECK-LABEL: maxgraph.graph @main(
// CHECK: %[[A:.*]] = maxgraph.call @a(
// CHECK: %[[B:.*]] = maxgraph.call @a(%[[A]])
// CHECK: %[[E:.*]] = maxgraph.exp %[[B]]
// CHECK-NOT: maxgraph.exp
// CHECK-NOT: maxgraph.mul
// CHECK: maxgraph.add %[[E]], %[[E]]
maxgraph.graph @a(%x: !maxgraph.tensor<[2, 8], f32>) -> !maxgraph.tensor<[2, 8], f32> attributes {is_subgraph} {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[2, 8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 8], f32>
}
maxgraph.graph @b(%x: !maxgraph.tensor<[2, 8], f32>) -> !maxgraph.tensor<[2, 8], f32> attributes {is_subgraph} {
  %0 = maxgraph.softmax %x axis = 1 : !maxgraph.tensor<[2, 8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 8], f32>
}
maxgraph.graph @main(%x: !maxgraph.tensor<[2, 8], f32>) -> !maxgraph.tensor<[2, 8], f32> {
  %0 = maxgraph.call @a(%x) : (!maxgraph.tensor<[2, 8], f32>) -> !maxgraph.tensor<[2, 8], f32>
  %1 = maxgraph.call @b(%0) : (!maxgraph.tensor<[2, 8], f32>) -> !maxgraph.tensor<[2, 8], f32>
  %one = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f32>
  %2 = maxgraph.mul %1, %one : (!maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[2, 8], f32>
  %3 = maxgraph.exp %2 : !maxgraph.tensor<[2, 8], f32>
  %4 = maxgraph.exp %2 : !maxgraph.tensor<[2, 8], f32>
  %5 = maxgraph.add %3, %4 : !maxgraph.tensor<[2, 8], f32>
  maxgraph.output %5 : !maxgraph.tensor<[2, 8], f32>
}
