// maxgraph-graph-to-linalg{gpu=true}: the graph level of
// maxgraph-lower-to-gpu. As for the host (graph-to-linalg.mlir), but the
// graph becomes one entry function: subgraph calls are inlined, and what
// follows a call fuses with the callee's last op.
// RUN: max-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(maxgraph-graph-to-linalg{gpu=true})' | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK-NOT: call
// CHECK: arith.maximumf
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK-NEXT: math.exp
// CHECK-NEXT: linalg.yield
// CHECK: return
maxgraph.graph @block(%x: !maxgraph.tensor<[4, 8], f32, gpu:0>) -> !maxgraph.tensor<[4, 8], f32, gpu:0>
    attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4, 8], f32, gpu:0>
  %1 = maxgraph.softmax %0 axis = 1 : !maxgraph.tensor<[4, 8], f32, gpu:0>
  maxgraph.output %1 : !maxgraph.tensor<[4, 8], f32, gpu:0>
}
maxgraph.graph @main(%x: !maxgraph.tensor<[4, 8], f32, gpu:0>) -> !maxgraph.tensor<[4, 8], f32, gpu:0> {
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[4, 8], f32, gpu:0>) -> !maxgraph.tensor<[4, 8], f32, gpu:0>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[4, 8], f32, gpu:0>
  maxgraph.output %1 : !maxgraph.tensor<[4, 8], f32, gpu:0>
}

// -----

// A graph on the host is not a GPU's.
// expected-error @+1 {{'maxgraph.graph' uses a tensor on #maxgraph.device<cpu:0>; the GPU lowering takes graphs whose tensors are all on one GPU}}
maxgraph.graph @host(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.exp %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
