// Results of 8 MiB and more that the entry only writes leave with
// non-temporal stores on x86-64 (maxgraph-stream-result-stores): the values
// are those of the interpreter, on one thread and on two, for an
// elementwise chain, a softmax (written a row at a time), a result that
// another result reads, and a result read back by a reduction (max, exact
// in any order).
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-run %s --graph=results --random-inputs --seed=1 --output=%t/interpreted --interpret
// RUN: env OMP_NUM_THREADS=1 max-run %s --graph=results --random-inputs --seed=1 --output=%t/one
// RUN: env OMP_NUM_THREADS=2 max-run %s --graph=results --random-inputs --seed=1 --output=%t/two
// RUN: %python %S/Inputs/compare.py %t/one %t/interpreted | FileCheck %s
// RUN: %python %S/Inputs/compare.py %t/two %t/interpreted | FileCheck %s
// CHECK: match 5

maxgraph.graph @results(%x: !maxgraph.tensor<[2097152], f32>, %y: !maxgraph.tensor<[2097152], f32>,
    %m: !maxgraph.tensor<[1024, 2048], f32>)
    -> (!maxgraph.tensor<[2097152], f32>, !maxgraph.tensor<[1024, 2048], f32>,
        !maxgraph.tensor<[2097152], f32>, !maxgraph.tensor<[2097152], f32>,
        !maxgraph.tensor<[], f32>) {
  %0 = maxgraph.mul %x, %y : !maxgraph.tensor<[2097152], f32>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[2097152], f32>
  %2 = maxgraph.softmax %m axis = -1 : !maxgraph.tensor<[1024, 2048], f32>
  %4 = maxgraph.add %x, %x : !maxgraph.tensor<[2097152], f32>
  %5 = maxgraph.mul %4, %y : !maxgraph.tensor<[2097152], f32>
  %6 = maxgraph.reduce_max %4 axes = [0] : !maxgraph.tensor<[2097152], f32> -> !maxgraph.tensor<[], f32>
  maxgraph.output %1, %2, %4, %5, %6 : !maxgraph.tensor<[2097152], f32>, !maxgraph.tensor<[1024, 2048], f32>, !maxgraph.tensor<[2097152], f32>, !maxgraph.tensor<[2097152], f32>, !maxgraph.tensor<[], f32>
}
