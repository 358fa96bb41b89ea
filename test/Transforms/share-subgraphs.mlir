// RUN: max-opt %s -maxgraph-share-subgraphs -split-input-file | FileCheck %s
// RUN: max-opt %s -maxgraph-share-subgraphs -split-input-file --verify-each > /dev/null

// Bodies that differ only in names (symbol, argument names, SSA names) and
// locations merge into the first; every call is rewritten.
// CHECK-LABEL: maxgraph.graph @first(
// CHECK-NOT: maxgraph.graph @second
// CHECK-NOT: maxgraph.graph @third
// CHECK-LABEL: maxgraph.graph @main(
// CHECK: %[[A:.*]] = maxgraph.call @first(%{{.*}})
// CHECK: %[[B:.*]] = maxgraph.call @first(%[[A]])
// CHECK: %[[C:.*]] = maxgraph.call @first(%[[B]])
// CHECK: maxgraph.output %[[C]]
maxgraph.graph @first(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph, argument_names = ["x"]} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32> loc("a.py":1:1)
  %1 = maxgraph.mul %0, %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @second(%input: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph, argument_names = ["input"]} {
  %r = maxgraph.relu %input : !maxgraph.tensor<[4], f32> loc("b.py":7:3)
  %m = maxgraph.mul %r, %input : !maxgraph.tensor<[4], f32>
  maxgraph.output %m : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @third(%y: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.relu %y : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.mul %0, %y : !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @main(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.call @first(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  %1 = maxgraph.call @second(%0) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  %2 = maxgraph.call @third(%1) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %2 : !maxgraph.tensor<[4], f32>
}

// -----

// One attribute differs (the reduction axis): not merged.
// CHECK-LABEL: maxgraph.graph @sum0(
// CHECK-LABEL: maxgraph.graph @sum1(
// CHECK-LABEL: maxgraph.graph @main(
// CHECK: maxgraph.call @sum0(
// CHECK: maxgraph.call @sum1(
maxgraph.graph @sum0(%x: !maxgraph.tensor<[4, 4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.reduce_sum %x axes = [0] : !maxgraph.tensor<[4, 4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @sum1(%x: !maxgraph.tensor<[4, 4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.reduce_sum %x axes = [1] : !maxgraph.tensor<[4, 4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @main(%x: !maxgraph.tensor<[4, 4], f32>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>) {
  %0 = maxgraph.call @sum0(%x) : (!maxgraph.tensor<[4, 4], f32>) -> !maxgraph.tensor<[4], f32>
  %1 = maxgraph.call @sum1(%x) : (!maxgraph.tensor<[4, 4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>
}

// -----

// One type differs (f16 against f32), and constants with different values:
// not merged.
// CHECK-LABEL: maxgraph.graph @f32(
// CHECK-LABEL: maxgraph.graph @f16(
// CHECK-LABEL: maxgraph.graph @two(
// CHECK-LABEL: maxgraph.graph @three(
maxgraph.graph @f32(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %0 = maxgraph.exp %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @f16(%x: !maxgraph.tensor<[4], f16>) -> !maxgraph.tensor<[4], f16> attributes {is_subgraph} {
  %0 = maxgraph.exp %x : !maxgraph.tensor<[4], f16>
  maxgraph.output %0 : !maxgraph.tensor<[4], f16>
}
maxgraph.graph @two(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %c = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
  %0 = maxgraph.mul %x, %c : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @three(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %c = maxgraph.constant dense<3.0> : !maxgraph.tensor<[], f32>
  %0 = maxgraph.mul %x, %c : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// Same ops, different dataflow (x*relu(x) against relu(x)*relu(x)): not merged.
// CHECK-LABEL: maxgraph.graph @mixed(
// CHECK-LABEL: maxgraph.graph @squared(
maxgraph.graph @mixed(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.mul %x, %0 : !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @squared(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.mul %0, %0 : !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}

// -----

// Graphs that are not subgraphs are never merged, and a subgraph calling
// identical callees is itself merged once they are.
// CHECK-LABEL: maxgraph.graph @leaf_a(
// CHECK-NOT: @leaf_b(
// CHECK-LABEL: maxgraph.graph @outer_a(
// CHECK: maxgraph.call @leaf_a(
// CHECK-NOT: @outer_b(
// CHECK-LABEL: maxgraph.graph @entry_a(
// CHECK: maxgraph.call @outer_a(
// CHECK-LABEL: maxgraph.graph @entry_b(
maxgraph.graph @leaf_a(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @leaf_b(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @outer_a(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %0 = maxgraph.call @leaf_a(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @outer_b(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %0 = maxgraph.call @leaf_b(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @entry_a(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.call @outer_b(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @entry_b(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  maxgraph.output %x : !maxgraph.tensor<[4], f32>
}
