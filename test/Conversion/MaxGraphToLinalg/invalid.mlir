// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -verify-diagnostics

// Composites must be decomposed first.
maxgraph.graph @softmax(%x: !maxgraph.tensor<[2, 8], f32>) -> !maxgraph.tensor<[2, 8], f32> {
  // expected-error @below {{'maxgraph.softmax' is a composite with no CPU lowering; run maxgraph-decompose first}}
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[2, 8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 8], f32>
}

// -----

// A custom op needs its kernel linked into the module first.
maxgraph.graph @custom(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["kernels.mlir"]} {
  // expected-error @below {{custom kernel 'add_one' is not in the module; run maxgraph-link-kernels first}}
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// Buffers on a GPU are not host memory either.
// expected-error @below {{'maxgraph.graph' uses a buffer on #maxgraph.device<gpu:1>; convert-maxgraph-to-linalg lowers host graphs only}}
maxgraph.graph @gpu_buffer(%b: !maxgraph.buffer<[4], f32, gpu:1>) {
  maxgraph.output
}

// -----

// A transfer to a GPU inside a host graph.
maxgraph.graph @to_gpu(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @below {{'maxgraph.transfer' uses a tensor on #maxgraph.device<gpu:0>; convert-maxgraph-to-linalg lowers host graphs only}}
  %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
  // expected-error @below {{'maxgraph.transfer' uses a tensor on #maxgraph.device<gpu:0>; convert-maxgraph-to-linalg lowers host graphs only}}
  %1 = maxgraph.transfer %0 to cpu:0 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}

// -----

// Only one piece of a split may take the rest of the axis: the verifier
// counts the `?`s, and a name that the graph does not declare is a second
// unknown that only the lowering sees.
maxgraph.graph @split_unknown(%x: !maxgraph.tensor<[6, 4], f32>) -> () {
  // expected-error @below {{'maxgraph.split' has more than one piece whose size along axis 0 comes from no graph argument; it has no CPU lowering}}
  %0, %1 = maxgraph.split %x axis = 0 : !maxgraph.tensor<[6, 4], f32> -> !maxgraph.tensor<[?, 4], f32>, !maxgraph.tensor<[m, 4], f32>
  maxgraph.output
}

// -----

// expected-error @below {{'maxgraph.graph' uses a tensor on #maxgraph.device<gpu:0>; convert-maxgraph-to-linalg lowers host graphs only}}
maxgraph.graph @gpu(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  maxgraph.output %x : !maxgraph.tensor<[4], f32, gpu:0>
}

// -----

// A reshape infers one unknown dim from the element count; a dim over a
// name that the graph does not declare is a second one, which nothing sizes.
maxgraph.graph @unknown(%x: !maxgraph.tensor<[6, 4], f32>) -> () {
  // expected-error @below {{'maxgraph.reshape' result dim 1 (`m`) comes from no operand and from no graph argument; it has no CPU lowering yet}}
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[6, 4], f32> -> !maxgraph.tensor<[?, m, 2], f32>
  maxgraph.output
}

// -----

// Of the 8-bit floats, which LLVM IR has no types for, the CPU pipeline
// emulates f8E4M3FN and f8E5M2; every op on another format is refused up
// front (exp, reductions and even casts would fail late with internal
// messages).
maxgraph.graph @float8(%a: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @+1 {{'maxgraph.cast' uses 'f8E4M3FNUZ' elements; of the 8-bit floats only f8E4M3FN and f8E5M2 have a lowering}}
  %0 = maxgraph.cast %a : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], f8E4M3FNUZ>
  // expected-error @+1 {{'maxgraph.exp' uses 'f8E4M3FNUZ' elements; of the 8-bit floats only}}
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[4], f8E4M3FNUZ>
  // expected-error @+1 {{'maxgraph.cast' uses 'f8E4M3FNUZ' elements}}
  %2 = maxgraph.cast %1 : !maxgraph.tensor<[4], f8E4M3FNUZ> to !maxgraph.tensor<[4], f32>
  maxgraph.output %2 : !maxgraph.tensor<[4], f32>
}
