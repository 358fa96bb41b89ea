// maxgraph.reshape (docs/Spec.md, "maxgraph.reshape"): the same elements in
// row-major order under new dims, bit patterns copied, one `?` result dim
// inferred from the element count, and the run-time errors when the counts
// differ.

// RUN: max-run %s --interpret --print --graph=reshape | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=bad_count 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not max-run %s --interpret --print --graph=over_empty 2>&1 | FileCheck %s --check-prefix=OVER-EMPTY

// x = [[1, 2, 3], [4, 5, 6]]: to [3, 2], [6], [1, 6, 1] keep the row-major order.
// CHECK: result 0: !maxgraph.tensor<[3, 2], si32>
// CHECK-NEXT: {{\[\[}}1, 2], [3, 4], [5, 6]]
// CHECK-NEXT: result 1: !maxgraph.tensor<[6], si32>
// CHECK-NEXT: [1, 2, 3, 4, 5, 6]
// CHECK-NEXT: result 2: !maxgraph.tensor<[1, 6, 1], si32>
// CHECK-NEXT: {{\[\[\[}}1], [2], [3], [4], [5], [6]]]
// A rank-0 value to [1, 1] and back.
// CHECK-NEXT: result 3: !maxgraph.tensor<[1, 1], f32>
// CHECK-NEXT: {{\[\[}}7]]
// CHECK-NEXT: result 4: !maxgraph.tensor<[], f32>
// CHECK-NEXT: 7
// A `?` dim takes the element count over the other dims: 6 / 2 = 3.
// CHECK-NEXT: result 5: !maxgraph.tensor<[?, 2], si32>
// CHECK-NEXT: {{\[\[}}1, 2], [3, 4], [5, 6]]
// Bits are copied: -nan (0xFFC00000) and -0 stay.
// CHECK-NEXT: result 6: !maxgraph.tensor<[2, 1], f32>
// CHECK-NEXT: {{\[\[}}-nan], [-0]]
// An empty tensor: [0, 3] -> [3, 0] and -> [?, 3] (0 / 3 = 0 rows).
// CHECK-NEXT: result 7: !maxgraph.tensor<[3, 0], f32>
// CHECK-NEXT: {{\[\[\]\]}}
// CHECK-NEXT: result 8: !maxgraph.tensor<[?, 3], f32>
// CHECK-NEXT: {{\[\[\]\]}}
maxgraph.graph @reshape() -> (!maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[6], si32>, !maxgraph.tensor<[1, 6, 1], si32>, !maxgraph.tensor<[1, 1], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[?, 2], si32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[3, 0], f32>, !maxgraph.tensor<[?, 3], f32>) {
  %x = maxgraph.constant dense<[[1, 2, 3], [4, 5, 6]]> : !maxgraph.tensor<[2, 3], si32>
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[3, 2], si32>
  %1 = maxgraph.reshape %x : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[6], si32>
  %2 = maxgraph.reshape %x : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[1, 6, 1], si32>
  %s = maxgraph.constant dense<7.0> : !maxgraph.tensor<[], f32>
  %3 = maxgraph.reshape %s : !maxgraph.tensor<[], f32> -> !maxgraph.tensor<[1, 1], f32>
  %4 = maxgraph.reshape %3 : !maxgraph.tensor<[1, 1], f32> -> !maxgraph.tensor<[], f32>
  %5 = maxgraph.reshape %x : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[?, 2], si32>
  %n = maxgraph.constant dense<[0xFFC00000, -0.0]> : !maxgraph.tensor<[2], f32>
  %6 = maxgraph.reshape %n : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[2, 1], f32>
  %e = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], f32>
  %7 = maxgraph.reshape %e : !maxgraph.tensor<[0, 3], f32> -> !maxgraph.tensor<[3, 0], f32>
  %8 = maxgraph.reshape %e : !maxgraph.tensor<[0, 3], f32> -> !maxgraph.tensor<[?, 3], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8 : !maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[6], si32>, !maxgraph.tensor<[1, 6, 1], si32>, !maxgraph.tensor<[1, 1], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[?, 2], si32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[3, 0], f32>, !maxgraph.tensor<[?, 3], f32>
}

// 6 elements do not fill rows of 4: an error of the call.
// COUNT: max-run: error: interpret: maxgraph.reshape cannot reshape [2, 3] to
// COUNT-NOT: result
maxgraph.graph @bad_count() -> !maxgraph.tensor<[?, 4], si32> {
  %x = maxgraph.constant dense<[[1, 2, 3], [4, 5, 6]]> : !maxgraph.tensor<[2, 3], si32>
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[?, 4], si32>
  maxgraph.output %0 : !maxgraph.tensor<[?, 4], si32>
}

// The other dims hold no elements, so nothing determines the `?`: an error.
// OVER-EMPTY: max-run: error: interpret: maxgraph.reshape cannot reshape [0, 3] to
// OVER-EMPTY-NOT: result
maxgraph.graph @over_empty() -> !maxgraph.tensor<[?, 0], f32> {
  %e = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], f32>
  %0 = maxgraph.reshape %e : !maxgraph.tensor<[0, 3], f32> -> !maxgraph.tensor<[?, 0], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?, 0], f32>
}
