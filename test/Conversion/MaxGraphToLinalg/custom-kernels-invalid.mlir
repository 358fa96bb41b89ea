// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -verify-diagnostics
// The conversion calls whatever func.func of the kernel's name the module
// has, linked by maxgraph-link-kernels or not, and checks its signature
// first: a kernel that does not fit its custom op is a located error naming
// the kernel, the index and both types, never an impossible tensor.cast.

// expected-note @below {{custom kernel 'k' is defined here}}
func.func private @k(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  return %x : tensor<4xbf16>
}
maxgraph.graph @input_element(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @below {{input 0 of custom kernel 'k' has type '!maxgraph.tensor<[4], f32>' but the kernel takes 'tensor<4xbf16>' (a tensor is passed as a tensor)}}
  %0 = maxgraph.custom "k"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// expected-note @below {{custom kernel 'k' is defined here}}
func.func private @k(%x: tensor<?xf32>) -> tensor<?xbf16> {
  %c = arith.constant 4 : index
  %0 = tensor.empty(%c) : tensor<?xbf16>
  return %0 : tensor<?xbf16>
}
maxgraph.graph @result_element(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @below {{result 0 of custom kernel 'k' has type '!maxgraph.tensor<[4], f32>' but the kernel returns 'tensor<?xbf16>'}}
  %0 = maxgraph.custom "k"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// expected-note @below {{custom kernel 'k' is defined here}}
func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
maxgraph.graph @arity(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @below {{custom kernel 'k' takes 1 inputs and returns 1 results, but the op passes 2 and expects 1}}
  %0 = maxgraph.custom "k"(%x, %x) : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// expected-note @below {{custom kernel 'k' is defined here}}
func.func private @k(%x: tensor<4x1xf32>) -> tensor<4xf32> {
  %0 = tensor.collapse_shape %x [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
  return %0 : tensor<4xf32>
}
maxgraph.graph @rank(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @below {{input 0 of custom kernel 'k' has type '!maxgraph.tensor<[4], f32>' but the kernel takes 'tensor<4x1xf32>'}}
  %0 = maxgraph.custom "k"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// expected-note @below {{custom kernel 'k' is defined here}}
func.func private @k(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
maxgraph.graph @static_dim(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @below {{input 0 of custom kernel 'k' has type '!maxgraph.tensor<[4], f32>' but the kernel takes 'tensor<8xf32>'}}
  %0 = maxgraph.custom "k"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// expected-note @below {{custom kernel 'k' is defined here}}
func.func private @k(%b: tensor<4xf32>) {
  return
}
maxgraph.graph @buffer_as_tensor(%b: !maxgraph.buffer<[4], f32>) {
  // expected-error @below {{input 0 of custom kernel 'k' has type '!maxgraph.buffer<[4], f32>' but the kernel takes 'tensor<4xf32>' (a buffer is passed as a memref)}}
  maxgraph.custom "k"(%b) : (!maxgraph.buffer<[4], f32>) -> ()
  maxgraph.output
}
