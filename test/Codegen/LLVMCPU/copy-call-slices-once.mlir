// RUN: max-opt %s --pass-pipeline="builtin.module(func.func(maxgraph-copy-call-slices-once))" --split-input-file | FileCheck %s

// A slice that two calls take is copied once, after the slice, and both
// calls take the copy; a slice that one call takes is left to
// bufferization (one copy either way).
// CHECK-LABEL: func.func @model(
// CHECK:         %[[S:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [%{{.*}}, 32] [1, 1]
// CHECK-NEXT:    %[[C:.*]] = bufferization.alloc_tensor() copy(%[[S]]) : tensor<?x32xf32>
// CHECK:         %[[ONE:.*]] = tensor.extract_slice %{{.*}}[0, 0] [4, 32] [1, 1]
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK:         %[[A:.*]] = call @layer(%{{.*}}, %[[C]])
// CHECK-NEXT:    %[[B:.*]] = call @layer(%[[A]], %[[C]])
// CHECK-NEXT:    %{{.*}} = call @layer(%[[B]], %{{.*}})
func.func private @layer(%x: tensor<?x32xf32>, %t: tensor<?x32xf32>) -> tensor<?x32xf32> {
  return %x : tensor<?x32xf32>
}
func.func @model(%x: tensor<?x32xf32>, %table: tensor<2048x32xf32>, %pos: index, %n: index) -> tensor<?x32xf32> {
  %s = tensor.extract_slice %table[%pos, 0] [%n, 32] [1, 1] : tensor<2048x32xf32> to tensor<?x32xf32>
  %one = tensor.extract_slice %table[0, 0] [4, 32] [1, 1] : tensor<2048x32xf32> to tensor<4x32xf32>
  %cast = tensor.cast %one : tensor<4x32xf32> to tensor<?x32xf32>
  %a = call @layer(%x, %s) : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  %b = call @layer(%a, %s) : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  %c = call @layer(%b, %cast) : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  return %c : tensor<?x32xf32>
}

// -----

// A static slice cast to a body's dynamic dims counts its casts' calls:
// the casts take the copy.
// CHECK-LABEL: func.func @cast_slice(
// CHECK:         %[[S:.*]] = tensor.extract_slice
// CHECK-NEXT:    %[[C:.*]] = bufferization.alloc_tensor() copy(%[[S]]) : tensor<4x32xf32>
// CHECK-NEXT:    %[[D:.*]] = tensor.cast %[[C]] : tensor<4x32xf32> to tensor<?x32xf32>
// CHECK-NEXT:    %[[A:.*]] = call @layer(%{{.*}}, %[[D]])
// CHECK-NEXT:    %{{.*}} = call @layer(%[[A]], %[[D]])
func.func private @layer(%x: tensor<?x32xf32>, %t: tensor<?x32xf32>) -> tensor<?x32xf32> {
  return %x : tensor<?x32xf32>
}
func.func @cast_slice(%x: tensor<?x32xf32>, %table: tensor<2048x32xf32>) -> tensor<?x32xf32> {
  %s = tensor.extract_slice %table[8, 0] [4, 32] [1, 1] : tensor<2048x32xf32> to tensor<4x32xf32>
  %d = tensor.cast %s : tensor<4x32xf32> to tensor<?x32xf32>
  %a = call @layer(%x, %d) : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  %b = call @layer(%a, %d) : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  return %b : tensor<?x32xf32>
}
