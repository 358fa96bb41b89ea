// maxgraph.div and maxgraph.mod (docs/Spec.md, "maxgraph.div",
// "maxgraph.mod"): IEEE float division by zero, floor division and the
// divisor's sign for signed integers, `x / 0 = x % 0 = 0`, INT_MIN // -1.

// RUN: max-run %s --interpret --print --graph=div_float | FileCheck %s --check-prefix=DIVF
// RUN: max-run %s --interpret --print --graph=div_int | FileCheck %s --check-prefix=DIVI
// RUN: max-run %s --interpret --print --graph=mod_float | FileCheck %s --check-prefix=MODF
// RUN: max-run %s --interpret --print --graph=mod_int | FileCheck %s --check-prefix=MODI

// 1 / +0 = inf, 1 / -0 = -inf, -1 / +0 = -inf, 0 / 0 = NaN, inf / inf = NaN,
// 1 / 3 rounded once to f32 = 0.33333334, 7 / 2 = 3.5, -0 / 5 = -0,
// -0 / -5 = +0.
// DIVF: result 0: !maxgraph.tensor<[9], f32>
// DIVF-NEXT: [inf, -inf, -inf, {{-?}}nan, {{-?}}nan, 0.33333334, 3.5, -0, 0]
maxgraph.graph @div_float() -> !maxgraph.tensor<[9], f32> {
  %a = maxgraph.constant dense<[1.0, 1.0, -1.0, 0.0, 0x7F800000, 1.0, 7.0, -0.0, -0.0]> : !maxgraph.tensor<[9], f32>
  %b = maxgraph.constant dense<[0.0, -0.0, 0.0, 0.0, 0x7F800000, 3.0, 2.0, 5.0, -5.0]> : !maxgraph.tensor<[9], f32>
  %0 = maxgraph.div %a, %b : !maxgraph.tensor<[9], f32>
  maxgraph.output %0 : !maxgraph.tensor<[9], f32>
}

// Signed: floor division (Python's //): 7 // 2 = 3, -7 // 2 = -4,
// 7 // -2 = -4, -7 // -2 = 3; x // 0 = 0 (also 0 // 0);
// INT_MIN // -1 = INT_MIN (wraps); INT_MIN // 1 = INT_MIN; -1 // 3 = -1.
// DIVI: result 0: !maxgraph.tensor<[9], si32>
// DIVI-NEXT: [3, -4, -4, 3, 0, 0, -2147483648, -2147483648, -1]
// si8: -128 // -1 = -128; -128 // 0 = 0; 127 // -128 = -1.
// DIVI-NEXT: result 1: !maxgraph.tensor<[3], si8>
// DIVI-NEXT: [-128, 0, -1]
// Unsigned: rounded down; 4294967295 / 2 = 2147483647; x / 0 = 0; 7 / 8 = 0.
// DIVI-NEXT: result 2: !maxgraph.tensor<[4], ui32>
// DIVI-NEXT: [3, 2147483647, 0, 0]
maxgraph.graph @div_int() -> (!maxgraph.tensor<[9], si32>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[4], ui32>) {
  %a = maxgraph.constant dense<[7, -7, 7, -7, 7, 0, -2147483648, -2147483648, -1]> : !maxgraph.tensor<[9], si32>
  %b = maxgraph.constant dense<[2, 2, -2, -2, 0, 0, -1, 1, 3]> : !maxgraph.tensor<[9], si32>
  %0 = maxgraph.div %a, %b : !maxgraph.tensor<[9], si32>
  %c = maxgraph.constant dense<[-128, -128, 127]> : !maxgraph.tensor<[3], si8>
  %d = maxgraph.constant dense<[-1, 0, -128]> : !maxgraph.tensor<[3], si8>
  %1 = maxgraph.div %c, %d : !maxgraph.tensor<[3], si8>
  %u = maxgraph.constant dense<[7, 4294967295, 5, 7]> : !maxgraph.tensor<[4], ui32>
  %v = maxgraph.constant dense<[2, 2, 0, 8]> : !maxgraph.tensor<[4], ui32>
  %2 = maxgraph.div %u, %v : !maxgraph.tensor<[4], ui32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[9], si32>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[4], ui32>
}

// Float mod is numpy's (Python's %), the table of docs/Spec.md row by row:
//   5 % inf = 5, -5 % inf = inf, 3 % -inf = -inf, -3 % -inf = -3,
//   1e17 % 3 = 1 (f64; 1e17 = 2^17 * 5^17 is exact), -0 % 3 = +0,
//   3 % -3 = -0, -1 % 3 = 2,
//   1 % 0 = NaN, 1 % -0 = NaN, inf % 2 = NaN, NaN % 2 = NaN, 1 % NaN = NaN,
// and 5.5 % -2: fmod = 1.5 has the other sign, so 1.5 + -2 = -0.5.
// MODF: result 0: !maxgraph.tensor<[14], f64>
// MODF-NEXT: [5, inf, -inf, -3, 1, 0, -0, 2, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, -0.5]
// Only the correction r + b rounds: in f32, fmod(-1e-8, 1) = -1e-8 (exact),
// then -1e-8 + 1 = 0.99999999 rounds to 1 (the f32 spacing below 1 is 6e-8).
// MODF-NEXT: result 1: !maxgraph.tensor<[], f32>
// MODF-NEXT: 1
maxgraph.graph @mod_float() -> (!maxgraph.tensor<[14], f64>, !maxgraph.tensor<[], f32>) {
  %a = maxgraph.constant dense<[5.0, -5.0, 3.0, -3.0, 1.0e17, -0.0, 3.0, -1.0, 1.0, 1.0, 0x7FF0000000000000, 0x7FF8000000000000, 1.0, 5.5]> : !maxgraph.tensor<[14], f64>
  %b = maxgraph.constant dense<[0x7FF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0xFFF0000000000000, 3.0, 3.0, -3.0, 3.0, 0.0, -0.0, 2.0, 2.0, 0x7FF8000000000000, -2.0]> : !maxgraph.tensor<[14], f64>
  %0 = maxgraph.mod %a, %b : !maxgraph.tensor<[14], f64>
  %c = maxgraph.constant dense<-1.0e-8> : !maxgraph.tensor<[], f32>
  %d = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f32>
  %1 = maxgraph.mod %c, %d : !maxgraph.tensor<[], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[14], f64>, !maxgraph.tensor<[], f32>
}

// Signed: the remainder of floor division, with the divisor's sign:
// 7 % -2 = -1, -7 % 2 = 1, 7 % 2 = 1, -7 % -2 = -1, 5 % 0 = 0,
// INT_MIN % -1 = 0, 6 % -1 = 0, -1 % 3 = 2.
// MODI: result 0: !maxgraph.tensor<[8], si32>
// MODI-NEXT: [-1, 1, 1, -1, 0, 0, 0, 2]
// si8: -128 % -1 = 0; -128 % 0 = 0; 127 % -128 = 127 - 128 = -1.
// MODI-NEXT: result 1: !maxgraph.tensor<[3], si8>
// MODI-NEXT: [0, 0, -1]
// Unsigned: a % b; 255 % 16 = 15; x % 0 = 0.
// MODI-NEXT: result 2: !maxgraph.tensor<[3], ui8>
// MODI-NEXT: [1, 15, 0]
maxgraph.graph @mod_int() -> (!maxgraph.tensor<[8], si32>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[3], ui8>) {
  %a = maxgraph.constant dense<[7, -7, 7, -7, 5, -2147483648, 6, -1]> : !maxgraph.tensor<[8], si32>
  %b = maxgraph.constant dense<[-2, 2, 2, -2, 0, -1, -1, 3]> : !maxgraph.tensor<[8], si32>
  %0 = maxgraph.mod %a, %b : !maxgraph.tensor<[8], si32>
  %c = maxgraph.constant dense<[-128, -128, 127]> : !maxgraph.tensor<[3], si8>
  %d = maxgraph.constant dense<[-1, 0, -128]> : !maxgraph.tensor<[3], si8>
  %1 = maxgraph.mod %c, %d : !maxgraph.tensor<[3], si8>
  %u = maxgraph.constant dense<[7, 255, 5]> : !maxgraph.tensor<[3], ui8>
  %v = maxgraph.constant dense<[2, 16, 0]> : !maxgraph.tensor<[3], ui8>
  %2 = maxgraph.mod %u, %v : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[8], si32>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[3], ui8>
}
