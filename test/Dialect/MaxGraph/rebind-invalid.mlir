// RUN: max-opt %s -split-input-file -verify-diagnostics

maxgraph.graph @rank(%x: !maxgraph.tensor<[?, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.rebind' op (C1) changes the rank from 2 to 1; rebind asserts the dims it keeps}}
  %0 = maxgraph.rebind %x : !maxgraph.tensor<[?, 4], f32> -> !maxgraph.tensor<[?], f32>
  maxgraph.output
}

// -----

maxgraph.graph @element(%x: !maxgraph.tensor<[?, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.rebind' op changes the element type from 'f32' to 'f16'}}
  %0 = maxgraph.rebind %x : !maxgraph.tensor<[?, 4], f32> -> !maxgraph.tensor<[?, 4], f16>
  maxgraph.output
}

// -----

maxgraph.graph @device(%x: !maxgraph.tensor<[?, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.rebind' op changes the device; use maxgraph.transfer}}
  %0 = maxgraph.rebind %x : !maxgraph.tensor<[?, 4], f32> -> !maxgraph.tensor<[?, 4], f32, gpu:0>
  maxgraph.output
}

// -----

maxgraph.graph @static<n>(%x: !maxgraph.tensor<[?, 4], f32>, %y: !maxgraph.tensor<[n], f32>) -> () {
  // expected-error @+1 {{'maxgraph.rebind' op (C3) result dim 1 is `5` but the input's is `4`, so the assertion would fail}}
  %0 = maxgraph.rebind %x : !maxgraph.tensor<[?, 4], f32> -> !maxgraph.tensor<[n, 5], f32>
  maxgraph.output
}
