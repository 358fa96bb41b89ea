// Compiled execution of arange, pad and top_k against values worked out by
// hand; the interpreter runs the same inputs against the same CHECK lines.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/f.npy '<f4' 2,5 3 nan 1 3 -2 0 5 5 -1 nan
// RUN: %python %S/Inputs/npy.py write %t/i.npy '<i4' 3 4 -7 4
// RUN: max-run %s --graph=ops --input=%t/f.npy --input=%t/i.npy --print | FileCheck %s
// RUN: max-run %s --graph=ops --input=%t/f.npy --input=%t/i.npy --print --interpret | FileCheck %s

// arange: a symbolic length, a float step down, ui8 wrapping.
// CHECK: result 0: !maxgraph.tensor<[n], si64>
// CHECK-NEXT: [0, 1, 2]
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [1, 0.5, 0, -0.5]
// CHECK-NEXT: result 2: !maxgraph.tensor<[5], ui8>
// CHECK-NEXT: [253, 254, 255, 0, 1]
// pad: constant (NaN copied, not filled), on a symbolic dim, reflect, edge.
// CHECK-NEXT: result 3: !maxgraph.tensor<[4, 7], f32>
// CHECK-NEXT: {{\[\[}}7, 7, 7, 7, 7, 7, 7], [3, nan, 1, 3, -2, 7, 7], [0, 5, 5, -1, nan, 7, 7], [7, 7, 7, 7, 7, 7, 7]]
// CHECK-NEXT: result 4: !maxgraph.tensor<[n + 3], si32>
// CHECK-NEXT: [-1, -1, 4, -7, 4, -1]
// CHECK-NEXT: result 5: !maxgraph.tensor<[4, 8], f32>
// CHECK-NEXT: {{\[\[}}5, 5, 0, 5, 5, -1, nan, -1], [1, nan, 3, nan, 1, 3, -2, 3], [5, 5, 0, 5, 5, -1, nan, -1], [1, nan, 3, nan, 1, 3, -2, 3]]
// CHECK-NEXT: result 6: !maxgraph.tensor<[3, 5], f32>
// CHECK-NEXT: {{\[\[}}3, nan, 1, 3, -2], [0, 5, 5, -1, nan], [0, 5, 5, -1, nan]]
// top_k: NaN first, equal values by index, along either axis.
// CHECK-NEXT: result 7: !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: {{\[\[}}nan, 3, 3], [nan, 5, 5]]
// CHECK-NEXT: result 8: !maxgraph.tensor<[2, 3], si64>
// CHECK-NEXT: {{\[\[}}1, 0, 3], [4, 1, 2]]
// CHECK-NEXT: result 9: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [4, 4]
// CHECK-NEXT: result 10: !maxgraph.tensor<[2], si64>
// CHECK-NEXT: [0, 2]
// CHECK-NEXT: result 11: !maxgraph.tensor<[1, 5], f32>
// CHECK-NEXT: {{\[\[}}3, nan, 5, 3, nan]]
// CHECK-NEXT: result 12: !maxgraph.tensor<[1, 5], si64>
// CHECK-NEXT: {{\[\[}}0, 0, 1, 0, 1]]
maxgraph.graph @ops<n>(%f: !maxgraph.tensor<[2, 5], f32>, %i: !maxgraph.tensor<[n], si32>)
    -> (!maxgraph.tensor<[n], si64>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[5], ui8>,
        !maxgraph.tensor<[4, 7], f32>, !maxgraph.tensor<[n + 3], si32>, !maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[3, 5], f32>,
        !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[1, 5], f32>, !maxgraph.tensor<[1, 5], si64>) {
  %0 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[n], si64>
  %1 = maxgraph.arange start = 1 step = -0.5 : !maxgraph.tensor<[4], f32>
  %2 = maxgraph.arange start = 253 step = 1 : !maxgraph.tensor<[5], ui8>
  %3 = maxgraph.pad %f paddings = [1, 1, 0, 2] constant 7 : !maxgraph.tensor<[2, 5], f32> -> !maxgraph.tensor<[4, 7], f32>
  %4 = maxgraph.pad %i paddings = [2, 1] constant -1 : !maxgraph.tensor<[n], si32> -> !maxgraph.tensor<[n + 3], si32>
  %5 = maxgraph.pad %f paddings = [1, 1, 2, 1] reflect : !maxgraph.tensor<[2, 5], f32> -> !maxgraph.tensor<[4, 8], f32>
  %6 = maxgraph.pad %f paddings = [0, 1, 0, 0] edge : !maxgraph.tensor<[2, 5], f32> -> !maxgraph.tensor<[3, 5], f32>
  %7:2 = maxgraph.top_k %f k = 3 axis = 1 : !maxgraph.tensor<[2, 5], f32> -> !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], si64>
  %8:2 = maxgraph.top_k %i k = 2 axis = 0 : !maxgraph.tensor<[n], si32> -> !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si64>
  %9:2 = maxgraph.top_k %f k = 1 axis = 0 : !maxgraph.tensor<[2, 5], f32> -> !maxgraph.tensor<[1, 5], f32>, !maxgraph.tensor<[1, 5], si64>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7#0, %7#1, %8#0, %8#1, %9#0, %9#1 : !maxgraph.tensor<[n], si64>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[5], ui8>,
        !maxgraph.tensor<[4, 7], f32>, !maxgraph.tensor<[n + 3], si32>, !maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[3, 5], f32>,
        !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], si64>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[1, 5], f32>, !maxgraph.tensor<[1, 5], si64>
}

// top_k along a symbolic axis shorter than k at run time: the positions past
// it hold value 0 and index -1 (here all of them for an empty axis).
// RUN: %python %S/Inputs/npy.py write %t/s.npy '<f4' 2,2 1 -inf 2 -inf
// RUN: %python %S/Inputs/npy.py write %t/e.npy '<f4' 0,2
// RUN: max-run %s --graph=short --input=%t/s.npy --print | FileCheck %s --check-prefix=SHORT
// RUN: max-run %s --graph=short --input=%t/s.npy --print --interpret | FileCheck %s --check-prefix=SHORT
// RUN: max-run %s --graph=short --input=%t/e.npy --print | FileCheck %s --check-prefix=EMPTY
// RUN: max-run %s --graph=short --input=%t/e.npy --print --interpret | FileCheck %s --check-prefix=EMPTY
// SHORT: {{\[\[}}2, -inf], [1, -inf], [0, 0]]
// SHORT: {{\[\[}}1, 0], [0, 1], [-1, -1]]
// EMPTY: {{\[\[}}0, 0], [0, 0], [0, 0]]
// EMPTY: {{\[\[}}-1, -1], [-1, -1], [-1, -1]]
maxgraph.graph @short<n>(%i: !maxgraph.tensor<[n, 2], f32>) -> (!maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) {
  %0:2 = maxgraph.top_k %i k = 3 axis = 0 : !maxgraph.tensor<[n, 2], f32> -> !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>
  maxgraph.output %0#0, %0#1 : !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>
}

// arange up to a symbolic stop below its start: the length `n - 3` is
// negative, a run-time error of both sides.
// RUN: %python %S/Inputs/npy.py write %t/n1.npy '<f4' 1 0
// RUN: not max-run %s --graph=late_start --input=%t/n1.npy 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not max-run %s --graph=late_start --input=%t/n1.npy --interpret 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: dim `n - 3` is negative at run time
maxgraph.graph @late_start<n>(%x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n - 3], si64> {
  %0 = maxgraph.arange start = 3 step = 1 : !maxgraph.tensor<[n - 3], si64>
  maxgraph.output %0 : !maxgraph.tensor<[n - 3], si64>
}

// top_k with k above 8 (slot buffers rather than registers), on a symbolic
// axis longer and shorter than k.
// RUN: %python %S/Inputs/npy.py write %t/l.npy '<i4' 11 3 9 -2 9 0 7 7 1 -5 4 2
// RUN: %python %S/Inputs/npy.py write %t/l2.npy '<i4' 3 6 -1 6
// RUN: max-run %s --graph=long --input=%t/l.npy --print | FileCheck %s --check-prefix=LONG
// RUN: max-run %s --graph=long --input=%t/l.npy --print --interpret | FileCheck %s --check-prefix=LONG
// RUN: max-run %s --graph=long --input=%t/l2.npy --print | FileCheck %s --check-prefix=LONG2
// RUN: max-run %s --graph=long --input=%t/l2.npy --print --interpret | FileCheck %s --check-prefix=LONG2
// LONG: [9, 9, 7, 7, 4, 3, 2, 1, 0]
// LONG: [1, 3, 5, 6, 9, 0, 10, 7, 4]
// LONG2: [6, 6, -1, 0, 0, 0, 0, 0, 0]
// LONG2: [0, 2, 1, -1, -1, -1, -1, -1, -1]
maxgraph.graph @long<n>(%x: !maxgraph.tensor<[n], si32>) -> (!maxgraph.tensor<[9], si32>, !maxgraph.tensor<[9], si64>) {
  %0:2 = maxgraph.top_k %x k = 9 axis = 0 : !maxgraph.tensor<[n], si32> -> !maxgraph.tensor<[9], si32>, !maxgraph.tensor<[9], si64>
  maxgraph.output %0#0, %0#1 : !maxgraph.tensor<[9], si32>, !maxgraph.tensor<[9], si64>
}
