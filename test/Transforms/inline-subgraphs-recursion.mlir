// RUN: max-opt %s -maxgraph-inline-subgraphs -split-input-file -verify-diagnostics

// Recursion through the call graph cannot be inlined away: a located error
// that spells out the cycle.
maxgraph.graph @ping(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %0 = maxgraph.call @pong(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @pong(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  // expected-error @+1 {{recursive call: @ping calls itself through @pong @ping; recursive subgraphs cannot be inlined}}
  %0 = maxgraph.call @ping(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @self(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  // expected-error @+1 {{recursive call: @self calls itself through @self; recursive subgraphs cannot be inlined}}
  %0 = maxgraph.call @self(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
