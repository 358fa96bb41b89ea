// RUN: max-opt %s -split-input-file -verify-diagnostics

maxgraph.graph @no_devices(%a: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @+1 {{'maxgraph.spmd_allreduce' op lists no devices}}
  %r = maxgraph.spmd_allreduce sum %a devices = [] : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %r : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @twice(%a: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @+1 {{'maxgraph.spmd_allreduce' op lists cpu:1 twice}}
  %r = maxgraph.spmd_allreduce sum %a devices = [0, 1, 1] : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %r : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @not_listed(%a: !maxgraph.tensor<[4], f32, cpu:2>) -> !maxgraph.tensor<[8], f32, cpu:2> {
  // expected-error @+1 {{'maxgraph.spmd_allgather' op operand is on cpu:2, which is not one of the listed cpu devices}}
  %r = maxgraph.spmd_allgather %a axis = 0 devices = [0, 1] : !maxgraph.tensor<[4], f32, cpu:2> -> !maxgraph.tensor<[8], f32, cpu:2>
  maxgraph.output %r : !maxgraph.tensor<[8], f32, cpu:2>
}

// -----

// On GPUs (the parts of a graph over several GPUs) the ids are gpu ids.
maxgraph.graph @gpu_twice(%a: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  // expected-error @+1 {{'maxgraph.spmd_allreduce' op lists gpu:0 twice}}
  %r = maxgraph.spmd_allreduce sum %a devices = [0, 0] : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %r : !maxgraph.tensor<[4], f32, gpu:0>
}

// -----

maxgraph.graph @gpu_not_listed(%a: !maxgraph.tensor<[4], f32, gpu:2>) -> !maxgraph.tensor<[4], f32, gpu:2> {
  // expected-error @+1 {{'maxgraph.spmd_broadcast' op operand is on gpu:2, which is not one of the listed gpu devices}}
  %r = maxgraph.spmd_broadcast %a root = 0 devices = [0, 1] : !maxgraph.tensor<[4], f32, gpu:2> -> !maxgraph.tensor<[4], f32, gpu:2>
  maxgraph.output %r : !maxgraph.tensor<[4], f32, gpu:2>
}

// -----

maxgraph.graph @uneven(%a: !maxgraph.tensor<[5], f32>) -> !maxgraph.tensor<[2], f32> {
  // expected-error @+1 {{'maxgraph.spmd_reduce_scatter' op axis 0 has size 5, which does not divide among 2 devices}}
  %r = maxgraph.spmd_reduce_scatter sum %a axis = 0 devices = [0, 1] : !maxgraph.tensor<[5], f32> -> !maxgraph.tensor<[2], f32>
  maxgraph.output %r : !maxgraph.tensor<[2], f32>
}

// -----

maxgraph.graph @root(%a: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @+1 {{'maxgraph.spmd_broadcast' op root 2 is not one of the 2 devices}}
  %r = maxgraph.spmd_broadcast %a root = 2 devices = [0, 1] : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %r : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @bool(%a: !maxgraph.tensor<[4], i1>) -> !maxgraph.tensor<[4], i1> {
  // expected-error @+1 {{'maxgraph.spmd_allreduce' op operand has element type 'i1' but the collective takes a numeric type}}
  %r = maxgraph.spmd_allreduce sum %a devices = [0] : !maxgraph.tensor<[4], i1> -> !maxgraph.tensor<[4], i1>
  maxgraph.output %r : !maxgraph.tensor<[4], i1>
}
