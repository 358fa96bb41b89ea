// RUN: max-opt %s -convert-maxgraph-to-linalg="gpu=true" -split-input-file -verify-diagnostics

// The scatters apply their updates in order on the CPU; the GPU lowering
// refuses them where they are (as MAX, graphs move them to the CPU).
maxgraph.graph @scatter(%x: !maxgraph.tensor<[4], f32, gpu:0>, %u: !maxgraph.tensor<[2], f32, gpu:0>, %i: !maxgraph.tensor<[2], si64, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  // expected-error @below {{'maxgraph.scatter' has no GPU lowering yet: its updates are applied one by one, in order; transfer its operands to the CPU}}
  %0 = maxgraph.scatter add %x, %u, %i axis = 0 : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[2], f32, gpu:0>, !maxgraph.tensor<[2], si64, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}

// -----

maxgraph.graph @scatter_nd(%x: !maxgraph.tensor<[4], f32, gpu:0>, %u: !maxgraph.tensor<[2], f32, gpu:0>, %i: !maxgraph.tensor<[2, 1], si64, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  // expected-error @below {{'maxgraph.scatter_nd' has no GPU lowering yet: its updates are applied one by one, in order; transfer its operands to the CPU}}
  %0 = maxgraph.scatter_nd none %x, %u, %i : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[2], f32, gpu:0>, !maxgraph.tensor<[2, 1], si64, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}
