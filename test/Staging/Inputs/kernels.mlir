// A kernel library: public func.func kernels on builtin tensors.
func.func @add_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.addf %x, %one : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @scale(%x: tensor<?xf32>, %s: tensor<f32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
