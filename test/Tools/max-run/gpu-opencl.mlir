// Graphs on gpu:0 run through the OpenCL runtime (PoCL's CPU device here)
// and agree with the reference interpreter on the same random inputs.
// REQUIRES: opencl
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-run %s --graph=mlp --gpu-runtime=opencl --random-inputs --seed=1 --dims=batch=5 --output=%t/mlp-g
// RUN: max-run %s --graph=mlp --random-inputs --seed=1 --dims=batch=5 --output=%t/mlp-i --interpret
// RUN: %python %S/Inputs/compare.py %t/mlp-g %t/mlp-i | FileCheck %s --check-prefix=MATCH1
// MATCH1: match 1
// Symbolic dims are bound at each call: another batch, the same code.
// RUN: max-run %s --graph=mlp --gpu-runtime=opencl --random-inputs --seed=2 --dims=batch=33 --output=%t/mlp-g33
// RUN: max-run %s --graph=mlp --random-inputs --seed=2 --dims=batch=33 --output=%t/mlp-i33 --interpret
// RUN: %python %S/Inputs/compare.py %t/mlp-g33 %t/mlp-i33 | FileCheck %s --check-prefix=MATCH1
// RUN: max-run %s --graph=integers --gpu-runtime=opencl --random-inputs --seed=3 --output=%t/int-g
// RUN: max-run %s --graph=integers --random-inputs --seed=3 --output=%t/int-i --interpret
// RUN: %python %S/Inputs/compare.py %t/int-g %t/int-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH2
// MATCH2: match 2
// MAXGRAPH_GPU_RUNTIME picks the runtime too.
// RUN: env MAXGRAPH_GPU_RUNTIME=opencl max-run %s --graph=integers --random-inputs --seed=3 --output=%t/int-e
// RUN: %python %S/Inputs/compare.py %t/int-e %t/int-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH2

maxgraph.graph @mlp<batch>(%x: !maxgraph.tensor<[batch, 8], f32, gpu:0>,
    %w: !maxgraph.tensor<[8, 16], f32, gpu:0>,
    %b: !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[batch, 8], f32, gpu:0>, !maxgraph.tensor<[8, 16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[batch, 16], f32, gpu:0>, !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %2 = maxgraph.softmax %1 axis = -1 : !maxgraph.tensor<[batch, 16], f32, gpu:0>
  maxgraph.output %2 : !maxgraph.tensor<[batch, 16], f32, gpu:0>
}

maxgraph.graph @integers(%a: !maxgraph.tensor<[4, 6], si32, gpu:0>, %b: !maxgraph.tensor<[6], si32, gpu:0>)
    -> (!maxgraph.tensor<[4, 6], si32, gpu:0>, !maxgraph.tensor<[6, 4], si32, gpu:0>) {
  %0 = maxgraph.mul %a, %b : (!maxgraph.tensor<[4, 6], si32, gpu:0>, !maxgraph.tensor<[6], si32, gpu:0>) -> !maxgraph.tensor<[4, 6], si32, gpu:0>
  %1 = maxgraph.transpose %0 perm = [1, 0] : !maxgraph.tensor<[4, 6], si32, gpu:0> -> !maxgraph.tensor<[6, 4], si32, gpu:0>
  maxgraph.output %0, %1 : !maxgraph.tensor<[4, 6], si32, gpu:0>, !maxgraph.tensor<[6, 4], si32, gpu:0>
}
