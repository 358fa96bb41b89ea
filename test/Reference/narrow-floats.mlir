// Elementwise ops on f16 and bf16 (docs/Spec.md, "Floating-point
// numbers"): computed in double and rounded once to the element type,
// with the narrow types' overflow, subnormals and underflow. max-run
// prints f16 and bf16 values as the doubles they equal.

// RUN: max-run %s --interpret --print | FileCheck %s

// f16 exp of [12, 11, 1, -10, -20]: e^12 = 162754.8 overflows (above
// 65520, the midpoint of 65504 and 2^16): inf; e^11 = 59874.14 -> 59872
// (spacing 32); e -> 2.71875 (spacing 2^-9 = 0.00195: 2.71875 is within
// 0.0005 of e); e^-10 = 4.54e-5 is subnormal in f16 (below 2^-14 =
// 6.1e-5), 4.54e-5 / 2^-24 = 761.9 -> 762 * 2^-24 = 4.5418739318847656e-05;
// e^-20 = 2.06e-9 is below half the least subnormal (2^-25 = 2.98e-8): 0.
// CHECK: result 0: !maxgraph.tensor<[5], f16>
// CHECK-NEXT: [inf, 59872, 2.71875, 4.5418739318847656e-05, 0]
// bf16 exp of [1, 88, 89, -10]: e -> 2.71875; e^88 = 1.6516e38 ->
// 1.6548888547522203e+38 (249 * 2^119; spacing 2^119); e^89 = 4.49e38 overflows: inf;
// e^-10 = 4.53999e-5 -> 4.5299530029296875e-05 (8 significant bits).
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], bf16>
// CHECK-NEXT: [2.71875, 1.6548888547522203e+38, inf, 4.5299530029296875e-05]
// 1 / 3: f16 0.333251953125 (= 1365 * 2^-12), bf16 0.333984375 (= 171 * 2^-9);
// 1 / -0 = -inf in both.
// CHECK-NEXT: result 2: !maxgraph.tensor<[2], f16>
// CHECK-NEXT: [0.333251953125, -inf]
// CHECK-NEXT: result 3: !maxgraph.tensor<[2], bf16>
// CHECK-NEXT: [0.333984375, -inf]
// f16 mul: 300 * 300 = 90000 overflows to inf; f16(0.1) * f16(0.1) =
// 0.0999755859375^2 = 0.009995117... -> 0.0099945068359375 (the f16
// spacing there is 2^-17 = 7.6e-6).
// CHECK-NEXT: result 4: !maxgraph.tensor<[2], f16>
// CHECK-NEXT: [inf, 0.0099945068359375]
// sqrt(3) = 1.7320508: f16 1.732421875 (spacing 2^-10), bf16 1.734375
// (spacing 2^-7).
// CHECK-NEXT: result 5: !maxgraph.tensor<[], f16>
// CHECK-NEXT: 1.732421875
// CHECK-NEXT: result 6: !maxgraph.tensor<[], bf16>
// CHECK-NEXT: 1.734375
// bf16 sigmoid(1) = 0.7310586 -> 0.73046875 (spacing 2^-8);
// f16 tanh(0.5) = 0.46211716 -> 0.462158203125 (spacing 2^-12).
// CHECK-NEXT: result 7: !maxgraph.tensor<[], bf16>
// CHECK-NEXT: 0.73046875
// CHECK-NEXT: result 8: !maxgraph.tensor<[], f16>
// CHECK-NEXT: 0.462158203125
// f16 mod: f16(5.3) = 5.30078125; fmod(5.30078125, 2) = 1.30078125 exactly.
// CHECK-NEXT: result 9: !maxgraph.tensor<[], f16>
// CHECK-NEXT: 1.30078125
maxgraph.graph @narrow() -> (!maxgraph.tensor<[5], f16>, !maxgraph.tensor<[4], bf16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[2], bf16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[], f16>, !maxgraph.tensor<[], bf16>, !maxgraph.tensor<[], bf16>, !maxgraph.tensor<[], f16>, !maxgraph.tensor<[], f16>) {
  %e16 = maxgraph.constant dense<[12.0, 11.0, 1.0, -10.0, -20.0]> : !maxgraph.tensor<[5], f16>
  %0 = maxgraph.exp %e16 : !maxgraph.tensor<[5], f16>
  %eb = maxgraph.constant dense<[1.0, 88.0, 89.0, -10.0]> : !maxgraph.tensor<[4], bf16>
  %1 = maxgraph.exp %eb : !maxgraph.tensor<[4], bf16>
  %n16 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2], f16>
  %d16 = maxgraph.constant dense<[3.0, -0.0]> : !maxgraph.tensor<[2], f16>
  %2 = maxgraph.div %n16, %d16 : !maxgraph.tensor<[2], f16>
  %nb = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2], bf16>
  %db = maxgraph.constant dense<[3.0, -0.0]> : !maxgraph.tensor<[2], bf16>
  %3 = maxgraph.div %nb, %db : !maxgraph.tensor<[2], bf16>
  %m = maxgraph.constant dense<[300.0, 0.1]> : !maxgraph.tensor<[2], f16>
  %4 = maxgraph.mul %m, %m : !maxgraph.tensor<[2], f16>
  %t16 = maxgraph.constant dense<3.0> : !maxgraph.tensor<[], f16>
  %5 = maxgraph.sqrt %t16 : !maxgraph.tensor<[], f16>
  %tb = maxgraph.constant dense<3.0> : !maxgraph.tensor<[], bf16>
  %6 = maxgraph.sqrt %tb : !maxgraph.tensor<[], bf16>
  %ob = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], bf16>
  %7 = maxgraph.sigmoid %ob : !maxgraph.tensor<[], bf16>
  %h = maxgraph.constant dense<0.5> : !maxgraph.tensor<[], f16>
  %8 = maxgraph.tanh %h : !maxgraph.tensor<[], f16>
  %a = maxgraph.constant dense<5.3> : !maxgraph.tensor<[], f16>
  %two = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f16>
  %9 = maxgraph.mod %a, %two : !maxgraph.tensor<[], f16>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !maxgraph.tensor<[5], f16>, !maxgraph.tensor<[4], bf16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[2], bf16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[], f16>, !maxgraph.tensor<[], bf16>, !maxgraph.tensor<[], bf16>, !maxgraph.tensor<[], f16>, !maxgraph.tensor<[], f16>
}
