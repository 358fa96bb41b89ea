// maxgraph.gather (docs/Spec.md, "maxgraph.gather"): result dims
// input[:axis] + indices + input[axis+1:], negative indices from the end,
// signed and unsigned index types, rank-0 and empty indices, and the
// run-time error for an index outside [-n, n).

// RUN: max-run %s --interpret --print --graph=gather | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=too_high 2>&1 | FileCheck %s --check-prefix=HIGH
// RUN: not max-run %s --interpret --print --graph=too_low 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not max-run %s --interpret --print --graph=unsigned_high 2>&1 | FileCheck %s --check-prefix=UNSIGNED

// x = [[0, 1], [2, 3], [4, 5], [6, 7]] (shape [4, 2])
// axis 0, indices [3, -1, 0, -4] (-1 -> 3, -4 -> 0): rows 3, 3, 0, 0.
// CHECK: result 0: !maxgraph.tensor<[4, 2], f32>
// CHECK-NEXT: {{\[\[}}6, 7], [6, 7], [0, 1], [0, 1]]
// axis 1, indices [[1, 0]] (shape [1, 2]): result [4, 1, 2],
// result[o, 0, j] = x[o, idx[j]]: each row swapped.
// CHECK-NEXT: result 1: !maxgraph.tensor<[4, 1, 2], f32>
// CHECK-NEXT: {{\[\[\[}}1, 0]], {{\[\[}}3, 2]], {{\[\[}}5, 4]], {{\[\[}}7, 6]]]
// A rank-0 index drops the axis: x[2] = [4, 5].
// CHECK-NEXT: result 2: !maxgraph.tensor<[2], f32>
// CHECK-NEXT: [4, 5]
// ui8 indices [3, 0] along axis -2 (= 0).
// CHECK-NEXT: result 3: !maxgraph.tensor<[2, 2], f32>
// CHECK-NEXT: {{\[\[}}6, 7], [0, 1]]
// No indices: an empty result, no range check needed (also on an empty axis).
// CHECK-NEXT: result 4: !maxgraph.tensor<[0, 2], f32>
// CHECK-NEXT: {{\[\[\]\]}}
// CHECK-NEXT: result 5: !maxgraph.tensor<[0], si32>
// CHECK-NEXT: []
// Bits are copied: -nan and -0 picked from [1, -nan, -0] by [1, 2, 1].
// CHECK-NEXT: result 6: !maxgraph.tensor<[3], f32>
// CHECK-NEXT: [-nan, -0, -nan]
// A middle axis: t[i][j][k] = 6i + 2j + k (shape [2, 3, 2]), indices
// [[2, 0]] along axis 1: result [2, 1, 2, 2], result[i, 0, j] = t[i, idx[j]]:
// i = 0: [4, 5], [0, 1]; i = 1: [10, 11], [6, 7].
// CHECK-NEXT: result 7: !maxgraph.tensor<[2, 1, 2, 2], si64>
// CHECK-NEXT: {{\[\[\[\[}}4, 5], [0, 1]]], {{\[\[\[}}10, 11], [6, 7]]]]
maxgraph.graph @gather() -> (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 1, 2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[0, 2], f32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 1, 2, 2], si64>) {
  %r = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[8], f32>
  %x = maxgraph.reshape %r : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[4, 2], f32>
  %i0 = maxgraph.constant dense<[3, -1, 0, -4]> : !maxgraph.tensor<[4], si64>
  %0 = maxgraph.gather %x, %i0 axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4], si64>) -> !maxgraph.tensor<[4, 2], f32>
  %i1 = maxgraph.constant dense<[[1, 0]]> : !maxgraph.tensor<[1, 2], si32>
  %1 = maxgraph.gather %x, %i1 axis = 1 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[1, 2], si32>) -> !maxgraph.tensor<[4, 1, 2], f32>
  %i2 = maxgraph.constant dense<2> : !maxgraph.tensor<[], si8>
  %2 = maxgraph.gather %x, %i2 axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[], si8>) -> !maxgraph.tensor<[2], f32>
  %i3 = maxgraph.constant dense<[3, 0]> : !maxgraph.tensor<[2], ui8>
  %3 = maxgraph.gather %x, %i3 axis = -2 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2], ui8>) -> !maxgraph.tensor<[2, 2], f32>
  %i4 = maxgraph.constant dense<> : !maxgraph.tensor<[0], si64>
  %4 = maxgraph.gather %x, %i4 axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[0], si64>) -> !maxgraph.tensor<[0, 2], f32>
  %e = maxgraph.constant dense<> : !maxgraph.tensor<[0], si32>
  %5 = maxgraph.gather %e, %i4 axis = 0 : (!maxgraph.tensor<[0], si32>, !maxgraph.tensor<[0], si64>) -> !maxgraph.tensor<[0], si32>
  %n = maxgraph.constant dense<[1.0, 0xFFC00000, -0.0]> : !maxgraph.tensor<[3], f32>
  %i6 = maxgraph.constant dense<[1, 2, 1]> : !maxgraph.tensor<[3], ui32>
  %6 = maxgraph.gather %n, %i6 axis = 0 : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], ui32>) -> !maxgraph.tensor<[3], f32>
  %tr = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[12], si64>
  %t = maxgraph.reshape %tr : !maxgraph.tensor<[12], si64> -> !maxgraph.tensor<[2, 3, 2], si64>
  %i7 = maxgraph.constant dense<[[2, 0]]> : !maxgraph.tensor<[1, 2], si16>
  %7 = maxgraph.gather %t, %i7 axis = 1 : (!maxgraph.tensor<[2, 3, 2], si64>, !maxgraph.tensor<[1, 2], si16>) -> !maxgraph.tensor<[2, 1, 2, 2], si64>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7 : !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 1, 2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[0, 2], f32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 1, 2, 2], si64>
}

// Indices outside [-4, 4) of an axis of size 4 are errors of the call.
// HIGH: max-run: error: interpret: maxgraph.gather: index 4 is out of range for axis 0 of size 4
// HIGH-NOT: result
maxgraph.graph @too_high() -> !maxgraph.tensor<[2], si32> {
  %x = maxgraph.constant dense<[10, 11, 12, 13]> : !maxgraph.tensor<[4], si32>
  %i = maxgraph.constant dense<[0, 4]> : !maxgraph.tensor<[2], si64>
  %0 = maxgraph.gather %x, %i axis = 0 : (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[2], si64>) -> !maxgraph.tensor<[2], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2], si32>
}
// LOW: max-run: error: interpret: maxgraph.gather: index -5 is out of range for axis 1 of size 4
// LOW-NOT: result
maxgraph.graph @too_low() -> !maxgraph.tensor<[1, 1], si32> {
  %x = maxgraph.constant dense<[[10, 11, 12, 13]]> : !maxgraph.tensor<[1, 4], si32>
  %i = maxgraph.constant dense<[-5]> : !maxgraph.tensor<[1], si8>
  %0 = maxgraph.gather %x, %i axis = 1 : (!maxgraph.tensor<[1, 4], si32>, !maxgraph.tensor<[1], si8>) -> !maxgraph.tensor<[1, 1], si32>
  maxgraph.output %0 : !maxgraph.tensor<[1, 1], si32>
}
// Unsigned indices are in [0, n): ui8 255 is not -1.
// UNSIGNED: max-run: error: interpret: maxgraph.gather: index 255 is out of range for axis 0 of size 4
// UNSIGNED-NOT: result
maxgraph.graph @unsigned_high() -> !maxgraph.tensor<[1], si32> {
  %x = maxgraph.constant dense<[10, 11, 12, 13]> : !maxgraph.tensor<[4], si32>
  %i = maxgraph.constant dense<[255]> : !maxgraph.tensor<[1], ui8>
  %0 = maxgraph.gather %x, %i axis = 0 : (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[1], ui8>) -> !maxgraph.tensor<[1], si32>
  maxgraph.output %0 : !maxgraph.tensor<[1], si32>
}
