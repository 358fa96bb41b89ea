// A graph with an external weight: max-run cannot bind its data, and says so
// at the graph, naming the weight; random inputs fill weights too.
// RUN: not max-run %s --interpret 2>&1 | FileCheck %s
// CHECK: weights.mlir:[[@LINE+3]]:1: error: argument 1 of @linear is the external weight 'layers.0.w'; max-run cannot bind weights
// RUN: max-run %s --interpret --random-inputs
// RUN: max-run %s --random-inputs
maxgraph.graph @linear(%x: !maxgraph.tensor<[2, 4], f32>,
                       %w: !maxgraph.tensor<[4, 4], f32> {maxgraph.weight = "layers.0.w"})
    -> !maxgraph.tensor<[2, 4], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[4, 4], f32>) -> !maxgraph.tensor<[2, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 4], f32>
}
