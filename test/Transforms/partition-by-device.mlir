// RUN: max-opt %s -maxgraph-partition-by-device=rank=1 -split-input-file -verify-diagnostics | FileCheck %s

// Rank 1 keeps cpu:1's arguments, ops and results, its names, and its part
// of each collective; cpu:0's part is gone.
// CHECK-LABEL: maxgraph.graph @mlp(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4, 8], f32, cpu:1>, %[[W:[^:]+]]: !maxgraph.tensor<[8, 8], f32, cpu:1>) -> (!maxgraph.tensor<[4, 8], f32, cpu:1>, !maxgraph.tensor<[8, 8], f32, cpu:1>)
// CHECK-SAME: argument_names = ["x1", "w1"], result_names = ["y1", "g1"]
// CHECK-NEXT: %[[H:.*]] = maxgraph.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[Y:.*]] = maxgraph.spmd_allreduce sum %[[H]] devices = [0, 1] : !maxgraph.tensor<[4, 8], f32, cpu:1> -> !maxgraph.tensor<[4, 8], f32, cpu:1>
// CHECK-NEXT: %[[G:.*]] = maxgraph.spmd_allgather %[[H]] axis = 0 devices = [0, 1] : !maxgraph.tensor<[4, 8], f32, cpu:1> -> !maxgraph.tensor<[8, 8], f32, cpu:1>
// CHECK-NEXT: maxgraph.output %[[Y]], %[[G]] : !maxgraph.tensor<[4, 8], f32, cpu:1>, !maxgraph.tensor<[8, 8], f32, cpu:1>
maxgraph.graph @mlp(%x0: !maxgraph.tensor<[4, 8], f32>, %x1: !maxgraph.tensor<[4, 8], f32, cpu:1>,
                    %w0: !maxgraph.tensor<[8, 8], f32>, %w1: !maxgraph.tensor<[8, 8], f32, cpu:1>)
    -> (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[4, 8], f32, cpu:1>, !maxgraph.tensor<[8, 8], f32, cpu:1>)
    attributes {argument_names = ["x0", "x1", "w0", "w1"], result_names = ["y0", "y1", "g1"]} {
  %h0 = maxgraph.matmul %x0, %w0 : (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[8, 8], f32>) -> !maxgraph.tensor<[4, 8], f32>
  %h1 = maxgraph.matmul %x1, %w1 : (!maxgraph.tensor<[4, 8], f32, cpu:1>, !maxgraph.tensor<[8, 8], f32, cpu:1>) -> !maxgraph.tensor<[4, 8], f32, cpu:1>
  %y0, %y1 = maxgraph.allreduce sum %h0, %h1 : (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[4, 8], f32, cpu:1>) -> (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[4, 8], f32, cpu:1>)
  %g0, %g1 = maxgraph.allgather %h0, %h1 axis = 0 : (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[4, 8], f32, cpu:1>) -> (!maxgraph.tensor<[8, 8], f32>, !maxgraph.tensor<[8, 8], f32, cpu:1>)
  maxgraph.output %y0, %y1, %g1 : !maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[4, 8], f32, cpu:1>, !maxgraph.tensor<[8, 8], f32, cpu:1>
}

// -----

// The devices list keeps the operands' order; a collective without a part
// on cpu:1 is dropped; reduce_scatter and broadcast keep axis and root.
// CHECK-LABEL: maxgraph.graph @order(
// CHECK-NEXT: %[[S:.*]] = maxgraph.spmd_reduce_scatter max %{{.*}} axis = 0 devices = [2, 1, 0] : !maxgraph.tensor<[6], f32, cpu:1> -> !maxgraph.tensor<[2], f32, cpu:1>
// CHECK-NEXT: %[[B:.*]] = maxgraph.spmd_broadcast %{{.*}} root = 2 devices = [2, 1, 0]
// CHECK-NEXT: maxgraph.output %[[S]], %[[B]]
maxgraph.graph @order(%a: !maxgraph.tensor<[6], f32>, %b: !maxgraph.tensor<[6], f32, cpu:1>, %c: !maxgraph.tensor<[6], f32, cpu:2>)
    -> (!maxgraph.tensor<[2], f32, cpu:1>, !maxgraph.tensor<[6], f32, cpu:1>) {
  %s2, %s1, %s0 = maxgraph.reduce_scatter max %c, %b, %a axis = 0 : (!maxgraph.tensor<[6], f32, cpu:2>, !maxgraph.tensor<[6], f32, cpu:1>, !maxgraph.tensor<[6], f32>) -> (!maxgraph.tensor<[2], f32, cpu:2>, !maxgraph.tensor<[2], f32, cpu:1>, !maxgraph.tensor<[2], f32>)
  %b2, %b1, %b0 = maxgraph.broadcast %c, %b, %a root = 2 : (!maxgraph.tensor<[6], f32, cpu:2>, !maxgraph.tensor<[6], f32, cpu:1>, !maxgraph.tensor<[6], f32>) -> (!maxgraph.tensor<[6], f32, cpu:2>, !maxgraph.tensor<[6], f32, cpu:1>, !maxgraph.tensor<[6], f32>)
  %x0, %x2 = maxgraph.allreduce sum %a, %c : (!maxgraph.tensor<[6], f32>, !maxgraph.tensor<[6], f32, cpu:2>) -> (!maxgraph.tensor<[6], f32>, !maxgraph.tensor<[6], f32, cpu:2>)
  maxgraph.output %s1, %b1 : !maxgraph.tensor<[2], f32, cpu:1>, !maxgraph.tensor<[6], f32, cpu:1>
}

// -----

// Values cross devices only through collectives.
maxgraph.graph @transfer(%a: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32, cpu:1> {
  // expected-error @+1 {{'maxgraph.transfer' op moves a value from cpu:0 to cpu:1; between the parts of a graph over several devices values cross only through collectives}}
  %t = maxgraph.transfer %a to cpu:1 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, cpu:1>
  maxgraph.output %t : !maxgraph.tensor<[4], f32, cpu:1>
}

// -----

maxgraph.graph @gpu(%a: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  // expected-error @+1 {{'maxgraph.relu' op has a value on gpu:0; an SPMD partition runs cpu:N devices only, one process each}}
  %r = maxgraph.relu %a : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %r : !maxgraph.tensor<[4], f32, gpu:0>
}
