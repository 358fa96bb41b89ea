// maxgraph.pad (docs/Spec.md, "maxgraph.pad"): constant, reflect and edge
// modes, corners dim by dim, the f64 pad value converted to the element
// type, empty inputs and symbolic dims.

// RUN: max-run %s --interpret --print --graph=pad | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/two.npy '<i4' 2 1 2
// RUN: max-run %s --interpret --print --graph=symbolic --input=%t/two.npy | FileCheck %s --check-prefix=SYMBOLIC

// constant 9, paddings [1, 0, 0, 2] on [[1, 2], [3, 4]]: one row before,
// two columns after.
// CHECK: result 0: !maxgraph.tensor<[3, 4], si32>
// CHECK-NEXT: {{\[\[}}9, 9, 9, 9], [1, 2, 9, 9], [3, 4, 9, 9]]
// reflect [1, 2, 3] by (2, 2): the element j inside from each edge:
// [3, 2, | 1, 2, 3, | 2, 1].
// CHECK-NEXT: result 1: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [3, 2, 1, 2, 3, 2, 1]
// edge [1, 2, 3] by (2, 1): [1, 1, | 1, 2, 3, | 3].
// CHECK-NEXT: result 2: !maxgraph.tensor<[6], f32>
// CHECK-NEXT: [1, 1, 1, 2, 3, 3]
// reflect [[1, 2, 3], [4, 5, 6]] by (1, 1) in both dims, corners dim by
// dim: rows become [r1, r0, r1, r0], then each row [a1, a0, a1, a2, a1].
// CHECK-NEXT: result 3: !maxgraph.tensor<[4, 5], si32>
// CHECK-NEXT: {{\[\[}}5, 4, 5, 6, 5], [2, 1, 2, 3, 2], [5, 4, 5, 6, 5], [2, 1, 2, 3, 2]]
// edge on the same input by (1, 0) and (0, 2).
// CHECK-NEXT: result 4: !maxgraph.tensor<[3, 5], si32>
// CHECK-NEXT: {{\[\[}}1, 2, 3, 3, 3], [1, 2, 3, 3, 3], [4, 5, 6, 6, 6]]
// The value is converted to the element type: -0.25 in f16; NaN and -inf
// pad floats; -128 pads si8; 1 pads i1 with true.
// CHECK-NEXT: result 5: !maxgraph.tensor<[3], f16>
// CHECK-NEXT: [-0.25, 1.5, -0.25]
// CHECK-NEXT: result 6: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [{{-?}}nan, 1.5, -inf, -inf]
// CHECK-NEXT: result 7: !maxgraph.tensor<[3], si8>
// CHECK-NEXT: [-128, 5, -128]
// CHECK-NEXT: result 8: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [False, True]
// An empty input padded with constant 7 by (2, 1): [7, 7, 7].
// CHECK-NEXT: result 9: !maxgraph.tensor<[3], si32>
// CHECK-NEXT: [7, 7, 7]
// Padding by zeros is the input; the input's -nan is copied, not refilled.
// CHECK-NEXT: result 10: !maxgraph.tensor<[2], f32>
// CHECK-NEXT: [-nan, -0]
// CHECK-NEXT: result 11: !maxgraph.tensor<[3], f32>
// CHECK-NEXT: [-nan, -0, 0]
maxgraph.graph @pad() -> (!maxgraph.tensor<[3, 4], si32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[6], f32>, !maxgraph.tensor<[4, 5], si32>, !maxgraph.tensor<[3, 5], si32>, !maxgraph.tensor<[3], f16>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[3], f32>) {
  %a = maxgraph.constant dense<[[1, 2], [3, 4]]> : !maxgraph.tensor<[2, 2], si32>
  %0 = maxgraph.pad %a paddings = [1, 0, 0, 2] constant 9 : !maxgraph.tensor<[2, 2], si32> -> !maxgraph.tensor<[3, 4], si32>
  %v = maxgraph.constant dense<[1.0, 2.0, 3.0]> : !maxgraph.tensor<[3], f32>
  %1 = maxgraph.pad %v paddings = [2, 2] reflect : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[7], f32>
  %2 = maxgraph.pad %v paddings = [2, 1] edge : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[6], f32>
  %m = maxgraph.constant dense<[[1, 2, 3], [4, 5, 6]]> : !maxgraph.tensor<[2, 3], si32>
  %3 = maxgraph.pad %m paddings = [1, 1, 1, 1] reflect : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[4, 5], si32>
  %4 = maxgraph.pad %m paddings = [1, 0, 0, 2] edge : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[3, 5], si32>
  %h = maxgraph.constant dense<[1.5]> : !maxgraph.tensor<[1], f16>
  %5 = maxgraph.pad %h paddings = [1, 1] constant -0.25 : !maxgraph.tensor<[1], f16> -> !maxgraph.tensor<[3], f16>
  %f = maxgraph.constant dense<[1.5]> : !maxgraph.tensor<[1], f32>
  %fn = maxgraph.pad %f paddings = [1, 0] constant nan : !maxgraph.tensor<[1], f32> -> !maxgraph.tensor<[2], f32>
  %6 = maxgraph.pad %fn paddings = [0, 2] constant -inf : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[4], f32>
  %s = maxgraph.constant dense<[5]> : !maxgraph.tensor<[1], si8>
  %7 = maxgraph.pad %s paddings = [1, 1] constant -128 : !maxgraph.tensor<[1], si8> -> !maxgraph.tensor<[3], si8>
  %b = maxgraph.constant dense<[false]> : !maxgraph.tensor<[1], i1>
  %8 = maxgraph.pad %b paddings = [0, 1] constant 1 : !maxgraph.tensor<[1], i1> -> !maxgraph.tensor<[2], i1>
  %e = maxgraph.constant dense<> : !maxgraph.tensor<[0], si32>
  %9 = maxgraph.pad %e paddings = [2, 1] constant 7 : !maxgraph.tensor<[0], si32> -> !maxgraph.tensor<[3], si32>
  %n = maxgraph.constant dense<[0xFFC00000, -0.0]> : !maxgraph.tensor<[2], f32>
  %10 = maxgraph.pad %n paddings = [0, 0] constant 1 : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[2], f32>
  %11 = maxgraph.pad %n paddings = [0, 1] constant 0 : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[3], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : !maxgraph.tensor<[3, 4], si32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[6], f32>, !maxgraph.tensor<[4, 5], si32>, !maxgraph.tensor<[3, 5], si32>, !maxgraph.tensor<[3], f16>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[3], f32>
}

// constant pads a symbolic dim: [1, 2] (n = 2) by (1, 2) -> [n + 3].
// SYMBOLIC: result 0: !maxgraph.tensor<[n + 3], si32>
// SYMBOLIC-NEXT: [0, 1, 2, 0, 0]
maxgraph.graph @symbolic<n>(%x: !maxgraph.tensor<[n], si32>) -> !maxgraph.tensor<[n + 3], si32> {
  %0 = maxgraph.pad %x paddings = [1, 2] constant 0 : !maxgraph.tensor<[n], si32> -> !maxgraph.tensor<[n + 3], si32>
  maxgraph.output %0 : !maxgraph.tensor<[n + 3], si32>
}
