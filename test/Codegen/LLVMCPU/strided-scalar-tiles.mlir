// One-element tiles read from a view with a step (a slice `[::2]` of one
// element): the vectorizer reads them with a 0-d vector.transfer_read on a
// memref whose innermost stride is not 1, which maxgraph-lower-vector-ops
// makes a scalar load (the generic lowerings leave it to LLVM, "cannot
// translate to LLVM IR"). Compiled, the results are the interpreter's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../Tools/max-run/Inputs/npy.py write %t/x.npy '<f4' 1 7
// RUN: %python %S/../../Tools/max-run/Inputs/npy.py write %t/y.npy '<f4' 4 1 2 3 4
// RUN: %python %S/../../Tools/max-run/Inputs/npy.py write %t/z.npy '<i4' 5 10 11 12 13 14
// RUN: max-run %s --graph=strided --input=%t/x.npy --input=%t/y.npy --input=%t/z.npy --print | FileCheck %s
// RUN: max-run %s --graph=strided --input=%t/x.npy --input=%t/y.npy --input=%t/z.npy --print --interpret | FileCheck %s
// CHECK: result 0: !maxgraph.tensor<[3], f32>
// CHECK-NEXT: [7, 7, 7]
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [8, 9, 10, 11]
// CHECK-NEXT: result 2: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [14, 14]
maxgraph.graph @strided(%x: !maxgraph.tensor<[1], f32>, %y: !maxgraph.tensor<[4], f32>, %z: !maxgraph.tensor<[5], si32>)
    -> (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], si32>) {
  // A gather from a stepped slice of one element.
  %s = maxgraph.slice %x [-1::2] : !maxgraph.tensor<[1], f32> -> !maxgraph.tensor<[1], f32>
  %i = maxgraph.constant dense<[0, -1, 0]> : !maxgraph.tensor<[3], si64>
  %0 = maxgraph.gather %s, %i axis = 0 : (!maxgraph.tensor<[1], f32>, !maxgraph.tensor<[3], si64>) -> !maxgraph.tensor<[3], f32>
  // The same element broadcast against a row.
  %1 = maxgraph.add %s, %y : (!maxgraph.tensor<[1], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  // The last of every fourth element, gathered twice.
  %t = maxgraph.slice %z [4::4] : !maxgraph.tensor<[5], si32> -> !maxgraph.tensor<[1], si32>
  %j = maxgraph.constant dense<[0, 0]> : !maxgraph.tensor<[2], si32>
  %2 = maxgraph.gather %t, %j axis = 0 : (!maxgraph.tensor<[1], si32>, !maxgraph.tensor<[2], si32>) -> !maxgraph.tensor<[2], si32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], si32>
}
