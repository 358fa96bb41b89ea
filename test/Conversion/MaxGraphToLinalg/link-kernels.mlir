// RUN: max-opt %s -maxgraph-link-kernels -split-input-file | FileCheck %s
// Linking twice links nothing twice.
// RUN: max-opt %s -maxgraph-link-kernels -maxgraph-link-kernels -split-input-file | FileCheck %s
// The library is found next to this file; the kernels the custom ops call
// and the functions they call are copied in as private functions (elementwise
// arith on tensors becomes linalg.generic); kernels no op calls are not.

// CHECK-LABEL: maxgraph.graph @calls<n>(
// CHECK: maxgraph.custom "add_one"
// CHECK: maxgraph.custom "twice"
// CHECK: maxgraph.custom "fill"
// CHECK-LABEL: func.func private @add_one(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME: maxgraph.kernel_library = "{{.*}}Inputs/kernels.mlir"
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK-NOT: func.func @add_one
// CHECK-LABEL: func.func private @twice(
// CHECK: call @helper
// CHECK-LABEL: func.func private @helper(
// CHECK-LABEL: func.func private @fill(%{{.*}}: memref<4xi32>)
// CHECK-NOT: func.func
maxgraph.graph @calls<n>(%x: !maxgraph.tensor<[4], f32>, %y: !maxgraph.tensor<[n], f32>, %b: !maxgraph.buffer<[4], si32>)
    -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[n], f32>) attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  %1 = maxgraph.custom "twice"(%y) : (!maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32>
  %2 = maxgraph.custom "add_one"(%0) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.custom "fill"(%b) : (!maxgraph.buffer<[4], si32>) -> ()
  maxgraph.output %2, %1 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[n], f32>
}

// -----

// Graphs without custom ops need no libraries.
// CHECK-LABEL: maxgraph.graph @plain(
// CHECK-NOT: func.func
maxgraph.graph @plain(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/missing.mlir"]} {
  maxgraph.output %x : !maxgraph.tensor<[4], f32>
}
