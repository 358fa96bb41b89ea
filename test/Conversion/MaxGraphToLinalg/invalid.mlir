// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -verify-diagnostics

// Composites must be decomposed first.
maxgraph.graph @softmax(%x: !maxgraph.tensor<[2, 8], f32>) -> !maxgraph.tensor<[2, 8], f32> {
  // expected-error @below {{'maxgraph.softmax' is a composite with no CPU lowering; run maxgraph-decompose first}}
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[2, 8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 8], f32>
}

// -----

maxgraph.graph @argmax(%x: !maxgraph.tensor<[4, 8], f32>) -> !maxgraph.tensor<[4], si64> {
  // expected-error @below {{'maxgraph.argmax' has no CPU lowering yet}}
  %0 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[4], si64>
  maxgraph.output %0 : !maxgraph.tensor<[4], si64>
}

// -----

maxgraph.graph @int_pow(%x: !maxgraph.tensor<[4], si32>) -> !maxgraph.tensor<[4], si32> {
  // expected-error @below {{'maxgraph.pow' on integers has no CPU lowering yet}}
  %0 = maxgraph.pow %x, %x : !maxgraph.tensor<[4], si32>
  maxgraph.output %0 : !maxgraph.tensor<[4], si32>
}

// -----

// expected-error @below {{'maxgraph.graph' uses a buffer; buffers have no CPU lowering yet}}
maxgraph.graph @buffer(%b: !maxgraph.buffer<[4], f32>) {
  maxgraph.output
}

// -----

// expected-error @below {{'maxgraph.graph' uses a tensor on #maxgraph.device<gpu:0>; convert-maxgraph-to-linalg lowers host graphs only}}
maxgraph.graph @gpu(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  maxgraph.output %x : !maxgraph.tensor<[4], f32, gpu:0>
}

// -----

// An unknown dim that no operand carries cannot be sized.
maxgraph.graph @unknown(%x: !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[?, 4], f32> {
  // expected-error @below {{'maxgraph.broadcast_to' result dim 0 (`?`) comes from no operand and from no graph argument; it has no CPU lowering yet}}
  %0 = maxgraph.broadcast_to %x : !maxgraph.tensor<[1, 4], f32> -> !maxgraph.tensor<[?, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?, 4], f32>
}
