// RUN: max-opt %s -split-input-file -verify-diagnostics

maxgraph.graph @element_types(%x: !maxgraph.tensor<[1, 4, 4, 2], f32>, %w: !maxgraph.tensor<[3, 3, 2, 4], f16>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op operand 1 has element type 'f16' but operand 0 has 'f32'}}
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 1 : (!maxgraph.tensor<[1, 4, 4, 2], f32>, !maxgraph.tensor<[3, 3, 2, 4], f16>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @integers(%x: !maxgraph.tensor<[1, 4, 4, 2], si32>, %w: !maxgraph.tensor<[3, 3, 2, 4], si32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op operands have element type 'si32' but conv2d takes a floating-point type}}
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 1 : (!maxgraph.tensor<[1, 4, 4, 2], si32>, !maxgraph.tensor<[3, 3, 2, 4], si32>) -> !maxgraph.tensor<[1, 2, 2, 4], si32>
  maxgraph.output
}

// -----

maxgraph.graph @rank(%x: !maxgraph.tensor<[4, 4, 2], f32>, %w: !maxgraph.tensor<[3, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op operand 0 has rank 3 but must be an NHWC image of rank 4 (got '!maxgraph.tensor<[4, 4, 2], f32>')}}
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 1 : (!maxgraph.tensor<[4, 4, 2], f32>, !maxgraph.tensor<[3, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @attribute_sizes(%x: !maxgraph.tensor<[1, 4, 4, 2], f32>, %w: !maxgraph.tensor<[3, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op strides and dilations hold 2 values and padding 4 (top, bottom, left, right), got 2, 2 and 2}}
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0] groups = 1 : (!maxgraph.tensor<[1, 4, 4, 2], f32>, !maxgraph.tensor<[3, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @attribute_values(%x: !maxgraph.tensor<[1, 4, 4, 2], f32>, %w: !maxgraph.tensor<[3, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op strides and dilations must be at least 1 and padding non-negative, got strides [0, 1], dilations [1, 1], padding [0, -1, 0, 0]}}
  %0 = maxgraph.conv2d %x, %w strides = [0, 1] dilations = [1, 1] padding = [0, -1, 0, 0] groups = 1 : (!maxgraph.tensor<[1, 4, 4, 2], f32>, !maxgraph.tensor<[3, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @groups(%x: !maxgraph.tensor<[1, 4, 4, 2], f32>, %w: !maxgraph.tensor<[3, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op groups must be at least 1, got 0}}
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 0 : (!maxgraph.tensor<[1, 4, 4, 2], f32>, !maxgraph.tensor<[3, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @symbolic_width<w>(%x: !maxgraph.tensor<[1, 4, w, 2], f32>, %f: !maxgraph.tensor<[3, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op dim 2 of operand 0 is `w` but only the batch dim may be symbolic (got '!maxgraph.tensor<[1, 4, w, 2], f32>')}}
  %0 = maxgraph.conv2d %x, %f strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 1 : (!maxgraph.tensor<[1, 4, w, 2], f32>, !maxgraph.tensor<[3, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @channels(%x: !maxgraph.tensor<[1, 4, 4, 6], f32>, %w: !maxgraph.tensor<[3, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op the input has 6 channels and the filter 2 per group for 4 filters, but with groups = 2 the channels must be 2 x 2 and the filters a multiple of 2}}
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 2 : (!maxgraph.tensor<[1, 4, 4, 6], f32>, !maxgraph.tensor<[3, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @empty_window(%x: !maxgraph.tensor<[1, 4, 4, 2], f32>, %w: !maxgraph.tensor<[0, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op the filter's window is 0 x 3 but must hold a tap}}
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 1 : (!maxgraph.tensor<[1, 4, 4, 2], f32>, !maxgraph.tensor<[0, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @window(%x: !maxgraph.tensor<[1, 4, 4, 2], f32>, %w: !maxgraph.tensor<[3, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op the 3 x 3 filter, dilated by [2, 1], is larger than the padded 4 x 4 image}}
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [2, 1] padding = [0, 0, 0, 0] groups = 1 : (!maxgraph.tensor<[1, 4, 4, 2], f32>, !maxgraph.tensor<[3, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 2, 2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @result(%x: !maxgraph.tensor<[1, 5, 4, 2], f32>, %w: !maxgraph.tensor<[3, 3, 2, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.conv2d' op result 0 has type '!maxgraph.tensor<[1, 3, 2, 4], f32>' but its operands and attributes imply '!maxgraph.tensor<[1, 2, 2, 4], f32>'}}
  %0 = maxgraph.conv2d %x, %w strides = [2, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 1 : (!maxgraph.tensor<[1, 5, 4, 2], f32>, !maxgraph.tensor<[3, 3, 2, 4], f32>) -> !maxgraph.tensor<[1, 3, 2, 4], f32>
  maxgraph.output
}
