// Input of compile-cache.mlir: a gather whose indices may be out of range.
maxgraph.graph @gather(%t: !maxgraph.tensor<[3], f32>, %i: !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[1], f32> {
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[1], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1], f32>
}
