// maxgraph.split (docs/Spec.md, "maxgraph.split"): consecutive pieces along
// the axis, empty pieces, a `?` piece taking the rest of the axis, and the
// run-time error when the pieces do not fit.

// RUN: max-run %s --interpret --print --graph=split | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=too_long 2>&1 | FileCheck %s --check-prefix=ERROR

// [0, 1, 2, 3, 4, 5] into pieces of 1, 2, 3 (and an empty one, 0).
// CHECK: result 0: !maxgraph.tensor<[1], si32>
// CHECK-NEXT: [0]
// CHECK-NEXT: result 1: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [1, 2]
// CHECK-NEXT: result 2: !maxgraph.tensor<[0], si32>
// CHECK-NEXT: []
// CHECK-NEXT: result 3: !maxgraph.tensor<[3], si32>
// CHECK-NEXT: [3, 4, 5]
// [[0, 1, 2, 3], [4, 5, 6, 7]] along axis -1 into [2, 1] and [2, 3].
// CHECK-NEXT: result 4: !maxgraph.tensor<[2, 1], f32>
// CHECK-NEXT: {{\[\[}}0], [4]]
// CHECK-NEXT: result 5: !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: {{\[\[}}1, 2, 3], [5, 6, 7]]
// A `?` piece takes the rest: 6 - 2 - 1 = 3 elements.
// CHECK-NEXT: result 6: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [0, 1]
// CHECK-NEXT: result 7: !maxgraph.tensor<[?], si32>
// CHECK-NEXT: [2, 3, 4]
// CHECK-NEXT: result 8: !maxgraph.tensor<[1], si32>
// CHECK-NEXT: [5]
maxgraph.graph @split() -> (!maxgraph.tensor<[1], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[1], si32>) {
  %x = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[6], si32>
  %0:4 = maxgraph.split %x axis = 0 : !maxgraph.tensor<[6], si32> -> !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[3], si32>
  %r = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[8], f32>
  %m = maxgraph.reshape %r : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[2, 4], f32>
  %1:2 = maxgraph.split %m axis = -1 : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 3], f32>
  %2:3 = maxgraph.split %x axis = 0 : !maxgraph.tensor<[6], si32> -> !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[1], si32>
  maxgraph.output %0#0, %0#1, %0#2, %0#3, %1#0, %1#1, %2#0, %2#1, %2#2 : !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[1], si32>
}

// Pieces 2 and ? of an axis that holds 1 element: the `?` piece would have
// size -1, an error of the call.
// ERROR: max-run: error: interpret: maxgraph.split
// ERROR-NOT: result
maxgraph.graph @too_long() -> (!maxgraph.tensor<[2], si32>, !maxgraph.tensor<[?], si32>) {
  %x = maxgraph.constant dense<[7]> : !maxgraph.tensor<[1], si32>
  %q = maxgraph.reshape %x : !maxgraph.tensor<[1], si32> -> !maxgraph.tensor<[?], si32>
  %0:2 = maxgraph.split %q axis = 0 : !maxgraph.tensor<[?], si32> -> !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[?], si32>
  maxgraph.output %0#0, %0#1 : !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[?], si32>
}
