// RUN: max-opt %s -split-input-file -verify-diagnostics

maxgraph.graph @no_carried(%n: !maxgraph.tensor<[], i1>) -> () {
  // The custom form cannot spell it.
  // expected-error @+1 {{'maxgraph.while_loop' op needs at least one loop-carried value}}
  "maxgraph.while_loop"() ({
    "maxgraph.yield"(%n) : (!maxgraph.tensor<[], i1>) -> ()
  }, {
    "maxgraph.yield"() : () -> ()
  }) : () -> ()
  maxgraph.output
}

// -----

maxgraph.graph @condition_arguments(%x: !maxgraph.tensor<[], si64>, %p: !maxgraph.tensor<[], i1>) -> () {
  // expected-error @+1 {{'maxgraph.while_loop' op 'condition' region takes ('!maxgraph.tensor<[], si32>'), but the loop carries ('!maxgraph.tensor<[], si64>')}}
  %r = maxgraph.while_loop (%x) : !maxgraph.tensor<[], si64> condition {
  ^bb0(%i: !maxgraph.tensor<[], si32>):
    maxgraph.yield %p : !maxgraph.tensor<[], i1>
  } do {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %i : !maxgraph.tensor<[], si64>
  }
  maxgraph.output
}

// -----

maxgraph.graph @body_arguments(%x: !maxgraph.tensor<[], si64>, %p: !maxgraph.tensor<[], i1>) -> () {
  // expected-error @+1 {{'maxgraph.while_loop' op 'do' region takes (), but the loop carries ('!maxgraph.tensor<[], si64>')}}
  %r = maxgraph.while_loop (%x) : !maxgraph.tensor<[], si64> condition {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %p : !maxgraph.tensor<[], i1>
  } do {
    maxgraph.yield %x : !maxgraph.tensor<[], si64>
  }
  maxgraph.output
}

// -----

maxgraph.graph @predicate_shape(%x: !maxgraph.tensor<[], si64>, %p: !maxgraph.tensor<[1], i1>) -> () {
  // expected-error @+1 {{'maxgraph.while_loop' op 'condition' region must yield one rank-0 i1 predicate on the host, got ('!maxgraph.tensor<[1], i1>')}}
  %r = maxgraph.while_loop (%x) : !maxgraph.tensor<[], si64> condition {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %p : !maxgraph.tensor<[1], i1>
  } do {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %i : !maxgraph.tensor<[], si64>
  }
  maxgraph.output
}

// -----

maxgraph.graph @predicate_on_gpu(%x: !maxgraph.tensor<[], si64>, %p: !maxgraph.tensor<[], i1, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.while_loop' op 'condition' region must yield one rank-0 i1 predicate on the host, got ('!maxgraph.tensor<[], i1, gpu:0>')}}
  %r = maxgraph.while_loop (%x) : !maxgraph.tensor<[], si64> condition {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %p : !maxgraph.tensor<[], i1, gpu:0>
  } do {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %i : !maxgraph.tensor<[], si64>
  }
  maxgraph.output
}

// -----

maxgraph.graph @body_count(%x: !maxgraph.tensor<[], si64>, %p: !maxgraph.tensor<[], i1>) -> () {
  // expected-error @+1 {{'maxgraph.while_loop' op 'do' region yields 2 values, but the op has 1 loop-carried value}}
  %r = maxgraph.while_loop (%x) : !maxgraph.tensor<[], si64> condition {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %p : !maxgraph.tensor<[], i1>
  } do {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %i, %i : !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>
  }
  maxgraph.output
}

// -----

maxgraph.graph @body_type(%x: !maxgraph.tensor<[2], f32>, %y: !maxgraph.tensor<[3], f32>, %p: !maxgraph.tensor<[], i1>) -> () {
  // expected-error @+1 {{'maxgraph.while_loop' op 'do' region yields '!maxgraph.tensor<[3], f32>' as value 0, but loop-carried value 0 is '!maxgraph.tensor<[2], f32>'}}
  %r = maxgraph.while_loop (%x) : !maxgraph.tensor<[2], f32> condition {
  ^bb0(%i: !maxgraph.tensor<[2], f32>):
    maxgraph.yield %p : !maxgraph.tensor<[], i1>
  } do {
  ^bb0(%i: !maxgraph.tensor<[2], f32>):
    maxgraph.yield %y : !maxgraph.tensor<[3], f32>
  }
  maxgraph.output
}

// -----

maxgraph.graph @in_device_graph(%x: !maxgraph.tensor<[], si64>, %p: !maxgraph.tensor<[], i1>) -> () attributes {is_device_graph} {
  // expected-error @+1 {{'maxgraph.while_loop' op cannot be in device graph @in_device_graph, which its device replays as one unit: the predicate is read on the host}}
  %r = maxgraph.while_loop (%x) : !maxgraph.tensor<[], si64> condition {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %p : !maxgraph.tensor<[], i1>
  } do {
  ^bb0(%i: !maxgraph.tensor<[], si64>):
    maxgraph.yield %i : !maxgraph.tensor<[], si64>
  }
  maxgraph.output
}

// -----

maxgraph.graph @yield_outside(%x: !maxgraph.tensor<[], si64>) -> () {
  // expected-error @+1 {{'maxgraph.yield' op expects parent op to be one of 'maxgraph.while_loop, maxgraph.cond'}}
  maxgraph.yield %x : !maxgraph.tensor<[], si64>
}

// -----

maxgraph.graph @cond_predicate(%p: !maxgraph.tensor<[], si64>) -> () {
  // expected-error @+1 {{'maxgraph.cond' op predicate must be a rank-0 i1 tensor on the host, got '!maxgraph.tensor<[], si64>'}}
  maxgraph.cond %p : !maxgraph.tensor<[], si64> {
    maxgraph.yield
  } else {
    maxgraph.yield
  }
  maxgraph.output
}

// -----

maxgraph.graph @cond_results(%p: !maxgraph.tensor<[], i1>, %x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.cond' op 'else' region yields 0 values, but the op has 1 result}}
  %r = maxgraph.cond %p : !maxgraph.tensor<[], i1> -> !maxgraph.tensor<[4], f32> {
    maxgraph.yield %x : !maxgraph.tensor<[4], f32>
  } else {
    maxgraph.yield
  }
  maxgraph.output
}

// -----

maxgraph.graph @cond_result_type(%p: !maxgraph.tensor<[], i1>, %x: !maxgraph.tensor<[4], f32>, %y: !maxgraph.tensor<[4], f16>) -> () {
  // expected-error @+1 {{'maxgraph.cond' op 'then' region yields '!maxgraph.tensor<[4], f16>' as value 0, but result 0 is '!maxgraph.tensor<[4], f32>'}}
  %r = maxgraph.cond %p : !maxgraph.tensor<[], i1> -> !maxgraph.tensor<[4], f32> {
    maxgraph.yield %y : !maxgraph.tensor<[4], f16>
  } else {
    maxgraph.yield %x : !maxgraph.tensor<[4], f32>
  }
  maxgraph.output
}
