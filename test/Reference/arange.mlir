// maxgraph.arange (docs/Spec.md, "maxgraph.arange"): element i is
// start + i * step, in 64-bit integers wrapped to the element type, or in
// double rounded once to a float type; lengths static, empty and symbolic.

// RUN: max-run %s --interpret --print --graph=arange | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/three.npy '<f4' 3 0 0 0
// RUN: max-run %s --interpret --print --graph=symbolic --input=%t/three.npy | FileCheck %s --check-prefix=SYMBOLIC

// si64 start 0 step 1, length 5.
// CHECK: result 0: !maxgraph.tensor<[5], si64>
// CHECK-NEXT: [0, 1, 2, 3, 4]
// f32 start -0.5 step 0.25: [-0.5, -0.25, 0, 0.25, 0.5] (-0.5 + 2 * 0.25 = +0).
// CHECK-NEXT: result 1: !maxgraph.tensor<[5], f32>
// CHECK-NEXT: [-0.5, -0.25, 0, 0.25, 0.5]
// Integers wrap like an integer cast: ui8 from 253 counts 253, 254, 255, 0, 1;
// ui8 from -2: 254, 255, 0; si8 120 step 5: 120, 125, 130 - 256 = -126;
// si32 from INT32_MAX step 1: INT32_MAX, INT32_MIN.
// CHECK-NEXT: result 2: !maxgraph.tensor<[5], ui8>
// CHECK-NEXT: [253, 254, 255, 0, 1]
// CHECK-NEXT: result 3: !maxgraph.tensor<[3], ui8>
// CHECK-NEXT: [254, 255, 0]
// CHECK-NEXT: result 4: !maxgraph.tensor<[3], si8>
// CHECK-NEXT: [120, 125, -126]
// CHECK-NEXT: result 5: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [2147483647, -2147483648]
// si64 start 2^53 step -2^53 (the largest magnitudes allowed).
// CHECK-NEXT: result 6: !maxgraph.tensor<[3], si64>
// CHECK-NEXT: [9007199254740992, 0, -9007199254740992]
// f16 start 0 step 0.1, each element i * 0.1 (in double) rounded once to
// f16: 0.1 -> 0.0999755859375, 0.2 -> 0.199951171875, 0.30000000000000004
// -> 0.300048828125, ..., 1.0000000000000002 -> 1.
// CHECK-NEXT: result 7: !maxgraph.tensor<[11], f16>
// CHECK-NEXT: [0, 0.0999755859375, 0.199951171875, 0.300048828125, 0.39990234375, 0.5, 0.60009765625, 0.7001953125, 0.7998046875, 0.89990234375, 1]
// bf16 start 256 step 1: spacing 2 from 256, so 257 -> 256 (tie to even),
// 259 -> 260.
// CHECK-NEXT: result 8: !maxgraph.tensor<[4], bf16>
// CHECK-NEXT: [256, 256, 258, 260]
// Length 0.
// CHECK-NEXT: result 9: !maxgraph.tensor<[0], f32>
// CHECK-NEXT: []
// f32 start 2^24 step 1: 2^24, 2^24 + 1 (a tie, to even: 2^24), 2^24 + 2,
// 2^24 + 3 (a tie, to even: 2^24 + 4).
// CHECK-NEXT: result 10: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [16777216, 16777216, 16777218, 16777220]
maxgraph.graph @arange() -> (!maxgraph.tensor<[5], si64>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], ui8>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[3], si64>, !maxgraph.tensor<[11], f16>, !maxgraph.tensor<[4], bf16>, !maxgraph.tensor<[0], f32>, !maxgraph.tensor<[4], f32>) {
  %0 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[5], si64>
  %1 = maxgraph.arange start = -0.5 step = 0.25 : !maxgraph.tensor<[5], f32>
  %2 = maxgraph.arange start = 253 step = 1 : !maxgraph.tensor<[5], ui8>
  %3 = maxgraph.arange start = -2 step = 1 : !maxgraph.tensor<[3], ui8>
  %4 = maxgraph.arange start = 120 step = 5 : !maxgraph.tensor<[3], si8>
  %5 = maxgraph.arange start = 2147483647 step = 1 : !maxgraph.tensor<[2], si32>
  %6 = maxgraph.arange start = 9007199254740992 step = -9007199254740992 : !maxgraph.tensor<[3], si64>
  %7 = maxgraph.arange start = 0 step = 0.1 : !maxgraph.tensor<[11], f16>
  %8 = maxgraph.arange start = 256 step = 1 : !maxgraph.tensor<[4], bf16>
  %9 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[0], f32>
  %10 = maxgraph.arange start = 16777216 step = 1 : !maxgraph.tensor<[4], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : !maxgraph.tensor<[5], si64>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], ui8>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], si8>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[3], si64>, !maxgraph.tensor<[11], f16>, !maxgraph.tensor<[4], bf16>, !maxgraph.tensor<[0], f32>, !maxgraph.tensor<[4], f32>
}

// Symbolic and algebraic lengths, n = 3: [n] from 5 step -2 (counting
// down); [n * 2 - 1] from 0.
// SYMBOLIC: result 0: !maxgraph.tensor<[n], si64>
// SYMBOLIC-NEXT: [5, 3, 1]
// SYMBOLIC-NEXT: result 1: !maxgraph.tensor<[n * 2 - 1], si32>
// SYMBOLIC-NEXT: [0, 1, 2, 3, 4]
maxgraph.graph @symbolic<n>(%x: !maxgraph.tensor<[n], f32>) -> (!maxgraph.tensor<[n], si64>, !maxgraph.tensor<[n * 2 - 1], si32>) {
  %0 = maxgraph.arange start = 5 step = -2 : !maxgraph.tensor<[n], si64>
  %1 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[n * 2 - 1], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n], si64>, !maxgraph.tensor<[n * 2 - 1], si32>
}
