// RUN: max-opt %s -split-input-file -convert-maxgraph-to-linalg="gpu=true" -verify-diagnostics

// nonzero's result size is known only on the device once it has run, and
// GPU results are allocated before the run: no GPU lowering.
maxgraph.graph @nonzero(%x: !maxgraph.tensor<[8], f32, gpu:0>) -> () {
  // expected-error @below {{'maxgraph.nonzero' has no GPU lowering yet; transfer its operand to the CPU}}
  %0 = maxgraph.nonzero %x : !maxgraph.tensor<[8], f32, gpu:0> -> !maxgraph.tensor<[?, 1], si64, gpu:0>
  maxgraph.output
}

// -----

maxgraph.graph @print(%x: !maxgraph.tensor<[8], f32, gpu:0>) -> () {
  // expected-error @below {{'maxgraph.print' has no GPU lowering yet; transfer its operand to the CPU}}
  maxgraph.print "x" %x : !maxgraph.tensor<[8], f32, gpu:0>
  maxgraph.output
}
