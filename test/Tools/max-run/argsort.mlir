// maxgraph.argsort, compiled and interpreted; the expected orders are
// worked out by hand: ties keep their order, NaN sorts above everything,
// -0 equals +0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 2,5 3 nan 1 3 -2 0 -0 5 -1 nan
// RUN: max-run %s --graph=sorts --input=%t/x.npy --print | FileCheck %s
// RUN: max-run %s --graph=sorts --input=%t/x.npy --print --interpret | FileCheck %s
// CHECK: result 0: !maxgraph.tensor<[2, 5], si64>
// CHECK-NEXT: {{\[\[}}4, 2, 0, 3, 1], [3, 0, 1, 2, 4]]
// CHECK-NEXT: result 1: !maxgraph.tensor<[2, 5], si64>
// CHECK-NEXT: {{\[\[}}1, 0, 3, 2, 4], [4, 2, 0, 1, 3]]
maxgraph.graph @sorts(%x: !maxgraph.tensor<[2, 5], f32>) -> (!maxgraph.tensor<[2, 5], si64>, !maxgraph.tensor<[2, 5], si64>) {
  %0 = maxgraph.argsort %x axis = 1 : !maxgraph.tensor<[2, 5], f32> -> !maxgraph.tensor<[2, 5], si64>
  %1 = maxgraph.argsort %x axis = -1 descending : !maxgraph.tensor<[2, 5], f32> -> !maxgraph.tensor<[2, 5], si64>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 5], si64>, !maxgraph.tensor<[2, 5], si64>
}
