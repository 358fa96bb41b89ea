// Bad input gives a located diagnostic and a non-zero exit, never a crash.
// RUN: not max-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: bad-input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected a dim: an integer, a symbolic name, '?' or a parenthesized dim expression
maxgraph.graph @g(%a: !maxgraph.tensor<[2, +], f32>) -> () {
  maxgraph.output
}

// -----

// CHECK: bad-input.mlir:[[# @LINE + 2]]:8: error: 'maxgraph.matmul' op contracting dims differ: dim 1 of operand 0 is `3` but dim 0 of operand 1 is `4`
maxgraph.graph @g(%a: !maxgraph.tensor<[2, 3], f32>, %b: !maxgraph.tensor<[4, 5], f32>) -> () {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[4, 5], f32>) -> !maxgraph.tensor<[2, 5], f32>
  maxgraph.output
}

// -----

// CHECK: bad-input.mlir:[[# @LINE + 2]]:3: error: custom op 'maxgraph.no_such_op' is unknown
maxgraph.graph @g() -> () {
  maxgraph.no_such_op
  maxgraph.output
}

// -----

// CHECK: bad-input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: unknown device kind 'tpu', expected 'cpu' or 'gpu'
maxgraph.graph @g(%a: !maxgraph.tensor<[2], f32, tpu:0>) -> () {
  maxgraph.output
}

// -----

// CHECK: bad-input.mlir:[[# @LINE + 2]]:8: error: 'maxgraph.reshape' op changes the element count from `batch * 32` [batch, 4, 8] to `batch * 30` [batch, 30]
maxgraph.graph @g<batch>(%x: !maxgraph.tensor<[batch, 4, 8], f32>) -> () {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[batch, 4, 8], f32> -> !maxgraph.tensor<[batch, 30], f32>
  maxgraph.output
}
