// RUN: max-opt %s -split-input-file -verify-diagnostics

maxgraph.graph @scalar(%x: !maxgraph.tensor<[], f32>) -> () {
  // expected-error @+1 {{'maxgraph.nonzero' op (C1) operand 0 has rank 0; nonzero lists coordinates, which a rank-0 tensor does not have}}
  %0 = maxgraph.nonzero %x : !maxgraph.tensor<[], f32> -> !maxgraph.tensor<[?, 0], si64>
  maxgraph.output
}

// -----

// The row count is known only once the op has run: a static one is refused.
maxgraph.graph @static_count(%x: !maxgraph.tensor<[4], i1>) -> () {
  // expected-error @+1 {{'maxgraph.nonzero' op result 0 has type '!maxgraph.tensor<[4, 1], si64>' but its operands and attributes imply '!maxgraph.tensor<[?, 1], si64>'}}
  %0 = maxgraph.nonzero %x : !maxgraph.tensor<[4], i1> -> !maxgraph.tensor<[4, 1], si64>
  maxgraph.output
}

// -----

maxgraph.graph @columns(%x: !maxgraph.tensor<[4, 2], si32>) -> () {
  // expected-error @+1 {{'maxgraph.nonzero' op result 0 has type '!maxgraph.tensor<[?, 1], si64>' but its operands and attributes imply '!maxgraph.tensor<[?, 2], si64>'}}
  %0 = maxgraph.nonzero %x : !maxgraph.tensor<[4, 2], si32> -> !maxgraph.tensor<[?, 1], si64>
  maxgraph.output
}
