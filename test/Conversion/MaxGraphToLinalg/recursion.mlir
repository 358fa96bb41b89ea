// RUN: max-opt %s --convert-maxgraph-to-linalg -split-input-file -verify-diagnostics

// Graphs become functions: a graph that calls itself, directly or through
// others, would recurse without end at run time, so it is refused.
maxgraph.graph @self(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @+1 {{recursive call: @self calls itself through @self; recursive graphs have no CPU lowering}}
  %0 = maxgraph.call @self(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @ping(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.call @pong(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @pong(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  // expected-error @+1 {{recursive call: @ping calls itself through @pong @ping; recursive graphs have no CPU lowering}}
  %0 = maxgraph.call @ping(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
