// One small graph over a symbolic dim, for options that act on graphs.
maxgraph.graph @f<batch>(%x: !maxgraph.tensor<[batch, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32> {
  %0 = maxgraph.exp %x : !maxgraph.tensor<[batch, 4], f32>
  %1 = maxgraph.add %0, %x : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[batch, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[batch, 4], f32>
}
