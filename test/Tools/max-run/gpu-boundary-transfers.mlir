// A graph that takes host data, moves it to a GPU (`transfer_to`) and moves
// its result back runs on the GPU: the transfers at its edges are the
// runtime's copies (maxgraph-absorb-boundary-transfers), the inputs are
// checked as host inputs, and the results come back to the host as their
// layouts say. Through OpenCL it agrees with the interpreter.
// REQUIRES: opencl
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-run %s --gpu-runtime=opencl --random-inputs --seed=3 --dims=n=7 --output=%t/g
// RUN: max-run %s --random-inputs --seed=3 --dims=n=7 --output=%t/i --interpret
// RUN: %python %S/Inputs/compare.py %t/g %t/i | FileCheck %s --check-prefix=MATCH
// MATCH: match 2
// RUN: max-run %s --gpu-runtime=opencl --random-inputs --seed=3 --dims=n=2 --print | FileCheck %s --check-prefix=TYPES
// TYPES: result 0: !maxgraph.tensor<[n, 3], f32>
// TYPES: result 1: !maxgraph.tensor<[n, 3], f32, gpu:0>

maxgraph.graph @edges<n>(%x: !maxgraph.tensor<[n, 3], f32>, %w: !maxgraph.tensor<[3], f32>)
    -> (!maxgraph.tensor<[n, 3], f32>, !maxgraph.tensor<[n, 3], f32, gpu:0>) {
  %xg = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[n, 3], f32> -> !maxgraph.tensor<[n, 3], f32, gpu:0>
  %wg = maxgraph.transfer %w to gpu:0 : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[3], f32, gpu:0>
  %m = maxgraph.mul %xg, %wg : (!maxgraph.tensor<[n, 3], f32, gpu:0>, !maxgraph.tensor<[3], f32, gpu:0>) -> !maxgraph.tensor<[n, 3], f32, gpu:0>
  %s = maxgraph.softmax %m axis = -1 : !maxgraph.tensor<[n, 3], f32, gpu:0>
  %h = maxgraph.transfer %s to cpu:0 : !maxgraph.tensor<[n, 3], f32, gpu:0> -> !maxgraph.tensor<[n, 3], f32>
  maxgraph.output %h, %m : !maxgraph.tensor<[n, 3], f32>, !maxgraph.tensor<[n, 3], f32, gpu:0>
}
