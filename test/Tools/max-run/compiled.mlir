// Compiled execution (maxgraph-lower-to-cpu + JIT) against the reference
// interpreter on the same random inputs: results must agree within f32
// tolerance. Expected values of the seed are worked out by hand.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy '<f4' 2 1 2
// RUN: %python %S/Inputs/npy.py write %t/b.npy '<f4' 2 3 4
// RUN: max-run %S/interpret.mlir --input=%t/a.npy --input=%t/b.npy --print | FileCheck %s --check-prefix=SEED
// SEED: [8, 12]

// RUN: max-run %s --graph=mlp --random-inputs --seed=1 --dims=batch=5 --output=%t/mlp-c
// RUN: max-run %s --graph=mlp --random-inputs --seed=1 --dims=batch=5 --output=%t/mlp-i --interpret
// RUN: %python %S/Inputs/compare.py %t/mlp-c %t/mlp-i | FileCheck %s --check-prefix=MATCH1
// MATCH1: match 1
// RUN: max-run %s --graph=softmax_rows --random-inputs --seed=2 --output=%t/sm-c
// RUN: max-run %s --graph=softmax_rows --random-inputs --seed=2 --output=%t/sm-i --interpret
// RUN: %python %S/Inputs/compare.py %t/sm-c %t/sm-i | FileCheck %s --check-prefix=MATCH1
// RUN: max-run %s --graph=integers --random-inputs --seed=3 --output=%t/int-c
// RUN: max-run %s --graph=integers --random-inputs --seed=3 --output=%t/int-i --interpret
// RUN: %python %S/Inputs/compare.py %t/int-c %t/int-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH3
// MATCH3: match 3

// RUN: max-run %s --graph=gathered --random-inputs --seed=4 --output=%t/g-c
// RUN: max-run %s --graph=gathered --random-inputs --seed=4 --output=%t/g-i --interpret
// RUN: %python %S/Inputs/compare.py %t/g-c %t/g-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH3

// A graph on a GPU compiles for a GPU runtime, not the CPU.
// RUN: env MAXGRAPH_CUDA_DRIVER_LIBRARY=%t-no-libcuda.so.1 not max-run %s --graph=on_gpu --random-inputs 2>&1 | FileCheck %s --check-prefix=ONGPU
// ONGPU: max-run: error: compile: @on_gpu: no CUDA driver: 

maxgraph.graph @mlp<batch>(%x: !maxgraph.tensor<[batch, 8], f32>, %w1: !maxgraph.tensor<[8, 16], f32>,
    %b1: !maxgraph.tensor<[16], f32>, %w2: !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32> {
  %0 = maxgraph.matmul %x, %w1 : (!maxgraph.tensor<[batch, 8], f32>, !maxgraph.tensor<[8, 16], f32>) -> !maxgraph.tensor<[batch, 16], f32>
  %1 = maxgraph.add %0, %b1 : (!maxgraph.tensor<[batch, 16], f32>, !maxgraph.tensor<[16], f32>) -> !maxgraph.tensor<[batch, 16], f32>
  %2 = maxgraph.gelu %1 : !maxgraph.tensor<[batch, 16], f32>
  %3 = maxgraph.matmul %2, %w2 : (!maxgraph.tensor<[batch, 16], f32>, !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  %4 = maxgraph.tanh %3 : !maxgraph.tensor<[batch, 4], f32>
  maxgraph.output %4 : !maxgraph.tensor<[batch, 4], f32>
}

maxgraph.graph @softmax_rows(%x: !maxgraph.tensor<[6, 10], f32>) -> !maxgraph.tensor<[6, 10], f32> {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[6, 10], f32>
  maxgraph.output %0 : !maxgraph.tensor<[6, 10], f32>
}

maxgraph.graph @integers(%a: !maxgraph.tensor<[4, 5], si32>, %b: !maxgraph.tensor<[5], si32>)
    -> (!maxgraph.tensor<[4, 5], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4, 5], i1>) {
  %three = maxgraph.constant dense<3> : !maxgraph.tensor<[], si32>
  %0 = maxgraph.div %a, %three : (!maxgraph.tensor<[4, 5], si32>, !maxgraph.tensor<[], si32>) -> !maxgraph.tensor<[4, 5], si32>
  %1 = maxgraph.mod %a, %three : (!maxgraph.tensor<[4, 5], si32>, !maxgraph.tensor<[], si32>) -> !maxgraph.tensor<[4, 5], si32>
  %2 = maxgraph.mul %0, %b : (!maxgraph.tensor<[4, 5], si32>, !maxgraph.tensor<[5], si32>) -> !maxgraph.tensor<[4, 5], si32>
  %3 = maxgraph.add %2, %1 : !maxgraph.tensor<[4, 5], si32>
  %4 = maxgraph.reduce_max %3 axes = [1] : !maxgraph.tensor<[4, 5], si32> -> !maxgraph.tensor<[4], si32>
  %5 = maxgraph.cmp lt, %a, %b : (!maxgraph.tensor<[4, 5], si32>, !maxgraph.tensor<[5], si32>) -> !maxgraph.tensor<[4, 5], i1>
  maxgraph.output %3, %4, %5 : !maxgraph.tensor<[4, 5], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4, 5], i1>
}

maxgraph.graph @gathered(%x: !maxgraph.tensor<[4, 5], f32>) -> (!maxgraph.tensor<[4], si64>, !maxgraph.tensor<[4, 4], f32>, !maxgraph.tensor<[4, 4], f32>) {
  %0 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[4, 5], f32> -> !maxgraph.tensor<[4], si64>
  %1 = maxgraph.gather %x, %0 axis = 1 : (!maxgraph.tensor<[4, 5], f32>, !maxgraph.tensor<[4], si64>) -> !maxgraph.tensor<[4, 4], f32>
  %2 = maxgraph.cumsum %1 axis = 1 : !maxgraph.tensor<[4, 4], f32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[4, 4], f32>, !maxgraph.tensor<[4, 4], f32>
}

maxgraph.graph @on_gpu(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}
