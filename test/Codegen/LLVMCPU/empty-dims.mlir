// Static dims of size 0: the CPU pipeline compiles them (tiling leaves ops
// with an empty loop alone; their loops never run) and the results agree
// with the interpreter. An empty sum is 0 and an empty product 1 (numpy).
// RUN: max-run %s --graph=empty_results --random-inputs --print | FileCheck %s --check-prefix=RESULTS
// RUN: max-run %s --graph=empty_results --random-inputs --print --interpret | FileCheck %s --check-prefix=RESULTS
// RESULTS: result 0: !maxgraph.tensor<[0, 3], f32>
// RESULTS: result 1: !maxgraph.tensor<[4, 0], f32>
// RESULTS: result 2: !maxgraph.tensor<[0], f32>
// RESULTS-NEXT: []
// RUN: max-run %s --graph=empty_axes --random-inputs --print | FileCheck %s --check-prefix=AXES
// RUN: max-run %s --graph=empty_axes --random-inputs --print --interpret | FileCheck %s --check-prefix=AXES
// AXES: result 0: !maxgraph.tensor<[4], f32>
// AXES-NEXT: [0, 0, 0, 0]
// AXES: result 1: !maxgraph.tensor<[0, 4], f32>
// AXES: result 2: !maxgraph.tensor<[0, 4], f32>
// AXES: result 3: !maxgraph.tensor<[4], f32>
// AXES-NEXT: [1, 1, 1, 1]
maxgraph.graph @empty_results(%a: !maxgraph.tensor<[0, 4], f32>, %b: !maxgraph.tensor<[4, 3], f32>) -> (!maxgraph.tensor<[0, 3], f32>, !maxgraph.tensor<[4, 0], f32>, !maxgraph.tensor<[0], f32>) {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[0, 4], f32>, !maxgraph.tensor<[4, 3], f32>) -> !maxgraph.tensor<[0, 3], f32>
  %1 = maxgraph.transpose %a perm = [1, 0] : !maxgraph.tensor<[0, 4], f32> -> !maxgraph.tensor<[4, 0], f32>
  %2 = maxgraph.reduce_sum %a axes = [1] : !maxgraph.tensor<[0, 4], f32> -> !maxgraph.tensor<[0], f32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[0, 3], f32>, !maxgraph.tensor<[4, 0], f32>, !maxgraph.tensor<[0], f32>
}
maxgraph.graph @empty_axes(%a: !maxgraph.tensor<[4, 0], f32>, %b: !maxgraph.tensor<[0, 4], f32>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[0, 4], f32>, !maxgraph.tensor<[0, 4], f32>, !maxgraph.tensor<[4], f32>) {
  %0 = maxgraph.reduce_sum %a axes = [1] : !maxgraph.tensor<[4, 0], f32> -> !maxgraph.tensor<[4], f32>
  %1 = maxgraph.softmax %b axis = 1 : !maxgraph.tensor<[0, 4], f32>
  %w = maxgraph.constant dense<1.0> : !maxgraph.tensor<[4], f32>
  %2 = maxgraph.rms_norm %b, %w epsilon = 1.0e-5 : !maxgraph.tensor<[0, 4], f32>, !maxgraph.tensor<[4], f32>
  %3 = maxgraph.reduce_prod %a axes = [1] : !maxgraph.tensor<[4, 0], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[0, 4], f32>, !maxgraph.tensor<[0, 4], f32>, !maxgraph.tensor<[4], f32>
}
