// maxgraph.cmp (docs/Spec.md, "maxgraph.cmp"): IEEE comparisons (NaN
// compares false except under `ne`, -0 == +0), integers by signedness,
// bools as false < true, broadcasting.

// RUN: max-run %s --interpret --print | FileCheck %s

// a = [nan, nan, 1, -0, 1, 2, -inf]
// b = [nan, 1,   1, +0, 2, 1, inf]
// eq
// CHECK: result 0: !maxgraph.tensor<[7], i1>
// CHECK-NEXT: [False, False, True, True, False, False, False]
// ne
// CHECK-NEXT: result 1: !maxgraph.tensor<[7], i1>
// CHECK-NEXT: [True, True, False, False, True, True, True]
// lt
// CHECK-NEXT: result 2: !maxgraph.tensor<[7], i1>
// CHECK-NEXT: [False, False, False, False, True, False, True]
// le
// CHECK-NEXT: result 3: !maxgraph.tensor<[7], i1>
// CHECK-NEXT: [False, False, True, True, True, False, True]
// gt
// CHECK-NEXT: result 4: !maxgraph.tensor<[7], i1>
// CHECK-NEXT: [False, False, False, False, False, True, False]
// ge
// CHECK-NEXT: result 5: !maxgraph.tensor<[7], i1>
// CHECK-NEXT: [False, False, True, True, False, True, False]
// si8 lt: -1 < 0, not 127 < -128.
// CHECK-NEXT: result 6: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [True, False]
// ui8 lt: 255 < 0 is false (unsigned), 0 < 1.
// CHECK-NEXT: result 7: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [False, True]
// si64 gt: INT64_MIN > INT64_MAX is false; -1 > -2.
// CHECK-NEXT: result 8: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [False, True]
// i1, false < true: [F, T, T, F] lt [T, F, T, F]; then ge.
// CHECK-NEXT: result 9: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [True, False, False, False]
// CHECK-NEXT: result 10: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [False, True, True, True]
// Broadcast: [2, 1] le [3]: [[1], [3]] le [1, 2, 3].
// CHECK-NEXT: result 11: !maxgraph.tensor<[2, 3], i1>
// CHECK-NEXT: {{\[\[}}True, True, True], [False, False, True]]
// f16 -0 eq +0; bf16 NaN ne NaN.
// CHECK-NEXT: result 12: !maxgraph.tensor<[], i1>
// CHECK-NEXT: True
// CHECK-NEXT: result 13: !maxgraph.tensor<[], i1>
// CHECK-NEXT: True
maxgraph.graph @cmp() -> (!maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2, 3], i1>, !maxgraph.tensor<[], i1>, !maxgraph.tensor<[], i1>) {
  %a = maxgraph.constant dense<[0x7FC00000, 0x7FC00000, 1.0, -0.0, 1.0, 2.0, 0xFF800000]> : !maxgraph.tensor<[7], f32>
  %b = maxgraph.constant dense<[0x7FC00000, 1.0, 1.0, 0.0, 2.0, 1.0, 0x7F800000]> : !maxgraph.tensor<[7], f32>
  %0 = maxgraph.cmp eq, %a, %b : !maxgraph.tensor<[7], f32>
  %1 = maxgraph.cmp ne, %a, %b : !maxgraph.tensor<[7], f32>
  %2 = maxgraph.cmp lt, %a, %b : !maxgraph.tensor<[7], f32>
  %3 = maxgraph.cmp le, %a, %b : !maxgraph.tensor<[7], f32>
  %4 = maxgraph.cmp gt, %a, %b : !maxgraph.tensor<[7], f32>
  %5 = maxgraph.cmp ge, %a, %b : !maxgraph.tensor<[7], f32>
  %c = maxgraph.constant dense<[-1, 127]> : !maxgraph.tensor<[2], si8>
  %d = maxgraph.constant dense<[0, -128]> : !maxgraph.tensor<[2], si8>
  %6 = maxgraph.cmp lt, %c, %d : !maxgraph.tensor<[2], si8>
  %u = maxgraph.constant dense<[255, 0]> : !maxgraph.tensor<[2], ui8>
  %v = maxgraph.constant dense<[0, 1]> : !maxgraph.tensor<[2], ui8>
  %7 = maxgraph.cmp lt, %u, %v : !maxgraph.tensor<[2], ui8>
  %e = maxgraph.constant dense<[-9223372036854775808, -1]> : !maxgraph.tensor<[2], si64>
  %f = maxgraph.constant dense<[9223372036854775807, -2]> : !maxgraph.tensor<[2], si64>
  %8 = maxgraph.cmp gt, %e, %f : !maxgraph.tensor<[2], si64>
  %p = maxgraph.constant dense<[false, true, true, false]> : !maxgraph.tensor<[4], i1>
  %q = maxgraph.constant dense<[true, false, true, false]> : !maxgraph.tensor<[4], i1>
  %9 = maxgraph.cmp lt, %p, %q : !maxgraph.tensor<[4], i1>
  %10 = maxgraph.cmp ge, %p, %q : !maxgraph.tensor<[4], i1>
  %col = maxgraph.constant dense<[[1], [3]]> : !maxgraph.tensor<[2, 1], si32>
  %row = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %11 = maxgraph.cmp le, %col, %row : (!maxgraph.tensor<[2, 1], si32>, !maxgraph.tensor<[3], si32>) -> !maxgraph.tensor<[2, 3], i1>
  %nz = maxgraph.constant dense<-0.0> : !maxgraph.tensor<[], f16>
  %pz = maxgraph.constant dense<0.0> : !maxgraph.tensor<[], f16>
  %12 = maxgraph.cmp eq, %nz, %pz : !maxgraph.tensor<[], f16>
  %bn = maxgraph.constant dense<0x7FC0> : !maxgraph.tensor<[], bf16>
  %13 = maxgraph.cmp ne, %bn, %bn : !maxgraph.tensor<[], bf16>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[7], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2, 3], i1>, !maxgraph.tensor<[], i1>, !maxgraph.tensor<[], i1>
}
