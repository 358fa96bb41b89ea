// Reference-interpreter tests of maxgraph.add, sub and mul (docs/Spec.md,
// "Binary elementwise ops" and "Scalar semantics"): signed zeros, infinities,
// rounding once to the element type, integer wrapping and broadcasting.
//
// test/Reference/ holds one file per op or small family of ops, in the
// manner of StableHLO's stablehlo/tests/interpret/: each graph builds its
// inputs with maxgraph.constant (or reads .npy files written by
// test/Tools/max-run/Inputs/npy.py), runs under `max-run --interpret
// --print`, and FileChecks values taken from docs/Spec.md or worked out by
// hand in the comments beside them. max-run prints floats as the shortest
// text that reads back as the same value of the element type (f16 and bf16
// as the double they equal), NaN as `nan` (`-nan` with the sign bit set:
// the sign of a computed NaN is unspecified, so those checks accept both),
// bools as True/False.

// RUN: max-run %s --interpret --print --graph=floats | FileCheck %s --check-prefix=FLOAT
// RUN: max-run %s --interpret --print --graph=narrow | FileCheck %s --check-prefix=NARROW
// RUN: max-run %s --interpret --print --graph=ints | FileCheck %s --check-prefix=INT
// RUN: max-run %s --interpret --print --graph=broadcast | FileCheck %s --check-prefix=BCAST
// RUN: not max-run %s --interpret --print --graph=bad_broadcast 2>&1 | FileCheck %s --check-prefix=BAD

// a = [1, -0, -0, 3, inf, inf, 16777216, 0]
// b = [2, -0, +0, -3, -inf, 1, 1, inf]
// add: -0 + -0 = -0; -0 + 0 = +0; x + (-x) = +0; inf + -inf = NaN;
//      2^24 + 1 is a tie in f32, to even: 2^24.
// FLOAT: result 0: !maxgraph.tensor<[8], f32>
// FLOAT-NEXT: [3, -0, 0, 0, {{-?}}nan, inf, 16777216, inf]
// sub: -0 - -0 = +0; -0 - 0 = -0; inf - -inf = inf; 2^24 - 1 is exact.
// FLOAT-NEXT: result 1: !maxgraph.tensor<[8], f32>
// FLOAT-NEXT: [-1, 0, -0, 6, inf, inf, 16777215, -inf]
// sub(a, a): x - x = +0 (also -0 - -0); inf - inf = NaN.
// FLOAT-NEXT: result 2: !maxgraph.tensor<[8], f32>
// FLOAT-NEXT: [0, 0, 0, 0, {{-?}}nan, {{-?}}nan, 0, 0]
// mul: -0 * -0 = +0; -0 * 0 = -0; inf * -inf = -inf; 0 * inf = NaN.
// FLOAT-NEXT: result 3: !maxgraph.tensor<[8], f32>
// FLOAT-NEXT: [2, 0, -0, -9, -inf, inf, 16777216, {{-?}}nan]
// f32(0.1) * f32(0.2) in double = 0.0200000004470348..., rounded once to
// f32: 0.020000001 (shortest).
// FLOAT-NEXT: result 4: !maxgraph.tensor<[], f32>
// FLOAT-NEXT: 0.020000001
maxgraph.graph @floats() -> (!maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[], f32>) {
  %a = maxgraph.constant dense<[1.0, -0.0, -0.0, 3.0, 0x7F800000, 0x7F800000, 16777216.0, 0.0]> : !maxgraph.tensor<[8], f32>
  %b = maxgraph.constant dense<[2.0, -0.0, 0.0, -3.0, 0xFF800000, 1.0, 1.0, 0x7F800000]> : !maxgraph.tensor<[8], f32>
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[8], f32>
  %1 = maxgraph.sub %a, %b : !maxgraph.tensor<[8], f32>
  %2 = maxgraph.sub %a, %a : !maxgraph.tensor<[8], f32>
  %3 = maxgraph.mul %a, %b : !maxgraph.tensor<[8], f32>
  %p = maxgraph.constant dense<0.1> : !maxgraph.tensor<[], f32>
  %q = maxgraph.constant dense<0.2> : !maxgraph.tensor<[], f32>
  %4 = maxgraph.mul %p, %q : !maxgraph.tensor<[], f32>
  maxgraph.output %0, %1, %2, %3, %4 : !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[], f32>
}

// f16: the spacing at 2048 is 2, so 2048 + 1 = 2049 is a tie to even (2048)
// and 2048 + 3 = 2051 a tie between 2050 (odd significand) and 2052: 2052.
// 65504 (the largest f16) + 65504 overflows to inf.
// NARROW: result 0: !maxgraph.tensor<[3], f16>
// NARROW-NEXT: [2048, 2052, inf]
// bf16: the spacing at 256 is 2: 256 + 1 -> 256, 256 + 3 -> 260.
// NARROW-NEXT: result 1: !maxgraph.tensor<[2], bf16>
// NARROW-NEXT: [256, 260]
maxgraph.graph @narrow() -> (!maxgraph.tensor<[3], f16>, !maxgraph.tensor<[2], bf16>) {
  %a = maxgraph.constant dense<[2048.0, 2048.0, 65504.0]> : !maxgraph.tensor<[3], f16>
  %b = maxgraph.constant dense<[1.0, 3.0, 65504.0]> : !maxgraph.tensor<[3], f16>
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[3], f16>
  %c = maxgraph.constant dense<256.0> : !maxgraph.tensor<[2], bf16>
  %d = maxgraph.constant dense<[1.0, 3.0]> : !maxgraph.tensor<[2], bf16>
  %1 = maxgraph.add %c, %d : !maxgraph.tensor<[2], bf16>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3], f16>, !maxgraph.tensor<[2], bf16>
}

// Integers wrap modulo 2^width.
// si8 add: 127 + 1 = -128; -128 + -1 = 127; 100 + 100 = 200 - 256 = -56.
// INT: result 0: !maxgraph.tensor<[4], si8>
// INT-NEXT: [-128, 127, -56, 0]
// si8 sub: 127 - -1 = 128 -> -128; -128 - 1 = -129 -> 127; 100 - -100 -> -56.
// INT-NEXT: result 1: !maxgraph.tensor<[4], si8>
// INT-NEXT: [-128, 127, -56, -2]
// si8 mul: 127 * 2 = 254 -> -2; -128 * -1 = 128 -> -128; 16 * 16 = 256 -> 0.
// INT-NEXT: result 2: !maxgraph.tensor<[4], si8>
// INT-NEXT: [-2, -128, 0, 1]
// ui8 sub: 0 - 1 = 255 (the maximum); 5 - 10 = 251.
// INT-NEXT: result 3: !maxgraph.tensor<[2], ui8>
// INT-NEXT: [255, 251]
// ui8 add: 255 + 1 = 0; 255 + 255 = 510 - 256 = 254.
// INT-NEXT: result 4: !maxgraph.tensor<[2], ui8>
// INT-NEXT: [0, 254]
// ui8 mul: 255 * 1 = 255; 255 * 255 = 65025 = 254 * 256 + 1 -> 1.
// INT-NEXT: result 5: !maxgraph.tensor<[2], ui8>
// INT-NEXT: [255, 1]
// si64: INT64_MAX + 1 = INT64_MIN.
// INT-NEXT: result 6: !maxgraph.tensor<[], si64>
// INT-NEXT: -9223372036854775808
// si32 mul: 65536 * 65536 = 2^32 -> 0; 46341^2 = 2147488281 - 2^32 = -2147479015.
// INT-NEXT: result 7: !maxgraph.tensor<[2], si32>
// INT-NEXT: [0, -2147479015]
maxgraph.graph @ints() -> (!maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], si32>) {
  %a = maxgraph.constant dense<[127, -128, 100, -1]> : !maxgraph.tensor<[4], si8>
  %b = maxgraph.constant dense<[1, -1, 100, 1]> : !maxgraph.tensor<[4], si8>
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[4], si8>
  %c = maxgraph.constant dense<[-1, 1, -100, 1]> : !maxgraph.tensor<[4], si8>
  %1 = maxgraph.sub %a, %c : !maxgraph.tensor<[4], si8>
  %d = maxgraph.constant dense<[127, -128, 16, -1]> : !maxgraph.tensor<[4], si8>
  %e = maxgraph.constant dense<[2, -1, 16, -1]> : !maxgraph.tensor<[4], si8>
  %2 = maxgraph.mul %d, %e : !maxgraph.tensor<[4], si8>
  %u = maxgraph.constant dense<[0, 5]> : !maxgraph.tensor<[2], ui8>
  %v = maxgraph.constant dense<[1, 10]> : !maxgraph.tensor<[2], ui8>
  %3 = maxgraph.sub %u, %v : !maxgraph.tensor<[2], ui8>
  %w = maxgraph.constant dense<255> : !maxgraph.tensor<[2], ui8>
  %x = maxgraph.constant dense<[1, 255]> : !maxgraph.tensor<[2], ui8>
  %4 = maxgraph.add %w, %x : !maxgraph.tensor<[2], ui8>
  %5 = maxgraph.mul %w, %x : !maxgraph.tensor<[2], ui8>
  %big = maxgraph.constant dense<9223372036854775807> : !maxgraph.tensor<[], si64>
  %one = maxgraph.constant dense<1> : !maxgraph.tensor<[], si64>
  %6 = maxgraph.add %big, %one : !maxgraph.tensor<[], si64>
  %f = maxgraph.constant dense<[65536, 46341]> : !maxgraph.tensor<[2], si32>
  %7 = maxgraph.mul %f, %f : !maxgraph.tensor<[2], si32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7 : !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], si32>
}

// Broadcasting (numpy's rule): [2, 1] + [3] -> [2, 3]; a rank-0 operand
// stretches to every element; [1, 3] * [2, 1] -> [2, 3].
// BCAST: result 0: !maxgraph.tensor<[2, 3], si32>
// BCAST-NEXT: {{\[\[}}11, 12, 13], [21, 22, 23]]
// BCAST-NEXT: result 1: !maxgraph.tensor<[3], f32>
// BCAST-NEXT: [0.5, 1.5, 2.5]
// BCAST-NEXT: result 2: !maxgraph.tensor<[2, 3], si32>
// BCAST-NEXT: {{\[\[}}1, 2, 3], [-1, -2, -3]]
// A `?` dim takes its size from its operand at run time: [?] (3 at run
// time) + [1] -> [3].
// BCAST-NEXT: result 3: !maxgraph.tensor<[?], si32>
// BCAST-NEXT: [101, 102, 103]
maxgraph.graph @broadcast() -> (!maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[?], si32>) {
  %col = maxgraph.constant dense<[[10], [20]]> : !maxgraph.tensor<[2, 1], si32>
  %row = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %0 = maxgraph.add %col, %row : (!maxgraph.tensor<[2, 1], si32>, !maxgraph.tensor<[3], si32>) -> !maxgraph.tensor<[2, 3], si32>
  %f = maxgraph.constant dense<[1.0, 2.0, 3.0]> : !maxgraph.tensor<[3], f32>
  %h = maxgraph.constant dense<0.5> : !maxgraph.tensor<[], f32>
  %1 = maxgraph.sub %f, %h : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[3], f32>
  %r = maxgraph.constant dense<[[1, 2, 3]]> : !maxgraph.tensor<[1, 3], si32>
  %s = maxgraph.constant dense<[[1], [-1]]> : !maxgraph.tensor<[2, 1], si32>
  %2 = maxgraph.mul %r, %s : (!maxgraph.tensor<[1, 3], si32>, !maxgraph.tensor<[2, 1], si32>) -> !maxgraph.tensor<[2, 3], si32>
  %q = maxgraph.reshape %row : !maxgraph.tensor<[3], si32> -> !maxgraph.tensor<[?], si32>
  %hundred = maxgraph.constant dense<100> : !maxgraph.tensor<[1], si32>
  %3 = maxgraph.add %q, %hundred : (!maxgraph.tensor<[?], si32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[?], si32>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[?], si32>
}

// A `?` dim that is neither 1 nor the other operand's size is a run-time
// error (docs/Spec.md, "Broadcasting"): [?] (3 at run time) + [2].
// BAD: max-run: error: interpret: maxgraph.add: shapes [3] and [2] cannot broadcast
// BAD-NOT: result
maxgraph.graph @bad_broadcast() -> !maxgraph.tensor<[2], si32> {
  %row = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %q = maxgraph.reshape %row : !maxgraph.tensor<[3], si32> -> !maxgraph.tensor<[?], si32>
  %two = maxgraph.constant dense<[5, 6]> : !maxgraph.tensor<[2], si32>
  %0 = maxgraph.add %q, %two : (!maxgraph.tensor<[?], si32>, !maxgraph.tensor<[2], si32>) -> !maxgraph.tensor<[2], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2], si32>
}
