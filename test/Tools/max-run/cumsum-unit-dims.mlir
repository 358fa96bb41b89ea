// cumsum along an axis of size 1 next to other dims of size 1 compiles and
// agrees with the interpreter (found by fuzz/DifferentialFuzzer.cpp: its
// rank-reducing slices were ambiguous, and the compiled code summed only
// the first row of [1, n, 1] or failed to lower with `slice along dimension
// 2 runs out-of-bounds: 2 >= 1`).
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-run %s --graph=static_rows --random-inputs --seed=1 --output=%t/a-c
// RUN: max-run %s --graph=static_rows --random-inputs --seed=1 --output=%t/a-i --interpret
// RUN: %python %S/Inputs/compare.py %t/a-c %t/a-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH2
// MATCH2: match 2
// RUN: max-run %s --graph=symbolic_rows --random-inputs --seed=2 --dims=n=4 --output=%t/b-c
// RUN: max-run %s --graph=symbolic_rows --random-inputs --seed=2 --dims=n=4 --output=%t/b-i --interpret
// RUN: %python %S/Inputs/compare.py %t/b-c %t/b-i | FileCheck %s --check-prefix=MATCH2

maxgraph.graph @static_rows(%x: !maxgraph.tensor<[1, 3, 1], si32>) -> (!maxgraph.tensor<[1, 3, 1], si32>, !maxgraph.tensor<[1, 3, 1], si32>) {
  %0 = maxgraph.cumsum %x axis = -1 : !maxgraph.tensor<[1, 3, 1], si32>
  %1 = maxgraph.cumsum %x axis = 0 exclusive reverse : !maxgraph.tensor<[1, 3, 1], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[1, 3, 1], si32>, !maxgraph.tensor<[1, 3, 1], si32>
}

maxgraph.graph @symbolic_rows<n>(%x: !maxgraph.tensor<[1, n, 1], f32>) -> (!maxgraph.tensor<[1, n, 1], f32>, !maxgraph.tensor<[1, n, 1], f32>) {
  %0 = maxgraph.cumsum %x axis = 2 reverse : !maxgraph.tensor<[1, n, 1], f32>
  %1 = maxgraph.cumsum %x axis = 1 : !maxgraph.tensor<[1, n, 1], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[1, n, 1], f32>, !maxgraph.tensor<[1, n, 1], f32>
}
