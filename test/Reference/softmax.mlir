// maxgraph.softmax and maxgraph.log_softmax (docs/Spec.md,
// "maxgraph.softmax", "maxgraph.log_softmax"): computed in double with the
// max subtracted (large inputs do not overflow), rounded once; -inf, +inf
// and NaN slices; empty axes.

// RUN: max-run %s --interpret --print | FileCheck %s

// softmax along axis -1 of [[1, 2, 3], [1000, 1000, 1000]]:
// row 0: e^(x - 3) / sum = [0.0900305732, 0.244728471, 0.665240956]
//        -> f32 [0.09003057, 0.24472848, 0.66524094];
// row 1: m = 1000, every exp(0) = 1: 1/3 -> 0.33333334 (no overflow).
// CHECK: result 0: !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: {{\[\[}}0.09003057, 0.24472848, 0.66524094], [0.33333334, 0.33333334, 0.33333334]]
// softmax along axis 0 of [[1, 2], [3, 4]]: each column is [a, a + 2]:
// [1 / (1 + e^2), e^2 / (1 + e^2)] = [0.119202922, 0.880797078]
// -> [0.11920292, 0.8807971].
// CHECK-NEXT: result 1: !maxgraph.tensor<[2, 2], f32>
// CHECK-NEXT: {{\[\[}}0.11920292, 0.11920292], [0.8807971, 0.8807971]]
// Edge cases, one slice per row: [-inf, 0] -> [0, 1]; all -inf: m = 0,
// 0 / 0 = NaN; a +inf element: inf - inf = NaN; a NaN: all NaN.
// CHECK-NEXT: result 2: !maxgraph.tensor<[4, 2], f32>
// CHECK-NEXT: {{\[\[}}0, 1], [{{-?}}nan, {{-?}}nan], [{{-?}}nan, {{-?}}nan], [{{-?}}nan, {{-?}}nan]]
// An empty axis gives an empty result.
// CHECK-NEXT: result 3: !maxgraph.tensor<[2, 0], f32>
// CHECK-NEXT: {{\[\[\]\]}}
// log_softmax of [1, 2, 3]: (x - 3) - log(e^-2 + e^-1 + 1) = (x - 3) -
// 0.407605964 = [-2.407605964, -1.407605964, -0.407605964]
// -> f32 [-2.407606, -1.407606, -0.40760598].
// CHECK-NEXT: result 4: !maxgraph.tensor<[3], f32>
// CHECK-NEXT: [-2.407606, -1.407606, -0.40760598]
// log_softmax edge cases: [-inf, 0] -> [-inf - log(1), 0 - log(1)] =
// [-inf, 0]; all -inf: -inf - log(0) = -inf + inf = NaN; +inf and NaN: NaN.
// CHECK-NEXT: result 5: !maxgraph.tensor<[4, 2], f32>
// CHECK-NEXT: {{\[\[}}-inf, 0], [{{-?}}nan, {{-?}}nan], [{{-?}}nan, {{-?}}nan], [{{-?}}nan, {{-?}}nan]]
// f64 log_softmax of [0, 0]: 0 - log(2) = -0.6931471805599453.
// CHECK-NEXT: result 6: !maxgraph.tensor<[2], f64>
// CHECK-NEXT: [-0.6931471805599453, -0.6931471805599453]
maxgraph.graph @softmax() -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2, 0], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2], f64>) {
  %a = maxgraph.constant dense<[[1.0, 2.0, 3.0], [1000.0, 1000.0, 1000.0]]> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.softmax %a axis = -1 : !maxgraph.tensor<[2, 3], f32>
  %b = maxgraph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : !maxgraph.tensor<[2, 2], f32>
  %1 = maxgraph.softmax %b axis = 0 : !maxgraph.tensor<[2, 2], f32>
  %e = maxgraph.constant dense<[[0xFF800000, 0.0], [0xFF800000, 0xFF800000], [0x7F800000, 0.0], [0x7FC00000, 0.0]]> : !maxgraph.tensor<[4, 2], f32>
  %2 = maxgraph.softmax %e axis = 1 : !maxgraph.tensor<[4, 2], f32>
  %z = maxgraph.constant dense<> : !maxgraph.tensor<[2, 0], f32>
  %3 = maxgraph.softmax %z axis = 1 : !maxgraph.tensor<[2, 0], f32>
  %c = maxgraph.constant dense<[1.0, 2.0, 3.0]> : !maxgraph.tensor<[3], f32>
  %4 = maxgraph.log_softmax %c axis = 0 : !maxgraph.tensor<[3], f32>
  %5 = maxgraph.log_softmax %e axis = -1 : !maxgraph.tensor<[4, 2], f32>
  %d = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2], f64>
  %6 = maxgraph.log_softmax %d axis = 0 : !maxgraph.tensor<[2], f64>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2, 0], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2], f64>
}
