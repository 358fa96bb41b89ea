// maxgraph.broadcast_to (docs/Spec.md, "maxgraph.broadcast_to"): dims
// right-aligned, 1 stretches, leading dims added; a `?` target keeps the
// aligned input dim (a static 1 included); a `?` that does not fit at run
// time is an error.

// RUN: max-run %s --interpret --print --graph=broadcast_to | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=bad 2>&1 | FileCheck %s --check-prefix=BAD

// [1, 2, 3] -> [2, 3]: a new leading dim.
// CHECK: result 0: !maxgraph.tensor<[2, 3], si32>
// CHECK-NEXT: {{\[\[}}1, 2, 3], [1, 2, 3]]
// [[1], [2]] -> [2, 3]: the 1 stretches.
// CHECK-NEXT: result 1: !maxgraph.tensor<[2, 3], si32>
// CHECK-NEXT: {{\[\[}}1, 1, 1], [2, 2, 2]]
// A rank-0 value -> [2, 2]; bits copied (-nan, -0).
// CHECK-NEXT: result 2: !maxgraph.tensor<[2, 2], f32>
// CHECK-NEXT: {{\[\[}}-nan, -nan], [-nan, -nan]]
// CHECK-NEXT: result 3: !maxgraph.tensor<[3], f32>
// CHECK-NEXT: [-0, -0, -0]
// [1, 4] -> [?, 4]: the `?` keeps the input's 1, it does not broadcast.
// CHECK-NEXT: result 4: !maxgraph.tensor<[?, 4], si32>
// CHECK-NEXT: {{\[\[}}1, 2, 3, 4]]
// [[1], [2]] -> [2, ?, 3]: the `?` keeps the input's 2; the 1 stretches to 3.
// CHECK-NEXT: result 5: !maxgraph.tensor<[2, ?, 3], si32>
// CHECK-NEXT: {{\[\[\[}}1, 1, 1], [2, 2, 2]], {{\[\[}}1, 1, 1], [2, 2, 2]]]
// [1] -> [0]: a 1 stretches to an empty dim.
// CHECK-NEXT: result 6: !maxgraph.tensor<[0], si32>
// CHECK-NEXT: []
maxgraph.graph @broadcast_to() -> (!maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[?, 4], si32>, !maxgraph.tensor<[2, ?, 3], si32>, !maxgraph.tensor<[0], si32>) {
  %row = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %0 = maxgraph.broadcast_to %row : !maxgraph.tensor<[3], si32> -> !maxgraph.tensor<[2, 3], si32>
  %col = maxgraph.constant dense<[[1], [2]]> : !maxgraph.tensor<[2, 1], si32>
  %1 = maxgraph.broadcast_to %col : !maxgraph.tensor<[2, 1], si32> -> !maxgraph.tensor<[2, 3], si32>
  %n = maxgraph.constant dense<0xFFC00000> : !maxgraph.tensor<[], f32>
  %2 = maxgraph.broadcast_to %n : !maxgraph.tensor<[], f32> -> !maxgraph.tensor<[2, 2], f32>
  %z = maxgraph.constant dense<-0.0> : !maxgraph.tensor<[1], f32>
  %3 = maxgraph.broadcast_to %z : !maxgraph.tensor<[1], f32> -> !maxgraph.tensor<[3], f32>
  %r4 = maxgraph.constant dense<[[1, 2, 3, 4]]> : !maxgraph.tensor<[1, 4], si32>
  %4 = maxgraph.broadcast_to %r4 : !maxgraph.tensor<[1, 4], si32> -> !maxgraph.tensor<[?, 4], si32>
  %5 = maxgraph.broadcast_to %col : !maxgraph.tensor<[2, 1], si32> -> !maxgraph.tensor<[2, ?, 3], si32>
  %one = maxgraph.constant dense<[5]> : !maxgraph.tensor<[1], si32>
  %6 = maxgraph.broadcast_to %one : !maxgraph.tensor<[1], si32> -> !maxgraph.tensor<[0], si32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[?, 4], si32>, !maxgraph.tensor<[2, ?, 3], si32>, !maxgraph.tensor<[0], si32>
}

// An input dim `?` that is 3 at run time cannot broadcast to 2.
// BAD: max-run: error: interpret: maxgraph.broadcast_to
// BAD-NOT: result
maxgraph.graph @bad() -> !maxgraph.tensor<[2], si32> {
  %row = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %q = maxgraph.reshape %row : !maxgraph.tensor<[3], si32> -> !maxgraph.tensor<[?], si32>
  %0 = maxgraph.broadcast_to %q : !maxgraph.tensor<[?], si32> -> !maxgraph.tensor<[2], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2], si32>
}
