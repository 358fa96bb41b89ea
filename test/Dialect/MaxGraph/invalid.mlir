// RUN: max-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the maxgraph ops. Type and attribute parse/verify errors
// are in invalid-types.mlir.

//===----------------------------------------------------------------------===//
// maxgraph.graph
//===----------------------------------------------------------------------===//

// A graph needs a body.
// expected-error @+1 {{'maxgraph.graph' op @empty has no body}}
maxgraph.graph @empty() -> () {}

// -----

// An external weight's name is a non-empty string, one argument per name.
// expected-error @+1 {{'maxgraph.graph' op argument 0 has maxgraph.weight = 3 : i64; an external weight's name is a non-empty string}}
maxgraph.graph @weight_not_string(%w: !maxgraph.tensor<[4], f32> {maxgraph.weight = 3}) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{'maxgraph.graph' op argument 0 has maxgraph.weight = ""; an external weight's name is a non-empty string}}
maxgraph.graph @weight_empty(%w: !maxgraph.tensor<[4], f32> {maxgraph.weight = ""}) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{'maxgraph.graph' op arguments 0 and 2 are both the external weight 'w'; each weight is one argument}}
maxgraph.graph @weight_twice(%a: !maxgraph.tensor<[4], f32> {maxgraph.weight = "w"},
                             %x: !maxgraph.tensor<[4], f32>,
                             %b: !maxgraph.tensor<[4], f32> {maxgraph.weight = "w"}) -> () {
  maxgraph.output
}

// -----

// argument_names and result_names have one entry per argument / result.
// expected-error @+1 {{'maxgraph.graph' op argument_names has 2 entries but the graph has 1 arguments}}
maxgraph.graph @arg_names(%x: !maxgraph.tensor<[4], f32>) -> ()
    attributes {argument_names = ["x", "y"]} {
  maxgraph.output
}

// -----

// expected-error @+1 {{'maxgraph.graph' op result_names has 0 entries but the graph has 1 results}}
maxgraph.graph @result_names(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {result_names = []} {
  maxgraph.output %x : !maxgraph.tensor<[4], f32>
}

// -----

// The <...> dim list declares each symbolic dim once.
// expected-error @+1 {{'maxgraph.graph' op declares symbolic dim 'n' twice}}
maxgraph.graph @twice<n, n>(%x: !maxgraph.tensor<[n], f32>) -> () {
  maxgraph.output
}

// -----

// Graph arguments and results are layouts.
// expected-error @+1 {{'maxgraph.graph' op argument 1 has type 'f32'; graph arguments are !maxgraph.tensor or !maxgraph.buffer}}
maxgraph.graph @scalar_arg(%x: !maxgraph.tensor<[4], f32>, %y: f32) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{'maxgraph.graph' op result 0 has type 'f32'; graph results are !maxgraph.tensor or !maxgraph.buffer}}
maxgraph.graph @scalar_result() -> f32 {
  %c = arith.constant 1.0 : f32
  maxgraph.output %c : f32
}

// -----

// Argument dims must be bindable by a caller: no algebraic dims.
// expected-error @+1 {{'maxgraph.graph' op argument 0 has algebraic dim `n * 2`; graph arguments take static, symbolic or '?' dims, which a caller can bind}}
maxgraph.graph @algebraic<n>(%x: !maxgraph.tensor<[4, 2 * n], f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{'maxgraph.graph' op argument 1 has algebraic dim `(n + 1) floordiv 2`}}
maxgraph.graph @algebraic_floordiv<n>(%x: !maxgraph.tensor<[n], f32>,
    %y: !maxgraph.buffer<[(n + 1) floordiv 2], f32>) -> () {
  maxgraph.output
}

// -----

// Every symbolic dim of an argument is declared.
// expected-error @+1 {{'maxgraph.graph' op argument 1 uses symbolic dim 'seq', which is not declared in the graph's <...> dim list}}
maxgraph.graph @undeclared<batch>(%x: !maxgraph.tensor<[batch], f32>,
    %y: !maxgraph.tensor<[batch, seq], f32>) -> () {
  maxgraph.output
}

// -----

// expected-error @+1 {{'maxgraph.graph' op argument 0 uses symbolic dim 'batch', which is not declared}}
maxgraph.graph @no_dim_list(%x: !maxgraph.tensor<[batch, 4], f32>) -> () {
  maxgraph.output
}

// -----

// Every declared dim is used by an argument, so that a caller can bind it.
// expected-error @+1 {{'maxgraph.graph' op declares symbolic dim 'm' but no argument uses it, so no caller can bind it}}
maxgraph.graph @unused<n, m>(%x: !maxgraph.tensor<[n], f32>) -> () {
  maxgraph.output
}

// -----

// A dim used only by a result cannot be bound either.
// expected-error @+1 {{'maxgraph.graph' op declares symbolic dim 'n' but no argument uses it}}
maxgraph.graph @result_only<n>(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[n], f32> {
  %0 = maxgraph.custom "k"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.output
//===----------------------------------------------------------------------===//

maxgraph.graph @output_count(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @+1 {{'maxgraph.output' op returns 0 values but @output_count has 1 results}}
  maxgraph.output
}

// -----

maxgraph.graph @output_type(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f16> {
  // expected-error @+1 {{'maxgraph.output' op operand 0 has type '!maxgraph.tensor<[4], f32>' but @output_type returns '!maxgraph.tensor<[4], f16>'}}
  maxgraph.output %x : !maxgraph.tensor<[4], f32>
}

// -----

maxgraph.graph @output_buffer(%b: !maxgraph.buffer<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  // expected-error @+1 {{'maxgraph.output' op operand 0 has type '!maxgraph.buffer<[4], f32>' but @output_buffer returns '!maxgraph.tensor<[4], f32>'}}
  maxgraph.output %b : !maxgraph.buffer<[4], f32>
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.call: callee lookup, binding of symbolic dims, result types
//===----------------------------------------------------------------------===//

maxgraph.graph @missing_callee(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op '@nowhere' does not name a maxgraph.graph}}
  maxgraph.call @nowhere(%x) : (!maxgraph.tensor<[4], f32>) -> ()
  maxgraph.output
}

// -----

func.func @not_a_graph(%x: !maxgraph.tensor<[4], f32>) {
  return
}

maxgraph.graph @func_callee(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op '@not_a_graph' does not name a maxgraph.graph}}
  maxgraph.call @not_a_graph(%x) : (!maxgraph.tensor<[4], f32>) -> ()
  maxgraph.output
}

// -----

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 64], f32>, !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 64], f32>
}

maxgraph.graph @operand_count(%x: !maxgraph.tensor<[8, 64], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op passes 2 operands but @block takes 1}}
  %0 = maxgraph.call @block(%x, %x) : (!maxgraph.tensor<[8, 64], f32>, !maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[16, 64], f32>
  maxgraph.output
}

// -----

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 64], f32>, !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 64], f32>
}

// The operand's element type, rank, device and kind (tensor or buffer) must
// be the parameter's.
maxgraph.graph @operand_element_type(%x: !maxgraph.tensor<[8, 64], f16>) -> () {
  // expected-error @+1 {{'maxgraph.call' op operand 0 has type '!maxgraph.tensor<[8, 64], f16>' but the callee takes '!maxgraph.tensor<[n, 64], f32>'}}
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[8, 64], f16>) -> !maxgraph.tensor<[16, 64], f16>
  maxgraph.output
}

// -----

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n, 64], f32>
    attributes {is_subgraph} {
  maxgraph.output %x : !maxgraph.tensor<[n, 64], f32>
}

maxgraph.graph @operand_rank(%x: !maxgraph.tensor<[64], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op operand 0 has type '!maxgraph.tensor<[64], f32>' but the callee takes '!maxgraph.tensor<[n, 64], f32>'}}
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[64], f32>
  maxgraph.output
}

// -----

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n, 64], f32>
    attributes {is_subgraph} {
  maxgraph.output %x : !maxgraph.tensor<[n, 64], f32>
}

maxgraph.graph @operand_device(%x: !maxgraph.tensor<[8, 64], f32, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.call' op operand 0 has type '!maxgraph.tensor<[8, 64], f32, gpu:0>' but the callee takes '!maxgraph.tensor<[n, 64], f32>'}}
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[8, 64], f32, gpu:0>) -> !maxgraph.tensor<[8, 64], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store(%b: !maxgraph.buffer<[4], f32>) -> () attributes {is_subgraph} {
  maxgraph.output
}

maxgraph.graph @tensor_for_buffer(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op operand 0 has type '!maxgraph.tensor<[4], f32>' but the callee takes '!maxgraph.buffer<[4], f32>'}}
  maxgraph.call @store(%x) : (!maxgraph.tensor<[4], f32>) -> ()
  maxgraph.output
}

// -----

maxgraph.graph @pair<n>(%a: !maxgraph.tensor<[n], f32>, %b: !maxgraph.tensor<[n], f32>)
    -> !maxgraph.tensor<[n], f32> attributes {is_subgraph} {
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}

// A symbolic dim binds to one dim across all operands.
maxgraph.graph @conflicting_binding(%x: !maxgraph.tensor<[4], f32>, %y: !maxgraph.tensor<[8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op operand 1 binds `n` to `8` (dim 0) but an earlier operand bound it to `4`}}
  %0 = maxgraph.call @pair(%x, %y) : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[8], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @pair<n>(%a: !maxgraph.tensor<[n], f32>, %b: !maxgraph.tensor<[n], f32>)
    -> !maxgraph.tensor<[n], f32> attributes {is_subgraph} {
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}

maxgraph.graph @conflicting_symbols<batch, seq>(%x: !maxgraph.tensor<[batch], f32>,
    %y: !maxgraph.tensor<[seq], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op operand 1 binds `n` to `seq` (dim 0) but an earlier operand bound it to `batch`}}
  %0 = maxgraph.call @pair(%x, %y) : (!maxgraph.tensor<[batch], f32>, !maxgraph.tensor<[seq], f32>) -> !maxgraph.tensor<[batch], f32>
  maxgraph.output
}

// -----

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n, 64], f32>
    attributes {is_subgraph} {
  maxgraph.output %x : !maxgraph.tensor<[n, 64], f32>
}

// Static dims of the callee must match.
maxgraph.graph @static_dim(%x: !maxgraph.tensor<[8, 32], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op operand 0 dim 1 is `32` but the callee takes `64` ('!maxgraph.tensor<[8, 32], f32>' vs '!maxgraph.tensor<[n, 64], f32>')}}
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[8, 32], f32>) -> !maxgraph.tensor<[8, 32], f32>
  maxgraph.output
}

// -----

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n, 64], f32>
    attributes {is_subgraph} {
  maxgraph.output %x : !maxgraph.tensor<[n, 64], f32>
}

maxgraph.graph @result_count(%x: !maxgraph.tensor<[8, 64], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op has 0 results but @block returns 1}}
  maxgraph.call @block(%x) : (!maxgraph.tensor<[8, 64], f32>) -> ()
  maxgraph.output
}

// -----

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 64], f32>, !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 64], f32>
}

// Result types follow from the callee's results under the binding.
maxgraph.graph @result_static(%x: !maxgraph.tensor<[8, 64], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op result 0 has type '!maxgraph.tensor<[8, 64], f32>' but @block returns '!maxgraph.tensor<[16, 64], f32>' for these operands}}
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[8, 64], f32>
  maxgraph.output
}

// -----

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 64], f32>, !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 64], f32>
}

maxgraph.graph @result_symbolic<batch>(%x: !maxgraph.tensor<[batch, 64], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op result 0 has type '!maxgraph.tensor<[batch + 2, 64], f32>' but @block returns '!maxgraph.tensor<[batch * 2, 64], f32>' for these operands}}
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch + 2, 64], f32>
  maxgraph.output
}

// -----

maxgraph.graph @load(%b: !maxgraph.buffer<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

maxgraph.graph @result_device(%b: !maxgraph.buffer<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.call' op result 0 has type '!maxgraph.tensor<[4], f32, gpu:0>' but @load returns '!maxgraph.tensor<[4], f32>' for these operands}}
  %0 = maxgraph.call @load(%b) : (!maxgraph.buffer<[4], f32>) -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.constant
//===----------------------------------------------------------------------===//

maxgraph.graph @builtin_constant() -> () {
  // expected-error @+1 {{'maxgraph.constant' op value must have a !maxgraph.tensor type, got 'tensor<4xf32>'}}
  %0 = maxgraph.constant dense<1.0> : tensor<4xf32>
  maxgraph.output
}

// -----

maxgraph.graph @buffer_constant() -> () {
  // expected-error @+1 {{'maxgraph.constant' op value must have a !maxgraph.tensor type, got '!maxgraph.buffer<[4], f32>'}}
  %0 = maxgraph.constant dense<1.0> : !maxgraph.buffer<[4], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Binary elementwise ops: element types, devices, broadcasting
//===----------------------------------------------------------------------===//

maxgraph.graph @element_types(%a: !maxgraph.tensor<[4], f32>, %b: !maxgraph.tensor<[4], f16>) -> () {
  // expected-error @+1 {{'maxgraph.add' op operand 1 has element type 'f16' but operand 0 has 'f32'}}
  %0 = maxgraph.add %a, %b : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f16>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @devices(%a: !maxgraph.tensor<[4], f32>, %b: !maxgraph.tensor<[4], f32, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.mul' op operand 1 is on gpu:0 but operand 0 is on cpu:0; transfer it first}}
  %0 = maxgraph.mul %a, %b : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

// Arithmetic takes numeric (non-bool) element types.
maxgraph.graph @bool_add(%a: !maxgraph.tensor<[4], i1>) -> () {
  // expected-error @+1 {{'maxgraph.add' op operand 0 has element type 'i1' but the op takes a numeric (non-bool) element type}}
  %0 = maxgraph.add %a, %a : !maxgraph.tensor<[4], i1>
  maxgraph.output
}

// -----

// Bitwise ops take integers and bools.
maxgraph.graph @float_and(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.and' op operand 0 has element type 'f32' but the op takes an integer or bool element type}}
  %0 = maxgraph.and %a, %a : !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @broadcast_static(%a: !maxgraph.tensor<[2, 4], f32>, %b: !maxgraph.tensor<[3], f32>) -> () {
  // expected-error @+1 {{'maxgraph.sub' op operands 0 and 1 cannot broadcast: dim 1 of operand 0 is `4` but dim 0 of operand 1 is `3` (types '!maxgraph.tensor<[2, 4], f32>' and '!maxgraph.tensor<[3], f32>')}}
  %0 = maxgraph.sub %a, %b : (!maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[2, 4], f32>
  maxgraph.output
}

// -----

// A symbolic dim only broadcasts with itself, 1 or '?'.
maxgraph.graph @broadcast_symbolic<batch, seq>(%a: !maxgraph.tensor<[batch, 4], f32>,
    %b: !maxgraph.tensor<[seq, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.max' op operands 0 and 1 cannot broadcast: dim 0 of operand 0 is `batch` but dim 0 of operand 1 is `seq`}}
  %0 = maxgraph.max %a, %b : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[seq, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  maxgraph.output
}

// -----

// The result type is the broadcast type.
maxgraph.graph @binary_result<batch>(%a: !maxgraph.tensor<[batch, 4], f32>, %b: !maxgraph.tensor<[1, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.div' op result 0 has type '!maxgraph.tensor<[1, 4], f32>' but its operands and attributes imply '!maxgraph.tensor<[batch, 4], f32>'}}
  %0 = maxgraph.div %a, %b : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[1, 4], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.cmp
//===----------------------------------------------------------------------===//

// The short form names one !maxgraph.tensor type.
maxgraph.graph @cmp_buffer(%b: !maxgraph.buffer<[4], f32>) -> () {
  // expected-error @+1 {{expected a !maxgraph.tensor type, got '!maxgraph.buffer<[4], f32>'}}
  %0 = maxgraph.cmp eq, %b, %b : !maxgraph.buffer<[4], f32>
  maxgraph.output
}

// -----

// A comparison returns i1.
maxgraph.graph @cmp_result(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.cmp' op result 0 has type '!maxgraph.tensor<[4], f32>' but its operands and attributes imply '!maxgraph.tensor<[4], i1>'}}
  %0 = maxgraph.cmp lt, %a, %a : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @cmp_element_types(%a: !maxgraph.tensor<[4], f32>, %b: !maxgraph.tensor<[4], si32>) -> () {
  // expected-error @+1 {{'maxgraph.cmp' op operand 1 has element type 'si32' but operand 0 has 'f32'}}
  %0 = maxgraph.cmp ne, %a, %b : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], si32>) -> !maxgraph.tensor<[4], i1>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Unary elementwise ops: element types
//===----------------------------------------------------------------------===//

maxgraph.graph @bool_neg(%a: !maxgraph.tensor<[4], i1>) -> () {
  // expected-error @+1 {{'maxgraph.neg' op operand 0 has element type 'i1' but the op takes a numeric (non-bool) element type}}
  %0 = maxgraph.neg %a : !maxgraph.tensor<[4], i1>
  maxgraph.output
}

// -----

maxgraph.graph @int_exp(%a: !maxgraph.tensor<[4], si32>) -> () {
  // expected-error @+1 {{'maxgraph.exp' op operand 0 has element type 'si32' but the op takes a floating-point element type}}
  %0 = maxgraph.exp %a : !maxgraph.tensor<[4], si32>
  maxgraph.output
}

// -----

maxgraph.graph @int_is_nan(%a: !maxgraph.tensor<[4], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.is_nan' op operand 0 has element type 'ui8' but the op takes a floating-point element type}}
  %0 = maxgraph.is_nan %a : !maxgraph.tensor<[4], ui8>
  maxgraph.output
}

// -----

maxgraph.graph @float_not(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.not' op operand 0 has element type 'f32' but the op takes an integer or bool element type}}
  %0 = maxgraph.not %a : !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.select
//===----------------------------------------------------------------------===//

maxgraph.graph @select_condition(%c: !maxgraph.tensor<[4], f32>, %a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.select' op operand 0 (the condition) must have element type i1, got 'f32'}}
  %0 = maxgraph.select %c, %a, %a : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @select_devices(%c: !maxgraph.tensor<[4], i1>, %a: !maxgraph.tensor<[4], f32, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.select' op the condition and the values are on different devices}}
  %0 = maxgraph.select %c, %a, %a : (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output
}

// -----

// All three operands broadcast together.
maxgraph.graph @select_broadcast(%c: !maxgraph.tensor<[3], i1>, %a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.select' op operands 0 and 1 cannot broadcast: dim 0 of operand 0 is `3` but dim 0 of operand 1 is `4`}}
  %0 = maxgraph.select %c, %a, %a : (!maxgraph.tensor<[3], i1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @select_result(%c: !maxgraph.tensor<[2, 1], i1>, %a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.select' op result 0 has type '!maxgraph.tensor<[4], f32>' but its operands and attributes imply '!maxgraph.tensor<[2, 4], f32>'}}
  %0 = maxgraph.select %c, %a, %a : (!maxgraph.tensor<[2, 1], i1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.cast
//===----------------------------------------------------------------------===//

maxgraph.graph @cast_dims<batch>(%a: !maxgraph.tensor<[batch, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.cast' op changes the dims from [batch, 4] to [batch, 8]; a cast only converts the element type}}
  %0 = maxgraph.cast %a : !maxgraph.tensor<[batch, 4], f32> to !maxgraph.tensor<[batch, 8], si32>
  maxgraph.output
}

// -----

maxgraph.graph @cast_device(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.cast' op changes the device; use maxgraph.transfer}}
  %0 = maxgraph.cast %a : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], f16, gpu:0>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.matmul
//===----------------------------------------------------------------------===//

maxgraph.graph @matmul_element_types(%a: !maxgraph.tensor<[2, 3], f32>, %b: !maxgraph.tensor<[3, 4], bf16>) -> () {
  // expected-error @+1 {{'maxgraph.matmul' op operand 1 has element type 'bf16' but operand 0 has 'f32'}}
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3, 4], bf16>) -> !maxgraph.tensor<[2, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @matmul_bool(%a: !maxgraph.tensor<[2, 2], i1>) -> () {
  // expected-error @+1 {{'maxgraph.matmul' op operands have element type 'i1' but matmul takes a numeric type}}
  %0 = maxgraph.matmul %a, %a : (!maxgraph.tensor<[2, 2], i1>, !maxgraph.tensor<[2, 2], i1>) -> !maxgraph.tensor<[2, 2], i1>
  maxgraph.output
}

// -----

// Rank-1 operands are not promoted.
maxgraph.graph @matmul_rank(%a: !maxgraph.tensor<[3], f32>, %b: !maxgraph.tensor<[3, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.matmul' op operand 0 has rank 1 but matmul needs rank 2 or more (got '!maxgraph.tensor<[3], f32>')}}
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3, 4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @matmul_rank_rhs(%a: !maxgraph.tensor<[2, 3], f32>, %b: !maxgraph.tensor<[], f32>) -> () {
  // expected-error @+1 {{'maxgraph.matmul' op operand 1 has rank 0 but matmul needs rank 2 or more (got '!maxgraph.tensor<[], f32>')}}
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output
}

// -----

maxgraph.graph @matmul_contracting<batch>(%a: !maxgraph.tensor<[batch, 8, 16], f32>, %b: !maxgraph.tensor<[8, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.matmul' op contracting dims differ: dim 2 of operand 0 is `16` but dim 0 of operand 1 is `8` (types '!maxgraph.tensor<[batch, 8, 16], f32>' and '!maxgraph.tensor<[8, 4], f32>')}}
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[8, 4], f32>) -> !maxgraph.tensor<[batch, 8, 4], f32>
  maxgraph.output
}

// -----

// Batch dims broadcast like numpy's.
maxgraph.graph @matmul_batch(%a: !maxgraph.tensor<[2, 8, 16], f32>, %b: !maxgraph.tensor<[3, 16, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.matmul' op batch dims [2] of operand 0 and [3] of operand 1 cannot broadcast (types '!maxgraph.tensor<[2, 8, 16], f32>' and '!maxgraph.tensor<[3, 16, 4], f32>')}}
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[2, 8, 16], f32>, !maxgraph.tensor<[3, 16, 4], f32>) -> !maxgraph.tensor<[2, 8, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @matmul_result(%a: !maxgraph.tensor<[8, 16], f32>, %b: !maxgraph.tensor<[16, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.matmul' op result 0 has type '!maxgraph.tensor<[8, 16], f32>' but its operands and attributes imply '!maxgraph.tensor<[8, 4], f32>'}}
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[8, 16], f32>, !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[8, 16], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Reductions: element types, axes, result types
//===----------------------------------------------------------------------===//

maxgraph.graph @reduce_bool(%a: !maxgraph.tensor<[4], i1>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_sum' op operand 0 has element type 'i1' but the reduction takes a numeric type}}
  %0 = maxgraph.reduce_sum %a axes = [0] : !maxgraph.tensor<[4], i1> -> !maxgraph.tensor<[], i1>
  maxgraph.output
}

// -----

maxgraph.graph @reduce_axis<batch>(%a: !maxgraph.tensor<[batch, 8, 16], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_max' op axis 3 is out of range for an operand of rank 3 (expected -3 to 2)}}
  %0 = maxgraph.reduce_max %a axes = [0, 3] : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @reduce_negative_axis(%a: !maxgraph.tensor<[8, 16], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_prod' op axis -3 is out of range for an operand of rank 2 (expected -2 to 1)}}
  %0 = maxgraph.reduce_prod %a axes = [-3] : !maxgraph.tensor<[8, 16], f32> -> !maxgraph.tensor<[8], f32>
  maxgraph.output
}

// -----

// A rank-0 tensor has no axes to reduce.
maxgraph.graph @reduce_scalar(%a: !maxgraph.tensor<[], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_min' op axis 0 is out of range for an operand of rank 0 (a rank-0 tensor has no axes)}}
  %0 = maxgraph.reduce_min %a axes = [0] : !maxgraph.tensor<[], f32> -> !maxgraph.tensor<[], f32>
  maxgraph.output
}

// -----

// -2 and 1 name the same axis of a rank-3 operand.
maxgraph.graph @reduce_twice(%a: !maxgraph.tensor<[2, 8, 16], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_mean' op axis -2 is reduced twice}}
  %0 = maxgraph.reduce_mean %a axes = [1, -2] : !maxgraph.tensor<[2, 8, 16], f32> -> !maxgraph.tensor<[2, 16], f32>
  maxgraph.output
}

// -----

// Without keep_dims the reduced dims are dropped.
maxgraph.graph @reduce_result(%a: !maxgraph.tensor<[2, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_sum' op result 0 has type '!maxgraph.tensor<[2, 1], f32>' but its operands and attributes imply '!maxgraph.tensor<[2], f32>'}}
  %0 = maxgraph.reduce_sum %a axes = [1] : !maxgraph.tensor<[2, 8], f32> -> !maxgraph.tensor<[2, 1], f32>
  maxgraph.output
}

// -----

maxgraph.graph @argmax_axis(%a: !maxgraph.tensor<[2, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.argmax' op axis 2 is out of range for an operand of rank 2 (expected -2 to 1)}}
  %0 = maxgraph.argmax %a axis = 2 : !maxgraph.tensor<[2, 8], f32> -> !maxgraph.tensor<[2], si64>
  maxgraph.output
}

// -----

// Arg-reductions return si64 indices.
maxgraph.graph @argmin_result(%a: !maxgraph.tensor<[2, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.argmin' op result 0 has type '!maxgraph.tensor<[2, 1], f32>' but its operands and attributes imply '!maxgraph.tensor<[2, 1], si64>'}}
  %0 = maxgraph.argmin %a axis = -1 keep_dims : !maxgraph.tensor<[2, 8], f32> -> !maxgraph.tensor<[2, 1], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.cumsum, maxgraph.softmax, maxgraph.log_softmax
//===----------------------------------------------------------------------===//

maxgraph.graph @cumsum_bool(%a: !maxgraph.tensor<[4], i1>) -> () {
  // expected-error @+1 {{'maxgraph.cumsum' op operand 0 has element type 'i1' but the op takes a numeric type}}
  %0 = maxgraph.cumsum %a axis = 0 : !maxgraph.tensor<[4], i1>
  maxgraph.output
}

// -----

maxgraph.graph @cumsum_axis(%a: !maxgraph.tensor<[4], si32>) -> () {
  // expected-error @+1 {{'maxgraph.cumsum' op axis -2 is out of range for an operand of rank 1 (expected -1 to 0)}}
  %0 = maxgraph.cumsum %a axis = -2 : !maxgraph.tensor<[4], si32>
  maxgraph.output
}

// -----

maxgraph.graph @softmax_int(%a: !maxgraph.tensor<[4], si32>) -> () {
  // expected-error @+1 {{'maxgraph.softmax' op operand 0 has element type 'si32' but the op takes a floating-point type}}
  %0 = maxgraph.softmax %a axis = 0 : !maxgraph.tensor<[4], si32>
  maxgraph.output
}

// -----

maxgraph.graph @log_softmax_axis<batch>(%a: !maxgraph.tensor<[batch, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.log_softmax' op axis 2 is out of range for an operand of rank 2 (expected -2 to 1)}}
  %0 = maxgraph.log_softmax %a axis = 2 : !maxgraph.tensor<[batch, 8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @softmax_scalar(%a: !maxgraph.tensor<[], f32>) -> () {
  // expected-error @+1 {{'maxgraph.softmax' op axis -1 is out of range for an operand of rank 0 (a rank-0 tensor has no axes)}}
  %0 = maxgraph.softmax %a axis = -1 : !maxgraph.tensor<[], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.layer_norm, maxgraph.rms_norm
//===----------------------------------------------------------------------===//

maxgraph.graph @norm_int(%a: !maxgraph.tensor<[2, 8], si32>, %w: !maxgraph.tensor<[8], si32>) -> () {
  // expected-error @+1 {{'maxgraph.rms_norm' op operand 0 has element type 'si32' but normalization takes a floating-point type}}
  %0 = maxgraph.rms_norm %a, %w epsilon = 1.0e-06 : !maxgraph.tensor<[2, 8], si32>, !maxgraph.tensor<[8], si32>
  maxgraph.output
}

// -----

maxgraph.graph @norm_epsilon(%a: !maxgraph.tensor<[2, 8], f32>, %g: !maxgraph.tensor<[8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.layer_norm' op epsilon must be non-negative, got -1.000000e-05}}
  %0 = maxgraph.layer_norm %a, %g, %g epsilon = -1.0e-05 : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>
  maxgraph.output
}

// -----

// NaN is not a valid epsilon either.
maxgraph.graph @norm_epsilon_nan(%a: !maxgraph.tensor<[2, 8], f32>, %w: !maxgraph.tensor<[8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.rms_norm' op epsilon must be non-negative, got nan}}
  %0 = maxgraph.rms_norm %a, %w epsilon = 0x7FF8000000000000 : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @norm_param_type(%a: !maxgraph.tensor<[2, 8], f32>, %g: !maxgraph.tensor<[8], f16>) -> () {
  // expected-error @+1 {{'maxgraph.layer_norm' op operand 1 has element type 'f16' but operand 0 has 'f32'}}
  %0 = maxgraph.layer_norm %a, %g, %g epsilon = 1.0e-05 : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[8], f16>, !maxgraph.tensor<[8], f16>
  maxgraph.output
}

// -----

maxgraph.graph @norm_param_device(%a: !maxgraph.tensor<[2, 8], f32>, %w: !maxgraph.tensor<[8], f32, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.rms_norm' op operand 1 is on gpu:0 but operand 0 is on cpu:0; transfer it first}}
  %0 = maxgraph.rms_norm %a, %w epsilon = 1.0e-06 : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[8], f32, gpu:0>
  maxgraph.output
}

// -----

// The parameters span the trailing dims of the input.
maxgraph.graph @norm_gamma_dims<batch>(%a: !maxgraph.tensor<[batch, 8, 16], f32>, %g: !maxgraph.tensor<[8], f32>, %b: !maxgraph.tensor<[16], f32>) -> () {
  // expected-error @+1 {{'maxgraph.layer_norm' op operand 1 has dims [8] but must match the trailing dims of operand 0 [batch, 8, 16]}}
  %0 = maxgraph.layer_norm %a, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[16], f32>
  maxgraph.output
}

// -----

maxgraph.graph @norm_beta_dims<batch>(%a: !maxgraph.tensor<[batch, 8, 16], f32>, %g: !maxgraph.tensor<[8, 16], f32>, %b: !maxgraph.tensor<[4, 16], f32>) -> () {
  // expected-error @+1 {{'maxgraph.layer_norm' op operand 2 has dims [4, 16] but must match the trailing dims of operand 0 [batch, 8, 16]}}
  %0 = maxgraph.layer_norm %a, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[8, 16], f32>, !maxgraph.tensor<[4, 16], f32>
  maxgraph.output
}

// -----

// A rank-0 weight spans no dims.
maxgraph.graph @norm_scalar_weight(%a: !maxgraph.tensor<[2, 8], f32>, %w: !maxgraph.tensor<[], f32>) -> () {
  // expected-error @+1 {{'maxgraph.rms_norm' op operand 1 has dims [] but must match the trailing dims of operand 0 [2, 8]}}
  %0 = maxgraph.rms_norm %a, %w epsilon = 1.0e-06 : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[], f32>
  maxgraph.output
}

// -----

maxgraph.graph @norm_weight_rank(%a: !maxgraph.tensor<[8], f32>, %w: !maxgraph.tensor<[2, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.rms_norm' op operand 1 has dims [2, 8] but must match the trailing dims of operand 0 [8]}}
  %0 = maxgraph.rms_norm %a, %w epsilon = 1.0e-06 : !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[2, 8], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.reshape
//===----------------------------------------------------------------------===//

maxgraph.graph @reshape_count(%a: !maxgraph.tensor<[4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reshape' op changes the element count from `32` [4, 8] to `30` [5, 6]}}
  %0 = maxgraph.reshape %a : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[5, 6], f32>
  maxgraph.output
}

// -----

// One `?` takes the rest of the element count; two leave it open.
maxgraph.graph @reshape_two_unknowns(%a: !maxgraph.tensor<[4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reshape' op result dims 0 and 2 are both `?`; at most one result dim can take its size from the input's element count}}
  %0 = maxgraph.reshape %a : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[?, 2, ?], f32>
  maxgraph.output
}

// -----

// Symbolic element counts are compared as polynomials.
maxgraph.graph @reshape_symbolic<batch>(%a: !maxgraph.tensor<[batch, 4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reshape' op changes the element count from `batch * 32` [batch, 4, 8] to `batch * 16` [batch * 16]}}
  %0 = maxgraph.reshape %a : !maxgraph.tensor<[batch, 4, 8], f32> -> !maxgraph.tensor<[batch * 16], f32>
  maxgraph.output
}

// -----

maxgraph.graph @reshape_element_type(%a: !maxgraph.tensor<[4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.reshape' op changes the element type from 'f32' to 'f16'}}
  %0 = maxgraph.reshape %a : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[32], f16>
  maxgraph.output
}

// -----

maxgraph.graph @reshape_device(%a: !maxgraph.tensor<[4, 8], f32, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.reshape' op changes the device; use maxgraph.transfer}}
  %0 = maxgraph.reshape %a : !maxgraph.tensor<[4, 8], f32, gpu:0> -> !maxgraph.tensor<[32], f32, gpu:1>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.transpose
//===----------------------------------------------------------------------===//

maxgraph.graph @transpose_repeated(%a: !maxgraph.tensor<[4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.transpose' op permutation [0, 0] is not a permutation of the 2 dims of operand 0}}
  %0 = maxgraph.transpose %a perm = [0, 0] : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[4, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @transpose_length(%a: !maxgraph.tensor<[4, 8, 2], f32>) -> () {
  // expected-error @+1 {{'maxgraph.transpose' op permutation [1, 0] is not a permutation of the 3 dims of operand 0}}
  %0 = maxgraph.transpose %a perm = [1, 0] : !maxgraph.tensor<[4, 8, 2], f32> -> !maxgraph.tensor<[8, 4, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @transpose_range(%a: !maxgraph.tensor<[4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.transpose' op permutation [-1, 0] is not a permutation of the 2 dims of operand 0}}
  %0 = maxgraph.transpose %a perm = [-1, 0] : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[8, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @transpose_result<batch>(%a: !maxgraph.tensor<[batch, 4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.transpose' op result 0 has type '!maxgraph.tensor<[batch, 8, 4], f32>' but its operands and attributes imply '!maxgraph.tensor<[8, batch, 4], f32>'}}
  %0 = maxgraph.transpose %a perm = [2, 0, 1] : !maxgraph.tensor<[batch, 4, 8], f32> -> !maxgraph.tensor<[batch, 8, 4], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.broadcast_to
//===----------------------------------------------------------------------===//

maxgraph.graph @broadcast_to_rank(%a: !maxgraph.tensor<[1, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.broadcast_to' op cannot broadcast rank 2 down to rank 1}}
  %0 = maxgraph.broadcast_to %a : !maxgraph.tensor<[1, 4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

// A `?` result dim keeps the aligned operand dim; a new leading dim has none.
maxgraph.graph @broadcast_to_unknown_leading(%a: !maxgraph.tensor<[1, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.broadcast_to' op result dim 0 is `?` where the operand has no dim; nothing gives its size (write a static or symbolic dim)}}
  %0 = maxgraph.broadcast_to %a : !maxgraph.tensor<[1, 4], f32> -> !maxgraph.tensor<[?, 1, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @broadcast_to_dim<batch>(%a: !maxgraph.tensor<[3, 4], f32>, %b: !maxgraph.tensor<[batch], f32>) -> () {
  // expected-error @+1 {{'maxgraph.broadcast_to' op dim 0 of the operand is `3`, which cannot broadcast to `batch` (result dim 1)}}
  %0 = maxgraph.broadcast_to %a : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[2, batch, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @broadcast_to_element_type(%a: !maxgraph.tensor<[1, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.broadcast_to' op changes the element type from 'f32' to 'bf16'}}
  %0 = maxgraph.broadcast_to %a : !maxgraph.tensor<[1, 4], f32> -> !maxgraph.tensor<[2, 4], bf16>
  maxgraph.output
}

// -----

maxgraph.graph @broadcast_to_device(%a: !maxgraph.tensor<[1, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.broadcast_to' op changes the device; use maxgraph.transfer}}
  %0 = maxgraph.broadcast_to %a : !maxgraph.tensor<[1, 4], f32> -> !maxgraph.tensor<[2, 4], f32, cpu:1>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.concat
//===----------------------------------------------------------------------===//

maxgraph.graph @concat_none() -> () {
  // expected-error @+1 {{'maxgraph.concat' op needs at least one operand}}
  %0 = maxgraph.concat axis = 0 : () -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @concat_element_types(%a: !maxgraph.tensor<[4], f32>, %b: !maxgraph.tensor<[4], f64>) -> () {
  // expected-error @+1 {{'maxgraph.concat' op operand 1 has element type 'f64' but operand 0 has 'f32'}}
  %0 = maxgraph.concat %a, %b axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f64>) -> !maxgraph.tensor<[8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @concat_devices(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.concat' op operand 1 is on gpu:1 but operand 0 is on gpu:0; transfer it first}}
  %0 = maxgraph.concat %a, %b axis = 0 : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> !maxgraph.tensor<[8], f32, gpu:0>
  maxgraph.output
}

// -----

maxgraph.graph @concat_axis(%a: !maxgraph.tensor<[4, 2], f32>) -> () {
  // expected-error @+1 {{'maxgraph.concat' op axis 2 is out of range for an operand of rank 2 (expected -2 to 1)}}
  %0 = maxgraph.concat %a, %a axis = 2 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>) -> !maxgraph.tensor<[4, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @concat_rank(%a: !maxgraph.tensor<[4, 2], f32>, %b: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.concat' op operand 1 has rank 1 but operand 0 has rank 2}}
  %0 = maxgraph.concat %a, %b axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[8, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @concat_dims<seq>(%a: !maxgraph.tensor<[seq, 16], f32>, %b: !maxgraph.tensor<[seq, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.concat' op operand 1 has dim 1 `8` but operand 0 has `16`; only the concatenation axis 0 may differ}}
  %0 = maxgraph.concat %a, %b axis = 0 : (!maxgraph.tensor<[seq, 16], f32>, !maxgraph.tensor<[seq, 8], f32>) -> !maxgraph.tensor<[seq * 2, 16], f32>
  maxgraph.output
}

// -----

// Sizes along the axis add up, symbolically where needed.
maxgraph.graph @concat_result<seq>(%a: !maxgraph.tensor<[seq, 16], f32>, %b: !maxgraph.tensor<[1, 16], f32>) -> () {
  // expected-error @+1 {{'maxgraph.concat' op result 0 has type '!maxgraph.tensor<[seq, 16], f32>' but its operands and attributes imply '!maxgraph.tensor<[seq + 1, 16], f32>'}}
  %0 = maxgraph.concat %a, %b axis = -2 : (!maxgraph.tensor<[seq, 16], f32>, !maxgraph.tensor<[1, 16], f32>) -> !maxgraph.tensor<[seq, 16], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.split
//===----------------------------------------------------------------------===//

maxgraph.graph @split_none(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op needs at least one result}}
  "maxgraph.split"(%a) {axis = 0 : i64} : (!maxgraph.tensor<[4], f32>) -> ()
  maxgraph.output
}

// -----

// One `?` piece takes the rest of the axis; two leave it open.
maxgraph.graph @split_two_unknowns(%a: !maxgraph.tensor<[6, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op results 0 and 2 are both `?` along the split axis 0; at most one piece can take the rest of the axis}}
  %0, %1, %2 = maxgraph.split %a axis = 0 : !maxgraph.tensor<[6, 4], f32> -> !maxgraph.tensor<[?, 4], f32>, !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[?, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @split_axis(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op axis 1 is out of range for an operand of rank 1 (expected -1 to 0)}}
  %0:2 = maxgraph.split %a axis = 1 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @split_element_type(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op changes the element type from 'f32' to 'f16'}}
  %0:2 = maxgraph.split %a axis = 0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f16>
  maxgraph.output
}

// -----

maxgraph.graph @split_device(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op changes the device; use maxgraph.transfer}}
  %0:2 = maxgraph.split %a axis = 0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[2], f32, gpu:0>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @split_rank(%a: !maxgraph.tensor<[4, 6], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op result 1 has rank 1 but the operand has rank 2}}
  %0:2 = maxgraph.split %a axis = 1 : !maxgraph.tensor<[4, 6], f32> -> !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[16], f32>
  maxgraph.output
}

// -----

maxgraph.graph @split_dims<seq>(%a: !maxgraph.tensor<[seq, 16], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op result 0 has dim 0 `5` but the operand has `seq`; only the split axis 1 may differ}}
  %0:2 = maxgraph.split %a axis = -1 : !maxgraph.tensor<[seq, 16], f32> -> !maxgraph.tensor<[5, 6], f32>, !maxgraph.tensor<[seq, 10], f32>
  maxgraph.output
}

// -----

maxgraph.graph @split_sum(%a: !maxgraph.tensor<[4, 16], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op results add up to `15` along axis 1 but the operand has `16`}}
  %0:2 = maxgraph.split %a axis = 1 : !maxgraph.tensor<[4, 16], f32> -> !maxgraph.tensor<[4, 6], f32>, !maxgraph.tensor<[4, 9], f32>
  maxgraph.output
}

// -----

maxgraph.graph @split_sum_symbolic<seq>(%a: !maxgraph.tensor<[seq], f32>) -> () {
  // expected-error @+1 {{'maxgraph.split' op results add up to `seq + 1` along axis 0 but the operand has `seq`}}
  %0:2 = maxgraph.split %a axis = 0 : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[seq - 1], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.slice
//===----------------------------------------------------------------------===//

maxgraph.graph @slice_ranges(%a: !maxgraph.tensor<[4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.slice' op has 1 starts, 1 stops and 1 steps for an operand of rank 2; give one range per dim}}
  %0 = maxgraph.slice %a [1:] : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[3, 8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @slice_step_zero(%a: !maxgraph.tensor<[4, 8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.slice' op dim 1 has step 0; steps must be positive}}
  %0 = maxgraph.slice %a [:, ::0] : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[4, 8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @slice_step_negative<seq>(%a: !maxgraph.tensor<[seq], f32>) -> () {
  // expected-error @+1 {{'maxgraph.slice' op dim 0 has step -1; steps must be positive}}
  %0 = maxgraph.slice %a [::-1] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[seq], f32>
  maxgraph.output
}

// -----

// Bounds clamp to static dims.
maxgraph.graph @slice_result(%a: !maxgraph.tensor<[8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.slice' op result 0 has type '!maxgraph.tensor<[6], f32>' but its operands and attributes imply '!maxgraph.tensor<[4], f32>'}}
  %0 = maxgraph.slice %a [4:10] : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[6], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.gather
//===----------------------------------------------------------------------===//

maxgraph.graph @gather_float_indices(%t: !maxgraph.tensor<[100, 8], f32>, %i: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.gather' op operand 1 (the indices) must have an integer element type, got 'f32'}}
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[100, 8], f32>, !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4, 8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @gather_bool_indices(%t: !maxgraph.tensor<[100, 8], f32>, %i: !maxgraph.tensor<[4], i1>) -> () {
  // expected-error @+1 {{'maxgraph.gather' op operand 1 (the indices) must have an integer element type, got 'i1'}}
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[100, 8], f32>, !maxgraph.tensor<[4], i1>) -> !maxgraph.tensor<[4, 8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @gather_device(%t: !maxgraph.tensor<[100, 8], f32, gpu:0>, %i: !maxgraph.tensor<[4], si64>) -> () {
  // expected-error @+1 {{'maxgraph.gather' op the indices are on a different device than operand 0}}
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[100, 8], f32, gpu:0>, !maxgraph.tensor<[4], si64>) -> !maxgraph.tensor<[4, 8], f32, gpu:0>
  maxgraph.output
}

// -----

maxgraph.graph @gather_axis(%t: !maxgraph.tensor<[100, 8], f32>, %i: !maxgraph.tensor<[4], si64>) -> () {
  // expected-error @+1 {{'maxgraph.gather' op axis -3 is out of range for an operand of rank 2 (expected -2 to 1)}}
  %0 = maxgraph.gather %t, %i axis = -3 : (!maxgraph.tensor<[100, 8], f32>, !maxgraph.tensor<[4], si64>) -> !maxgraph.tensor<[4, 8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @gather_result<batch>(%t: !maxgraph.tensor<[100, 8], f32>, %i: !maxgraph.tensor<[batch], ui32>) -> () {
  // expected-error @+1 {{'maxgraph.gather' op result 0 has type '!maxgraph.tensor<[batch, 8], f32>' but its operands and attributes imply '!maxgraph.tensor<[100, batch], f32>'}}
  %0 = maxgraph.gather %t, %i axis = 1 : (!maxgraph.tensor<[100, 8], f32>, !maxgraph.tensor<[batch], ui32>) -> !maxgraph.tensor<[batch, 8], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.buffer_load, maxgraph.buffer_store, maxgraph.transfer
//===----------------------------------------------------------------------===//

maxgraph.graph @load_result(%b: !maxgraph.buffer<[4], f32, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_load' op result 0 has type '!maxgraph.tensor<[4], f32>' but its operands and attributes imply '!maxgraph.tensor<[4], f32, gpu:0>'}}
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store_dims(%b: !maxgraph.buffer<[4], f32>, %x: !maxgraph.tensor<[8], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store' op stores a value of type '!maxgraph.tensor<[8], f32>' into a buffer of type '!maxgraph.buffer<[4], f32>'; dims, element type and device must match}}
  maxgraph.buffer_store %b, %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[8], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store_element_type(%b: !maxgraph.buffer<[4], f32>, %x: !maxgraph.tensor<[4], f16>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store' op stores a value of type '!maxgraph.tensor<[4], f16>' into a buffer of type '!maxgraph.buffer<[4], f32>'}}
  maxgraph.buffer_store %b, %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f16>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.buffer_store_slice
//===----------------------------------------------------------------------===//

maxgraph.graph @store_slice_element_type(%b: !maxgraph.buffer<[4], f32>, %x: !maxgraph.tensor<[2], f16>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store_slice' op stores a value of type '!maxgraph.tensor<[2], f16>' into a buffer of type '!maxgraph.buffer<[4], f32>'; element type and device must match}}
  maxgraph.buffer_store_slice %b [:2], %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[2], f16>
  maxgraph.output
}

// -----

maxgraph.graph @store_slice_device(%b: !maxgraph.buffer<[4], f32, gpu:0>, %x: !maxgraph.tensor<[2], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store_slice' op stores a value of type '!maxgraph.tensor<[2], f32>' into a buffer of type '!maxgraph.buffer<[4], f32, gpu:0>'; element type and device must match}}
  maxgraph.buffer_store_slice %b [:2], %x : !maxgraph.buffer<[4], f32, gpu:0>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store_slice_rank(%b: !maxgraph.buffer<[4, 2], f32>, %x: !maxgraph.tensor<[2], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store_slice' op stores a value of rank 1 into a buffer of rank 2; the value needs one dim per range (reshape it to give a dim of size 1 to an index)}}
  maxgraph.buffer_store_slice %b [0:1, :], %x : !maxgraph.buffer<[4, 2], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store_slice_ranges(%b: !maxgraph.buffer<[4, 2], f32>, %x: !maxgraph.tensor<[2, 2], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store_slice' op has 1 starts, 1 stops and 1 steps for an operand of rank 2; give one range per dim}}
  maxgraph.buffer_store_slice %b [:2], %x : !maxgraph.buffer<[4, 2], f32>, !maxgraph.tensor<[2, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store_slice_step(%b: !maxgraph.buffer<[4], f32>, %x: !maxgraph.tensor<[2], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store_slice' op dim 0 has step 0; steps must be positive}}
  maxgraph.buffer_store_slice %b [0:2:0], %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

// The window [1:4:2] of 4 elements holds 2, not 3.
maxgraph.graph @store_slice_count(%b: !maxgraph.buffer<[4], f32>, %x: !maxgraph.tensor<[3], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store_slice' op the range of dim 0 selects `2` elements but the value has `3` there}}
  maxgraph.buffer_store_slice %b [1:4:2], %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[3], f32>
  maxgraph.output
}

// -----

// On a symbolic dim, [1:] selects `n - 1`, which `n` is not.
maxgraph.graph @store_slice_symbolic<n>(%b: !maxgraph.buffer<[n], f32>, %x: !maxgraph.tensor<[n], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store_slice' op the range of dim 0 selects `n - 1` elements but the value has `n` there}}
  maxgraph.buffer_store_slice %b [1:], %x : !maxgraph.buffer<[n], f32>, !maxgraph.tensor<[n], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store_slice_sign<n>(%b: !maxgraph.buffer<[n], f32>, %x: !maxgraph.tensor<[?], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store_slice' op dim 0 (`n`) is sliced from -2 before its end to 3 after its start; the size would depend on `n` and could be negative}}
  maxgraph.buffer_store_slice %b [-2:3], %x : !maxgraph.buffer<[n], f32>, !maxgraph.tensor<[?], f32>
  maxgraph.output
}

// -----

// expected-note @+1 {{prior use here}}
maxgraph.graph @store_slice_bound_type(%b: !maxgraph.buffer<[4], f32>, %x: !maxgraph.tensor<[2], f32>, %p: !maxgraph.tensor<[], si32>) -> () {
  // expected-error @+1 {{use of value '%p' expects different type than prior uses: '!maxgraph.tensor<[], si64>' vs '!maxgraph.tensor<[], si32>'}}
  maxgraph.buffer_store_slice %b [%p:], %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store_slice_reserved(%b: !maxgraph.buffer<[4], f32>, %x: !maxgraph.tensor<[2], f32>) -> () {
  // expected-error @+1 {{a bound must be above -9223372036854775808}}
  maxgraph.buffer_store_slice %b [-9223372036854775808:], %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @store_device(%b: !maxgraph.buffer<[4], f32, gpu:1>, %x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.buffer_store' op stores a value of type '!maxgraph.tensor<[4], f32>' into a buffer of type '!maxgraph.buffer<[4], f32, gpu:1>'}}
  maxgraph.buffer_store %b, %x : !maxgraph.buffer<[4], f32, gpu:1>, !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @transfer_result(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.transfer' op result 0 has type '!maxgraph.tensor<[4], f32, gpu:1>' but its operands and attributes imply '!maxgraph.tensor<[4], f32, gpu:0>'}}
  %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:1>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.custom
//===----------------------------------------------------------------------===//

maxgraph.graph @custom_no_kernel(%x: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.custom' op needs a kernel name}}
  %0 = maxgraph.custom ""(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// Collectives: operands, signal buffers, axes, roots, results
//===----------------------------------------------------------------------===//

maxgraph.graph @collective_none() -> () {
  // expected-error @+1 {{'maxgraph.allreduce' op needs one operand per device, got none}}
  maxgraph.allreduce sum : () -> ()
  maxgraph.output
}

// -----

maxgraph.graph @collective_same_device(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.allreduce' op operands 0 and 1 are both on gpu:0; each operand must be on its own device}}
  %0:2 = maxgraph.allreduce sum %a, %b : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>)
  maxgraph.output
}

// -----

maxgraph.graph @collective_dims(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[8], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.allgather' op operand 1 has type '!maxgraph.tensor<[8], f32, gpu:1>' but operand 0 has '!maxgraph.tensor<[4], f32, gpu:0>'; dims and element types must match}}
  %0:2 = maxgraph.allgather %a, %b axis = 0 : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[8], f32, gpu:1>) -> (!maxgraph.tensor<[12], f32, gpu:0>, !maxgraph.tensor<[12], f32, gpu:1>)
  maxgraph.output
}

// -----

maxgraph.graph @collective_element_types(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f16, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.broadcast' op operand 1 has type '!maxgraph.tensor<[4], f16, gpu:1>' but operand 0 has '!maxgraph.tensor<[4], f32, gpu:0>'; dims and element types must match}}
  %0:2 = maxgraph.broadcast %a, %b root = 0 : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f16, gpu:1>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f16, gpu:1>)
  maxgraph.output
}

// -----

// Reducing collectives take numeric element types.
maxgraph.graph @collective_bool(%a: !maxgraph.tensor<[4], i1, gpu:0>, %b: !maxgraph.tensor<[4], i1, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_scatter' op operands have element type 'i1' but the collective takes a numeric type}}
  %0:2 = maxgraph.reduce_scatter max %a, %b axis = 0 : (!maxgraph.tensor<[4], i1, gpu:0>, !maxgraph.tensor<[4], i1, gpu:1>) -> (!maxgraph.tensor<[2], i1, gpu:0>, !maxgraph.tensor<[2], i1, gpu:1>)
  maxgraph.output
}

// -----

maxgraph.graph @signal_count(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>,
    %s: !maxgraph.buffer<[1024], ui8, gpu:0>) -> () {
  // expected-error @+1 {{'maxgraph.allreduce' op has 1 signal buffers for 2 devices; give one per device or none}}
  %0:2 = maxgraph.allreduce sum %a, %b signals(%s : !maxgraph.buffer<[1024], ui8, gpu:0>) : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>)
  maxgraph.output
}

// -----

maxgraph.graph @signal_element_type(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>,
    %s0: !maxgraph.buffer<[1024], ui8, gpu:0>, %s1: !maxgraph.buffer<[1024], si8, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.allreduce' op signal buffer 1 has element type 'si8'; signal buffers are ui8}}
  %0:2 = maxgraph.allreduce sum %a, %b signals(%s0, %s1 : !maxgraph.buffer<[1024], ui8, gpu:0>, !maxgraph.buffer<[1024], si8, gpu:1>) : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>)
  maxgraph.output
}

// -----

maxgraph.graph @signal_device(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>,
    %s0: !maxgraph.buffer<[1024], ui8, gpu:0>, %s1: !maxgraph.buffer<[1024], ui8, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.allgather' op signal buffer 0 is on gpu:1 but operand 0 is on gpu:0}}
  %0:2 = maxgraph.allgather %a, %b axis = 0 signals(%s1, %s0 : !maxgraph.buffer<[1024], ui8, gpu:1>, !maxgraph.buffer<[1024], ui8, gpu:0>) : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[8], f32, gpu:0>, !maxgraph.tensor<[8], f32, gpu:1>)
  maxgraph.output
}

// -----

maxgraph.graph @allgather_axis(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.allgather' op axis 1 is out of range for an operand of rank 1 (expected -1 to 0)}}
  %0:2 = maxgraph.allgather %a, %b axis = 1 : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[8], f32, gpu:0>, !maxgraph.tensor<[8], f32, gpu:1>)
  maxgraph.output
}

// -----

maxgraph.graph @reduce_scatter_axis(%a: !maxgraph.tensor<[], f32, gpu:0>, %b: !maxgraph.tensor<[], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_scatter' op axis 0 is out of range for an operand of rank 0 (a rank-0 tensor has no axes)}}
  %0:2 = maxgraph.reduce_scatter sum %a, %b axis = 0 : (!maxgraph.tensor<[], f32, gpu:0>, !maxgraph.tensor<[], f32, gpu:1>) -> (!maxgraph.tensor<[], f32, gpu:0>, !maxgraph.tensor<[], f32, gpu:1>)
  maxgraph.output
}

// -----

// A static scatter axis divides evenly among the devices.
maxgraph.graph @reduce_scatter_divide(%a: !maxgraph.tensor<[4, 5], f32, gpu:0>, %b: !maxgraph.tensor<[4, 5], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.reduce_scatter' op axis 1 has size 5, which does not divide among 2 devices}}
  %0:2 = maxgraph.reduce_scatter sum %a, %b axis = -1 : (!maxgraph.tensor<[4, 5], f32, gpu:0>, !maxgraph.tensor<[4, 5], f32, gpu:1>) -> (!maxgraph.tensor<[4, 2], f32, gpu:0>, !maxgraph.tensor<[4, 2], f32, gpu:1>)
  maxgraph.output
}

// -----

maxgraph.graph @broadcast_root(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.broadcast' op root 2 is not one of the 2 operands}}
  %0:2 = maxgraph.broadcast %a, %b root = 2 : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>)
  maxgraph.output
}

// -----

maxgraph.graph @broadcast_negative_root(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.broadcast' op root -1 is not one of the 2 operands}}
  %0:2 = maxgraph.broadcast %a, %b root = -1 : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>)
  maxgraph.output
}

// -----

// One result per operand.
maxgraph.graph @collective_result_count(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.allreduce' op has 1 results but its operands imply 2}}
  %0 = maxgraph.allreduce min %a, %b : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output
}

// -----

// Each result stays on its operand's device.
maxgraph.graph @collective_result_device(%a: !maxgraph.tensor<[4], f32, gpu:0>, %b: !maxgraph.tensor<[4], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.allreduce' op result 1 has type '!maxgraph.tensor<[4], f32, gpu:0>' but its operands and attributes imply '!maxgraph.tensor<[4], f32, gpu:1>'}}
  %0:2 = maxgraph.allreduce prod %a, %b : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>)
  maxgraph.output
}

// -----

maxgraph.graph @allgather_result(%a: !maxgraph.tensor<[4, 4], f32, gpu:0>, %b: !maxgraph.tensor<[4, 4], f32, gpu:1>) -> () {
  // expected-error @+1 {{'maxgraph.allgather' op result 0 has type '!maxgraph.tensor<[4, 4], f32, gpu:0>' but its operands and attributes imply '!maxgraph.tensor<[4, 8], f32, gpu:0>'}}
  %0:2 = maxgraph.allgather %a, %b axis = 1 : (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>) -> (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>)
  maxgraph.output
}

// -----

// Regressions: ops whose result type is inferred by the parser get a non-tensor
// operand (this crashed before the operand was checked).
maxgraph.graph @softmax_of_scalar(%x: f32) -> () {
  // expected-error @+1 {{'maxgraph.softmax' op operand 0 must be a !maxgraph.tensor, got 'f32'}}
  %0 = maxgraph.softmax %x axis = 0 : f32
  maxgraph.output
}

// -----

maxgraph.graph @exp_of_builtin_tensor(%x: tensor<4xf32>) -> () {
  // expected-error @+1 {{'maxgraph.is_inf' op operand 0 must be a !maxgraph.tensor, got 'tensor<4xf32>'}}
  %0 = maxgraph.is_inf %x : tensor<4xf32>
  maxgraph.output
}

// -----

maxgraph.graph @rms_norm_builtin_weight(%x: !maxgraph.tensor<[2, 8], f32>, %w: tensor<8xf32>) -> () {
  // expected-error @+1 {{'maxgraph.rms_norm' op operand 1 must be a !maxgraph.tensor, got 'tensor<8xf32>'}}
  %0 = maxgraph.rms_norm %x, %w epsilon = 1.0e-06 : !maxgraph.tensor<[2, 8], f32>, tensor<8xf32>
  maxgraph.output
}

// -----

// select names its operands by their position in the op.
maxgraph.graph @select_positions(%c: !maxgraph.tensor<[4], i1>, %a: !maxgraph.tensor<[4], f32>, %b: !maxgraph.tensor<[4], f16>) -> () {
  // expected-error @+1 {{'maxgraph.select' op operand 2 has element type 'f16' but operand 1 has 'f32'}}
  %0 = maxgraph.select %c, %a, %b : (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f16>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

// layer_norm blames beta, operand 2, for beta's element type.
maxgraph.graph @layer_norm_beta_position(%x: !maxgraph.tensor<[2, 8], f32>, %g: !maxgraph.tensor<[8], f32>, %b: !maxgraph.tensor<[8], f16>) -> () {
  // expected-error @+1 {{'maxgraph.layer_norm' op operand 2 has element type 'f16' but operand 0 has 'f32'}}
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f16>
  maxgraph.output
}

// -----

// A slice of a symbolic dim from before its end to after its start has a size
// that depends on the dim.
maxgraph.graph @slice_mixed_bounds<seq>(%x: !maxgraph.tensor<[seq], f32>) -> () {
  // expected-error @+1 {{'maxgraph.slice' op dim 0 (`seq`) is sliced from -2 before its end to 5 after its start; the size would depend on `seq` and could be negative}}
  %0 = maxgraph.slice %x [-2:5] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[?], f32>
  maxgraph.output
}

// -----

// Results may only use symbolic dims that an argument binds.
// expected-error @+1 {{'maxgraph.graph' op result 0 uses symbolic dim 'm', which no argument binds; use '?' for a size only known at run time}}
maxgraph.graph @unbound_result<n>(%x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[m], f32> {
  %0 = maxgraph.custom "k"(%x) : (!maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[m], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m], f32>
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.random_uniform
//===----------------------------------------------------------------------===//

maxgraph.graph @random_integers(%seed: !maxgraph.tensor<[], si64>) -> () {
  // expected-error @+1 {{'maxgraph.random_uniform' op result has element type 'si32' but random_uniform makes f16, bf16, f32 or f64 values}}
  %0 = maxgraph.random_uniform %seed low = 0 high = 4 : !maxgraph.tensor<[2], si32>
  maxgraph.output
}

// -----

maxgraph.graph @random_unknown_dim(%seed: !maxgraph.tensor<[], si64>) -> () {
  // expected-error @+1 {{'maxgraph.random_uniform' op result dim 1 is `?`; random_uniform needs static, symbolic or algebraic dims}}
  %0 = maxgraph.random_uniform %seed low = 0 high = 1 : !maxgraph.tensor<[2, ?], f32>
  maxgraph.output
}

// -----

maxgraph.graph @random_range(%seed: !maxgraph.tensor<[], si64>) -> () {
  // expected-error @+1 {{'maxgraph.random_uniform' op range [1, 1) must be finite with low below high}}
  %0 = maxgraph.random_uniform %seed low = 1 high = 1 : !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @random_seed_type(%seed: !maxgraph.tensor<[], si32>) -> () {
  // The custom form spells no seed type (it is always this one).
  // expected-error @+1 {{'maxgraph.random_uniform' op operand #0 must be a rank-0 si64 tensor on the host, but got '!maxgraph.tensor<[], si32>'}}
  %0 = "maxgraph.random_uniform"(%seed) {low = 0.0 : f64, high = 1.0 : f64} : (!maxgraph.tensor<[], si32>) -> !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.arange
//===----------------------------------------------------------------------===//

maxgraph.graph @arange_rank() -> () {
  // expected-error @+1 {{'maxgraph.arange' op result must have rank 1, got '!maxgraph.tensor<[2, 2], f32>'}}
  %0 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[2, 2], f32>
  maxgraph.output
}

// -----

maxgraph.graph @arange_bool() -> () {
  // expected-error @+1 {{'maxgraph.arange' op result has element type 'i1' but arange takes a numeric (non-bool) type}}
  %0 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[2], i1>
  maxgraph.output
}

// -----

maxgraph.graph @arange_unknown() -> () {
  // expected-error @+1 {{'maxgraph.arange' op result length is `?`; arange needs a static, symbolic or algebraic length}}
  %0 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[?], si64>
  maxgraph.output
}

// -----

maxgraph.graph @arange_zero_step() -> () {
  // expected-error @+1 {{'maxgraph.arange' op step must be nonzero}}
  %0 = maxgraph.arange start = 0 step = 0 : !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @arange_fractional_int() -> () {
  // expected-error @+1 {{'maxgraph.arange' op start 0.5 and step 1 must be integers of magnitude at most 2^53 for element type 'si32'}}
  %0 = maxgraph.arange start = 0.5 step = 1 : !maxgraph.tensor<[4], si32>
  maxgraph.output
}

// -----

maxgraph.graph @arange_infinite() -> () {
  // expected-error @+1 {{'maxgraph.arange' op start 0 and step inf must be finite}}
  %0 = maxgraph.arange start = 0 step = inf : !maxgraph.tensor<[4], f64>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.pad
//===----------------------------------------------------------------------===//

maxgraph.graph @pad_count(%a: !maxgraph.tensor<[3, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op has 2 paddings for an operand of rank 2; give a (before, after) pair per dim (4 values)}}
  %0 = maxgraph.pad %a paddings = [1, 1] constant 0 : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[5, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @pad_negative(%a: !maxgraph.tensor<[3, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op padding -1 after dim 1 is negative; paddings are non-negative (crop with maxgraph.slice)}}
  %0 = maxgraph.pad %a paddings = [0, 0, 0, -1] constant 0 : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[3, 3], f32>
  maxgraph.output
}

// -----

maxgraph.graph @pad_result(%a: !maxgraph.tensor<[3, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op result 0 has type '!maxgraph.tensor<[3, 4], f32>' but its operands and attributes imply '!maxgraph.tensor<[4, 6], f32>'}}
  %0 = maxgraph.pad %a paddings = [1, 0, 0, 2] constant 0 : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[3, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @pad_value_range(%a: !maxgraph.tensor<[3], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op pad value 256 is not a value of element type 'ui8'}}
  %0 = maxgraph.pad %a paddings = [1, 0] constant 256 : !maxgraph.tensor<[3], ui8> -> !maxgraph.tensor<[4], ui8>
  maxgraph.output
}

// -----

maxgraph.graph @pad_value_fraction(%a: !maxgraph.tensor<[3], si32>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op pad value 1.5 is not a value of element type 'si32' (integers pad with integers of magnitude at most 2^53)}}
  %0 = maxgraph.pad %a paddings = [1, 0] constant 1.5 : !maxgraph.tensor<[3], si32> -> !maxgraph.tensor<[4], si32>
  maxgraph.output
}

// -----

maxgraph.graph @pad_reflect_symbolic<n>(%a: !maxgraph.tensor<[n], f32>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op mode reflect pads dim 0 (`n`), which must then be static}}
  %0 = maxgraph.pad %a paddings = [1, 0] reflect : !maxgraph.tensor<[n], f32> -> !maxgraph.tensor<[n + 1], f32>
  maxgraph.output
}

// -----

maxgraph.graph @pad_reflect_too_far(%a: !maxgraph.tensor<[3], f32>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op mode reflect pads dim 0 of size 3 by 3; reflect pads by less than the dim's size}}
  %0 = maxgraph.pad %a paddings = [0, 3] reflect : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[6], f32>
  maxgraph.output
}

// -----

maxgraph.graph @pad_edge_empty(%a: !maxgraph.tensor<[0], f32>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op mode edge pads dim 0, which is empty and has no edge element}}
  %0 = maxgraph.pad %a paddings = [1, 0] edge : !maxgraph.tensor<[0], f32> -> !maxgraph.tensor<[1], f32>
  maxgraph.output
}

// -----

maxgraph.graph @pad_mode(%a: !maxgraph.tensor<[3], f32>) -> () {
  // expected-error @+1 {{unknown pad mode 'wrap', expected constant, reflect or edge}}
  %0 = maxgraph.pad %a paddings = [1, 0] wrap : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.top_k
//===----------------------------------------------------------------------===//

maxgraph.graph @top_k_too_many(%a: !maxgraph.tensor<[3, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.top_k' op k = 5 is larger than dim 1 (`4`) of operand 0}}
  %0:2 = maxgraph.top_k %a k = 5 axis = 1 : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[3, 5], f32>, !maxgraph.tensor<[3, 5], si64>
  maxgraph.output
}

// -----

maxgraph.graph @top_k_negative(%a: !maxgraph.tensor<[3, 4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.top_k' op k must be non-negative, got -1}}
  %0:2 = maxgraph.top_k %a k = -1 axis = 1 : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[3, 1], f32>, !maxgraph.tensor<[3, 1], si64>
  maxgraph.output
}

// -----

maxgraph.graph @top_k_bool(%a: !maxgraph.tensor<[4], i1>) -> () {
  // expected-error @+1 {{'maxgraph.top_k' op operand 0 has element type 'i1' but the op takes a numeric (non-bool) type}}
  %0:2 = maxgraph.top_k %a k = 1 axis = 0 : !maxgraph.tensor<[4], i1> -> !maxgraph.tensor<[1], i1>, !maxgraph.tensor<[1], si64>
  maxgraph.output
}

// -----

maxgraph.graph @top_k_axis(%a: !maxgraph.tensor<[], f32>) -> () {
  // expected-error @+1 {{'maxgraph.top_k' op axis 0 is out of range for an operand of rank 0 (a rank-0 tensor has no axes)}}
  %0:2 = maxgraph.top_k %a k = 1 axis = 0 : !maxgraph.tensor<[], f32> -> !maxgraph.tensor<[], f32>, !maxgraph.tensor<[], si64>
  maxgraph.output
}

// -----

maxgraph.graph @top_k_indices(%a: !maxgraph.tensor<[4], f32>) -> () {
  // expected-error @+1 {{'maxgraph.top_k' op result 1 has type '!maxgraph.tensor<[2], si32>' but its operands and attributes imply '!maxgraph.tensor<[2], si64>'}}
  %0:2 = maxgraph.top_k %a k = 2 axis = 0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], si32>
  maxgraph.output
}

// -----

// Sizes near 2^63 would overflow the arithmetic of the lowering.
maxgraph.graph @top_k_huge<n>(%a: !maxgraph.tensor<[n], f32>) -> () {
  // expected-error @+1 {{'maxgraph.top_k' op k = 9223372036854775807 is too large}}
  %0:2 = maxgraph.top_k %a k = 9223372036854775807 axis = 0 : !maxgraph.tensor<[n], f32> -> !maxgraph.tensor<[9223372036854775807], f32>, !maxgraph.tensor<[9223372036854775807], si64>
  maxgraph.output
}

// -----

maxgraph.graph @pad_huge(%a: !maxgraph.tensor<[3], f32>) -> () {
  // expected-error @+1 {{'maxgraph.pad' op padding 9223372036854775807 of dim 0 is too large}}
  %0 = maxgraph.pad %a paddings = [9223372036854775807, 1] constant 0 : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

// A run-time bound makes its dim `?`: it cannot be refined.
maxgraph.graph @slice_bound_refined(%x: !maxgraph.tensor<[8], f32>, %p: !maxgraph.tensor<[], si64>) -> () {
  // expected-error @+1 {{'maxgraph.slice' op result 0 has type '!maxgraph.tensor<[2], f32>' but its operands and attributes imply '!maxgraph.tensor<[?], f32>'}}
  %0 = maxgraph.slice %x [%p:] : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[2], f32>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.shape_to_tensor
//===----------------------------------------------------------------------===//

maxgraph.graph @shape_to_tensor_unknown() -> () {
  // expected-error @+1 {{'maxgraph.shape_to_tensor' op dim 1 is `?`, which has no value to read; shape_to_tensor takes static, symbolic and algebraic dims}}
  %0 = maxgraph.shape_to_tensor [4, ?] : !maxgraph.tensor<[2], si64>
  maxgraph.output
}

// -----

maxgraph.graph @shape_to_tensor_type<n>(%x: !maxgraph.tensor<[n], f32>) -> () {
  // expected-error @+1 {{'maxgraph.shape_to_tensor' op result has type '!maxgraph.tensor<[2], si32>' but 2 dims make a !maxgraph.tensor<[2], si64> (on any device)}}
  %0 = maxgraph.shape_to_tensor [n, 4] : !maxgraph.tensor<[2], si32>
  maxgraph.output
}

// -----

maxgraph.graph @shape_to_tensor_attribute() -> () {
  // expected-error @+1 {{'maxgraph.shape_to_tensor' op attribute 'dims' failed to satisfy constraint: an array of #maxgraph.dim attributes}}
  %0 = "maxgraph.shape_to_tensor"() {dims = [3]} : () -> !maxgraph.tensor<[1], si64>
  maxgraph.output
}

// -----

//===----------------------------------------------------------------------===//
// maxgraph.dequantize and maxgraph.qmatmul
//===----------------------------------------------------------------------===//

maxgraph.graph @dequantize_partial_block(%q: !maxgraph.tensor<[2, 21], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.dequantize' op last dim `21` of operand 0 is not a whole number of q4_1 blocks (20 bytes each; got '!maxgraph.tensor<[2, 21], ui8>')}}
  %0 = maxgraph.dequantize q4_1, %q : !maxgraph.tensor<[2, 21], ui8> -> !maxgraph.tensor<[2, 32], f32>
  maxgraph.output
}

// -----

maxgraph.graph @dequantize_symbolic_bytes<b>(%q: !maxgraph.tensor<[2, b], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.dequantize' op last dim `b` of operand 0 is not a whole number of q8_0 blocks (34 bytes each; got '!maxgraph.tensor<[2, b], ui8>')}}
  %0 = maxgraph.dequantize q8_0, %q : !maxgraph.tensor<[2, b], ui8> -> !maxgraph.tensor<[2, 32], f32>
  maxgraph.output
}

// -----

maxgraph.graph @dequantize_signed_bytes(%q: !maxgraph.tensor<[18], si8>) -> () {
  // expected-error @+1 {{'maxgraph.dequantize' op operand 0 has element type 'si8' but holds q4_0 blocks, which are ui8 bytes (got '!maxgraph.tensor<[18], si8>')}}
  %0 = maxgraph.dequantize q4_0, %q : !maxgraph.tensor<[18], si8> -> !maxgraph.tensor<[32], f32>
  maxgraph.output
}

// -----

maxgraph.graph @dequantize_result(%q: !maxgraph.tensor<[18], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.dequantize' op result 0 has type '!maxgraph.tensor<[32], f16>' but its operands and attributes imply '!maxgraph.tensor<[32], f32>'}}
  %0 = maxgraph.dequantize q4_0, %q : !maxgraph.tensor<[18], ui8> -> !maxgraph.tensor<[32], f16>
  maxgraph.output
}

// -----

maxgraph.graph @dequantize_encoding(%q: !maxgraph.tensor<[18], ui8>) -> () {
  // expected-error @+1 {{custom op 'maxgraph.dequantize' expected string or keyword containing one of the following enum values for attribute 'encoding' [q4_0, q4_1, q8_0]}}
  %0 = maxgraph.dequantize q5_k, %q : !maxgraph.tensor<[18], ui8> -> !maxgraph.tensor<[32], f32>
  maxgraph.output
}

// -----

maxgraph.graph @qmatmul_k(%x: !maxgraph.tensor<[1, 32], f32>, %w: !maxgraph.tensor<[4, 40], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.qmatmul' op contracting dims differ: dim 1 of operand 0 is `32` but the rows of operand 1 hold 64 values (types '!maxgraph.tensor<[1, 32], f32>' and '!maxgraph.tensor<[4, 40], ui8>')}}
  %0 = maxgraph.qmatmul q4_1, %x, %w : (!maxgraph.tensor<[1, 32], f32>, !maxgraph.tensor<[4, 40], ui8>) -> !maxgraph.tensor<[1, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @qmatmul_lhs_type(%x: !maxgraph.tensor<[1, 32], bf16>, %w: !maxgraph.tensor<[4, 20], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.qmatmul' op operand 0 has element type 'bf16' but qmatmul multiplies f32 activations (got '!maxgraph.tensor<[1, 32], bf16>')}}
  %0 = maxgraph.qmatmul q4_1, %x, %w : (!maxgraph.tensor<[1, 32], bf16>, !maxgraph.tensor<[4, 20], ui8>) -> !maxgraph.tensor<[1, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @qmatmul_rank(%x: !maxgraph.tensor<[32], f32>, %w: !maxgraph.tensor<[4, 20], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.qmatmul' op operand 0 has rank 1 but qmatmul needs rank 2 or more (got '!maxgraph.tensor<[32], f32>')}}
  %0 = maxgraph.qmatmul q4_1, %x, %w : (!maxgraph.tensor<[32], f32>, !maxgraph.tensor<[4, 20], ui8>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @qmatmul_rhs_rank(%x: !maxgraph.tensor<[1, 32], f32>, %w: !maxgraph.tensor<[2, 4, 20], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.qmatmul' op operand 1 has rank 3 but qmatmul's quantized rhs is a matrix of rows of blocks (got '!maxgraph.tensor<[2, 4, 20], ui8>')}}
  %0 = maxgraph.qmatmul q4_1, %x, %w : (!maxgraph.tensor<[1, 32], f32>, !maxgraph.tensor<[2, 4, 20], ui8>) -> !maxgraph.tensor<[1, 4], f32>
  maxgraph.output
}

// -----

maxgraph.graph @qmatmul_devices(%x: !maxgraph.tensor<[1, 32], f32, gpu:0>, %w: !maxgraph.tensor<[4, 20], ui8>) -> () {
  // expected-error @+1 {{'maxgraph.qmatmul' op operand 1 is on cpu:0 but operand 0 is on gpu:0; transfer it first}}
  %0 = maxgraph.qmatmul q4_1, %x, %w : (!maxgraph.tensor<[1, 32], f32, gpu:0>, !maxgraph.tensor<[4, 20], ui8>) -> !maxgraph.tensor<[1, 4], f32>
  maxgraph.output
}
