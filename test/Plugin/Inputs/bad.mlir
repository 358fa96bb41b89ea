// Not a test: input of upstream-mlir-opt.mlir.
maxgraph.graph @bad<batch, seq>(%a: !maxgraph.tensor<[batch], f32>, %b: !maxgraph.tensor<[seq], f32>)
    -> !maxgraph.tensor<[batch], f32> {
  %0 = maxgraph.add %a, %b : (!maxgraph.tensor<[batch], f32>, !maxgraph.tensor<[seq], f32>) -> !maxgraph.tensor<[batch], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch], f32>
}
