// RUN: max-opt %s -split-input-file -verify-diagnostics

// Parse and verify errors of the maxgraph types (!maxgraph.tensor,
// !maxgraph.buffer) and attributes (#maxgraph.dim, #maxgraph.device). A parse
// error ends the parse of its split, so each split has one error.

//===----------------------------------------------------------------------===//
// Element types: f16, bf16, f32, f64, 8-bit floats, i1, si8-si64, ui8-ui64
//===----------------------------------------------------------------------===//

// Signless integers other than i1 are not element types.
// expected-error @+1 {{element type 'i32' is not one of f16, bf16, f32, f64, f8 types, i1, si8-si64 or ui8-ui64}}
maxgraph.graph @signless(%x: !maxgraph.tensor<[4], i32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{element type 'index' is not one of f16, bf16, f32, f64, f8 types, i1, si8-si64 or ui8-ui64}}
maxgraph.graph @index(%x: !maxgraph.buffer<[4], index>) -> () {
  maxgraph.output
}

// -----

// Signed and unsigned integers are 8, 16, 32 or 64 bits wide.
// expected-error @+1 {{element type 'si4' is not one of}}
maxgraph.graph @narrow_int(%x: !maxgraph.tensor<[4], si4>) -> () {
  maxgraph.output
}

// -----

// Floats other than f16, bf16, f32, f64 must be 8 bits wide.
// expected-error @+1 {{element type 'tf32' is not one of}}
maxgraph.graph @tf32(%x: !maxgraph.tensor<[4], tf32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{element type 'complex<f32>' is not one of}}
maxgraph.graph @complex(%x: !maxgraph.tensor<[4], complex<f32>>) -> () {
  maxgraph.output
}

// -----

maxgraph.graph @constant_element_type() -> () {
  // expected-error @+1 {{element type 'i64' is not one of}}
  %0 = maxgraph.constant dense<1> : !maxgraph.tensor<[4], i64>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Static dims are non-negative
//===----------------------------------------------------------------------===//

// expected-error @+1 {{dim 1 has negative size -1}}
maxgraph.graph @negative(%x: !maxgraph.tensor<[4, -1], f32>) -> () {
  maxgraph.output
}

// -----

// Dim expressions fold before the check.
// expected-error @+1 {{dim 0 has negative size -1}}
maxgraph.graph @negative_folded(%x: !maxgraph.buffer<[2 - 3], f32>) -> () {
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Dim expressions
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected a dim: an integer, a symbolic name, '?' or a parenthesized dim expression}}
maxgraph.graph @bad_dim(%x: !maxgraph.tensor<[4, *], f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected a dim: an integer, a symbolic name, '?' or a parenthesized dim expression}}
maxgraph.graph @trailing_comma(%x: !maxgraph.tensor<[4,], f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected a dim: an integer, a symbolic name, '?' or a parenthesized dim expression}}
maxgraph.graph @missing_term<n>(%x: !maxgraph.tensor<[n], f32>, %y: !maxgraph.tensor<[n +], f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected a dim: an integer, a symbolic name, '?' or a parenthesized dim expression}}
maxgraph.graph @float_dim(%x: !maxgraph.tensor<[4.5], f32>) -> () {
  maxgraph.output
}

// -----

// floordiv takes a positive integer.
// expected-error @+1 {{floordiv needs a positive divisor, got 0}}
maxgraph.graph @floordiv_zero<n>(%x: !maxgraph.tensor<[n floordiv 0], f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected integer value}}
maxgraph.graph @floordiv_symbol<n, m>(%x: !maxgraph.tensor<[n, m], f32>, %y: !maxgraph.tensor<[n floordiv m], f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected ')'}}
maxgraph.graph @unclosed_paren<n>(%x: !maxgraph.tensor<[(n + 1 2)], f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{floordiv needs a positive divisor, got -2}}
maxgraph.graph @dim_attr_floordiv() -> () attributes {d = #maxgraph.dim<n floordiv -2>} {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected a dim: an integer, a symbolic name, '?' or a parenthesized dim expression}}
maxgraph.graph @dim_attr_empty() -> () attributes {d = #maxgraph.dim<>} {
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Layout syntax: <[dims], element type (, device)?>
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected ']'}}
maxgraph.graph @missing_comma(%x: !maxgraph.tensor<[4 8], f32>) -> () {
  maxgraph.output
}

// -----

// A missing ']' unbalances the type body.
// expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
maxgraph.graph @missing_rsquare(%x: !maxgraph.tensor<[4, 8, f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected '['}}
maxgraph.graph @missing_lsquare(%x: !maxgraph.tensor<4, f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected ','}}
maxgraph.graph @missing_element_type(%x: !maxgraph.tensor<[4]>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected '>'}}
maxgraph.graph @two_devices(%x: !maxgraph.tensor<[4], f32, gpu:0, gpu:1>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{unknown  type `tensr` in dialect `maxgraph`}}
maxgraph.graph @unknown_type(%x: !maxgraph.tensr<[4], f32>) -> () {
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Devices: cpu:N or gpu:N with N >= 0
//===----------------------------------------------------------------------===//

// expected-error @+1 {{unknown device kind 'tpu', expected 'cpu' or 'gpu'}}
maxgraph.graph @tpu(%x: !maxgraph.tensor<[4], f32, tpu:0>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{device id must be non-negative, got -1}}
maxgraph.graph @negative_id(%x: !maxgraph.buffer<[4], f32, gpu:-1>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected ':'}}
maxgraph.graph @missing_id(%x: !maxgraph.tensor<[4], f32, gpu>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{expected integer value}}
maxgraph.graph @symbolic_id(%x: !maxgraph.tensor<[4], f32, gpu:x>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{unknown device kind 'npu', expected 'cpu' or 'gpu'}}
maxgraph.graph @device_attr_kind() -> () attributes {where = #maxgraph.device<npu:0>} {
  maxgraph.output
}

// -----

// expected-error @+1 {{device id must be non-negative, got -3}}
maxgraph.graph @device_attr_id() -> () attributes {where = #maxgraph.device<cpu:-3>} {
  maxgraph.output
}

// -----

// The device of maxgraph.transfer parses the same way.
maxgraph.graph @transfer_kind(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{unknown device kind 'tpu', expected 'cpu' or 'gpu'}}
  %0 = maxgraph.transfer %x to tpu:1 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @transfer_id(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{device id must be non-negative, got -1}}
  %0 = maxgraph.transfer %x to gpu:-1 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Unknown names in the dialect
//===----------------------------------------------------------------------===//

maxgraph.graph @unknown_op() -> () {
  // expected-error @+1 {{custom op 'maxgraph.frobnicate' is unknown}}
  maxgraph.frobnicate
  maxgraph.output
}

// -----

// expected-error @+1 {{unknown attribute `layout` in dialect `maxgraph`}}
maxgraph.graph @unknown_attr() -> () attributes {d = #maxgraph.layout<1>} {
  maxgraph.output
}

// -----

// The <...> dim list names at least one dim.
// expected-error @+1 {{expected valid keyword}}
maxgraph.graph @empty_dim_list<>(%x: !maxgraph.tensor<[4], f32>) -> () {
  maxgraph.output
}

// -----

// Dims that overflow 64-bit integers are rejected, not wrapped.
// expected-error @+1 {{dim expression overflows 64-bit integers}}
maxgraph.graph @overflow(%x: !maxgraph.tensor<[4294967296 * 4294967296], f32>) -> () {
  maxgraph.output
}
