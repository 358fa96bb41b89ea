// RUN: max-opt %s -maxgraph-link-kernels -split-input-file -verify-diagnostics

maxgraph.graph @missing_file(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/missing.mlir"]} {
  // expected-error @below {{kernel library 'Inputs/missing.mlir' of @missing_file does not exist}}
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @not_mlir(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/not-mlir.mlir"]} {
  // expected-error @below {{kernel library 'Inputs/not-mlir.mlir' of @not_mlir is not a valid kernel library (an .mlir file of func.func kernels)}}
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @no_libraries(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @below {{custom kernel 'add_one': @no_libraries lists no kernel_libraries}}
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// Private functions are not kernels.
maxgraph.graph @missing_kernel(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  // expected-error @below {{custom kernel 'helper' is in none of the kernel libraries of @missing_kernel (they define: add_one, fill, twice)}}
  %0 = maxgraph.custom "helper"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @arity(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  // expected-error @below {{custom kernel 'add_one' takes 1 inputs and returns 1 results, but the op passes 2 and expects 1}}
  %0 = maxgraph.custom "add_one"(%x, %x) : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @static_dim(%x: !maxgraph.tensor<[8], f32>) -> !maxgraph.tensor<[8], f32> attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  // expected-error @below {{input 0 of custom kernel 'add_one' has type '!maxgraph.tensor<[8], f32>' but the kernel takes 'tensor<4xf32>' (a tensor is passed as a tensor)}}
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[8], f32>) -> !maxgraph.tensor<[8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[8], f32>
}

// -----

maxgraph.graph @element_type(%x: !maxgraph.tensor<[4], si32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  // expected-error @below {{input 0 of custom kernel 'add_one' has type '!maxgraph.tensor<[4], si32>' but the kernel takes 'tensor<4xf32>'}}
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], si32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @result_type(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f64> attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  // expected-error @below {{result 0 of custom kernel 'add_one' has type '!maxgraph.tensor<[4], f64>' but the kernel returns 'tensor<4xf32>'}}
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f64>
  maxgraph.output %0 : !maxgraph.tensor<[4], f64>
}

// -----

// A buffer is passed as a memref, a tensor as a tensor.
maxgraph.graph @buffer_as_tensor(%b: !maxgraph.buffer<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  // expected-error @below {{input 0 of custom kernel 'add_one' has type '!maxgraph.buffer<[4], f32>' but the kernel takes 'tensor<4xf32>' (a buffer is passed as a memref)}}
  %0 = maxgraph.custom "add_one"(%b) : (!maxgraph.buffer<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @tensor_as_buffer(%x: !maxgraph.tensor<[4], si32>) attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  // expected-error @below {{input 0 of custom kernel 'fill' has type '!maxgraph.tensor<[4], si32>' but the kernel takes 'memref<4xi32>' (a tensor is passed as a tensor)}}
  maxgraph.custom "fill"(%x) : (!maxgraph.tensor<[4], si32>) -> ()
  maxgraph.output
}

// -----

// A kernel's name must not clash with a symbol of the module.
func.func private @helper(%x: tensor<?xf32>) -> tensor<?xf32>
maxgraph.graph @clash(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  // expected-error @below {{custom kernel 'twice' needs @helper of kernel library}}
  %0 = maxgraph.custom "twice"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
