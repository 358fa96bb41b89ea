// maxgraph.top_k (docs/Spec.md, "maxgraph.top_k"): descending values with
// NaN first, equal values (also -0 and +0, and NaNs) by ascending index,
// unsigned order, k = 0, and a symbolic axis shorter than k at run time.

// RUN: max-run %s --interpret --print --graph=top_k | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/short.npy '<i4' 2 5 -3
// RUN: max-run %s --interpret --print --graph=short --input=%t/short.npy | FileCheck %s --check-prefix=SHORT

// x = [1, nan, 3, -0, 0, 3, nan] (indices 0..6)
// k = 4: NaN counts as greater than every number, NaNs tie among themselves
// (by index: 1, 6), then 3 at 2 and 5.
// CHECK: result 0: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [{{-?}}nan, {{-?}}nan, 3, 3]
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], si64>
// CHECK-NEXT: [1, 6, 2, 5]
// k = 7 (all): ... 1 at 0, then -0 at 3 and +0 at 4 are equal: by index.
// CHECK-NEXT: result 2: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [{{-?}}nan, {{-?}}nan, 3, 3, 1, -0, 0]
// CHECK-NEXT: result 3: !maxgraph.tensor<[7], si64>
// CHECK-NEXT: [1, 6, 2, 5, 0, 3, 4]
// ui8 [3, 255, 0, 128], k = 2: 255 is the largest.
// CHECK-NEXT: result 4: !maxgraph.tensor<[2], ui8>
// CHECK-NEXT: [255, 128]
// CHECK-NEXT: result 5: !maxgraph.tensor<[2], si64>
// CHECK-NEXT: [1, 3]
// si8 [[-1, -128, 127], [5, 5, 5]] along axis -1, k = 3.
// CHECK-NEXT: result 6: !maxgraph.tensor<[2, 3], si8>
// CHECK-NEXT: {{\[\[}}127, -1, -128], [5, 5, 5]]
// CHECK-NEXT: result 7: !maxgraph.tensor<[2, 3], si64>
// CHECK-NEXT: {{\[\[}}2, 0, 1], [0, 1, 2]]
// Along axis 0 of [[1, 9], [4, 2], [4, 7]], k = 2: column 0 [1, 4, 4] ->
// 4 at 1, 4 at 2; column 1 [9, 2, 7] -> 9 at 0, 7 at 2.
// CHECK-NEXT: result 8: !maxgraph.tensor<[2, 2], f64>
// CHECK-NEXT: {{\[\[}}4, 9], [4, 7]]
// CHECK-NEXT: result 9: !maxgraph.tensor<[2, 2], si64>
// CHECK-NEXT: {{\[\[}}1, 0], [2, 2]]
// k = 0 gives empty results.
// CHECK-NEXT: result 10: !maxgraph.tensor<[0], f32>
// CHECK-NEXT: []
// CHECK-NEXT: result 11: !maxgraph.tensor<[0], si64>
// CHECK-NEXT: []
maxgraph.graph @top_k() -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], si64>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2, 3], si8>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[2, 2], f64>, !maxgraph.tensor<[2, 2], si64>, !maxgraph.tensor<[0], f32>, !maxgraph.tensor<[0], si64>) {
  %x = maxgraph.constant dense<[1.0, 0x7FC00000, 3.0, -0.0, 0.0, 3.0, 0xFFC00000]> : !maxgraph.tensor<[7], f32>
  %0:2 = maxgraph.top_k %x k = 4 axis = 0 : !maxgraph.tensor<[7], f32> -> !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], si64>
  %1:2 = maxgraph.top_k %x k = 7 axis = -1 : !maxgraph.tensor<[7], f32> -> !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], si64>
  %u = maxgraph.constant dense<[3, 255, 0, 128]> : !maxgraph.tensor<[4], ui8>
  %2:2 = maxgraph.top_k %u k = 2 axis = 0 : !maxgraph.tensor<[4], ui8> -> !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], si64>
  %s = maxgraph.constant dense<[[-1, -128, 127], [5, 5, 5]]> : !maxgraph.tensor<[2, 3], si8>
  %3:2 = maxgraph.top_k %s k = 3 axis = -1 : !maxgraph.tensor<[2, 3], si8> -> !maxgraph.tensor<[2, 3], si8>, !maxgraph.tensor<[2, 3], si64>
  %d = maxgraph.constant dense<[[1.0, 9.0], [4.0, 2.0], [4.0, 7.0]]> : !maxgraph.tensor<[3, 2], f64>
  %4:2 = maxgraph.top_k %d k = 2 axis = 0 : !maxgraph.tensor<[3, 2], f64> -> !maxgraph.tensor<[2, 2], f64>, !maxgraph.tensor<[2, 2], si64>
  %5:2 = maxgraph.top_k %x k = 0 axis = 0 : !maxgraph.tensor<[7], f32> -> !maxgraph.tensor<[0], f32>, !maxgraph.tensor<[0], si64>
  maxgraph.output %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1, %4#0, %4#1, %5#0, %5#1 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], si64>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2, 3], si8>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[2, 2], f64>, !maxgraph.tensor<[2, 2], si64>, !maxgraph.tensor<[0], f32>, !maxgraph.tensor<[0], si64>
}

// On a symbolic axis holding n = 2 < k = 4 elements at run time, positions
// n .. k-1 hold value 0 and index -1: [5, -3] -> [5, -3, 0, 0], [0, 1, -1, -1].
// SHORT: result 0: !maxgraph.tensor<[4], si32>
// SHORT-NEXT: [5, -3, 0, 0]
// SHORT-NEXT: result 1: !maxgraph.tensor<[4], si64>
// SHORT-NEXT: [0, 1, -1, -1]
maxgraph.graph @short<n>(%x: !maxgraph.tensor<[n], si32>) -> (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si64>) {
  %0:2 = maxgraph.top_k %x k = 4 axis = 0 : !maxgraph.tensor<[n], si32> -> !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si64>
  maxgraph.output %0#0, %0#1 : !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si64>
}
