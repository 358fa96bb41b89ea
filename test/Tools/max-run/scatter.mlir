// maxgraph.scatter and scatter_nd, compiled and interpreted. Every expected
// value is worked out by hand from the inputs below.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 4,2 1 2 3 4 5 6 7 8
// RUN: %python %S/Inputs/npy.py write %t/u.npy '<f4' 3,2 10 20 30 40 50 60
// RUN: %python %S/Inputs/npy.py write %t/i.npy '<i8' 3,2 0 3 0 -1 2 1
// RUN: %python %S/Inputs/npy.py write %t/bad.npy '<i8' 3,2 0 3 0 4 2 1
// RUN: %python %S/Inputs/npy.py write %t/rows.npy '<f4' 2,2 100 200 300 400
// RUN: %python %S/Inputs/npy.py write %t/at.npy '<i8' 2,1 2 -4
// RUN: %python %S/Inputs/npy.py write %t/at2.npy '<i8' 2,1 2 2
// RUN: %python %S/Inputs/npy.py write %t/points.npy '<i4' 3,2 0 1 3 0 0 1
// RUN: %python %S/Inputs/npy.py write %t/vals.npy '<f4' 3 0.5 -1 2

// Updates go in row-major order: index -1 is row 3, and row 0 column 0
// gets 10 then 30, so `none` keeps 30 and `add` makes 1 + 10 + 30 = 41;
// `max` keeps the larger, `mul` multiplies in both.
// RUN: max-run %s --graph=elements --input=%t/x.npy --input=%t/u.npy --input=%t/i.npy --print | FileCheck %s --check-prefix=ELEMENTS
// RUN: max-run %s --graph=elements --input=%t/x.npy --input=%t/u.npy --input=%t/i.npy --print --interpret | FileCheck %s --check-prefix=ELEMENTS
// ELEMENTS: result 0: !maxgraph.tensor<[4, 2], f32>
// ELEMENTS-NEXT: {{\[\[}}30, 2], [3, 60], [50, 6], [7, 40]]
// ELEMENTS-NEXT: result 1: !maxgraph.tensor<[4, 2], f32>
// ELEMENTS-NEXT: {{\[\[}}41, 2], [3, 64], [55, 6], [7, 68]]
// ELEMENTS-NEXT: result 2: !maxgraph.tensor<[4, 2], f32>
// ELEMENTS-NEXT: {{\[\[}}30, 2], [3, 60], [50, 6], [7, 40]]
// ELEMENTS-NEXT: result 3: !maxgraph.tensor<[4, 2], f32>
// ELEMENTS-NEXT: {{\[\[}}300, 2], [3, 240], [250, 6], [7, 6400]]

// Rows at 2 and -4 (row 0); rows at 2 twice: `none` keeps the second,
// `add` adds both. Points (0, 1), (3, 0), (0, 1): `add` gives 2 + 0.5 + 2
// at (0, 1) and 7 - 1 at (3, 0).
// RUN: max-run %s --graph=slices --input=%t/x.npy --input=%t/rows.npy --input=%t/at.npy --input=%t/at2.npy --input=%t/points.npy --input=%t/vals.npy --print | FileCheck %s --check-prefix=SLICES
// RUN: max-run %s --graph=slices --input=%t/x.npy --input=%t/rows.npy --input=%t/at.npy --input=%t/at2.npy --input=%t/points.npy --input=%t/vals.npy --print --interpret | FileCheck %s --check-prefix=SLICES
// SLICES: result 0: !maxgraph.tensor<[4, 2], f32>
// SLICES-NEXT: {{\[\[}}300, 400], [3, 4], [100, 200], [7, 8]]
// SLICES-NEXT: result 1: !maxgraph.tensor<[4, 2], f32>
// SLICES-NEXT: {{\[\[}}1, 2], [3, 4], [300, 400], [7, 8]]
// SLICES-NEXT: result 2: !maxgraph.tensor<[4, 2], f32>
// SLICES-NEXT: {{\[\[}}1, 2], [3, 4], [405, 606], [7, 8]]
// SLICES-NEXT: result 3: !maxgraph.tensor<[4, 2], f32>
// SLICES-NEXT: {{\[\[}}1, 4.5], [3, 4], [5, 6], [6, 8]]

// Index 4 of an axis of 4 is a run-time error, naming the op's line.
// RUN: not max-run %s --graph=elements --input=%t/x.npy --input=%t/u.npy --input=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not max-run %s --graph=elements --input=%t/x.npy --input=%t/u.npy --input=%t/bad.npy --interpret 2>&1 | FileCheck %s --check-prefix=BAD-INTERPRETED
// BAD: max-run: error: run @elements: {{.*}}scatter.mlir:[[# @LINE + 4]]:8: maxgraph.scatter: an index is out of range of the axis
// BAD-INTERPRETED: max-run: error: interpret: maxgraph.scatter: index 4 is out of range for dim 0 of size 4
maxgraph.graph @elements(%x: !maxgraph.tensor<[4, 2], f32>, %u: !maxgraph.tensor<[3, 2], f32>, %i: !maxgraph.tensor<[3, 2], si64>)
    -> (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>) {
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[4, 2], f32>
  %1 = maxgraph.scatter add %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[4, 2], f32>
  %2 = maxgraph.scatter max %x, %u, %i axis = -2 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[4, 2], f32>
  %3 = maxgraph.scatter mul %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>
}

maxgraph.graph @slices(%x: !maxgraph.tensor<[4, 2], f32>, %rows: !maxgraph.tensor<[2, 2], f32>, %at: !maxgraph.tensor<[2, 1], si64>, %at2: !maxgraph.tensor<[2, 1], si64>,
    %points: !maxgraph.tensor<[3, 2], si32>, %vals: !maxgraph.tensor<[3], f32>)
    -> (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>) {
  %0 = maxgraph.scatter_nd none %x, %rows, %at : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 1], si64>) -> !maxgraph.tensor<[4, 2], f32>
  %1 = maxgraph.scatter_nd none %x, %rows, %at2 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 1], si64>) -> !maxgraph.tensor<[4, 2], f32>
  %2 = maxgraph.scatter_nd add %x, %rows, %at2 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 1], si64>) -> !maxgraph.tensor<[4, 2], f32>
  %3 = maxgraph.scatter_nd add %x, %vals, %points : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3, 2], si32>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 2], f32>
}
