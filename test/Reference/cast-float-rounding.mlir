// maxgraph.cast between float types (docs/Spec.md, "maxgraph.cast" and
// "Floating-point numbers"): rounded once to nearest even, overflow to
// +-inf, underflow to subnormals or zero, NaN, signed zeros and infinities
// kept. Widening casts are exact.

// RUN: max-run %s --interpret --print | FileCheck %s

// f64 -> f32: 1e39 and -1e39 overflow; 0.1 -> f32(0.1); 1e-46 is below half
// the least subnormal (2^-149 = 1.4e-45): +0; 3e-45 -> 2 * 2^-149 = 3e-45
// (shortest); 1 + 2^-24 + 2^-50 is just above the midpoint of 1 and
// 1 + 2^-23: 1.0000001.
// CHECK: result 0: !maxgraph.tensor<[9], f32>
// CHECK-NEXT: [inf, -inf, 0.1, 0, 3e-45, 1.0000001, -0, {{-?}}nan, -inf]
// f64 -> f16: 65519 -> 65504 (below the midpoint 65520 of 65504 and 2^16);
// 65520 is that midpoint: to even, 2^16, which overflows: inf; 1e-8 is
// below half the least subnormal (2^-24 = 5.96e-8): +0; 3e-8 is above
// half: 2^-24 = 5.960464477539063e-08; 1 + 2^-11 + 2^-40 just above the
// midpoint of 1 and 1 + 2^-10: 1.0009765625 (rounding through f32 first
// would give the tie 1 + 2^-11 and then 1).
// CHECK-NEXT: result 1: !maxgraph.tensor<[7], f16>
// CHECK-NEXT: [65504, inf, 0, 5.960464477539063e-08, 1.0009765625, -0, inf]
// f32 -> f16 ties to even: 1 + 2^-11 -> 1; 1 + 3 * 2^-11 -> 1 + 2^-9 =
// 1.001953125; 0.1 -> 0.0999755859375 (the nearest f16).
// CHECK-NEXT: result 2: !maxgraph.tensor<[3], f16>
// CHECK-NEXT: [1, 1.001953125, 0.0999755859375]
// f64 -> bf16: 1 + 2^-8 + 2^-30 -> 1 + 2^-7 = 1.0078125 (once; through
// f32 it would be the tie 1 + 2^-8 and then 1); 1 + 2^-8 is a tie -> 1;
// 3.4e38 is above the midpoint of the largest bf16 (3.3895e38) and 2^128:
// inf; 0.1 -> 0.10009765625.
// CHECK-NEXT: result 3: !maxgraph.tensor<[5], bf16>
// CHECK-NEXT: [1.0078125, 1, inf, 0.10009765625, {{-?}}nan]
// Between the 16-bit types: f16 65504 -> bf16 (spacing 256 at 2^15):
// 65536; f16 1 + 2^-10 -> bf16 (spacing 2^-7): 1; bf16 3.0e5 (299008) ->
// f16 overflows: inf; bf16 -0 -> f16 -0.
// CHECK-NEXT: result 4: !maxgraph.tensor<[2], bf16>
// CHECK-NEXT: [65536, 1]
// CHECK-NEXT: result 5: !maxgraph.tensor<[2], f16>
// CHECK-NEXT: [inf, -0]
// Widening is exact: f16 0.1 (0.0999755859375) -> f32 prints 0.099975586;
// -> f64 prints the exact value.
// CHECK-NEXT: result 6: !maxgraph.tensor<[], f32>
// CHECK-NEXT: 0.099975586
// CHECK-NEXT: result 7: !maxgraph.tensor<[], f64>
// CHECK-NEXT: 0.0999755859375
maxgraph.graph @float_casts() -> (!maxgraph.tensor<[9], f32>, !maxgraph.tensor<[7], f16>, !maxgraph.tensor<[3], f16>, !maxgraph.tensor<[5], bf16>, !maxgraph.tensor<[2], bf16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[], f64>) {
  %a = maxgraph.constant dense<[1.0e39, -1.0e39, 0.1, 1.0e-46, 3.0e-45, 0x3FF0000010000004, -0.0, 0x7FF8000000000000, 0xFFF0000000000000]> : !maxgraph.tensor<[9], f64>
  %0 = maxgraph.cast %a : !maxgraph.tensor<[9], f64> to !maxgraph.tensor<[9], f32>
  %b = maxgraph.constant dense<[65519.0, 65520.0, 1.0e-8, 3.0e-8, 0x3FF0020000001000, -0.0, 0x7FF0000000000000]> : !maxgraph.tensor<[7], f64>
  %1 = maxgraph.cast %b : !maxgraph.tensor<[7], f64> to !maxgraph.tensor<[7], f16>
  %c = maxgraph.constant dense<[1.00048828125, 1.00146484375, 0.1]> : !maxgraph.tensor<[3], f32>
  %2 = maxgraph.cast %c : !maxgraph.tensor<[3], f32> to !maxgraph.tensor<[3], f16>
  %d = maxgraph.constant dense<[0x3FF0100000400000, 1.00390625, 3.4e38, 0.1, 0x7FF8000000000000]> : !maxgraph.tensor<[5], f64>
  %3 = maxgraph.cast %d : !maxgraph.tensor<[5], f64> to !maxgraph.tensor<[5], bf16>
  %e = maxgraph.constant dense<[65504.0, 1.0009765625]> : !maxgraph.tensor<[2], f16>
  %4 = maxgraph.cast %e : !maxgraph.tensor<[2], f16> to !maxgraph.tensor<[2], bf16>
  %f = maxgraph.constant dense<[299008.0, -0.0]> : !maxgraph.tensor<[2], bf16>
  %5 = maxgraph.cast %f : !maxgraph.tensor<[2], bf16> to !maxgraph.tensor<[2], f16>
  %g = maxgraph.constant dense<0.0999755859375> : !maxgraph.tensor<[], f16>
  %6 = maxgraph.cast %g : !maxgraph.tensor<[], f16> to !maxgraph.tensor<[], f32>
  %7 = maxgraph.cast %g : !maxgraph.tensor<[], f16> to !maxgraph.tensor<[], f64>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7 : !maxgraph.tensor<[9], f32>, !maxgraph.tensor<[7], f16>, !maxgraph.tensor<[3], f16>, !maxgraph.tensor<[5], bf16>, !maxgraph.tensor<[2], bf16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[], f64>
}
