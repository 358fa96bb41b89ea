// maxgraph.neg, abs and relu (docs/Spec.md, "maxgraph.neg", "maxgraph.abs",
// "maxgraph.relu"): signs of zeros, NaN, INT_MIN wrapping, unsigned types.

// RUN: max-run %s --interpret --print | FileCheck %s

// x = [+0, -0, 1.5, -inf, nan]
// neg flips every sign, zeros included.
// CHECK: result 0: !maxgraph.tensor<[5], f32>
// CHECK-NEXT: [-0, 0, -1.5, inf, {{-?}}nan]
// abs(-0) = +0, abs(-inf) = inf, NaN stays NaN.
// CHECK-NEXT: result 1: !maxgraph.tensor<[5], f32>
// CHECK-NEXT: [0, 0, 1.5, inf, {{-?}}nan]
// relu: x where x > 0 or NaN, else +0: relu(-0) = +0, relu(-inf) = +0.
// CHECK-NEXT: result 2: !maxgraph.tensor<[5], f32>
// CHECK-NEXT: [0, 0, 1.5, 0, {{-?}}nan]
// si8 x = [-128, -1, 0, 127]: neg(INT_MIN) = INT_MIN, abs(INT_MIN) = INT_MIN.
// CHECK-NEXT: result 3: !maxgraph.tensor<[4], si8>
// CHECK-NEXT: [-128, 1, 0, -127]
// CHECK-NEXT: result 4: !maxgraph.tensor<[4], si8>
// CHECK-NEXT: [-128, 1, 0, 127]
// CHECK-NEXT: result 5: !maxgraph.tensor<[4], si8>
// CHECK-NEXT: [0, 0, 0, 127]
// ui8 x = [0, 1, 255]: neg(x) = 256 - x for x != 0; abs and relu are x.
// CHECK-NEXT: result 6: !maxgraph.tensor<[3], ui8>
// CHECK-NEXT: [0, 255, 1]
// CHECK-NEXT: result 7: !maxgraph.tensor<[3], ui8>
// CHECK-NEXT: [0, 1, 255]
// CHECK-NEXT: result 8: !maxgraph.tensor<[3], ui8>
// CHECK-NEXT: [0, 1, 255]
// bf16: neg [+0, 2.5] = [-0, -2.5]; abs [-0, -2.5] = [+0, 2.5].
// CHECK-NEXT: result 9: !maxgraph.tensor<[2], bf16>
// CHECK-NEXT: [-0, -2.5]
// CHECK-NEXT: result 10: !maxgraph.tensor<[2], bf16>
// CHECK-NEXT: [0, 2.5]
maxgraph.graph @neg_abs_relu() -> (!maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[2], bf16>, !maxgraph.tensor<[2], bf16>) {
  %x = maxgraph.constant dense<[0.0, -0.0, 1.5, 0xFF800000, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %0 = maxgraph.neg %x : !maxgraph.tensor<[5], f32>
  %1 = maxgraph.abs %x : !maxgraph.tensor<[5], f32>
  %2 = maxgraph.relu %x : !maxgraph.tensor<[5], f32>
  %i = maxgraph.constant dense<[-128, -1, 0, 127]> : !maxgraph.tensor<[4], si8>
  %3 = maxgraph.neg %i : !maxgraph.tensor<[4], si8>
  %4 = maxgraph.abs %i : !maxgraph.tensor<[4], si8>
  %5 = maxgraph.relu %i : !maxgraph.tensor<[4], si8>
  %u = maxgraph.constant dense<[0, 1, 255]> : !maxgraph.tensor<[3], ui8>
  %6 = maxgraph.neg %u : !maxgraph.tensor<[3], ui8>
  %7 = maxgraph.abs %u : !maxgraph.tensor<[3], ui8>
  %8 = maxgraph.relu %u : !maxgraph.tensor<[3], ui8>
  %b = maxgraph.constant dense<[-0.0, -2.5]> : !maxgraph.tensor<[2], bf16>
  %n = maxgraph.constant dense<[0.0, 2.5]> : !maxgraph.tensor<[2], bf16>
  %9 = maxgraph.neg %n : !maxgraph.tensor<[2], bf16>
  %10 = maxgraph.abs %b : !maxgraph.tensor<[2], bf16>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[2], bf16>, !maxgraph.tensor<[2], bf16>
}
