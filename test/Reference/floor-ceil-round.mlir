// maxgraph.floor, ceil and round (docs/Spec.md, "maxgraph.floor",
// "maxgraph.ceil", "maxgraph.round"): exact, signed zeros kept, round half
// to even (np.round), infinities and NaN unchanged.

// RUN: max-run %s --interpret --print | FileCheck %s

// x = [-0.5, 0.5, 1.5, 2.5, -2.5, -0, +0, inf, -inf, nan, -1.5, 3.7, -3.7, 0.3, -0.3]
// floor: floor(-0.5) = -1, floor(0.3) = +0, floor(-0.3) = -1.
// CHECK: result 0: !maxgraph.tensor<[15], f32>
// CHECK-NEXT: [-1, 0, 1, 2, -3, -0, 0, inf, -inf, {{-?}}nan, -2, 3, -4, 0, -1]
// ceil: ceil(-0.5) = -0 and ceil(-0.3) = -0 (C's ceil keeps the sign).
// CHECK-NEXT: result 1: !maxgraph.tensor<[15], f32>
// CHECK-NEXT: [-0, 1, 2, 3, -2, -0, 0, inf, -inf, {{-?}}nan, -1, 4, -3, 1, -0]
// round, half to even: round(-0.5) = -0, round(0.5) = 0, round(1.5) = 2,
// round(2.5) = 2, round(-2.5) = -2, round(-1.5) = -2, round(-0.3) = -0.
// CHECK-NEXT: result 2: !maxgraph.tensor<[15], f32>
// CHECK-NEXT: [-0, 0, 2, 2, -2, -0, 0, inf, -inf, {{-?}}nan, -2, 4, -4, 0, -0]
// Integral values stay exact: 2^23 + 1 in f32, 2^52 + 1 in f64; f64
// 4503599627370495.5 (2^52 - 0.5) rounds to even: 4503599627370496.
// CHECK-NEXT: result 3: !maxgraph.tensor<[], f32>
// CHECK-NEXT: 8388609
// CHECK-NEXT: result 4: !maxgraph.tensor<[2], f64>
// CHECK-NEXT: [4503599627370497, 4503599627370496]
// bf16 round(2.5) = 2; f16 [-0.5, 2.5]: floor [-1, 2], ceil [-0, 3].
// CHECK-NEXT: result 5: !maxgraph.tensor<[], bf16>
// CHECK-NEXT: 2
// CHECK-NEXT: result 6: !maxgraph.tensor<[2], f16>
// CHECK-NEXT: [-1, 2]
// CHECK-NEXT: result 7: !maxgraph.tensor<[2], f16>
// CHECK-NEXT: [-0, 3]
maxgraph.graph @rounding() -> (!maxgraph.tensor<[15], f32>, !maxgraph.tensor<[15], f32>, !maxgraph.tensor<[15], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[], bf16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[2], f16>) {
  %x = maxgraph.constant dense<[-0.5, 0.5, 1.5, 2.5, -2.5, -0.0, 0.0, 0x7F800000, 0xFF800000, 0x7FC00000, -1.5, 3.7, -3.7, 0.3, -0.3]> : !maxgraph.tensor<[15], f32>
  %0 = maxgraph.floor %x : !maxgraph.tensor<[15], f32>
  %1 = maxgraph.ceil %x : !maxgraph.tensor<[15], f32>
  %2 = maxgraph.round %x : !maxgraph.tensor<[15], f32>
  %i = maxgraph.constant dense<8388609.0> : !maxgraph.tensor<[], f32>
  %3 = maxgraph.round %i : !maxgraph.tensor<[], f32>
  %d = maxgraph.constant dense<[4503599627370497.0, 4503599627370495.5]> : !maxgraph.tensor<[2], f64>
  %4 = maxgraph.round %d : !maxgraph.tensor<[2], f64>
  %b = maxgraph.constant dense<2.5> : !maxgraph.tensor<[], bf16>
  %5 = maxgraph.round %b : !maxgraph.tensor<[], bf16>
  %h = maxgraph.constant dense<[-0.5, 2.5]> : !maxgraph.tensor<[2], f16>
  %6 = maxgraph.floor %h : !maxgraph.tensor<[2], f16>
  %7 = maxgraph.ceil %h : !maxgraph.tensor<[2], f16>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7 : !maxgraph.tensor<[15], f32>, !maxgraph.tensor<[15], f32>, !maxgraph.tensor<[15], f32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[], bf16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[2], f16>
}
