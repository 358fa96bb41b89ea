// RUN: max-opt %s -convert-maxgraph-to-linalg="gpu=true" -split-input-file -verify-diagnostics

// A GPU graph's loop would be driven from the host, which reads the
// predicate each round; until that is built, the GPU lowering refuses it.
maxgraph.graph @count(%x: !maxgraph.tensor<[2], f32, gpu:0>, %p: !maxgraph.tensor<[], i1>) -> !maxgraph.tensor<[2], f32, gpu:0> {
  // expected-error @below {{'maxgraph.while_loop' has no GPU lowering yet: its predicate is read on the host each time, so the graph must run on the CPU}}
  %r = maxgraph.while_loop (%x) : !maxgraph.tensor<[2], f32, gpu:0> condition {
  ^bb0(%a: !maxgraph.tensor<[2], f32, gpu:0>):
    maxgraph.yield %p : !maxgraph.tensor<[], i1>
  } do {
  ^bb0(%a: !maxgraph.tensor<[2], f32, gpu:0>):
    %b = maxgraph.add %a, %x : !maxgraph.tensor<[2], f32, gpu:0>
    maxgraph.yield %b : !maxgraph.tensor<[2], f32, gpu:0>
  }
  maxgraph.output %r : !maxgraph.tensor<[2], f32, gpu:0>
}

// -----

maxgraph.graph @choose(%x: !maxgraph.tensor<[2], f32, gpu:0>, %p: !maxgraph.tensor<[], i1>) -> !maxgraph.tensor<[2], f32, gpu:0> {
  // expected-error @below {{'maxgraph.cond' has no GPU lowering yet: its predicate is read on the host each time, so the graph must run on the CPU}}
  %r = maxgraph.cond %p : !maxgraph.tensor<[], i1> -> !maxgraph.tensor<[2], f32, gpu:0> {
    maxgraph.yield %x : !maxgraph.tensor<[2], f32, gpu:0>
  } else {
    maxgraph.yield %x : !maxgraph.tensor<[2], f32, gpu:0>
  }
  maxgraph.output %r : !maxgraph.tensor<[2], f32, gpu:0>
}
