// RUN: max-opt %s -split-input-file -verify-diagnostics

// Every constraint of maxgraph.scatter and scatter_nd (docs/Spec.md).

maxgraph.graph @types(%x: !maxgraph.tensor<[4], f32>, %u: !maxgraph.tensor<[2], f64>, %i: !maxgraph.tensor<[2], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op (C-types) the updates' element type 'f64' differs from the input's 'f32'}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[2], si64>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @float_indices(%x: !maxgraph.tensor<[4], f32>, %u: !maxgraph.tensor<[2], f32>, %i: !maxgraph.tensor<[2], f32>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op (C-indices) operand 2 (the indices) must have an integer element type, got 'f32'}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @bool_indices(%x: !maxgraph.tensor<[4], f32>, %u: !maxgraph.tensor<[2], f32>, %i: !maxgraph.tensor<[2], i1>) -> () {
  // expected-error @+1 {{'maxgraph.scatter_nd' op (C-indices) operand 2 (the indices) must have an integer element type, got 'i1'}}
  %0 = maxgraph.scatter_nd none %x, %u, %i : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], i1>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @devices(%x: !maxgraph.tensor<[4], f32>, %u: !maxgraph.tensor<[2], f32, cpu:1>, %i: !maxgraph.tensor<[2], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op (C-device) the input, updates and indices must be on one device, got}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f32, cpu:1>, !maxgraph.tensor<[2], si64>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @bool_sum(%x: !maxgraph.tensor<[4], i1>, %u: !maxgraph.tensor<[2], i1>, %i: !maxgraph.tensor<[2], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op (C-reduction) reduction 'add' needs a numeric element type, got i1}}
  %0 = maxgraph.scatter add %x, %u, %i axis = 0 : (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], si64>) -> !maxgraph.tensor<[4], i1>
  maxgraph.output
}

// -----

maxgraph.graph @ranks(%x: !maxgraph.tensor<[4, 2], f32>, %u: !maxgraph.tensor<[2], f32>, %i: !maxgraph.tensor<[2], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op (C1) the input, updates and indices must have one rank of at least 1, got 2, 1 and 1}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], si64>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @shapes(%x: !maxgraph.tensor<[4, 2], f32>, %u: !maxgraph.tensor<[3, 2], f32>, %i: !maxgraph.tensor<[3, 1], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op (C2) the updates [3, 2] and the indices [3, 1] must have one shape}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 1], si64>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @too_wide(%x: !maxgraph.tensor<[4, 2], f32>, %u: !maxgraph.tensor<[3, 3], f32>, %i: !maxgraph.tensor<[3, 3], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op (C3) dim 1 of the updates [3, 3] exceeds the input's [4, 2] off the axis 0}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3, 3], f32>, !maxgraph.tensor<[3, 3], si64>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @symbolic_off_axis<n>(%x: !maxgraph.tensor<[n, 2], f32>, %u: !maxgraph.tensor<[3, 2], f32>, %i: !maxgraph.tensor<[3, 2], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op (C3) dim 0 of the updates [3, 2] exceeds the input's [n, 2] off the axis 1}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 1 : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[n, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @axis(%x: !maxgraph.tensor<[4], f32>, %u: !maxgraph.tensor<[2], f32>, %i: !maxgraph.tensor<[2], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op axis 1 is out of range for an operand of rank 1 (expected -1 to 0)}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 1 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], si64>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @result(%x: !maxgraph.tensor<[4], f32>, %u: !maxgraph.tensor<[2], f32>, %i: !maxgraph.tensor<[2], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter' op result 0 has type '!maxgraph.tensor<[4], f64>' but its operands and attributes imply '!maxgraph.tensor<[4], f32>'}}
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], si64>) -> !maxgraph.tensor<[4], f64>
  maxgraph.output
}

// -----

maxgraph.graph @nd_depth(%x: !maxgraph.tensor<[4, 2], f32>, %u: !maxgraph.tensor<[2], f32>, %i: !maxgraph.tensor<[2, 3], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter_nd' op (C1) the indices' last dim must be a static size from 1 to the input's rank 2, got indices [2, 3]}}
  %0 = maxgraph.scatter_nd none %x, %u, %i : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2, 3], si64>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @nd_symbolic_depth<k>(%x: !maxgraph.tensor<[4, 2], f32>, %u: !maxgraph.tensor<[2], f32>, %i: !maxgraph.tensor<[2, k], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter_nd' op (C1) the indices' last dim must be a static size from 1 to the input's rank 2, got indices [2, k]}}
  %0 = maxgraph.scatter_nd none %x, %u, %i : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2, k], si64>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @nd_updates(%x: !maxgraph.tensor<[4, 2], f32>, %u: !maxgraph.tensor<[3, 3], f32>, %i: !maxgraph.tensor<[3, 1], si64>) -> () {
  // expected-error @+1 {{'maxgraph.scatter_nd' op (C2) the updates must have dims [3, 2] (the indices' but the last, then the input's from dim 1), got [3, 3]}}
  %0 = maxgraph.scatter_nd none %x, %u, %i : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3, 3], f32>, !maxgraph.tensor<[3, 1], si64>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output
}
