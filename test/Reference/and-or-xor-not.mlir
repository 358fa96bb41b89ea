// maxgraph.and, or, xor and not (docs/Spec.md, "maxgraph.and" ...
// "maxgraph.not"): logical on i1, bitwise on signed and unsigned integers.

// RUN: max-run %s --interpret --print | FileCheck %s

// i1: a = [T, T, F, F], b = [T, F, T, F].
// CHECK: result 0: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [True, False, False, False]
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [True, True, True, False]
// CHECK-NEXT: result 2: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [False, True, True, False]
// CHECK-NEXT: result 3: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [False, False, True, True]
// si8 (two's complement, bits shown as bytes):
//   c = [-1 = 0xFF, -128 = 0x80, -1 = 0xFF, 6 = 0x06]
//   d = [15 = 0x0F,    1 = 0x01, 85 = 0x55, -8 = 0xF8]
// and: 0x0F = 15, 0x00 = 0, 0x55 = 85, 0x00 = 0.
// CHECK-NEXT: result 4: !maxgraph.tensor<[4], si8>
// CHECK-NEXT: [15, 0, 85, 0]
// or: 0xFF = -1, 0x81 = -127, 0xFF = -1, 0xFE = -2.
// CHECK-NEXT: result 5: !maxgraph.tensor<[4], si8>
// CHECK-NEXT: [-1, -127, -1, -2]
// xor: 0xF0 = -16, 0x81 = -127, 0xAA = -86, 0xFE = -2.
// CHECK-NEXT: result 6: !maxgraph.tensor<[4], si8>
// CHECK-NEXT: [-16, -127, -86, -2]
// not x = -x - 1: ~(-1) = 0, ~(-128) = 127, ~(-1) = 0, ~6 = -7.
// CHECK-NEXT: result 7: !maxgraph.tensor<[4], si8>
// CHECK-NEXT: [0, 127, 0, -7]
// ui16: 0xF0F0 & 0x0FF0 = 0x00F0 = 240; 0x00FF | 0xFF00 = 65535;
// 65535 ^ 255 = 65280; not 0 = 65535, not 65535 = 0.
// CHECK-NEXT: result 8: !maxgraph.tensor<[3], ui16>
// CHECK-NEXT: [240, 65535, 65280]
// CHECK-NEXT: result 9: !maxgraph.tensor<[2], ui16>
// CHECK-NEXT: [65535, 0]
maxgraph.graph @bitwise() -> (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[3], ui16>, !maxgraph.tensor<[2], ui16>) {
  %a = maxgraph.constant dense<[true, true, false, false]> : !maxgraph.tensor<[4], i1>
  %b = maxgraph.constant dense<[true, false, true, false]> : !maxgraph.tensor<[4], i1>
  %0 = maxgraph.and %a, %b : !maxgraph.tensor<[4], i1>
  %1 = maxgraph.or %a, %b : !maxgraph.tensor<[4], i1>
  %2 = maxgraph.xor %a, %b : !maxgraph.tensor<[4], i1>
  %3 = maxgraph.not %a : !maxgraph.tensor<[4], i1>
  %c = maxgraph.constant dense<[-1, -128, -1, 6]> : !maxgraph.tensor<[4], si8>
  %d = maxgraph.constant dense<[15, 1, 85, -8]> : !maxgraph.tensor<[4], si8>
  %4 = maxgraph.and %c, %d : !maxgraph.tensor<[4], si8>
  %5 = maxgraph.or %c, %d : !maxgraph.tensor<[4], si8>
  %6 = maxgraph.xor %c, %d : !maxgraph.tensor<[4], si8>
  %7 = maxgraph.not %c : !maxgraph.tensor<[4], si8>
  %u = maxgraph.constant dense<[61680, 255, 65535]> : !maxgraph.tensor<[3], ui16>
  %v = maxgraph.constant dense<[4080, 65280, 255]> : !maxgraph.tensor<[3], ui16>
  %and = maxgraph.and %u, %v : !maxgraph.tensor<[3], ui16>
  %or = maxgraph.or %u, %v : !maxgraph.tensor<[3], ui16>
  %xor = maxgraph.xor %u, %v : !maxgraph.tensor<[3], ui16>
  %s0 = maxgraph.slice %and [0:1] : !maxgraph.tensor<[3], ui16> -> !maxgraph.tensor<[1], ui16>
  %s1 = maxgraph.slice %or [1:2] : !maxgraph.tensor<[3], ui16> -> !maxgraph.tensor<[1], ui16>
  %s2 = maxgraph.slice %xor [2:3] : !maxgraph.tensor<[3], ui16> -> !maxgraph.tensor<[1], ui16>
  %8 = maxgraph.concat %s0, %s1, %s2 axis = 0 : (!maxgraph.tensor<[1], ui16>, !maxgraph.tensor<[1], ui16>, !maxgraph.tensor<[1], ui16>) -> !maxgraph.tensor<[3], ui16>
  %w = maxgraph.constant dense<[0, 65535]> : !maxgraph.tensor<[2], ui16>
  %9 = maxgraph.not %w : !maxgraph.tensor<[2], ui16>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[3], ui16>, !maxgraph.tensor<[2], ui16>
}
