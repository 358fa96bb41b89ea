// maxgraph.max and maxgraph.min (docs/Spec.md, "maxgraph.max",
// "maxgraph.min"): NaN propagates from either operand, -0 orders below +0
// in both operand orders, integers compare by signedness.

// RUN: max-run %s --interpret --print | FileCheck %s

// a = [nan, 1,   -0, +0, 1, -inf, 3,   nan]
// b = [1,   nan, +0, -0, 2, inf,  -inf, nan]
// max: NaN if either is NaN; max(-0, +0) = max(+0, -0) = +0.
// CHECK: result 0: !maxgraph.tensor<[8], f32>
// CHECK-NEXT: [{{-?}}nan, {{-?}}nan, 0, 0, 2, inf, 3, {{-?}}nan]
// min: NaN if either is NaN; min(-0, +0) = min(+0, -0) = -0.
// CHECK-NEXT: result 1: !maxgraph.tensor<[8], f32>
// CHECK-NEXT: [{{-?}}nan, {{-?}}nan, -0, -0, 1, -inf, -inf, {{-?}}nan]
// si8 by signedness: max(-1, 0) = 0, max(127, -128) = 127.
// CHECK-NEXT: result 2: !maxgraph.tensor<[2], si8>
// CHECK-NEXT: [0, 127]
// CHECK-NEXT: result 3: !maxgraph.tensor<[2], si8>
// CHECK-NEXT: [-1, -128]
// ui32: 4294967295 is the largest (as signed bits it would be -1).
// CHECK-NEXT: result 4: !maxgraph.tensor<[2], ui32>
// CHECK-NEXT: [4294967295, 1]
// CHECK-NEXT: result 5: !maxgraph.tensor<[2], ui32>
// CHECK-NEXT: [1, 0]
// f64 broadcast against a rank-0 NaN: every element is NaN.
// CHECK-NEXT: result 6: !maxgraph.tensor<[2], f64>
// CHECK-NEXT: [{{-?}}nan, {{-?}}nan]
maxgraph.graph @min_max() -> (!maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], ui32>, !maxgraph.tensor<[2], ui32>, !maxgraph.tensor<[2], f64>) {
  %a = maxgraph.constant dense<[0x7FC00000, 1.0, -0.0, 0.0, 1.0, 0xFF800000, 3.0, 0x7FC00000]> : !maxgraph.tensor<[8], f32>
  %b = maxgraph.constant dense<[1.0, 0x7FC00000, 0.0, -0.0, 2.0, 0x7F800000, 0xFF800000, 0xFFC00000]> : !maxgraph.tensor<[8], f32>
  %0 = maxgraph.max %a, %b : !maxgraph.tensor<[8], f32>
  %1 = maxgraph.min %a, %b : !maxgraph.tensor<[8], f32>
  %c = maxgraph.constant dense<[-1, 127]> : !maxgraph.tensor<[2], si8>
  %d = maxgraph.constant dense<[0, -128]> : !maxgraph.tensor<[2], si8>
  %2 = maxgraph.max %c, %d : !maxgraph.tensor<[2], si8>
  %3 = maxgraph.min %c, %d : !maxgraph.tensor<[2], si8>
  %u = maxgraph.constant dense<[4294967295, 0]> : !maxgraph.tensor<[2], ui32>
  %v = maxgraph.constant dense<[1, 1]> : !maxgraph.tensor<[2], ui32>
  %4 = maxgraph.max %u, %v : !maxgraph.tensor<[2], ui32>
  %5 = maxgraph.min %u, %v : !maxgraph.tensor<[2], ui32>
  %f = maxgraph.constant dense<[1.0, -1.0]> : !maxgraph.tensor<[2], f64>
  %n = maxgraph.constant dense<0x7FF8000000000000> : !maxgraph.tensor<[], f64>
  %6 = maxgraph.max %f, %n : (!maxgraph.tensor<[2], f64>, !maxgraph.tensor<[], f64>) -> !maxgraph.tensor<[2], f64>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], ui32>, !maxgraph.tensor<[2], ui32>, !maxgraph.tensor<[2], f64>
}
