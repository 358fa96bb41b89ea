// maxgraph.transpose (docs/Spec.md, "maxgraph.transpose"): result dim i is
// input dim perm[i]; bit patterns copied; identity and empty dims.

// RUN: max-run %s --interpret --print | FileCheck %s

// [[1, 2, 3], [4, 5, 6]] with perm [1, 0]: [[1, 4], [2, 5], [3, 6]].
// CHECK: result 0: !maxgraph.tensor<[3, 2], si32>
// CHECK-NEXT: {{\[\[}}1, 4], [2, 5], [3, 6]]
// x[i][j][k] = 12i + 4j + k, shape [2, 3, 4], perm [2, 0, 1]: result shape
// [4, 2, 3], r[k][i][j] = x[i][j][k], so r[k] = [[k, 4 + k, 8 + k],
// [12 + k, 16 + k, 20 + k]].
// CHECK-NEXT: result 1: !maxgraph.tensor<[4, 2, 3], si64>
// CHECK-NEXT: {{\[\[\[}}0, 4, 8], [12, 16, 20]], {{\[\[}}1, 5, 9], [13, 17, 21]], {{\[\[}}2, 6, 10], [14, 18, 22]], {{\[\[}}3, 7, 11], [15, 19, 23]]]
// perm [1, 2, 0]: shape [3, 4, 2], r[j][k][i] = x[i][j][k]:
// r[0] = [[0, 12], [1, 13], [2, 14], [3, 15]], r[1] adds 4, r[2] adds 8.
// CHECK-NEXT: result 2: !maxgraph.tensor<[3, 4, 2], si64>
// CHECK-NEXT: {{\[\[\[}}0, 12], [1, 13], [2, 14], [3, 15]], {{\[\[}}4, 16], [5, 17], [6, 18], [7, 19]], {{\[\[}}8, 20], [9, 21], [10, 22], [11, 23]]]
// Identity permutation.
// CHECK-NEXT: result 3: !maxgraph.tensor<[2, 3], si32>
// CHECK-NEXT: {{\[\[}}1, 2, 3], [4, 5, 6]]
// Bits are copied: [[-nan, -0]] -> [[-nan], [-0]].
// CHECK-NEXT: result 4: !maxgraph.tensor<[2, 1], f32>
// CHECK-NEXT: {{\[\[}}-nan], [-0]]
// [0, 2] -> [2, 0].
// CHECK-NEXT: result 5: !maxgraph.tensor<[2, 0], i1>
// CHECK-NEXT: {{\[\[\]\]}}
maxgraph.graph @transpose() -> (!maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[4, 2, 3], si64>, !maxgraph.tensor<[3, 4, 2], si64>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 0], i1>) {
  %x = maxgraph.constant dense<[[1, 2, 3], [4, 5, 6]]> : !maxgraph.tensor<[2, 3], si32>
  %0 = maxgraph.transpose %x perm = [1, 0] : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[3, 2], si32>
  %r = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[24], si64>
  %y = maxgraph.reshape %r : !maxgraph.tensor<[24], si64> -> !maxgraph.tensor<[2, 3, 4], si64>
  %1 = maxgraph.transpose %y perm = [2, 0, 1] : !maxgraph.tensor<[2, 3, 4], si64> -> !maxgraph.tensor<[4, 2, 3], si64>
  %2 = maxgraph.transpose %y perm = [1, 2, 0] : !maxgraph.tensor<[2, 3, 4], si64> -> !maxgraph.tensor<[3, 4, 2], si64>
  %3 = maxgraph.transpose %x perm = [0, 1] : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[2, 3], si32>
  %n = maxgraph.constant dense<[[0xFFC00000, -0.0]]> : !maxgraph.tensor<[1, 2], f32>
  %4 = maxgraph.transpose %n perm = [1, 0] : !maxgraph.tensor<[1, 2], f32> -> !maxgraph.tensor<[2, 1], f32>
  %e = maxgraph.constant dense<> : !maxgraph.tensor<[0, 2], i1>
  %5 = maxgraph.transpose %e perm = [1, 0] : !maxgraph.tensor<[0, 2], i1> -> !maxgraph.tensor<[2, 0], i1>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[4, 2, 3], si64>, !maxgraph.tensor<[3, 4, 2], si64>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 0], i1>
}
