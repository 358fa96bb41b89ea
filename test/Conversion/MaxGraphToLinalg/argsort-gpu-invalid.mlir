// RUN: max-opt %s -convert-maxgraph-to-linalg="gpu=true" -verify-diagnostics

// argsort has no GPU lowering yet; the GPU lowering says where it is.
maxgraph.graph @argsort(%x: !maxgraph.tensor<[8], f32, gpu:0>) -> !maxgraph.tensor<[8], si64, gpu:0> {
  // expected-error @below {{'maxgraph.argsort' has no GPU lowering yet; transfer its operand to the CPU}}
  %0 = maxgraph.argsort %x axis = 0 : !maxgraph.tensor<[8], f32, gpu:0> -> !maxgraph.tensor<[8], si64, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[8], si64, gpu:0>
}
