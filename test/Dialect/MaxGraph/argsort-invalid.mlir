// RUN: max-opt %s -split-input-file -verify-diagnostics

maxgraph.graph @bools(%x: !maxgraph.tensor<[4], i1>) -> () {
  // expected-error @+1 {{'maxgraph.argsort' op operand 0 has element type 'i1' but the op takes a numeric (non-bool) type}}
  %0 = maxgraph.argsort %x axis = 0 : !maxgraph.tensor<[4], i1> -> !maxgraph.tensor<[4], si64>
  maxgraph.output
}

// -----

maxgraph.graph @axis(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.argsort' op axis -2 is out of range for an operand of rank 1 (expected -1 to 0)}}
  %0 = maxgraph.argsort %x axis = -2 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], si64>
  maxgraph.output
}

// -----

maxgraph.graph @result(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.argsort' op result 0 has type '!maxgraph.tensor<[4], si32>' but its operands and attributes imply '!maxgraph.tensor<[4], si64>'}}
  %0 = maxgraph.argsort %x axis = 0 descending : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], si32>
  maxgraph.output
}
