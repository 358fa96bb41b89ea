// A 2-GPU tensor-parallel MLP: W1 split by columns, W2 by rows, one
// allreduce of the partial products; each GPU has its copy of x (the
// GPU form of spmd-mlp.mlir).
maxgraph.graph @mlp(%x0: !maxgraph.tensor<[4, 8], f32, gpu:0>, %x1: !maxgraph.tensor<[4, 8], f32, gpu:1>,
                    %w1a: !maxgraph.tensor<[8, 16], f32, gpu:0>, %w1b: !maxgraph.tensor<[8, 16], f32, gpu:1>,
                    %w2a: !maxgraph.tensor<[16, 8], f32, gpu:0>, %w2b: !maxgraph.tensor<[16, 8], f32, gpu:1>)
    -> (!maxgraph.tensor<[4, 8], f32, gpu:0>, !maxgraph.tensor<[4, 8], f32, gpu:1>)
    attributes {argument_names = ["x0", "x1", "w1a", "w1b", "w2a", "w2b"], result_names = ["y0", "y1"]} {
  %h0 = maxgraph.matmul %x0, %w1a : (!maxgraph.tensor<[4, 8], f32, gpu:0>, !maxgraph.tensor<[8, 16], f32, gpu:0>) -> !maxgraph.tensor<[4, 16], f32, gpu:0>
  %h1 = maxgraph.matmul %x1, %w1b : (!maxgraph.tensor<[4, 8], f32, gpu:1>, !maxgraph.tensor<[8, 16], f32, gpu:1>) -> !maxgraph.tensor<[4, 16], f32, gpu:1>
  %r0 = maxgraph.relu %h0 : !maxgraph.tensor<[4, 16], f32, gpu:0>
  %r1 = maxgraph.relu %h1 : !maxgraph.tensor<[4, 16], f32, gpu:1>
  %p0 = maxgraph.matmul %r0, %w2a : (!maxgraph.tensor<[4, 16], f32, gpu:0>, !maxgraph.tensor<[16, 8], f32, gpu:0>) -> !maxgraph.tensor<[4, 8], f32, gpu:0>
  %p1 = maxgraph.matmul %r1, %w2b : (!maxgraph.tensor<[4, 16], f32, gpu:1>, !maxgraph.tensor<[16, 8], f32, gpu:1>) -> !maxgraph.tensor<[4, 8], f32, gpu:1>
  %y0, %y1 = maxgraph.allreduce sum %p0, %p1 : (!maxgraph.tensor<[4, 8], f32, gpu:0>, !maxgraph.tensor<[4, 8], f32, gpu:1>) -> (!maxgraph.tensor<[4, 8], f32, gpu:0>, !maxgraph.tensor<[4, 8], f32, gpu:1>)
  maxgraph.output %y0, %y1 : !maxgraph.tensor<[4, 8], f32, gpu:0>, !maxgraph.tensor<[4, 8], f32, gpu:1>
}
