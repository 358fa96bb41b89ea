// Graphs on tensors with a static 0 dim compile and agree with the
// interpreter (found by fuzz/DifferentialFuzzer.cpp: concat and cumsum on
// empty tensors failed to lower, with `offset 0 is out-of-bounds: 0 >= 0`
// from the zero-sized slices of their lowerings).
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-opt %s -maxgraph-lower-to-cpu -o /dev/null
// RUN: max-run %s --graph=concat_empty --random-inputs --seed=1 --output=%t/a-c
// RUN: max-run %s --graph=concat_empty --random-inputs --seed=1 --output=%t/a-i --interpret
// RUN: %python %S/Inputs/compare.py %t/a-c %t/a-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH2
// MATCH2: match 2
// RUN: max-run %s --graph=cumsum_empty --random-inputs --dims=n=3 --output=%t/b-c
// RUN: max-run %s --graph=cumsum_empty --random-inputs --dims=n=3 --output=%t/b-i --interpret
// RUN: %python %S/Inputs/compare.py %t/b-c %t/b-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH2
// RUN: max-run %s --graph=concat_zero_rows --random-inputs --dims=n=2 --output=%t/c-c
// RUN: max-run %s --graph=concat_zero_rows --random-inputs --dims=n=2 --output=%t/c-i --interpret
// RUN: %python %S/Inputs/compare.py %t/c-c %t/c-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH1
// MATCH1: match 1

maxgraph.graph @concat_empty(%x: !maxgraph.tensor<[3], si32>, %e: !maxgraph.tensor<[0], si32>)
    -> (!maxgraph.tensor<[3], si32>, !maxgraph.tensor<[0], si32>) {
  %0 = maxgraph.concat %x, %e axis = 0 : (!maxgraph.tensor<[3], si32>, !maxgraph.tensor<[0], si32>) -> !maxgraph.tensor<[3], si32>
  %1 = maxgraph.concat %e, %e axis = 0 : (!maxgraph.tensor<[0], si32>, !maxgraph.tensor<[0], si32>) -> !maxgraph.tensor<[0], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[0], si32>
}

maxgraph.graph @cumsum_empty<n>(%x: !maxgraph.tensor<[0, 4, 1], si64>, %y: !maxgraph.tensor<[n, 0, 3], f32>)
    -> (!maxgraph.tensor<[0, 4, 1], si64>, !maxgraph.tensor<[n, 0, 3], f32>) {
  %0 = maxgraph.cumsum %x axis = 1 exclusive : !maxgraph.tensor<[0, 4, 1], si64>
  %1 = maxgraph.cumsum %y axis = -1 exclusive reverse : !maxgraph.tensor<[n, 0, 3], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[0, 4, 1], si64>, !maxgraph.tensor<[n, 0, 3], f32>
}

maxgraph.graph @concat_zero_rows<n>(%x: !maxgraph.tensor<[n, 0, 3], si32>) -> !maxgraph.tensor<[n * 2, 0, 3], si32> {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 0, 3], si32>, !maxgraph.tensor<[n, 0, 3], si32>) -> !maxgraph.tensor<[n * 2, 0, 3], si32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 0, 3], si32>
}
