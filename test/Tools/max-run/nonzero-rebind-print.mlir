// maxgraph.nonzero, masked_scatter's composition, rebind and print, compiled
// and interpreted. Every expected value is worked out by hand from the
// inputs below.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 2,4 0 nan -0 3 0 0 -1 0
// RUN: %python %S/Inputs/npy.py write %t/zeros.npy '<f4' 2,4 0 0 0 0 0 0 0 0
// RUN: %python %S/Inputs/npy.py write %t/mask.npy '|b1' 4 1 0 0 1
// RUN: %python %S/Inputs/npy.py write %t/u4.npy '<f4' 4 10 20 30 40
// RUN: %python %S/Inputs/npy.py write %t/u3.npy '<f4' 3 10 20 30

// The coordinates of NaN at (0, 1), 3 at (0, 3) and -1 at (1, 2), row-major;
// -0 is zero. With no nonzero element the result has no rows.
// RUN: max-run %s --graph=coordinates --input=%t/x.npy --print | FileCheck %s --check-prefix=NONZERO
// RUN: max-run %s --graph=coordinates --input=%t/x.npy --print --interpret | FileCheck %s --check-prefix=NONZERO
// NONZERO: result 0: !maxgraph.tensor<[?, 2], si64>
// NONZERO-NEXT: {{\[\[}}0, 1], [0, 3], [1, 2]]
// RUN: max-run %s --graph=coordinates --input=%t/zeros.npy --print | FileCheck %s --check-prefix=NONE
// RUN: max-run %s --graph=coordinates --input=%t/zeros.npy --print --interpret | FileCheck %s --check-prefix=NONE
// NONE: result 0: !maxgraph.tensor<[?, 2], si64>
// NONE-NEXT: []
maxgraph.graph @coordinates(%x: !maxgraph.tensor<[2, 4], f32>) -> !maxgraph.tensor<[?, 2], si64> {
  %0 = maxgraph.nonzero %x : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[?, 2], si64>
  maxgraph.output %0 : !maxgraph.tensor<[?, 2], si64>
}

// masked_scatter as staging composes it: the mask [1, 0, 0, 1] broadcast to
// [2, 4] selects columns 0 and 3 of both rows, which take 10, 20, 30, 40 in
// row-major order. Three updates for four positions is scatter_nd's error.
// RUN: max-run %s --graph=masked --input=%t/x.npy --input=%t/mask.npy --input=%t/u4.npy --print | FileCheck %s --check-prefix=MASKED
// RUN: max-run %s --graph=masked --input=%t/x.npy --input=%t/mask.npy --input=%t/u4.npy --print --interpret | FileCheck %s --check-prefix=MASKED
// MASKED: result 0: !maxgraph.tensor<[2, 4], f32>
// MASKED-NEXT: {{\[\[}}10, nan, -0, 20], [30, 0, -1, 40]]
// RUN: not max-run %s --graph=masked --input=%t/x.npy --input=%t/mask.npy --input=%t/u3.npy --print 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: max-run: error: run @masked: {{.*}}nonzero-rebind-print.mlir:[[# @LINE + 7]]:8: maxgraph.scatter_nd: the updates' dims differ from the indices' and the input's
// COUNT-NOT: result
// RUN: not max-run %s --graph=masked --input=%t/x.npy --input=%t/mask.npy --input=%t/u3.npy --print --interpret 2>&1 | FileCheck %s --check-prefix=COUNT-INTERPRETED
// COUNT-INTERPRETED: max-run: error: interpret: maxgraph.scatter_nd:
maxgraph.graph @masked(%x: !maxgraph.tensor<[2, 4], f32>, %mask: !maxgraph.tensor<[4], i1>, %u: !maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[2, 4], f32> {
  %m = maxgraph.broadcast_to %mask : !maxgraph.tensor<[4], i1> -> !maxgraph.tensor<[2, 4], i1>
  %at = maxgraph.nonzero %m : !maxgraph.tensor<[2, 4], i1> -> !maxgraph.tensor<[?, 2], si64>
  %0 = maxgraph.scatter_nd none %x, %u, %at : (!maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[?], f32>, !maxgraph.tensor<[?, 2], si64>) -> !maxgraph.tensor<[2, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 4], f32>
}

// rebind asserts that the count is `n`, the size of %u: four updates for
// three nonzero elements fails with the message; three passes.
// RUN: max-run %s --graph=asserted --input=%t/x.npy --input=%t/u3.npy --print | FileCheck %s --check-prefix=ASSERTED
// RUN: max-run %s --graph=asserted --input=%t/x.npy --input=%t/u3.npy --print --interpret | FileCheck %s --check-prefix=ASSERTED
// ASSERTED: result 0: !maxgraph.tensor<[n, 2], si64>
// ASSERTED-NEXT: {{\[\[}}0, 1], [0, 3], [1, 2]]
// RUN: not max-run %s --graph=asserted --input=%t/x.npy --input=%t/u4.npy --print 2>&1 | FileCheck %s --check-prefix=REBIND
// REBIND: max-run: error: run @asserted: {{.*}}nonzero-rebind-print.mlir:[[# @LINE + 6]]:8: maxgraph.rebind: the input's sizes differ from the asserted dims 0 (`n`): one row per update
// REBIND-NOT: result
// RUN: not max-run %s --graph=asserted --input=%t/x.npy --input=%t/u4.npy --print --interpret 2>&1 | FileCheck %s --check-prefix=REBIND-INTERPRETED
// REBIND-INTERPRETED: max-run: error: interpret: maxgraph.rebind: dim 0 is 3 but the rebind asserts `n` (4): one row per update
maxgraph.graph @asserted<n>(%x: !maxgraph.tensor<[2, 4], f32>, %u: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n, 2], si64> {
  %at = maxgraph.nonzero %x : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[?, 2], si64>
  %0 = maxgraph.rebind %at {message = "one row per update"} : !maxgraph.tensor<[?, 2], si64> -> !maxgraph.tensor<[n, 2], si64>
  maxgraph.output %0 : !maxgraph.tensor<[n, 2], si64>
}

// print writes its line when it runs, before the results are printed, in
// the graph's order; compiled code prints through the runtime what the
// interpreter prints.
// RUN: max-run %s --graph=printed --input=%t/x.npy --print | FileCheck %s --check-prefix=PRINT
// RUN: max-run %s --graph=printed --input=%t/x.npy --print --interpret | FileCheck %s --check-prefix=PRINT
// PRINT: start
// PRINT-NEXT: x: f32[2, 4] {{\[\[}}0, NaN, -0, 3], [0, 0, -1, 0]]
// PRINT-NEXT: at: si64[3, 2] {{\[\[}}0, 1], [0, 3], [1, 2]]
// PRINT-NEXT: flag: i1[] true
// PRINT-NEXT: result 0: !maxgraph.tensor<[2, 4], f32>
maxgraph.graph @printed(%x: !maxgraph.tensor<[2, 4], f32>) -> !maxgraph.tensor<[2, 4], f32> {
  maxgraph.print "start"
  maxgraph.print "x" %x : !maxgraph.tensor<[2, 4], f32>
  %at = maxgraph.nonzero %x : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[?, 2], si64>
  maxgraph.print "at" %at : !maxgraph.tensor<[?, 2], si64>
  %flag = maxgraph.constant dense<true> : !maxgraph.tensor<[], i1>
  maxgraph.print "flag" %flag : !maxgraph.tensor<[], i1>
  maxgraph.output %x : !maxgraph.tensor<[2, 4], f32>
}
