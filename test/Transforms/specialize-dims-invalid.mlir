// RUN: max-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(maxgraph-specialize-dims{dims=seq=4})'
// RUN: not max-opt %s -pass-pipeline='builtin.module(maxgraph-specialize-dims{dims=seq=four})' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not max-opt %s -pass-pipeline='builtin.module(maxgraph-specialize-dims{dims=seq=8,seq=9})' 2>&1 | FileCheck %s --check-prefix=TWICE
// SYNTAX: error: maxgraph-specialize-dims: expected NAME=SIZE with a non-negative size, got 'seq=four'
// TWICE: error: maxgraph-specialize-dims: 'seq' is bound twice

// `[2:5]` of `seq` has 3 elements only when seq >= 5: binding seq=4
// contradicts the static result dim, and the slice says so.
// expected-error @+1 {{binding the symbolic dims of @window contradicts the static dims reported above}}
maxgraph.graph @window<seq>(%x: !maxgraph.tensor<[seq], f32>) -> !maxgraph.tensor<[3], f32> {
  // expected-error @+1 {{'maxgraph.slice' op result 0 has type '!maxgraph.tensor<[3], f32>' but its operands and attributes imply '!maxgraph.tensor<[2], f32>'}}
  %0 = maxgraph.slice %x [2:5] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}
