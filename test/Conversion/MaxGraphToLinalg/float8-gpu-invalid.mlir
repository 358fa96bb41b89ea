// RUN: max-opt %s -split-input-file -convert-maxgraph-to-linalg="gpu=true" -verify-diagnostics

// The GPU pipelines have no emulation of 8-bit floats yet (the CPU's holds
// them as i8 and computes in f32); the GPU lowering says where they are:
// at each op that uses one, or at the graph whose signature has one.
maxgraph.graph @cast(%x: !maxgraph.tensor<[8], f32, gpu:0>) -> !maxgraph.tensor<[8], f32, gpu:0> {
  // expected-error @below {{'maxgraph.cast' uses 'f8E5M2' elements; 8-bit floats have no GPU lowering yet (cast them to f16 or f32 on the host)}}
  %0 = maxgraph.cast %x : !maxgraph.tensor<[8], f32, gpu:0> to !maxgraph.tensor<[8], f8E5M2, gpu:0>
  // expected-error @below {{'maxgraph.cast' uses 'f8E5M2' elements}}
  %1 = maxgraph.cast %0 : !maxgraph.tensor<[8], f8E5M2, gpu:0> to !maxgraph.tensor<[8], f32, gpu:0>
  maxgraph.output %1 : !maxgraph.tensor<[8], f32, gpu:0>
}

// -----

// expected-error @below {{'maxgraph.graph' uses 'f8E4M3FN' elements; 8-bit floats have no GPU lowering yet}}
maxgraph.graph @argument(%x: !maxgraph.tensor<[8], f8E4M3FN, gpu:0>) -> () {
  maxgraph.output
}
