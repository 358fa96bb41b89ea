// maxgraph.matmul (docs/Spec.md, "maxgraph.matmul"): plain and batched
// products with broadcast batch dims, k = 0, accumulation in double rounded
// once, integer wrapping, NaN and inf.

// RUN: max-run %s --interpret --print --graph=matmul | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=contracted_mismatch 2>&1 | FileCheck %s --check-prefix=MISMATCH

// [[1, 2, 3], [4, 5, 6]] x [[7, 8], [9, 10], [11, 12]]:
//   [1*7 + 2*9 + 3*11, 1*8 + 2*10 + 3*12] = [58, 64]
//   [4*7 + 5*9 + 6*11, 4*8 + 5*10 + 6*12] = [139, 154]
// CHECK: result 0: !maxgraph.tensor<[2, 2], f32>
// CHECK-NEXT: {{\[\[}}58, 64], [139, 154]]
// Batch dims broadcast: lhs [2, 1, 1, 2] (a0 = [1, 2], a1 = [3, 4]) and rhs
// [3, 2, 1] (b0 = [1, 0], b1 = [0, 1], b2 = [1, 1] as columns): the batch
// dims [2, 1] and [3] broadcast to [2, 3]; result[i, j] = a_i . b_j:
// i = 0: 1, 2, 3; i = 1: 3, 4, 7.
// CHECK-NEXT: result 1: !maxgraph.tensor<[2, 3, 1, 1], si32>
// CHECK-NEXT: {{\[\[\[\[}}1]], {{\[\[}}2]], {{\[\[}}3]]], {{\[\[\[}}3]], {{\[\[}}4]], {{\[\[}}7]]]]
// k = 0: [2, 0] x [0, 3] gives zeros.
// CHECK-NEXT: result 2: !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: {{\[\[}}0, 0, 0], [0, 0, 0]]
// si8 wraps: 100 * 2 + 100 * 1 = 300 -> 44; 64 * 2 + 64 * 2 = 256 -> 0.
// CHECK-NEXT: result 3: !maxgraph.tensor<[2, 1], si8>
// CHECK-NEXT: {{\[\[}}44], [0]]
// f32 accumulation in double, rounded once: [2^24, 1, 1] . [1, 1, 1] =
// 2^24 + 2 = 16777218 (f32 steps would stay at 2^24).
// CHECK-NEXT: result 4: !maxgraph.tensor<[1, 1], f32>
// CHECK-NEXT: {{\[\[}}16777218]]
// NaN and inf: [nan, 1] . [0, 1] = NaN; [inf, 1] . [0, 1] = inf * 0 + 1 = NaN;
// [inf, 1] . [1, 1] = inf.
// CHECK-NEXT: result 5: !maxgraph.tensor<[3, 1], f32>
// CHECK-NEXT: {{\[\[}}{{-?}}nan], [{{-?}}nan], [inf]]
maxgraph.graph @matmul() -> (!maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 3, 1, 1], si32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 1], si8>, !maxgraph.tensor<[1, 1], f32>, !maxgraph.tensor<[3, 1], f32>) {
  %a = maxgraph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : !maxgraph.tensor<[2, 3], f32>
  %b = maxgraph.constant dense<[[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]> : !maxgraph.tensor<[3, 2], f32>
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3, 2], f32>) -> !maxgraph.tensor<[2, 2], f32>
  %l = maxgraph.constant dense<[[[[1, 2]]], [[[3, 4]]]]> : !maxgraph.tensor<[2, 1, 1, 2], si32>
  %r = maxgraph.constant dense<[[[1], [0]], [[0], [1]], [[1], [1]]]> : !maxgraph.tensor<[3, 2, 1], si32>
  %1 = maxgraph.matmul %l, %r : (!maxgraph.tensor<[2, 1, 1, 2], si32>, !maxgraph.tensor<[3, 2, 1], si32>) -> !maxgraph.tensor<[2, 3, 1, 1], si32>
  %e0 = maxgraph.constant dense<> : !maxgraph.tensor<[2, 0], f32>
  %e1 = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], f32>
  %2 = maxgraph.matmul %e0, %e1 : (!maxgraph.tensor<[2, 0], f32>, !maxgraph.tensor<[0, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  %i = maxgraph.constant dense<[[100, 100], [64, 64]]> : !maxgraph.tensor<[2, 2], si8>
  %j = maxgraph.constant dense<[[2], [1]]> : !maxgraph.tensor<[2, 1], si8>
  %j2 = maxgraph.constant dense<[[2], [2]]> : !maxgraph.tensor<[2, 1], si8>
  %i0 = maxgraph.slice %i [0:1, :] : !maxgraph.tensor<[2, 2], si8> -> !maxgraph.tensor<[1, 2], si8>
  %i1 = maxgraph.slice %i [1:2, :] : !maxgraph.tensor<[2, 2], si8> -> !maxgraph.tensor<[1, 2], si8>
  %p0 = maxgraph.matmul %i0, %j : (!maxgraph.tensor<[1, 2], si8>, !maxgraph.tensor<[2, 1], si8>) -> !maxgraph.tensor<[1, 1], si8>
  %p1 = maxgraph.matmul %i1, %j2 : (!maxgraph.tensor<[1, 2], si8>, !maxgraph.tensor<[2, 1], si8>) -> !maxgraph.tensor<[1, 1], si8>
  %3 = maxgraph.concat %p0, %p1 axis = 0 : (!maxgraph.tensor<[1, 1], si8>, !maxgraph.tensor<[1, 1], si8>) -> !maxgraph.tensor<[2, 1], si8>
  %f = maxgraph.constant dense<[[16777216.0, 1.0, 1.0]]> : !maxgraph.tensor<[1, 3], f32>
  %ones = maxgraph.constant dense<1.0> : !maxgraph.tensor<[3, 1], f32>
  %4 = maxgraph.matmul %f, %ones : (!maxgraph.tensor<[1, 3], f32>, !maxgraph.tensor<[3, 1], f32>) -> !maxgraph.tensor<[1, 1], f32>
  %n = maxgraph.constant dense<[[0x7FC00000, 1.0], [0x7F800000, 1.0]]> : !maxgraph.tensor<[2, 2], f32>
  %c = maxgraph.constant dense<[[0.0], [1.0]]> : !maxgraph.tensor<[2, 1], f32>
  %n01 = maxgraph.matmul %n, %c : (!maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 1], f32>) -> !maxgraph.tensor<[2, 1], f32>
  %n1 = maxgraph.slice %n [1:2, :] : !maxgraph.tensor<[2, 2], f32> -> !maxgraph.tensor<[1, 2], f32>
  %c1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 1], f32>
  %n2 = maxgraph.matmul %n1, %c1 : (!maxgraph.tensor<[1, 2], f32>, !maxgraph.tensor<[2, 1], f32>) -> !maxgraph.tensor<[1, 1], f32>
  %5 = maxgraph.concat %n01, %n2 axis = 0 : (!maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[1, 1], f32>) -> !maxgraph.tensor<[3, 1], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 3, 1, 1], si32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 1], si8>, !maxgraph.tensor<[1, 1], f32>, !maxgraph.tensor<[3, 1], f32>
}

// Contracted dims that are `?` must agree at run time: [2, ?] (3 at run
// time) x [2, 2] is a run-time error.
// MISMATCH: max-run: error: interpret: maxgraph.matmul
// MISMATCH-NOT: result
maxgraph.graph @contracted_mismatch() -> !maxgraph.tensor<[2, 2], f32> {
  %a = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 3], f32>
  %q = maxgraph.reshape %a : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[2, ?], f32>
  %b = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 2], f32>
  %0 = maxgraph.matmul %q, %b : (!maxgraph.tensor<[2, ?], f32>, !maxgraph.tensor<[2, 2], f32>) -> !maxgraph.tensor<[2, 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 2], f32>
}
