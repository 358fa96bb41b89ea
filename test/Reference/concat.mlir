// maxgraph.concat (docs/Spec.md, "maxgraph.concat"): operands joined in
// order along the axis (negative axes count from the back), empty
// operands, a single operand, `?` dims that must agree at run time.

// RUN: max-run %s --interpret --print --graph=concat | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=mismatch 2>&1 | FileCheck %s --check-prefix=MISMATCH

// a = [[1, 2]], b = [[3, 4], [5, 6]] along axis 0: [[1, 2], [3, 4], [5, 6]].
// CHECK: result 0: !maxgraph.tensor<[3, 2], si32>
// CHECK-NEXT: {{\[\[}}1, 2], [3, 4], [5, 6]]
// b and c = [[7], [8]] along axis -1 (= 1): [[3, 4, 7], [5, 6, 8]].
// CHECK-NEXT: result 1: !maxgraph.tensor<[2, 3], si32>
// CHECK-NEXT: {{\[\[}}3, 4, 7], [5, 6, 8]]
// Three operands, an empty one among them: [1, 2] ++ [] ++ [3].
// CHECK-NEXT: result 2: !maxgraph.tensor<[3], f32>
// CHECK-NEXT: [1, 2, 3]
// One operand is the identity; bits copied (-nan, -0).
// CHECK-NEXT: result 3: !maxgraph.tensor<[2], f32>
// CHECK-NEXT: [-nan, -0]
// All operands empty.
// CHECK-NEXT: result 4: !maxgraph.tensor<[0], i1>
// CHECK-NEXT: []
// A `?` axis dim: [?] (2 at run time) ++ [1] -> [?] with 3 elements.
// CHECK-NEXT: result 5: !maxgraph.tensor<[?], i1>
// CHECK-NEXT: [True, False, True]
maxgraph.graph @concat() -> (!maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[0], i1>, !maxgraph.tensor<[?], i1>) {
  %a = maxgraph.constant dense<[[1, 2]]> : !maxgraph.tensor<[1, 2], si32>
  %b = maxgraph.constant dense<[[3, 4], [5, 6]]> : !maxgraph.tensor<[2, 2], si32>
  %0 = maxgraph.concat %a, %b axis = 0 : (!maxgraph.tensor<[1, 2], si32>, !maxgraph.tensor<[2, 2], si32>) -> !maxgraph.tensor<[3, 2], si32>
  %c = maxgraph.constant dense<[[7], [8]]> : !maxgraph.tensor<[2, 1], si32>
  %1 = maxgraph.concat %b, %c axis = -1 : (!maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 1], si32>) -> !maxgraph.tensor<[2, 3], si32>
  %p = maxgraph.constant dense<[1.0, 2.0]> : !maxgraph.tensor<[2], f32>
  %e = maxgraph.constant dense<> : !maxgraph.tensor<[0], f32>
  %q = maxgraph.constant dense<[3.0]> : !maxgraph.tensor<[1], f32>
  %2 = maxgraph.concat %p, %e, %q axis = 0 : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[0], f32>, !maxgraph.tensor<[1], f32>) -> !maxgraph.tensor<[3], f32>
  %n = maxgraph.constant dense<[0xFFC00000, -0.0]> : !maxgraph.tensor<[2], f32>
  %3 = maxgraph.concat %n axis = 0 : (!maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32>
  %be = maxgraph.constant dense<> : !maxgraph.tensor<[0], i1>
  %4 = maxgraph.concat %be, %be axis = 0 : (!maxgraph.tensor<[0], i1>, !maxgraph.tensor<[0], i1>) -> !maxgraph.tensor<[0], i1>
  %t = maxgraph.constant dense<[true, false]> : !maxgraph.tensor<[2], i1>
  %tq = maxgraph.reshape %t : !maxgraph.tensor<[2], i1> -> !maxgraph.tensor<[?], i1>
  %one = maxgraph.constant dense<[true]> : !maxgraph.tensor<[1], i1>
  %5 = maxgraph.concat %tq, %one axis = 0 : (!maxgraph.tensor<[?], i1>, !maxgraph.tensor<[1], i1>) -> !maxgraph.tensor<[?], i1>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[0], i1>, !maxgraph.tensor<[?], i1>
}

// Dims other than the axis must agree at run time: [2, ?] (3 at run time)
// and [1, 2] along axis 0 (the result takes the first dim that is not `?`: 2).
// MISMATCH: max-run: error: interpret: maxgraph.concat
// MISMATCH-NOT: result
maxgraph.graph @mismatch() -> !maxgraph.tensor<[3, 2], si32> {
  %a = maxgraph.constant dense<0> : !maxgraph.tensor<[2, 3], si32>
  %q = maxgraph.reshape %a : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[2, ?], si32>
  %b = maxgraph.constant dense<0> : !maxgraph.tensor<[1, 2], si32>
  %0 = maxgraph.concat %q, %b axis = 0 : (!maxgraph.tensor<[2, ?], si32>, !maxgraph.tensor<[1, 2], si32>) -> !maxgraph.tensor<[3, 2], si32>
  maxgraph.output %0 : !maxgraph.tensor<[3, 2], si32>
}
