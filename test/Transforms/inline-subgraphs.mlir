// RUN: max-opt %s -maxgraph-inline-subgraphs -split-input-file | FileCheck %s
// RUN: max-opt %s -pass-pipeline='builtin.module(maxgraph-inline-subgraphs{max-body-ops=3})' -split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: max-opt %s -inline -split-input-file | FileCheck %s --check-prefix=UPSTREAM

// Two calls to one body: both are replaced by the body and the body goes.
// CHECK-NOT: @block
// CHECK-LABEL: maxgraph.graph @main(
// CHECK-NOT: maxgraph.call
// CHECK: %[[A:.*]] = maxgraph.relu %{{.*}} : !maxgraph.tensor<[4], f32>
// CHECK: %[[B:.*]] = maxgraph.exp %[[A]]
// CHECK: %[[C:.*]] = maxgraph.relu %[[B]]
// CHECK: %[[D:.*]] = maxgraph.exp %[[C]]
// CHECK: maxgraph.output %[[D]]
// SMALL-LABEL: maxgraph.graph @main(
// SMALL-NOT: maxgraph.call
// UPSTREAM-LABEL: maxgraph.graph @main(
// UPSTREAM-NOT: maxgraph.call
// UPSTREAM: maxgraph.relu
maxgraph.graph @block(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @main(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  %1 = maxgraph.call @block(%0) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}

// -----

// A body of three ops is not below a limit of three: the call and body stay.
// CHECK-LABEL: maxgraph.graph @main2(
// CHECK-NOT: maxgraph.call
// SMALL: maxgraph.graph @big(
// SMALL-LABEL: maxgraph.graph @main2(
// SMALL: maxgraph.call @big(
maxgraph.graph @big(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[4], f32>
  %2 = maxgraph.neg %1 : !maxgraph.tensor<[4], f32>
  maxgraph.output %2 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @main2(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.call @big(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// Calls nested in a body are inlined too; a graph that is not a subgraph is
// kept even when nothing calls it.
// CHECK-NOT: @inner
// CHECK-NOT: @outer
// CHECK-LABEL: maxgraph.graph @main3(
// CHECK: maxgraph.neg
// CHECK: maxgraph.neg
// CHECK: maxgraph.graph @unused_entry(
maxgraph.graph @inner(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @outer(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.call @inner(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  %1 = maxgraph.call @inner(%0) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @main3(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.call @outer(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @unused_entry(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  maxgraph.output %x : !maxgraph.tensor<[4], f32>
}

