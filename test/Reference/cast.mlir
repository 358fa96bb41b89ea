// maxgraph.cast between integer, float and bool types (docs/Spec.md,
// "maxgraph.cast"): float to integer truncates and saturates (NaN is 0),
// integer to integer wraps by the source's signedness, `x != 0` to bool,
// integers to floats rounded once. Float-to-float rounding is in
// cast-float-rounding.mlir.

// RUN: max-run %s --interpret --print --graph=float_to_int | FileCheck %s --check-prefix=F2I
// RUN: max-run %s --interpret --print --graph=int_to_int | FileCheck %s --check-prefix=I2I
// RUN: max-run %s --interpret --print --graph=bools | FileCheck %s --check-prefix=BOOL
// RUN: max-run %s --interpret --print --graph=int_to_float | FileCheck %s --check-prefix=I2F

// Truncated toward zero, then saturated; NaN gives 0, +-inf the max and min.
// f32 -> si8: [1.9, -1.9, 127.5, 128, -129, 1e10, -inf, inf, nan, -0.5, -128.9]
//   trunc: 1, -1, 127, 128 -> 127, -129 -> -128, 127, -128, 127, 0, 0, -128
// F2I: result 0: !maxgraph.tensor<[11], si8>
// F2I-NEXT: [1, -1, 127, 127, -128, 127, -128, 127, 0, 0, -128]
// f32 -> ui8: [-1, -0.5, 255.9, 256, nan, inf, -inf, 3.99]
//   -1 saturates to 0 (not 255); -0.5 truncates to 0.
// F2I-NEXT: result 1: !maxgraph.tensor<[8], ui8>
// F2I-NEXT: [0, 0, 255, 255, 0, 255, 0, 3]
// f64 -> si64: [9.3e18, -9.3e18, 2^63, -2^63, 1e15 + 0.5, -2.5]
//   2^63 is one above INT64_MAX: saturates.
// F2I-NEXT: result 2: !maxgraph.tensor<[6], si64>
// F2I-NEXT: [9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808, 1000000000000000, -2]
// f64 -> ui64: [2^64, -1, 2^63, nan, 2^64 - 2048 (the largest double below 2^64)]
// F2I-NEXT: result 3: !maxgraph.tensor<[5], ui64>
// F2I-NEXT: [18446744073709551615, 0, 9223372036854775808, 0, 18446744073709549568]
// f32 -> si32: [2^31 - 128 (exact in f32), 2^31, -2^31, -2^31 - 256]
// F2I-NEXT: result 4: !maxgraph.tensor<[4], si32>
// F2I-NEXT: [2147483520, 2147483647, -2147483648, -2147483648]
// bf16 -> si16: [2^15, -2^15, 1.5, -inf]; f16 -> ui16: [inf, 65504, -inf].
// F2I-NEXT: result 5: !maxgraph.tensor<[4], si16>
// F2I-NEXT: [32767, -32768, 1, -32768]
// F2I-NEXT: result 6: !maxgraph.tensor<[3], ui16>
// F2I-NEXT: [65535, 65504, 0]
maxgraph.graph @float_to_int() -> (!maxgraph.tensor<[11], si8>, !maxgraph.tensor<[8], ui8>, !maxgraph.tensor<[6], si64>, !maxgraph.tensor<[5], ui64>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si16>, !maxgraph.tensor<[3], ui16>) {
  %a = maxgraph.constant dense<[1.9, -1.9, 127.5, 128.0, -129.0, 1.0e10, 0xFF800000, 0x7F800000, 0x7FC00000, -0.5, -128.9]> : !maxgraph.tensor<[11], f32>
  %0 = maxgraph.cast %a : !maxgraph.tensor<[11], f32> to !maxgraph.tensor<[11], si8>
  %b = maxgraph.constant dense<[-1.0, -0.5, 255.9, 256.0, 0x7FC00000, 0x7F800000, 0xFF800000, 3.99]> : !maxgraph.tensor<[8], f32>
  %1 = maxgraph.cast %b : !maxgraph.tensor<[8], f32> to !maxgraph.tensor<[8], ui8>
  %c = maxgraph.constant dense<[9.3e18, -9.3e18, 9223372036854775808.0, -9223372036854775808.0, 1000000000000000.5, -2.5]> : !maxgraph.tensor<[6], f64>
  %2 = maxgraph.cast %c : !maxgraph.tensor<[6], f64> to !maxgraph.tensor<[6], si64>
  %d = maxgraph.constant dense<[18446744073709551616.0, -1.0, 9223372036854775808.0, 0x7FF8000000000000, 18446744073709549568.0]> : !maxgraph.tensor<[5], f64>
  %3 = maxgraph.cast %d : !maxgraph.tensor<[5], f64> to !maxgraph.tensor<[5], ui64>
  %e = maxgraph.constant dense<[2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0]> : !maxgraph.tensor<[4], f32>
  %4 = maxgraph.cast %e : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], si32>
  %f = maxgraph.constant dense<[32768.0, -32768.0, 1.5, 0xFF80]> : !maxgraph.tensor<[4], bf16>
  %5 = maxgraph.cast %f : !maxgraph.tensor<[4], bf16> to !maxgraph.tensor<[4], si16>
  %g = maxgraph.constant dense<[0x7C00, 65504.0, 0xFC00]> : !maxgraph.tensor<[3], f16>
  %6 = maxgraph.cast %g : !maxgraph.tensor<[3], f16> to !maxgraph.tensor<[3], ui16>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[11], si8>, !maxgraph.tensor<[8], ui8>, !maxgraph.tensor<[6], si64>, !maxgraph.tensor<[5], ui64>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si16>, !maxgraph.tensor<[3], ui16>
}

// Wrapped to the target width; a widening cast extends by the source's
// signedness.
// si8 -1 -> ui32: sign-extended, 2^32 - 1.
// I2I: result 0: !maxgraph.tensor<[2], ui32>
// I2I-NEXT: [4294967295, 127]
// ui8 255 -> si32: zero-extended, 255.
// I2I-NEXT: result 1: !maxgraph.tensor<[2], si32>
// I2I-NEXT: [255, 128]
// si32 -> si8: 300 - 256 = 44; -129 + 256 = 127; 128 - 256 = -128.
// I2I-NEXT: result 2: !maxgraph.tensor<[3], si8>
// I2I-NEXT: [44, 127, -128]
// ui32 4294967295 -> si64: 4294967295 (zero-extended).
// I2I-NEXT: result 3: !maxgraph.tensor<[], si64>
// I2I-NEXT: 4294967295
// si64 -> ui16: -1 -> 65535; 65536 -> 0; -65535 -> 1.
// I2I-NEXT: result 4: !maxgraph.tensor<[3], ui16>
// I2I-NEXT: [65535, 0, 1]
// ui64 2^64 - 1 -> si8: the low byte 0xFF = -1; si16 -32768 -> ui8: low byte 0.
// I2I-NEXT: result 5: !maxgraph.tensor<[], si8>
// I2I-NEXT: -1
// I2I-NEXT: result 6: !maxgraph.tensor<[], ui8>
// I2I-NEXT: 0
// si8 -128 -> si64 (sign-extended) and -> ui8 (128).
// I2I-NEXT: result 7: !maxgraph.tensor<[], si64>
// I2I-NEXT: -128
// I2I-NEXT: result 8: !maxgraph.tensor<[], ui8>
// I2I-NEXT: 128
maxgraph.graph @int_to_int() -> (!maxgraph.tensor<[2], ui32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[3], ui16>, !maxgraph.tensor<[], si8>, !maxgraph.tensor<[], ui8>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], ui8>) {
  %a = maxgraph.constant dense<[-1, 127]> : !maxgraph.tensor<[2], si8>
  %0 = maxgraph.cast %a : !maxgraph.tensor<[2], si8> to !maxgraph.tensor<[2], ui32>
  %b = maxgraph.constant dense<[255, 128]> : !maxgraph.tensor<[2], ui8>
  %1 = maxgraph.cast %b : !maxgraph.tensor<[2], ui8> to !maxgraph.tensor<[2], si32>
  %c = maxgraph.constant dense<[300, -129, 128]> : !maxgraph.tensor<[3], si32>
  %2 = maxgraph.cast %c : !maxgraph.tensor<[3], si32> to !maxgraph.tensor<[3], si8>
  %d = maxgraph.constant dense<4294967295> : !maxgraph.tensor<[], ui32>
  %3 = maxgraph.cast %d : !maxgraph.tensor<[], ui32> to !maxgraph.tensor<[], si64>
  %e = maxgraph.constant dense<[-1, 65536, -65535]> : !maxgraph.tensor<[3], si64>
  %4 = maxgraph.cast %e : !maxgraph.tensor<[3], si64> to !maxgraph.tensor<[3], ui16>
  %f = maxgraph.constant dense<18446744073709551615> : !maxgraph.tensor<[], ui64>
  %5 = maxgraph.cast %f : !maxgraph.tensor<[], ui64> to !maxgraph.tensor<[], si8>
  %g = maxgraph.constant dense<-32768> : !maxgraph.tensor<[], si16>
  %6 = maxgraph.cast %g : !maxgraph.tensor<[], si16> to !maxgraph.tensor<[], ui8>
  %h = maxgraph.constant dense<-128> : !maxgraph.tensor<[], si8>
  %7 = maxgraph.cast %h : !maxgraph.tensor<[], si8> to !maxgraph.tensor<[], si64>
  %8 = maxgraph.cast %h : !maxgraph.tensor<[], si8> to !maxgraph.tensor<[], ui8>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8 : !maxgraph.tensor<[2], ui32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[3], ui16>, !maxgraph.tensor<[], si8>, !maxgraph.tensor<[], ui8>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], ui8>
}

// Any type to i1 is `x != 0`: NaN is true, -0 is false, a subnormal true.
// f32 [nan, -0, 0, 0.1, -inf, 1e-45]
// BOOL: result 0: !maxgraph.tensor<[6], i1>
// BOOL-NEXT: [True, False, False, True, True, True]
// si32 [0, -1, 256, 2]: 256 is true (not truncated to its low bit).
// BOOL-NEXT: result 1: !maxgraph.tensor<[4], i1>
// BOOL-NEXT: [False, True, True, True]
// bf16 [-0, 0.5]
// BOOL-NEXT: result 2: !maxgraph.tensor<[2], i1>
// BOOL-NEXT: [False, True]
// i1 to any type is 0 or 1: true -> si8 1 (not -1), f32 1.0, ui64 1, bf16 1.
// BOOL-NEXT: result 3: !maxgraph.tensor<[2], si8>
// BOOL-NEXT: [1, 0]
// BOOL-NEXT: result 4: !maxgraph.tensor<[2], f32>
// BOOL-NEXT: [1, 0]
// BOOL-NEXT: result 5: !maxgraph.tensor<[2], ui64>
// BOOL-NEXT: [1, 0]
// BOOL-NEXT: result 6: !maxgraph.tensor<[2], bf16>
// BOOL-NEXT: [1, 0]
maxgraph.graph @bools() -> (!maxgraph.tensor<[6], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], bf16>) {
  %a = maxgraph.constant dense<[0x7FC00000, -0.0, 0.0, 0.1, 0xFF800000, 1.0e-45]> : !maxgraph.tensor<[6], f32>
  %0 = maxgraph.cast %a : !maxgraph.tensor<[6], f32> to !maxgraph.tensor<[6], i1>
  %b = maxgraph.constant dense<[0, -1, 256, 2]> : !maxgraph.tensor<[4], si32>
  %1 = maxgraph.cast %b : !maxgraph.tensor<[4], si32> to !maxgraph.tensor<[4], i1>
  %c = maxgraph.constant dense<[-0.0, 0.5]> : !maxgraph.tensor<[2], bf16>
  %2 = maxgraph.cast %c : !maxgraph.tensor<[2], bf16> to !maxgraph.tensor<[2], i1>
  %p = maxgraph.constant dense<[true, false]> : !maxgraph.tensor<[2], i1>
  %3 = maxgraph.cast %p : !maxgraph.tensor<[2], i1> to !maxgraph.tensor<[2], si8>
  %4 = maxgraph.cast %p : !maxgraph.tensor<[2], i1> to !maxgraph.tensor<[2], f32>
  %5 = maxgraph.cast %p : !maxgraph.tensor<[2], i1> to !maxgraph.tensor<[2], ui64>
  %6 = maxgraph.cast %p : !maxgraph.tensor<[2], i1> to !maxgraph.tensor<[2], bf16>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[6], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], bf16>
}

// Integers to floats: the exact integer rounded once to nearest even.
// si32 -> f32: 2^24 + 1 is a tie -> 2^24; 2^24 + 3 is a tie between
// 2^24 + 2 (odd significand) and 2^24 + 4 -> 16777220; -(2^24 + 1) ->
// -16777216; 2^31 - 1 -> 2^31 = 2147483648.
// I2F: result 0: !maxgraph.tensor<[4], f32>
// I2F-NEXT: [16777216, 16777220, -16777216, 2147483648]
// si64 -> f32: INT64_MAX -> 2^63 = 9.223372e+18. 2^60 + 2^36 + 1: the f32
// spacing at 2^60 is 2^37, and the value is just above the midpoint
// 2^60 + 2^36, so it rounds up to 2^60 + 2^37 = 1152921642045800448
// = 1.1529216e+18 (rounding through f64 first would make it the tie
// 2^60 + 2^36 and then 2^60 = 1.1529215e+18).
// -(2^60 + 2^36 + 1) likewise -> -1.1529216e+18.
// I2F-NEXT: result 1: !maxgraph.tensor<[3], f32>
// I2F-NEXT: [9.223372e+18, 1.1529216e+18, -1.1529216e+18]
// si64 2^53 + 1 -> f64: a tie, to even 2^53 = 9007199254740992.
// ui64 2^64 - 1 -> f64: 2^64 = 18446744073709551616.
// I2F-NEXT: result 2: !maxgraph.tensor<[2], f64>
// I2F-NEXT: [9007199254740992, 18446744073709551616]
// ui64 2^64 - 1 -> f16 overflows to inf; ui16 65535 -> f16: above 65520,
// half way between the largest f16 (65504) and 2^16: inf; si8 -128 -> -128.
// I2F-NEXT: result 3: !maxgraph.tensor<[3], f16>
// I2F-NEXT: [inf, inf, -128]
// si32 2^24 + 2^16 + 1 -> bf16: the spacing at 2^24 is 2^17 and the value
// is above the midpoint 2^24 + 2^16: 2^24 + 2^17 = 16908288 (through f32
// it would be the tie 2^24 + 2^16 and then 2^24). ui16 65535 -> bf16:
// spacing 256 at 2^15, 65535 -> 65536. ui8 255 (8 bits) is exact.
// I2F-NEXT: result 4: !maxgraph.tensor<[3], bf16>
// I2F-NEXT: [16908288, 65536, 255]
// ui64 2^63 + 2^39 + 1 -> f32: the spacing at 2^63 is 2^40 and the value
// is just above the midpoint 2^63 + 2^39: 2^63 + 2^40 = 9.223373e+18
// (through f64, 2^63 + 2^39 is a tie that goes to 2^63 = 9.223372e+18).
// I2F-NEXT: result 5: !maxgraph.tensor<[], f32>
// I2F-NEXT: 9.223373e+18
maxgraph.graph @int_to_float() -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[3], f16>, !maxgraph.tensor<[3], bf16>, !maxgraph.tensor<[], f32>) {
  %a = maxgraph.constant dense<[16777217, 16777219, -16777217, 2147483647]> : !maxgraph.tensor<[4], si32>
  %0 = maxgraph.cast %a : !maxgraph.tensor<[4], si32> to !maxgraph.tensor<[4], f32>
  %b = maxgraph.constant dense<[9223372036854775807, 1152921573326323713, -1152921573326323713]> : !maxgraph.tensor<[3], si64>
  %1 = maxgraph.cast %b : !maxgraph.tensor<[3], si64> to !maxgraph.tensor<[3], f32>
  %c0 = maxgraph.constant dense<[9007199254740993]> : !maxgraph.tensor<[1], si64>
  %c1 = maxgraph.constant dense<[18446744073709551615]> : !maxgraph.tensor<[1], ui64>
  %d0 = maxgraph.cast %c0 : !maxgraph.tensor<[1], si64> to !maxgraph.tensor<[1], f64>
  %d1 = maxgraph.cast %c1 : !maxgraph.tensor<[1], ui64> to !maxgraph.tensor<[1], f64>
  %2 = maxgraph.concat %d0, %d1 axis = 0 : (!maxgraph.tensor<[1], f64>, !maxgraph.tensor<[1], f64>) -> !maxgraph.tensor<[2], f64>
  %h0 = maxgraph.cast %c1 : !maxgraph.tensor<[1], ui64> to !maxgraph.tensor<[1], f16>
  %e = maxgraph.constant dense<[65535]> : !maxgraph.tensor<[1], ui16>
  %h1 = maxgraph.cast %e : !maxgraph.tensor<[1], ui16> to !maxgraph.tensor<[1], f16>
  %f = maxgraph.constant dense<[-128]> : !maxgraph.tensor<[1], si8>
  %h2 = maxgraph.cast %f : !maxgraph.tensor<[1], si8> to !maxgraph.tensor<[1], f16>
  %3 = maxgraph.concat %h0, %h1, %h2 axis = 0 : (!maxgraph.tensor<[1], f16>, !maxgraph.tensor<[1], f16>, !maxgraph.tensor<[1], f16>) -> !maxgraph.tensor<[3], f16>
  %g = maxgraph.constant dense<[16842753]> : !maxgraph.tensor<[1], si32>
  %b0 = maxgraph.cast %g : !maxgraph.tensor<[1], si32> to !maxgraph.tensor<[1], bf16>
  %b1 = maxgraph.cast %e : !maxgraph.tensor<[1], ui16> to !maxgraph.tensor<[1], bf16>
  %u = maxgraph.constant dense<[255]> : !maxgraph.tensor<[1], ui8>
  %b2 = maxgraph.cast %u : !maxgraph.tensor<[1], ui8> to !maxgraph.tensor<[1], bf16>
  %4 = maxgraph.concat %b0, %b1, %b2 axis = 0 : (!maxgraph.tensor<[1], bf16>, !maxgraph.tensor<[1], bf16>, !maxgraph.tensor<[1], bf16>) -> !maxgraph.tensor<[3], bf16>
  %w = maxgraph.constant dense<9223372586610589697> : !maxgraph.tensor<[], ui64>
  %5 = maxgraph.cast %w : !maxgraph.tensor<[], ui64> to !maxgraph.tensor<[], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[3], f16>, !maxgraph.tensor<[3], bf16>, !maxgraph.tensor<[], f32>
}
