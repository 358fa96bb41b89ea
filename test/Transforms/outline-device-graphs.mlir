// RUN: max-opt %s -maxgraph-outline-device-graphs -split-input-file -verify-diagnostics | FileCheck %s
// RUN: max-opt %s -pass-pipeline='builtin.module(maxgraph-outline-device-graphs{min-ops=2})' -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=MIN2
// The output parses again and its device graphs keep the contract:
// RUN: max-opt %s -maxgraph-outline-device-graphs -split-input-file -verify-diagnostics | max-opt -split-input-file -maxgraph-verify-device-graphs -o /dev/null

// Work on two GPUs with transfers between them: one device graph per GPU,
// the transfers and the host add stay in the parent. A value used after its
// run (%1 and %2 here) becomes a result, in definition order.
// CHECK-LABEL: maxgraph.graph @two_gpus(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], f32>)
// CHECK-NEXT: %[[T0:.*]] = maxgraph.transfer %[[X]] to gpu:0
// CHECK-NEXT: %[[D0:.*]]:2 = maxgraph.call @two_gpus_device_graph(%[[T0]]) : (!maxgraph.tensor<[4], f32, gpu:0>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>)
// CHECK-NEXT: %[[T1:.*]] = maxgraph.transfer %[[D0]]#1 to gpu:1
// CHECK-NEXT: %[[T2:.*]] = maxgraph.transfer %[[D0]]#0 to gpu:1
// CHECK-NEXT: %[[D1:.*]] = maxgraph.call @two_gpus_device_graph_1(%[[T1]], %[[T2]]) : (!maxgraph.tensor<[4], f32, gpu:1>, !maxgraph.tensor<[4], f32, gpu:1>) -> !maxgraph.tensor<[4], f32, gpu:1>
// CHECK-NEXT: %[[H:.*]] = maxgraph.transfer %[[D1]] to cpu:0
// CHECK-NEXT: %[[R:.*]] = maxgraph.add %[[H]], %[[X]] : !maxgraph.tensor<[4], f32>
// CHECK-NEXT: maxgraph.output %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: maxgraph.graph @two_gpus_device_graph(%[[A:[^:]+]]: !maxgraph.tensor<[4], f32, gpu:0>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>) attributes {is_device_graph, is_subgraph} {
// CHECK-NEXT: %[[R0:.*]] = maxgraph.relu %[[A]] : !maxgraph.tensor<[4], f32, gpu:0>
// CHECK-NEXT: %[[C0:.*]] = maxgraph.constant dense<2.000000e+00> : !maxgraph.tensor<[], f32, gpu:0>
// CHECK-NEXT: %[[M0:.*]] = maxgraph.mul %[[R0]], %[[C0]]
// CHECK-NEXT: maxgraph.output %[[R0]], %[[M0]] : !maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>
// CHECK-NEXT: }
// CHECK-NEXT: maxgraph.graph @two_gpus_device_graph_1(%[[B0:[^:]+]]: !maxgraph.tensor<[4], f32, gpu:1>, %[[B1:[^:]+]]: !maxgraph.tensor<[4], f32, gpu:1>) -> !maxgraph.tensor<[4], f32, gpu:1> attributes {is_device_graph, is_subgraph} {
// CHECK-NEXT: %[[E1:.*]] = maxgraph.exp %[[B0]] : !maxgraph.tensor<[4], f32, gpu:1>
// CHECK-NEXT: %[[S1:.*]] = maxgraph.add %[[E1]], %[[B1]] : !maxgraph.tensor<[4], f32, gpu:1>
// CHECK-NEXT: maxgraph.output %[[S1]] : !maxgraph.tensor<[4], f32, gpu:1>
// CHECK-NEXT: }
// MIN2-LABEL: maxgraph.graph @two_gpus(
// MIN2: maxgraph.call @two_gpus_device_graph(
// MIN2: maxgraph.call @two_gpus_device_graph_1(
maxgraph.graph @two_gpus(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
  %1 = maxgraph.relu %0 : !maxgraph.tensor<[4], f32, gpu:0>
  %c = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32, gpu:0>
  %2 = maxgraph.mul %1, %c : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
  %3 = maxgraph.transfer %2 to gpu:1 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:1>
  %4 = maxgraph.transfer %1 to gpu:1 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:1>
  %5 = maxgraph.exp %3 : !maxgraph.tensor<[4], f32, gpu:1>
  %6 = maxgraph.add %5, %4 : !maxgraph.tensor<[4], f32, gpu:1>
  %7 = maxgraph.transfer %6 to cpu:0 : !maxgraph.tensor<[4], f32, gpu:1> -> !maxgraph.tensor<[4], f32>
  %8 = maxgraph.add %7, %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %8 : !maxgraph.tensor<[4], f32>
}

// -----

// A graph that is all host is unchanged.
// CHECK-LABEL: maxgraph.graph @all_host(
// CHECK-NEXT: maxgraph.relu
// CHECK-NEXT: maxgraph.exp
// CHECK-NEXT: maxgraph.output
// CHECK-NEXT: }
// CHECK-NOT: maxgraph.graph
// MIN2-LABEL: maxgraph.graph @all_host(
// MIN2-NEXT: maxgraph.relu
// MIN2-NEXT: maxgraph.exp
// MIN2-NEXT: maxgraph.output
maxgraph.graph @all_host(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}

// -----

// Symbolic dims: the device graph declares the dims its arguments use, and
// the call binds them. An algebraic argument dim becomes a fresh `__d0`,
// which the call binds back to `batch * 2`.
// CHECK-LABEL: maxgraph.graph @symbolic<batch>(
// CHECK: %[[S0:.*]] = maxgraph.call @symbolic_device_graph(%{{.*}}) : (!maxgraph.tensor<[batch, 8], f32, gpu:0>) -> !maxgraph.tensor<[batch * 2, 8], f32, gpu:0>
// CHECK-NEXT: %[[T:.*]] = maxgraph.transfer %[[S0]] to gpu:1
// CHECK-NEXT: %{{.*}} = maxgraph.call @symbolic_device_graph_1(%[[T]]) : (!maxgraph.tensor<[batch * 2, 8], f32, gpu:1>) -> !maxgraph.tensor<[batch * 2 + 1, 8], f32, gpu:1>
// CHECK: maxgraph.graph @symbolic_device_graph<batch>(%{{.*}}: !maxgraph.tensor<[batch, 8], f32, gpu:0>) -> !maxgraph.tensor<[batch * 2, 8], f32, gpu:0> attributes {is_device_graph, is_subgraph}
// CHECK-NEXT: maxgraph.softmax
// CHECK-NEXT: maxgraph.concat
// CHECK: maxgraph.graph @symbolic_device_graph_1<__d0>(%{{.*}}: !maxgraph.tensor<[__d0, 8], f32, gpu:1>) -> !maxgraph.tensor<[__d0 + 1, 8], f32, gpu:1> attributes {is_device_graph, is_subgraph}
// CHECK-NEXT: maxgraph.relu %{{.*}} : !maxgraph.tensor<[__d0, 8], f32, gpu:1>
// CHECK-NEXT: maxgraph.constant
// CHECK-NEXT: maxgraph.concat %{{.*}}, %{{.*}} axis = 0 : (!maxgraph.tensor<[__d0, 8], f32, gpu:1>, !maxgraph.tensor<[1, 8], f32, gpu:1>) -> !maxgraph.tensor<[__d0 + 1, 8], f32, gpu:1>
// CHECK-NEXT: maxgraph.output %{{.*}} : !maxgraph.tensor<[__d0 + 1, 8], f32, gpu:1>
maxgraph.graph @symbolic<batch>(%x: !maxgraph.tensor<[batch, 8], f32, gpu:0>) -> !maxgraph.tensor<[batch * 2 + 1, 8], f32> {
  %0 = maxgraph.softmax %x axis = 1 : !maxgraph.tensor<[batch, 8], f32, gpu:0>
  %1 = maxgraph.concat %0, %x axis = 0 : (!maxgraph.tensor<[batch, 8], f32, gpu:0>, !maxgraph.tensor<[batch, 8], f32, gpu:0>) -> !maxgraph.tensor<[batch * 2, 8], f32, gpu:0>
  %2 = maxgraph.transfer %1 to gpu:1 : !maxgraph.tensor<[batch * 2, 8], f32, gpu:0> -> !maxgraph.tensor<[batch * 2, 8], f32, gpu:1>
  %3 = maxgraph.relu %2 : !maxgraph.tensor<[batch * 2, 8], f32, gpu:1>
  %c = maxgraph.constant dense<0.0> : !maxgraph.tensor<[1, 8], f32, gpu:1>
  %4 = maxgraph.concat %3, %c axis = 0 : (!maxgraph.tensor<[batch * 2, 8], f32, gpu:1>, !maxgraph.tensor<[1, 8], f32, gpu:1>) -> !maxgraph.tensor<[batch * 2 + 1, 8], f32, gpu:1>
  %5 = maxgraph.transfer %4 to cpu:0 : !maxgraph.tensor<[batch * 2 + 1, 8], f32, gpu:1> -> !maxgraph.tensor<[batch * 2 + 1, 8], f32>
  maxgraph.output %5 : !maxgraph.tensor<[batch * 2 + 1, 8], f32>
}

// -----

// Buffer loads and stores, custom kernels and `?` dims end runs and stay in
// the parent; so the relu and exp around them go to two device graphs on
// the same GPU. With min-ops=2 single-op runs stay too.
// CHECK-LABEL: maxgraph.graph @boundaries(
// CHECK-NEXT: %[[L:.*]] = maxgraph.buffer_load
// CHECK-NEXT: %[[A:.*]] = maxgraph.call @boundaries_device_graph(%[[L]])
// CHECK-NEXT: maxgraph.buffer_store %{{.*}}, %[[A]]
// CHECK-NEXT: %[[K:.*]] = maxgraph.custom "kernel"(%[[A]])
// CHECK-NEXT: %[[B:.*]] = maxgraph.call @boundaries_device_graph_1(%[[K]])
// CHECK-NEXT: maxgraph.neg %{{.*}} : !maxgraph.tensor<[?], f32, gpu:0>
// CHECK-NEXT: maxgraph.output %[[B]]
// CHECK: maxgraph.graph @boundaries_device_graph(
// CHECK-NEXT: maxgraph.relu
// CHECK-NEXT: maxgraph.output
// CHECK: maxgraph.graph @boundaries_device_graph_1(
// CHECK-NEXT: maxgraph.exp
// CHECK-NEXT: maxgraph.output
// MIN2-LABEL: maxgraph.graph @boundaries(
// MIN2-NEXT: maxgraph.buffer_load
// MIN2-NEXT: maxgraph.relu
// MIN2-NEXT: maxgraph.buffer_store
// MIN2-NEXT: maxgraph.custom
// MIN2-NEXT: maxgraph.exp
// MIN2-NEXT: maxgraph.neg
// MIN2-NEXT: maxgraph.output
// MIN2-NEXT: }
// MIN2-NEXT: }
maxgraph.graph @boundaries(%buf: !maxgraph.buffer<[4], f32, gpu:0>, %y: !maxgraph.tensor<[?], f32, gpu:0>)
    -> !maxgraph.tensor<[4], f32, gpu:0> {
  %0 = maxgraph.buffer_load %buf : !maxgraph.buffer<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:0>
  %1 = maxgraph.relu %0 : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.buffer_store %buf, %1 : !maxgraph.buffer<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>
  %2 = maxgraph.custom "kernel"(%1) : (!maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
  %3 = maxgraph.exp %2 : !maxgraph.tensor<[4], f32, gpu:0>
  %4 = maxgraph.neg %y : !maxgraph.tensor<[?], f32, gpu:0>
  maxgraph.output %3 : !maxgraph.tensor<[4], f32, gpu:0>
}

// -----

// A host op between two runs on one GPU splits them (only contiguous runs
// are outlined); the names skip a symbol that is taken; a run whose values
// are unused after it is left alone.
// CHECK-LABEL: maxgraph.graph @interleaved(
// CHECK-NEXT: %[[A:.*]] = maxgraph.call @interleaved_device_graph_1(%{{.*}})
// CHECK-NEXT: %[[H:.*]] = maxgraph.neg %{{.*}} : !maxgraph.tensor<[4], f32>
// CHECK-NEXT: %[[B:.*]] = maxgraph.call @interleaved_device_graph_2(%[[A]])
// CHECK-NEXT: maxgraph.neg
// CHECK-NEXT: maxgraph.sin %[[B]]
// CHECK-NEXT: maxgraph.output %[[B]], %[[H]]
// CHECK: maxgraph.graph @interleaved_device_graph_1(
// CHECK: maxgraph.graph @interleaved_device_graph_2(
// CHECK: maxgraph.graph @interleaved_device_graph(
maxgraph.graph @interleaved(%x: !maxgraph.tensor<[4], f32, gpu:0>, %h: !maxgraph.tensor<[4], f32>)
    -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32>) {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32, gpu:0>
  %1 = maxgraph.neg %h : !maxgraph.tensor<[4], f32>
  %2 = maxgraph.exp %0 : !maxgraph.tensor<[4], f32, gpu:0>
  %3 = maxgraph.neg %h : !maxgraph.tensor<[4], f32>
  %4 = maxgraph.sin %2 : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %2, %1 : !maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32>
}
maxgraph.graph @interleaved_device_graph() -> () {
  maxgraph.output
}

// -----

// A run whose body would not verify with its algebraic argument dims renamed
// (the reshape's element counts no longer match; `batch * 2` from the concat
// no longer broadcasts against `__d0`) or whose result would use a dim no
// argument binds stays in the parent, unchanged.
// CHECK-LABEL: maxgraph.graph @not_outlinable<batch>(
// CHECK-NEXT: maxgraph.concat
// CHECK-NEXT: maxgraph.transfer
// CHECK-NEXT: maxgraph.reshape %{{.*}} : !maxgraph.tensor<[batch * 2, 4], f32, gpu:0> -> !maxgraph.tensor<[batch * 8], f32, gpu:0>
// CHECK-NEXT: maxgraph.neg
// CHECK-NEXT: maxgraph.constant
// CHECK-NEXT: maxgraph.broadcast_to %{{.*}} : !maxgraph.tensor<[1, 4], f32, gpu:0> -> !maxgraph.tensor<[batch, 4], f32, gpu:0>
// CHECK-NEXT: maxgraph.transfer
// CHECK-NEXT: maxgraph.concat
// CHECK-NEXT: maxgraph.add %{{.*}}, %{{.*}} : !maxgraph.tensor<[batch * 2, 4], f32, gpu:0>
// CHECK-NEXT: maxgraph.output
// CHECK-NOT: maxgraph.graph
maxgraph.graph @not_outlinable<batch>(%x: !maxgraph.tensor<[batch, 4], f32>, %g: !maxgraph.tensor<[batch, 4], f32, gpu:0>)
    -> (!maxgraph.tensor<[batch * 8], f32, gpu:0>, !maxgraph.tensor<[batch, 4], f32, gpu:0>, !maxgraph.tensor<[batch * 2, 4], f32, gpu:0>) {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[batch, 4], f32>) -> !maxgraph.tensor<[batch * 2, 4], f32>
  %1 = maxgraph.transfer %0 to gpu:0 : !maxgraph.tensor<[batch * 2, 4], f32> -> !maxgraph.tensor<[batch * 2, 4], f32, gpu:0>
  %2 = maxgraph.reshape %1 : !maxgraph.tensor<[batch * 2, 4], f32, gpu:0> -> !maxgraph.tensor<[batch * 8], f32, gpu:0>
  %3 = maxgraph.neg %x : !maxgraph.tensor<[batch, 4], f32>
  %4 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[1, 4], f32, gpu:0>
  %5 = maxgraph.broadcast_to %4 : !maxgraph.tensor<[1, 4], f32, gpu:0> -> !maxgraph.tensor<[batch, 4], f32, gpu:0>
  %6 = maxgraph.transfer %0 to gpu:0 : !maxgraph.tensor<[batch * 2, 4], f32> -> !maxgraph.tensor<[batch * 2, 4], f32, gpu:0>
  %7 = maxgraph.concat %g, %g axis = 0 : (!maxgraph.tensor<[batch, 4], f32, gpu:0>, !maxgraph.tensor<[batch, 4], f32, gpu:0>) -> !maxgraph.tensor<[batch * 2, 4], f32, gpu:0>
  %8 = maxgraph.add %7, %6 : !maxgraph.tensor<[batch * 2, 4], f32, gpu:0>
  maxgraph.output %2, %5, %8 : !maxgraph.tensor<[batch * 8], f32, gpu:0>, !maxgraph.tensor<[batch, 4], f32, gpu:0>, !maxgraph.tensor<[batch * 2, 4], f32, gpu:0>
}

// -----

// A graph already marked is_device_graph is checked, not split: this one
// holds a transfer and a value on a second GPU.
maxgraph.graph @ok_device_graph(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
    attributes {is_device_graph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}
maxgraph.graph @bad_device_graph(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:1>
    attributes {is_device_graph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32, gpu:0>
  // expected-error @+1 {{device graph @bad_device_graph: 'maxgraph.transfer' inside a device graph}}
  %1 = maxgraph.transfer %0 to gpu:1 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:1>
  // expected-error @+1 {{device graph @bad_device_graph: result 0 of 'maxgraph.exp' is on gpu:1 but the graph runs on gpu:0}}
  %2 = maxgraph.exp %1 : !maxgraph.tensor<[4], f32, gpu:1>
  maxgraph.output %2 : !maxgraph.tensor<[4], f32, gpu:1>
}
