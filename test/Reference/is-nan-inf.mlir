// maxgraph.is_nan and maxgraph.is_inf (docs/Spec.md, "maxgraph.is_nan",
// "maxgraph.is_inf"): NaN of either sign, both infinities, on every float
// type.

// RUN: max-run %s --interpret --print | FileCheck %s

// f32 x = [nan, -nan, inf, -inf, 0, -0, 3.4e38, 1e-45 (subnormal)]
// CHECK: result 0: !maxgraph.tensor<[8], i1>
// CHECK-NEXT: [True, True, False, False, False, False, False, False]
// CHECK-NEXT: result 1: !maxgraph.tensor<[8], i1>
// CHECK-NEXT: [False, False, True, True, False, False, False, False]
// f16 [nan (0x7E00), inf (0x7C00), 65504], bf16 [nan (0xFFC0), -inf (0xFF80), 1],
// f64 [nan, -inf, 1.7976931348623157e308].
// CHECK-NEXT: result 2: !maxgraph.tensor<[3], i1>
// CHECK-NEXT: [True, False, False]
// CHECK-NEXT: result 3: !maxgraph.tensor<[3], i1>
// CHECK-NEXT: [False, True, False]
// CHECK-NEXT: result 4: !maxgraph.tensor<[3], i1>
// CHECK-NEXT: [True, False, False]
// CHECK-NEXT: result 5: !maxgraph.tensor<[3], i1>
// CHECK-NEXT: [False, True, False]
// CHECK-NEXT: result 6: !maxgraph.tensor<[3], i1>
// CHECK-NEXT: [True, False, False]
// CHECK-NEXT: result 7: !maxgraph.tensor<[3], i1>
// CHECK-NEXT: [False, True, False]
maxgraph.graph @is_nan_inf() -> (!maxgraph.tensor<[8], i1>, !maxgraph.tensor<[8], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>) {
  %x = maxgraph.constant dense<[0x7FC00000, 0xFFC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 3.4e38, 1.0e-45]> : !maxgraph.tensor<[8], f32>
  %0 = maxgraph.is_nan %x : !maxgraph.tensor<[8], f32>
  %1 = maxgraph.is_inf %x : !maxgraph.tensor<[8], f32>
  %h = maxgraph.constant dense<[0x7E00, 0x7C00, 65504.0]> : !maxgraph.tensor<[3], f16>
  %2 = maxgraph.is_nan %h : !maxgraph.tensor<[3], f16>
  %3 = maxgraph.is_inf %h : !maxgraph.tensor<[3], f16>
  %b = maxgraph.constant dense<[0xFFC0, 0xFF80, 1.0]> : !maxgraph.tensor<[3], bf16>
  %4 = maxgraph.is_nan %b : !maxgraph.tensor<[3], bf16>
  %5 = maxgraph.is_inf %b : !maxgraph.tensor<[3], bf16>
  %d = maxgraph.constant dense<[0x7FF8000000000000, 0xFFF0000000000000, 1.7976931348623157e308]> : !maxgraph.tensor<[3], f64>
  %6 = maxgraph.is_nan %d : !maxgraph.tensor<[3], f64>
  %7 = maxgraph.is_inf %d : !maxgraph.tensor<[3], f64>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7 : !maxgraph.tensor<[8], i1>, !maxgraph.tensor<[8], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[3], i1>
}
