// RUN: max-opt %s -maxgraph-verify-device-graphs -split-input-file -verify-diagnostics | FileCheck %s
// RUN: max-opt %s -pass-pipeline='builtin.module(maxgraph.graph(maxgraph-verify-device-graphs))' -split-input-file -verify-diagnostics | FileCheck %s

// A device graph that keeps the contract is left as it is: one GPU,
// symbolic (not `?`) dims, a device constant and a device custom kernel.
// CHECK-LABEL: maxgraph.graph @valid<batch>(
// CHECK-SAME: attributes {is_device_graph}
// CHECK: maxgraph.relu
// CHECK: maxgraph.custom "fused"
maxgraph.graph @valid<batch>(%x: !maxgraph.tensor<[batch, 4], f32, gpu:0>)
    -> !maxgraph.tensor<[batch, 4], f32, gpu:0> attributes {is_device_graph} {
  %c = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f32, gpu:0>
  %0 = maxgraph.relu %x : !maxgraph.tensor<[batch, 4], f32, gpu:0>
  %1 = maxgraph.add %0, %c : (!maxgraph.tensor<[batch, 4], f32, gpu:0>, !maxgraph.tensor<[], f32, gpu:0>) -> !maxgraph.tensor<[batch, 4], f32, gpu:0>
  %2 = maxgraph.custom "fused"(%1) : (!maxgraph.tensor<[batch, 4], f32, gpu:0>) -> !maxgraph.tensor<[batch, 4], f32, gpu:0>
  maxgraph.output %2 : !maxgraph.tensor<[batch, 4], f32, gpu:0>
}

// Graphs that are not device graphs are not checked.
// CHECK-LABEL: maxgraph.graph @not_a_device_graph(
// CHECK: maxgraph.transfer
maxgraph.graph @not_a_device_graph(%x: !maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[?], f32, gpu:1> {
  %0 = maxgraph.transfer %x to gpu:1 : !maxgraph.tensor<[?], f32> -> !maxgraph.tensor<[?], f32, gpu:1>
  maxgraph.output %0 : !maxgraph.tensor<[?], f32, gpu:1>
}

// A device graph on the host is fine as long as it has no custom kernel.
// CHECK-LABEL: maxgraph.graph @host_device_graph(
maxgraph.graph @host_device_graph(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_device_graph} {
  %0 = maxgraph.exp %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @transfer(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
    attributes {is_device_graph} {
  // expected-error @+1 {{device graph @transfer: 'maxgraph.transfer' inside a device graph}}
  %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}

// -----

// Every violation is reported, each at its op; the device is the first
// argument's.
// expected-error @+2 {{device graph @mixed: argument 1 is on gpu:1 but the graph runs on gpu:0 (the device of argument 0)}}
// expected-error @+1 {{device graph @mixed: argument 2 has type '!maxgraph.tensor<[?], f32, gpu:0>' with an unknown '?' dim}}
maxgraph.graph @mixed(%x: !maxgraph.tensor<[4], f32, gpu:0>, %y: !maxgraph.tensor<[4], f32, gpu:1>,
                      %z: !maxgraph.tensor<[?], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:1>
    attributes {is_device_graph} {
  // expected-error @+1 {{device graph @mixed: result 0 of 'maxgraph.exp' is on gpu:1 but the graph runs on gpu:0}}
  %0 = maxgraph.exp %y : !maxgraph.tensor<[4], f32, gpu:1>
  // expected-error @+1 {{device graph @mixed: result 0 of 'maxgraph.neg' has type '!maxgraph.tensor<[?], f32, gpu:0>' with an unknown '?' dim}}
  %1 = maxgraph.neg %z : !maxgraph.tensor<[?], f32, gpu:0>
  %2 = maxgraph.relu %x : !maxgraph.tensor<[4], f32, gpu:0>
  // expected-error @+1 {{'maxgraph.transfer' inside a device graph}}
  %3 = maxgraph.transfer %2 to gpu:1 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:1>
  maxgraph.output %3 : !maxgraph.tensor<[4], f32, gpu:1>
}

// -----

// A kernel on the host cannot be replayed by a device graph.
maxgraph.graph @host_kernel(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_device_graph, kernel_libraries = ["libk.so"]} {
  // expected-error @+1 {{device graph @host_kernel: custom kernel 'add_one' runs on the host cpu:0}}
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// Without arguments the device is the first op result's.
maxgraph.graph @no_arguments() -> (!maxgraph.tensor<[2], f32, gpu:1>, !maxgraph.tensor<[2], f32, gpu:0>)
    attributes {is_device_graph} {
  %0 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2], f32, gpu:1>
  // expected-error @+1 {{result 0 of 'maxgraph.constant' is on gpu:0 but the graph runs on gpu:1 (the device of the first op result, of 'maxgraph.constant')}}
  %1 = maxgraph.constant dense<2.0> : !maxgraph.tensor<[2], f32, gpu:0>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2], f32, gpu:1>, !maxgraph.tensor<[2], f32, gpu:0>
}

// -----

// An empty device graph keeps the contract.
// CHECK-LABEL: maxgraph.graph @empty(
maxgraph.graph @empty() -> () attributes {is_device_graph} {
  maxgraph.output
}
