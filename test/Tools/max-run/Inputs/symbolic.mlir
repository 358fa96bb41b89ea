// Not a test: input of interpret.mlir.
maxgraph.graph @rowsum<batch>(%x: !maxgraph.tensor<[batch, 4], f32>) -> !maxgraph.tensor<[batch], f32>
    attributes {result_names = ["output"]} {
  %0 = maxgraph.reduce_sum %x axes = [1] : !maxgraph.tensor<[batch, 4], f32> -> !maxgraph.tensor<[batch], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch], f32>
}
