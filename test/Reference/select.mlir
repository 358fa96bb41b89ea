// maxgraph.select (docs/Spec.md, "maxgraph.select"): the chosen element is
// copied unchanged (NaN sign and signed zeros included); the three operands
// broadcast together.

// RUN: max-run %s --interpret --print --graph=select | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=bad_broadcast 2>&1 | FileCheck %s --check-prefix=BAD

// cond = [T, T, F, T], t = [-nan (0xFFC00000), -0, 1, 2], f = 7 (rank 0).
// The NaN with its sign bit set prints as -nan: the bits are copied.
// CHECK: result 0: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [-nan, -0, 7, 2]
// Three-way broadcast: cond [2, 1] = [[T], [F]], t [3] = [1, 2, 3],
// f [] = -1: row 0 takes t, row 1 takes f.
// CHECK-NEXT: result 1: !maxgraph.tensor<[2, 3], si64>
// CHECK-NEXT: {{\[\[}}1, 2, 3], [-1, -1, -1]]
// A rank-0 condition picks one whole operand: false -> f = [-0, -inf].
// CHECK-NEXT: result 2: !maxgraph.tensor<[2], f64>
// CHECK-NEXT: [-0, -inf]
// Bool values: select(c, a, b) with c = [T, F], a = [F, F], b = [T, T].
// CHECK-NEXT: result 3: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [False, True]
maxgraph.graph @select() -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[2], i1>) {
  %c = maxgraph.constant dense<[true, true, false, true]> : !maxgraph.tensor<[4], i1>
  %t = maxgraph.constant dense<[0xFFC00000, -0.0, 1.0, 2.0]> : !maxgraph.tensor<[4], f32>
  %f = maxgraph.constant dense<7.0> : !maxgraph.tensor<[], f32>
  %0 = maxgraph.select %c, %t, %f : (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[4], f32>
  %c2 = maxgraph.constant dense<[[true], [false]]> : !maxgraph.tensor<[2, 1], i1>
  %t2 = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si64>
  %f2 = maxgraph.constant dense<-1> : !maxgraph.tensor<[], si64>
  %1 = maxgraph.select %c2, %t2, %f2 : (!maxgraph.tensor<[2, 1], i1>, !maxgraph.tensor<[3], si64>, !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[2, 3], si64>
  %c3 = maxgraph.constant dense<false> : !maxgraph.tensor<[], i1>
  %t3 = maxgraph.constant dense<[1.0, 2.0]> : !maxgraph.tensor<[2], f64>
  %f3 = maxgraph.constant dense<[-0.0, 0xFFF0000000000000]> : !maxgraph.tensor<[2], f64>
  %2 = maxgraph.select %c3, %t3, %f3 : (!maxgraph.tensor<[], i1>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[2], f64>) -> !maxgraph.tensor<[2], f64>
  %c4 = maxgraph.constant dense<[true, false]> : !maxgraph.tensor<[2], i1>
  %a4 = maxgraph.constant dense<false> : !maxgraph.tensor<[2], i1>
  %b4 = maxgraph.constant dense<true> : !maxgraph.tensor<[2], i1>
  %3 = maxgraph.select %c4, %a4, %b4 : (!maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], i1>) -> !maxgraph.tensor<[2], i1>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[2], i1>
}

// A `?` dim (3 at run time) that is neither 1 nor the other operands'
// size (2) is a run-time error.
// BAD: max-run: error: interpret: maxgraph.select: shapes {{.*}} cannot broadcast
// BAD-NOT: result
maxgraph.graph @bad_broadcast() -> !maxgraph.tensor<[2], si32> {
  %c = maxgraph.constant dense<[true, false, true]> : !maxgraph.tensor<[3], i1>
  %q = maxgraph.reshape %c : !maxgraph.tensor<[3], i1> -> !maxgraph.tensor<[?], i1>
  %t = maxgraph.constant dense<[1, 2]> : !maxgraph.tensor<[2], si32>
  %f = maxgraph.constant dense<0> : !maxgraph.tensor<[], si32>
  %0 = maxgraph.select %q, %t, %f : (!maxgraph.tensor<[?], i1>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[], si32>) -> !maxgraph.tensor<[2], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2], si32>
}
