// maxgraph.cumsum (docs/Spec.md, "maxgraph.cumsum"): the four flag
// combinations, axes, integer wrapping, a double running sum from +0
// rounded per element, empty axes.

// RUN: max-run %s --interpret --print | FileCheck %s

// x = [1, 2, 3, 4]:
//   none:              y[k] = x[0] + ... + x[k]         = [1, 3, 6, 10]
//   exclusive:         y[k] = x[0] + ... + x[k-1]       = [0, 1, 3, 6]
//   reverse:           y[k] = x[k] + ... + x[3]         = [10, 9, 7, 4]
//   exclusive reverse: y[k] = x[k+1] + ... + x[3]       = [9, 7, 4, 0]
// CHECK: result 0: !maxgraph.tensor<[4], si32>
// CHECK-NEXT: [1, 3, 6, 10]
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], si32>
// CHECK-NEXT: [0, 1, 3, 6]
// CHECK-NEXT: result 2: !maxgraph.tensor<[4], si32>
// CHECK-NEXT: [10, 9, 7, 4]
// CHECK-NEXT: result 3: !maxgraph.tensor<[4], si32>
// CHECK-NEXT: [9, 7, 4, 0]
// m = [[1, 2, 3], [4, 5, 6]]: along axis 0: [[1, 2, 3], [5, 7, 9]];
// along axis -1 reverse: [[6, 5, 3], [15, 11, 6]].
// CHECK-NEXT: result 4: !maxgraph.tensor<[2, 3], si64>
// CHECK-NEXT: {{\[\[}}1, 2, 3], [5, 7, 9]]
// CHECK-NEXT: result 5: !maxgraph.tensor<[2, 3], si64>
// CHECK-NEXT: {{\[\[}}6, 5, 3], [15, 11, 6]]
// si8 wraps: running sums 100, 200, 100 -> [100, -56, 100].
// CHECK-NEXT: result 6: !maxgraph.tensor<[3], si8>
// CHECK-NEXT: [100, -56, 100]
// f32 [2^24, 1, 1, 1]: the double running sum is 2^24, 2^24 + 1, 2^24 + 2,
// 2^24 + 3, each rounded once: 2^24 + 1 and 2^24 + 3 are ties, to even:
// [16777216, 16777216, 16777218, 16777220] (an f32 running sum would stay
// at 2^24).
// CHECK-NEXT: result 7: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [16777216, 16777216, 16777218, 16777220]
// The running sum starts from +0: cumsum [-0, -0] = [+0 + -0, ...] = [0, 0];
// exclusive gives +0 first.
// CHECK-NEXT: result 8: !maxgraph.tensor<[2], f32>
// CHECK-NEXT: [0, 0]
// CHECK-NEXT: result 9: !maxgraph.tensor<[2], f32>
// CHECK-NEXT: [0, 0]
// NaN poisons every later element; inf + -inf is NaN.
// CHECK-NEXT: result 10: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [1, {{-?}}nan, {{-?}}nan, {{-?}}nan]
// CHECK-NEXT: result 11: !maxgraph.tensor<[3], f64>
// CHECK-NEXT: [inf, {{-?}}nan, {{-?}}nan]
// An empty axis gives an empty result ([2, 0] prints as [[]]).
// CHECK-NEXT: result 12: !maxgraph.tensor<[2, 0], f32>
// CHECK-NEXT: {{\[\[\]\]}}
// A middle axis: x[i][j][k] = 6i + 2j + k (shape [2, 3, 2]), exclusive
// reverse along axis 1: y[i][j] = sum of x[i][j'] for j' > j:
// i = 0: [2, 3] + [4, 5] = [6, 8], [4, 5], [0, 0];
// i = 1: [8, 9] + [10, 11] = [18, 20], [10, 11], [0, 0].
// CHECK-NEXT: result 13: !maxgraph.tensor<[2, 3, 2], si32>
// CHECK-NEXT: {{\[\[\[}}6, 8], [4, 5], [0, 0]], {{\[\[}}18, 20], [10, 11], [0, 0]]]
maxgraph.graph @cumsum() -> (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], f64>, !maxgraph.tensor<[2, 0], f32>, !maxgraph.tensor<[2, 3, 2], si32>) {
  %x = maxgraph.constant dense<[1, 2, 3, 4]> : !maxgraph.tensor<[4], si32>
  %0 = maxgraph.cumsum %x axis = 0 : !maxgraph.tensor<[4], si32>
  %1 = maxgraph.cumsum %x axis = 0 exclusive : !maxgraph.tensor<[4], si32>
  %2 = maxgraph.cumsum %x axis = 0 reverse : !maxgraph.tensor<[4], si32>
  %3 = maxgraph.cumsum %x axis = 0 exclusive reverse : !maxgraph.tensor<[4], si32>
  %m = maxgraph.constant dense<[[1, 2, 3], [4, 5, 6]]> : !maxgraph.tensor<[2, 3], si64>
  %4 = maxgraph.cumsum %m axis = 0 : !maxgraph.tensor<[2, 3], si64>
  %5 = maxgraph.cumsum %m axis = -1 reverse : !maxgraph.tensor<[2, 3], si64>
  %w = maxgraph.constant dense<[100, 100, -100]> : !maxgraph.tensor<[3], si8>
  %6 = maxgraph.cumsum %w axis = 0 : !maxgraph.tensor<[3], si8>
  %f = maxgraph.constant dense<[16777216.0, 1.0, 1.0, 1.0]> : !maxgraph.tensor<[4], f32>
  %7 = maxgraph.cumsum %f axis = 0 : !maxgraph.tensor<[4], f32>
  %z = maxgraph.constant dense<-0.0> : !maxgraph.tensor<[2], f32>
  %8 = maxgraph.cumsum %z axis = 0 : !maxgraph.tensor<[2], f32>
  %9 = maxgraph.cumsum %z axis = 0 exclusive : !maxgraph.tensor<[2], f32>
  %n = maxgraph.constant dense<[1.0, 0x7FC00000, 1.0, 2.0]> : !maxgraph.tensor<[4], f32>
  %10 = maxgraph.cumsum %n axis = 0 : !maxgraph.tensor<[4], f32>
  %i = maxgraph.constant dense<[0x7FF0000000000000, 0xFFF0000000000000, 1.0]> : !maxgraph.tensor<[3], f64>
  %11 = maxgraph.cumsum %i axis = 0 : !maxgraph.tensor<[3], f64>
  %e = maxgraph.constant dense<> : !maxgraph.tensor<[2, 0], f32>
  %12 = maxgraph.cumsum %e axis = 1 exclusive reverse : !maxgraph.tensor<[2, 0], f32>
  %r = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[12], si32>
  %t = maxgraph.reshape %r : !maxgraph.tensor<[12], si32> -> !maxgraph.tensor<[2, 3, 2], si32>
  %13 = maxgraph.cumsum %t axis = 1 exclusive reverse : !maxgraph.tensor<[2, 3, 2], si32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], f64>, !maxgraph.tensor<[2, 0], f32>, !maxgraph.tensor<[2, 3, 2], si32>
}
