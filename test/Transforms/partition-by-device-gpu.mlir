// RUN: max-opt %s -maxgraph-partition-by-device="kind=gpu rank=1" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not max-opt %s -maxgraph-partition-by-device="kind=tpu" -split-input-file 2>&1 | FileCheck %s --check-prefix=KIND

// KIND: error: maxgraph-partition-by-device: kind 'tpu' is neither cpu nor gpu

// A graph over several GPUs: gpu:1's thread keeps gpu:1's arguments, ops and
// results and its part of each collective, in operand order.
// CHECK-LABEL: maxgraph.graph @shards(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4, 8], f32, gpu:1>) -> (!maxgraph.tensor<[4, 8], f32, gpu:1>, !maxgraph.tensor<[4, 16], f32, gpu:1>)
// CHECK-NEXT: %[[H:.*]] = maxgraph.relu %[[X]]
// CHECK-NEXT: %[[Y:.*]] = maxgraph.spmd_allreduce sum %[[H]] devices = [1, 0] : !maxgraph.tensor<[4, 8], f32, gpu:1> -> !maxgraph.tensor<[4, 8], f32, gpu:1>
// CHECK-NEXT: %[[G:.*]] = maxgraph.spmd_allgather %[[H]] axis = 1 devices = [0, 1] : !maxgraph.tensor<[4, 8], f32, gpu:1> -> !maxgraph.tensor<[4, 16], f32, gpu:1>
// CHECK-NEXT: maxgraph.output %[[Y]], %[[G]]
maxgraph.graph @shards(%x0: !maxgraph.tensor<[4, 8], f32, gpu:0>, %x1: !maxgraph.tensor<[4, 8], f32, gpu:1>)
    -> (!maxgraph.tensor<[4, 8], f32, gpu:0>, !maxgraph.tensor<[4, 8], f32, gpu:1>, !maxgraph.tensor<[4, 16], f32, gpu:1>) {
  %h0 = maxgraph.relu %x0 : !maxgraph.tensor<[4, 8], f32, gpu:0>
  %h1 = maxgraph.relu %x1 : !maxgraph.tensor<[4, 8], f32, gpu:1>
  %y1, %y0 = maxgraph.allreduce sum %h1, %h0 : (!maxgraph.tensor<[4, 8], f32, gpu:1>, !maxgraph.tensor<[4, 8], f32, gpu:0>) -> (!maxgraph.tensor<[4, 8], f32, gpu:1>, !maxgraph.tensor<[4, 8], f32, gpu:0>)
  %g0, %g1 = maxgraph.allgather %h0, %h1 axis = 1 : (!maxgraph.tensor<[4, 8], f32, gpu:0>, !maxgraph.tensor<[4, 8], f32, gpu:1>) -> (!maxgraph.tensor<[4, 16], f32, gpu:0>, !maxgraph.tensor<[4, 16], f32, gpu:1>)
  maxgraph.output %y0, %y1, %g1 : !maxgraph.tensor<[4, 8], f32, gpu:0>, !maxgraph.tensor<[4, 8], f32, gpu:1>, !maxgraph.tensor<[4, 16], f32, gpu:1>
}

// -----

// Host values have no place in a GPU part.
maxgraph.graph @host(%a: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @+1 {{'maxgraph.relu' op has a value on cpu:0; a graph over several GPUs keeps all its values on GPUs (host data comes in as arguments)}}
  %r = maxgraph.relu %a : !maxgraph.tensor<[4], f32>
  maxgraph.output %r : !maxgraph.tensor<[4], f32>
}

// -----

// A transfer between GPUs is a broadcast from the sender: gpu:1 receives
// into a placeholder that the broadcast does not read.
// CHECK-LABEL: maxgraph.graph @transfer(
// CHECK-SAME:    ) -> !maxgraph.tensor<[4], f32, gpu:1>
// CHECK-NEXT:    %[[P:.*]] = maxgraph.constant dense<0.000000e+00> : !maxgraph.tensor<[4], f32, gpu:1>
// CHECK-NEXT:    %[[R:.*]] = maxgraph.spmd_broadcast %[[P]] root = 0 devices = [0, 1] : !maxgraph.tensor<[4], f32, gpu:1> -> !maxgraph.tensor<[4], f32, gpu:1>
// CHECK-NEXT:    %[[N:.*]] = maxgraph.neg %[[R]]
// CHECK-NEXT:    maxgraph.output %[[N]]
maxgraph.graph @transfer(%a: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:1> {
  %t = maxgraph.transfer %a to gpu:1 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:1>
  %n = maxgraph.neg %t : !maxgraph.tensor<[4], f32, gpu:1>
  maxgraph.output %n : !maxgraph.tensor<[4], f32, gpu:1>
}

// -----

// The sender broadcasts its value and keeps nothing of the transfer.
// CHECK-LABEL: maxgraph.graph @send(
// CHECK-SAME:    %[[B:.*]]: !maxgraph.tensor<[2, 3], si32, gpu:1>) -> !maxgraph.tensor<[2, 3], si32, gpu:1>
// CHECK-NEXT:    %[[S:.*]] = maxgraph.spmd_broadcast %[[B]] root = 0 devices = [1, 2]
// CHECK-NEXT:    maxgraph.output %[[B]]
maxgraph.graph @send(%b: !maxgraph.tensor<[2, 3], si32, gpu:1>) -> (!maxgraph.tensor<[2, 3], si32, gpu:1>, !maxgraph.tensor<[2, 3], si32, gpu:2>) {
  %t = maxgraph.transfer %b to gpu:2 : !maxgraph.tensor<[2, 3], si32, gpu:1> -> !maxgraph.tensor<[2, 3], si32, gpu:2>
  maxgraph.output %b, %t : !maxgraph.tensor<[2, 3], si32, gpu:1>, !maxgraph.tensor<[2, 3], si32, gpu:2>
}

// -----

// The receiver must know what it receives: a symbolic size is bound by one
// of its own arguments, and zeros broadcast to it stand in for the value.
// CHECK-LABEL: maxgraph.graph @dynamic<n>(
// CHECK-SAME:    %[[Y:.*]]: !maxgraph.tensor<[n, 2], f32, gpu:1>)
// CHECK-NEXT:    %[[Z:.*]] = maxgraph.constant dense<0.000000e+00> : !maxgraph.tensor<[], f32, gpu:1>
// CHECK-NEXT:    %[[P:.*]] = maxgraph.broadcast_to %[[Z]] : !maxgraph.tensor<[], f32, gpu:1> -> !maxgraph.tensor<[n, 2], f32, gpu:1>
// CHECK-NEXT:    %[[R:.*]] = maxgraph.spmd_broadcast %[[P]] root = 0 devices = [0, 1]
// CHECK-NEXT:    maxgraph.output %[[R]]
maxgraph.graph @dynamic<n>(%a: !maxgraph.tensor<[n, 2], f32, gpu:0>, %y: !maxgraph.tensor<[n, 2], f32, gpu:1>) -> !maxgraph.tensor<[n, 2], f32, gpu:1> {
  %t = maxgraph.transfer %a to gpu:1 : !maxgraph.tensor<[n, 2], f32, gpu:0> -> !maxgraph.tensor<[n, 2], f32, gpu:1>
  maxgraph.output %t : !maxgraph.tensor<[n, 2], f32, gpu:1>
}

// -----

maxgraph.graph @unbound<n>(%a: !maxgraph.tensor<[n], f32, gpu:0>) -> !maxgraph.tensor<[n], f32, gpu:1> {
  // expected-error @+1 {{'maxgraph.transfer' op moves a value of type '!maxgraph.tensor<[n], f32, gpu:1>' from gpu:0 to gpu:1, and no argument on gpu:1 binds 'n'; the receiving GPU must know the size}}
  %t = maxgraph.transfer %a to gpu:1 : !maxgraph.tensor<[n], f32, gpu:0> -> !maxgraph.tensor<[n], f32, gpu:1>
  maxgraph.output %t : !maxgraph.tensor<[n], f32, gpu:1>
}

// -----

maxgraph.graph @unknown(%a: !maxgraph.tensor<[?], f32, gpu:0>) -> !maxgraph.tensor<[?], f32, gpu:1> {
  // expected-error @+1 {{'maxgraph.transfer' op moves a value with a dim of unknown size from gpu:0 to gpu:1; the receiving GPU must know the size}}
  %t = maxgraph.transfer %a to gpu:1 : !maxgraph.tensor<[?], f32, gpu:0> -> !maxgraph.tensor<[?], f32, gpu:1>
  maxgraph.output %t : !maxgraph.tensor<[?], f32, gpu:1>
}
