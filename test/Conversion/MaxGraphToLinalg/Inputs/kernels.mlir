// A kernel library for the maxgraph-link-kernels tests.
func.func @add_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.addf %x, %one : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @twice(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = func.call @helper(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
func.func private @helper(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @fill(%b: memref<4xi32>) {
  return
}
