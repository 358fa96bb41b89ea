// A kernel library for the custom-op execution tests: public func.func
// kernels on builtin tensors; a buffer operand is passed as a memref.

// Elementwise arith on tensors: linked as a linalg.generic.
func.func @add_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.addf %x, %one : tensor<4xf32>
  return %y : tensor<4xf32>
}

// Any length: x * s, through a private helper.
func.func @scale(%x: tensor<?xf32>, %s: tensor<f32>) -> tensor<?xf32> {
  %y = func.call @times(%x, %s) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func private @times(%x: tensor<?xf32>, %s: tensor<f32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<?xf32>, tensor<f32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// In place: acc += x, written through the buffer's memref.
func.func @accumulate(%acc: memref<4xf32>, %x: tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %acc[%i] : memref<4xf32>
    %b = tensor.extract %x[%i] : tensor<4xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %acc[%i] : memref<4xf32>
  }
  return
}

// Two results, integers: (x + y, x * y).
func.func @sum_and_product(%x: tensor<3xi32>, %y: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %e = tensor.empty() : tensor<3xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<3xi32>, tensor<3xi32>) outs(%e, %e : tensor<3xi32>, tensor<3xi32>) {
  ^bb0(%a: i32, %b: i32, %o0: i32, %o1: i32):
    %s = arith.addi %a, %b : i32
    %p = arith.muli %a, %b : i32
    linalg.yield %s, %p : i32, i32
  } -> (tensor<3xi32>, tensor<3xi32>)
  return %r#0, %r#1 : tensor<3xi32>, tensor<3xi32>
}
