// RUN: max-opt %s -maxgraph-absorb-boundary-transfers -split-input-file | FileCheck %s

// Host data moved to gpu:0 and a result moved back: a graph on gpu:0.
// CHECK-LABEL: maxgraph.graph @edges(
// CHECK-SAME:    %[[X:.*]]: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
// CHECK-NEXT:    %[[R:.*]] = maxgraph.relu %[[X]] : !maxgraph.tensor<[4], f32, gpu:0>
// CHECK-NEXT:    maxgraph.output %[[R]] : !maxgraph.tensor<[4], f32, gpu:0>
maxgraph.graph @edges(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
  %1 = maxgraph.relu %0 : !maxgraph.tensor<[4], f32, gpu:0>
  %2 = maxgraph.transfer %1 to cpu:0 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %2 : !maxgraph.tensor<[4], f32>
}

// -----

// An argument also used on the host, or moved to two GPUs, stays; a result
// moved back that is also used on the host keeps its transfer for that use.
// CHECK-LABEL: maxgraph.graph @kept(
// CHECK-SAME:    %[[A:[^:]*]]: !maxgraph.tensor<[4], f32>, %[[B:[^:]*]]: !maxgraph.tensor<[4], f32>)
// CHECK-SAME:    -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32>)
// CHECK:         %[[A0:.*]] = maxgraph.transfer %[[A]] to gpu:0
// CHECK:         %[[B0:.*]] = maxgraph.transfer %[[B]] to gpu:0
// CHECK:         %[[B1:.*]] = maxgraph.transfer %[[B]] to gpu:1
// CHECK:         %[[S:.*]] = maxgraph.add %[[A0]], %[[B0]]
// CHECK:         %[[H:.*]] = maxgraph.transfer %[[S]] to cpu:0
// CHECK:         %[[N:.*]] = maxgraph.neg %[[H]]
// CHECK:         maxgraph.output %[[A]], %[[S]], %[[N]]
maxgraph.graph @kept(%a: !maxgraph.tensor<[4], f32>, %b: !maxgraph.tensor<[4], f32>)
    -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>) {
  %a0 = maxgraph.transfer %a to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
  %b0 = maxgraph.transfer %b to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
  %b1 = maxgraph.transfer %b to gpu:1 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:1>
  %s = maxgraph.add %a0, %b0 : !maxgraph.tensor<[4], f32, gpu:0>
  %h = maxgraph.transfer %s to cpu:0 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32>
  %n = maxgraph.neg %h : !maxgraph.tensor<[4], f32>
  maxgraph.output %a, %h, %n : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>
}

// -----

// A subgraph's signature is its callers': left alone.
// CHECK-LABEL: maxgraph.graph @body(
// CHECK-SAME:    !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32, gpu:0>
// CHECK:         maxgraph.transfer
maxgraph.graph @body(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32, gpu:0> attributes {is_subgraph} {
  %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}
