// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file | FileCheck %s
// A kernel whose dims are more or less static than its custom op's is
// called through casts that change only static vs dynamic dims.

// A kernel linked from a library (as maxgraph-link-kernels leaves it) takes
// tensor<?xf32>; the op passes [4].
// CHECK-LABEL: func.func @linked(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>
// CHECK: %[[IN:.*]] = tensor.cast %[[X]] : tensor<4xf32> to tensor<?xf32>
// CHECK: %[[OUT:.*]] = call @twice(%[[IN]]) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK: tensor.cast %[[OUT]] : tensor<?xf32> to tensor<4xf32>
func.func private @twice(%x: tensor<?xf32>) -> tensor<?xf32> attributes {maxgraph.kernel_library = "Inputs/kernels.mlir"} {
  return %x : tensor<?xf32>
}
maxgraph.graph @linked(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  %0 = maxgraph.custom "twice"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// A kernel defined in the module: a static kernel for a symbolic op, and a
// dynamic memref for a static buffer of si32 (signless i32).
// CHECK-LABEL: func.func @in_module(
// CHECK-SAME: %[[B:.*]]: memref<4xi32>, %[[X:.*]]: tensor<?xf32>
// `n` must be 4 at run time: checked, and a failed check passes zeros.
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[IS4:.*]] = arith.cmpi eq, %[[N]], %c4
// CHECK: cf.assert %[[IS4]], "maxgraph.custom: operand 0 of kernel @k: dim 0 is not 4 at run time"
// CHECK: %[[IN:.*]] = scf.if %[[IS4]] -> (tensor<4xf32>) {
// CHECK: tensor.cast %[[X]] : tensor<?xf32> to tensor<4xf32>
// CHECK: %[[OUT:.*]] = call @k(%[[IN]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: tensor.cast %[[OUT]] : tensor<4xf32> to tensor<?xf32>
// CHECK: %[[MB:.*]] = memref.cast %[[B]] : memref<4xi32> to memref<?xi32>
// CHECK: call @fill(%[[MB]]) : (memref<?xi32>) -> ()
func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func private @fill(%b: memref<?xi32>) {
  return
}
maxgraph.graph @in_module<n>(%b: !maxgraph.buffer<[4], si32>, %x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32> {
  %0 = maxgraph.custom "k"(%x) : (!maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32>
  maxgraph.custom "fill"(%b) : (!maxgraph.buffer<[4], si32>) -> ()
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}
