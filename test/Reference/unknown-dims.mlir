// `?` dims and dims over undeclared names at run time (docs/Spec.md,
// "Unknown dims: where a `?` gets its size", "Broadcasting", "Known
// gaps"): two `?` dims broadcast by numpy's rule; a dim over a name the
// graph does not declare acts as a `?`, and a second unknown beside a `?`
// is refused at run time by reshape and split.

// RUN: max-run %s --interpret --print --graph=two_unknowns | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=reshape_two_unknowns 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RUN: not max-run %s --interpret --print --graph=split_two_unknowns 2>&1 | FileCheck %s --check-prefix=SPLIT

// a: [?] holding [10] (size 1); b: [?] holding [1, 2, 3] (size 3).
// a + b and b + a: the 1 stretches to 3 either way: [11, 12, 13].
// CHECK: result 0: !maxgraph.tensor<[?], si32>
// CHECK-NEXT: [11, 12, 13]
// CHECK-NEXT: result 1: !maxgraph.tensor<[?], si32>
// CHECK-NEXT: [11, 12, 13]
// b - b: equal sizes, [0, 0, 0].
// CHECK-NEXT: result 2: !maxgraph.tensor<[?], si32>
// CHECK-NEXT: [0, 0, 0]
maxgraph.graph @two_unknowns() -> (!maxgraph.tensor<[?], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[?], si32>) {
  %x = maxgraph.constant dense<[10]> : !maxgraph.tensor<[1], si32>
  %y = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %a = maxgraph.reshape %x : !maxgraph.tensor<[1], si32> -> !maxgraph.tensor<[?], si32>
  %b = maxgraph.reshape %y : !maxgraph.tensor<[3], si32> -> !maxgraph.tensor<[?], si32>
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[?], si32>
  %1 = maxgraph.add %b, %a : !maxgraph.tensor<[?], si32>
  %2 = maxgraph.sub %b, %b : !maxgraph.tensor<[?], si32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[?], si32>
}

// `k` is declared nowhere: [?, k] has two dims the run cannot size.
// RESHAPE: max-run: error: interpret: maxgraph.reshape to !maxgraph.tensor<[?, k], si32> has more than one dim that is not known at run time
// RESHAPE-NOT: result
maxgraph.graph @reshape_two_unknowns() -> !maxgraph.tensor<[?], si32> {
  %x = maxgraph.constant dense<[1, 2, 3, 4, 5, 6]> : !maxgraph.tensor<[6], si32>
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[6], si32> -> !maxgraph.tensor<[?, k], si32>
  %1 = maxgraph.reshape %0 : !maxgraph.tensor<[?, k], si32> -> !maxgraph.tensor<[?], si32>
  maxgraph.output %1 : !maxgraph.tensor<[?], si32>
}

// A `?` piece and a `k` piece: two pieces without a known size.
// SPLIT: max-run: error: interpret: maxgraph.split: more than one piece has a size not known at run time
// SPLIT-NOT: result
maxgraph.graph @split_two_unknowns() -> !maxgraph.tensor<[?], si32> {
  %x = maxgraph.constant dense<[1, 2, 3, 4, 5, 6]> : !maxgraph.tensor<[6], si32>
  %0:2 = maxgraph.split %x axis = 0 : !maxgraph.tensor<[6], si32> -> !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[k], si32>
  maxgraph.output %0#0 : !maxgraph.tensor<[?], si32>
}
