// maxgraph.reduce_sum, reduce_prod and reduce_mean (docs/Spec.md,
// "Reductions over axes"): axes (negative, several, none), keep_dims,
// accumulation in double rounded once, integer wrapping and floor-divided
// means, empty reductions.

// RUN: max-run %s --interpret --print --graph=axes | FileCheck %s --check-prefix=AXES
// RUN: max-run %s --interpret --print --graph=floats | FileCheck %s --check-prefix=FLOAT
// RUN: max-run %s --interpret --print --graph=ints | FileCheck %s --check-prefix=INT
// RUN: max-run %s --interpret --print --graph=empty | FileCheck %s --check-prefix=EMPTY

// x = [[1, 2, 3], [4, 5, 6]] (f32)
// sum over axis 1: [6, 15]; over axis 0 with keep_dims: [[5, 7, 9]];
// over [-1, 0] (both): 21; over [] nothing is reduced: x itself.
// AXES: result 0: !maxgraph.tensor<[2], f32>
// AXES-NEXT: [6, 15]
// AXES-NEXT: result 1: !maxgraph.tensor<[1, 3], f32>
// AXES-NEXT: {{\[\[}}5, 7, 9]]
// AXES-NEXT: result 2: !maxgraph.tensor<[], f32>
// AXES-NEXT: 21
// AXES-NEXT: result 3: !maxgraph.tensor<[2, 3], f32>
// AXES-NEXT: {{\[\[}}1, 2, 3], [4, 5, 6]]
// prod over axis -1: [6, 120], keep_dims: [[6], [120]].
// AXES-NEXT: result 4: !maxgraph.tensor<[2, 1], f32>
// AXES-NEXT: {{\[\[}}6], [120]]
// mean over axis 1: [2, 5]; over axis 0: [2.5, 3.5, 4.5]; over both: 3.5.
// AXES-NEXT: result 5: !maxgraph.tensor<[2], f32>
// AXES-NEXT: [2, 5]
// AXES-NEXT: result 6: !maxgraph.tensor<[3], f32>
// AXES-NEXT: [2.5, 3.5, 4.5]
// AXES-NEXT: result 7: !maxgraph.tensor<[], f32>
// AXES-NEXT: 3.5
// Rank 3, axes [0, 2] of y[i][j][k] = 4i + 2j + k (shape [2, 2, 2]):
// result[j] = sum over i, k = (0 + 1 + 4 + 5) + 2j * 4 = 10 + 8j: [10, 18].
// AXES-NEXT: result 8: !maxgraph.tensor<[2], si32>
// AXES-NEXT: [10, 18]
maxgraph.graph @axes() -> (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[1, 3], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2], si32>) {
  %x = maxgraph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.reduce_sum %x axes = [1] : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[2], f32>
  %1 = maxgraph.reduce_sum %x axes = [0] keep_dims : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[1, 3], f32>
  %2 = maxgraph.reduce_sum %x axes = [-1, 0] : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[], f32>
  %3 = maxgraph.reduce_sum %x axes = [] : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[2, 3], f32>
  %4 = maxgraph.reduce_prod %x axes = [-1] keep_dims : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[2, 1], f32>
  %5 = maxgraph.reduce_mean %x axes = [1] : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[2], f32>
  %6 = maxgraph.reduce_mean %x axes = [0] : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[3], f32>
  %7 = maxgraph.reduce_mean %x axes = [0, 1] : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[], f32>
  %r = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[8], si32>
  %y = maxgraph.reshape %r : !maxgraph.tensor<[8], si32> -> !maxgraph.tensor<[2, 2, 2], si32>
  %8 = maxgraph.reduce_sum %y axes = [0, 2] : !maxgraph.tensor<[2, 2, 2], si32> -> !maxgraph.tensor<[2], si32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8 : !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[1, 3], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2], si32>
}

// Float sums accumulate in double and round once: [2^24, 1, 1] sums to
// 2^24 + 2 = 16777218 (in f32 steps, 2^24 + 1 would round back to 2^24).
// FLOAT: result 0: !maxgraph.tensor<[], f32>
// FLOAT-NEXT: 16777218
// f16 mean of [65504, 65504]: the double sum 131008 / 2 = 65504 (an f16
// sum would overflow to inf).
// FLOAT-NEXT: result 1: !maxgraph.tensor<[], f16>
// FLOAT-NEXT: 65504
// Sums start from +0: a sum of -0s is +0. A product: 1 * -0 * 1 = -0.
// FLOAT-NEXT: result 2: !maxgraph.tensor<[], f32>
// FLOAT-NEXT: 0
// FLOAT-NEXT: result 3: !maxgraph.tensor<[], f32>
// FLOAT-NEXT: -0
// NaN and inf: sum [1, nan] = NaN; sum [inf, -inf] = NaN; prod [inf, 0] = NaN;
// mean [inf, 1] = inf.
// FLOAT-NEXT: result 4: !maxgraph.tensor<[4], f32>
// FLOAT-NEXT: [{{-?}}nan, {{-?}}nan, {{-?}}nan, inf]
// f32 product in double: 1e20 * 1e20 * 1e-20 = 1e20 (an f32 product would
// overflow to inf after the first step).
// FLOAT-NEXT: result 5: !maxgraph.tensor<[], f32>
// FLOAT-NEXT: 1e+20
// axes = [] reduces each element alone, but a sum still starts from +0:
// sum of [-0] is +0 + -0 = +0; a product starts from 1: 1 * -0 = -0; a
// mean is the sum over a count of 1: +0.
// FLOAT-NEXT: result 6: !maxgraph.tensor<[2], f32>
// FLOAT-NEXT: [0, 1]
// FLOAT-NEXT: result 7: !maxgraph.tensor<[2], f32>
// FLOAT-NEXT: [-0, 1]
// FLOAT-NEXT: result 8: !maxgraph.tensor<[2], f32>
// FLOAT-NEXT: [0, 1]
maxgraph.graph @floats() -> (!maxgraph.tensor<[], f32>, !maxgraph.tensor<[], f16>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>) {
  %a = maxgraph.constant dense<[16777216.0, 1.0, 1.0]> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.reduce_sum %a axes = [0] : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[], f32>
  %h = maxgraph.constant dense<65504.0> : !maxgraph.tensor<[2], f16>
  %1 = maxgraph.reduce_mean %h axes = [0] : !maxgraph.tensor<[2], f16> -> !maxgraph.tensor<[], f16>
  %z = maxgraph.constant dense<-0.0> : !maxgraph.tensor<[3], f32>
  %2 = maxgraph.reduce_sum %z axes = [0] : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[], f32>
  %p = maxgraph.constant dense<[1.0, -0.0, 1.0]> : !maxgraph.tensor<[3], f32>
  %3 = maxgraph.reduce_prod %p axes = [0] : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[], f32>
  %n = maxgraph.constant dense<[[1.0, 0x7FC00000], [0x7F800000, 0xFF800000], [0x7F800000, 0.0], [0x7F800000, 1.0]]> : !maxgraph.tensor<[4, 2], f32>
  %s = maxgraph.reduce_sum %n axes = [1] : !maxgraph.tensor<[4, 2], f32> -> !maxgraph.tensor<[4], f32>
  %q = maxgraph.reduce_prod %n axes = [1] : !maxgraph.tensor<[4, 2], f32> -> !maxgraph.tensor<[4], f32>
  %m = maxgraph.reduce_mean %n axes = [1] : !maxgraph.tensor<[4, 2], f32> -> !maxgraph.tensor<[4], f32>
  %s2 = maxgraph.slice %s [0:2] : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[2], f32>
  %q2 = maxgraph.slice %q [2:3] : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[1], f32>
  %m2 = maxgraph.slice %m [3:4] : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[1], f32>
  %4 = maxgraph.concat %s2, %q2, %m2 axis = 0 : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[1], f32>, !maxgraph.tensor<[1], f32>) -> !maxgraph.tensor<[4], f32>
  %big = maxgraph.constant dense<[1.0e20, 1.0e20, 1.0e-20]> : !maxgraph.tensor<[3], f32>
  %5 = maxgraph.reduce_prod %big axes = [0] : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[], f32>
  %nz = maxgraph.constant dense<[-0.0, 1.0]> : !maxgraph.tensor<[2], f32>
  %6 = maxgraph.reduce_sum %nz axes = [] : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[2], f32>
  %7 = maxgraph.reduce_prod %nz axes = [] : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[2], f32>
  %8 = maxgraph.reduce_mean %nz axes = [] : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8 : !maxgraph.tensor<[], f32>, !maxgraph.tensor<[], f16>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>
}

// Integer sums and products wrap: si8 127 + 1 = -128; ui8 16 * 16 = 0.
// INT: result 0: !maxgraph.tensor<[], si8>
// INT-NEXT: -128
// INT-NEXT: result 1: !maxgraph.tensor<[], ui8>
// INT-NEXT: 0
// Integer means floor-divide the 64-bit sum by the count:
// [-7, 0] -> -7 // 2 = -4; [7, 0] -> 3; [-1, -1, -1, 0] -> -3 // 4 = -1.
// INT-NEXT: result 2: !maxgraph.tensor<[3], si32>
// INT-NEXT: [-4, 3, -1]
// The sum is 64-bit, not the element width: si8 [127, 127, 127] sums to
// 381, 381 // 3 = 127; ui8 [255, 255] sums to 510, 510 // 2 = 255.
// INT-NEXT: result 3: !maxgraph.tensor<[], si8>
// INT-NEXT: 127
// INT-NEXT: result 4: !maxgraph.tensor<[], ui8>
// INT-NEXT: 255
// The 64-bit sum itself wraps: si64 [INT64_MAX, 1] sums to 2^63, which
// wraps to INT64_MIN = -2^63, and -2^63 // 2 = -2^62; ui64 [2^64 - 1,
// 2^64 - 1] sums to 2^65 - 2, which wraps to 2^64 - 2, and (2^64 - 2) / 2
// = 2^63 - 1.
// INT-NEXT: result 5: !maxgraph.tensor<[], si64>
// INT-NEXT: -4611686018427387904
// INT-NEXT: result 6: !maxgraph.tensor<[], ui64>
// INT-NEXT: 9223372036854775807
// si64 products wrap: 2^32 * 2^32 = 2^64 -> 0; 2^62 * -2 = -2^63 (fits).
// INT-NEXT: result 7: !maxgraph.tensor<[2], si64>
// INT-NEXT: [0, -9223372036854775808]
maxgraph.graph @ints() -> (!maxgraph.tensor<[], si8>, !maxgraph.tensor<[], ui8>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[], si8>, !maxgraph.tensor<[], ui8>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], ui64>, !maxgraph.tensor<[2], si64>) {
  %a = maxgraph.constant dense<[127, 1]> : !maxgraph.tensor<[2], si8>
  %0 = maxgraph.reduce_sum %a axes = [0] : !maxgraph.tensor<[2], si8> -> !maxgraph.tensor<[], si8>
  %b = maxgraph.constant dense<16> : !maxgraph.tensor<[2], ui8>
  %1 = maxgraph.reduce_prod %b axes = [0] : !maxgraph.tensor<[2], ui8> -> !maxgraph.tensor<[], ui8>
  %c = maxgraph.constant dense<[[-7, 0, 0, 0], [7, 0, 0, 0], [-1, -1, -1, 0]]> : !maxgraph.tensor<[3, 4], si32>
  %c0 = maxgraph.slice %c [0:1, 0:2] : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[1, 2], si32>
  %c1 = maxgraph.slice %c [1:2, 0:2] : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[1, 2], si32>
  %c2 = maxgraph.slice %c [2:3, :] : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[1, 4], si32>
  %m0 = maxgraph.reduce_mean %c0 axes = [1] : !maxgraph.tensor<[1, 2], si32> -> !maxgraph.tensor<[1], si32>
  %m1 = maxgraph.reduce_mean %c1 axes = [1] : !maxgraph.tensor<[1, 2], si32> -> !maxgraph.tensor<[1], si32>
  %m2 = maxgraph.reduce_mean %c2 axes = [1] : !maxgraph.tensor<[1, 4], si32> -> !maxgraph.tensor<[1], si32>
  %2 = maxgraph.concat %m0, %m1, %m2 axis = 0 : (!maxgraph.tensor<[1], si32>, !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[3], si32>
  %d = maxgraph.constant dense<127> : !maxgraph.tensor<[3], si8>
  %3 = maxgraph.reduce_mean %d axes = [0] : !maxgraph.tensor<[3], si8> -> !maxgraph.tensor<[], si8>
  %e = maxgraph.constant dense<255> : !maxgraph.tensor<[2], ui8>
  %4 = maxgraph.reduce_mean %e axes = [0] : !maxgraph.tensor<[2], ui8> -> !maxgraph.tensor<[], ui8>
  %f = maxgraph.constant dense<[9223372036854775807, 1]> : !maxgraph.tensor<[2], si64>
  %5 = maxgraph.reduce_mean %f axes = [0] : !maxgraph.tensor<[2], si64> -> !maxgraph.tensor<[], si64>
  %g = maxgraph.constant dense<18446744073709551615> : !maxgraph.tensor<[2], ui64>
  %6 = maxgraph.reduce_mean %g axes = [0] : !maxgraph.tensor<[2], ui64> -> !maxgraph.tensor<[], ui64>
  %h = maxgraph.constant dense<[[4294967296, 4294967296], [4611686018427387904, -2]]> : !maxgraph.tensor<[2, 2], si64>
  %7 = maxgraph.reduce_prod %h axes = [1] : !maxgraph.tensor<[2, 2], si64> -> !maxgraph.tensor<[2], si64>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7 : !maxgraph.tensor<[], si8>, !maxgraph.tensor<[], ui8>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[], si8>, !maxgraph.tensor<[], ui8>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], ui64>, !maxgraph.tensor<[2], si64>
}

// Empty reductions: sum 0 (+0.0), prod 1, mean NaN (0 / 0) for floats and
// 0 (0 // 0) for integers.
// EMPTY: result 0: !maxgraph.tensor<[2], f32>
// EMPTY-NEXT: [0, 0]
// EMPTY-NEXT: result 1: !maxgraph.tensor<[2], f32>
// EMPTY-NEXT: [1, 1]
// EMPTY-NEXT: result 2: !maxgraph.tensor<[2], f32>
// EMPTY-NEXT: [{{-?}}nan, {{-?}}nan]
// EMPTY-NEXT: result 3: !maxgraph.tensor<[3], si32>
// EMPTY-NEXT: [0, 0, 0]
// EMPTY-NEXT: result 4: !maxgraph.tensor<[3], si32>
// EMPTY-NEXT: [1, 1, 1]
// EMPTY-NEXT: result 5: !maxgraph.tensor<[3], si32>
// EMPTY-NEXT: [0, 0, 0]
// Reducing the non-empty axis of a [2, 0] tensor gives an empty [0].
// EMPTY-NEXT: result 6: !maxgraph.tensor<[0], f32>
// EMPTY-NEXT: []
maxgraph.graph @empty() -> (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[0], f32>) {
  %f = maxgraph.constant dense<> : !maxgraph.tensor<[2, 0], f32>
  %0 = maxgraph.reduce_sum %f axes = [1] : !maxgraph.tensor<[2, 0], f32> -> !maxgraph.tensor<[2], f32>
  %1 = maxgraph.reduce_prod %f axes = [1] : !maxgraph.tensor<[2, 0], f32> -> !maxgraph.tensor<[2], f32>
  %2 = maxgraph.reduce_mean %f axes = [1] : !maxgraph.tensor<[2, 0], f32> -> !maxgraph.tensor<[2], f32>
  %i = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], si32>
  %3 = maxgraph.reduce_sum %i axes = [0] : !maxgraph.tensor<[0, 3], si32> -> !maxgraph.tensor<[3], si32>
  %4 = maxgraph.reduce_prod %i axes = [0] : !maxgraph.tensor<[0, 3], si32> -> !maxgraph.tensor<[3], si32>
  %5 = maxgraph.reduce_mean %i axes = [0] : !maxgraph.tensor<[0, 3], si32> -> !maxgraph.tensor<[3], si32>
  %6 = maxgraph.reduce_sum %f axes = [0] : !maxgraph.tensor<[2, 0], f32> -> !maxgraph.tensor<[0], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[0], f32>
}
