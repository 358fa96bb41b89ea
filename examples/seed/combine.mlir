// The seed example, `combine(kv, alpha) = (kv["a"] + kv["b"]) * alpha`,
// staged with `alpha = 2.0` and `a`, `b` of TensorLayout(float32, [2]).
maxgraph.graph @combine(%a: !maxgraph.tensor<[2], f32>, %b: !maxgraph.tensor<[2], f32>)
    -> !maxgraph.tensor<[2], f32>
    attributes {argument_names = ["kv.a", "kv.b"], result_names = ["output"]} {
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[2], f32>
  %1 = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
  %2 = maxgraph.mul %0, %1 : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[], f32>)
                                 -> !maxgraph.tensor<[2], f32>
  maxgraph.output %2 : !maxgraph.tensor<[2], f32>
}
